/* replay_main.c - `offload-replay gso` on its own, for the tests until the
 * replay tool's command table carries it (tests/gso.cmake). */
#include "gso_cmd.h"

int main(int argc, char **argv)
{
	return replay_gso_main(argc - 1, argv + 1);
}
