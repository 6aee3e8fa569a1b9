#!/bin/sh
# inputs_missing.sh EXE... - run each test program with its inputs gone
# (OFL_CORPORA and OFL_SOURCE_DIR pointing at a directory that does not
# exist) and require that it fails: exit status neither 0 (passed) nor 77
# (skipped).  Registered as the ctest test inputs_missing_fail by
# tests/inputs.cmake.
nowhere=/nonexistent/ofl-inputs-missing
bad=0
for exe in "$@"; do
  OFL_CORPORA=$nowhere OFL_SOURCE_DIR=$nowhere "$exe" >/dev/null 2>&1
  rc=$?
  name=$(basename "$exe")
  case $rc in
    0)  echo "PASSED without its inputs: $name"; bad=1 ;;
    77) echo "SKIPPED without its inputs: $name"; bad=1 ;;
    *)  echo "fails without its inputs (exit $rc): $name" ;;
  esac
done
[ $# -gt 0 ] || { echo "no test programs given"; exit 1; }
exit $bad
