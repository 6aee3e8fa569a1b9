#!/usr/bin/env bash
# Write the ABI baseline (abi/libofl.so.<SOVERSION>.abi) that CI's ABI stage
# (.ci/abi.sh) checks every later tree against.  A deliberate act: run it at
# a release (from the tagged tree) or with an intended ABI break that comes
# with a new SOVERSION, and say so in the commit; never to quiet a failing
# ABI stage.  The rules are in the header of .ci/abi.sh.
#
#   scripts/abi-baseline.sh [WORK_DIR]
exec "$(dirname "$0")/../.ci/abi.sh" --update-baseline "$@"
