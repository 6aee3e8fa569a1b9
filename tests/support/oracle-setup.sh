# oracle-setup.sh - the start that tests/kernel/make-fixtures.sh and
# tests/gso/make-fixtures.sh share; sourced (POSIX sh) with here (the
# script's directory), oracle_name (kernel-gro, kernel-gso) and oracle (the
# environment's path to it, or empty) set.  Sets src (the repository),
# oracle (default: ../shared/tools/kernel-oracle/<oracle_name> beside the
# repository), cc and tmp (a directory removed on exit); exits 1 when not
# root or when the oracle is missing.
src=$(cd "$here/../.." && pwd)
[ -n "$oracle" ] || oracle=$src/../shared/tools/kernel-oracle/$oracle_name
cc=${CC:-cc}

if [ "$(id -u)" != 0 ]; then
	echo "make-fixtures.sh: needs root (network namespaces)" >&2
	exit 1
fi
[ -x "$oracle" ] || { echo "make-fixtures.sh: no $oracle_name at $oracle" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
