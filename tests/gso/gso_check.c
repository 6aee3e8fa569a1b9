/* gso_check.c - the Check runner of the GSO tests (see gso_util.h). */
#include <check.h>
#include <stdlib.h>

#include "gso_util.h"

int gu_run(struct Suite *s)
{
	SRunner *sr = srunner_create(s);
	int nf;
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
