#!/bin/bash
# Stage "boot-quick": the quick guest of a revision and of the base
# (make boot QUICK=1): ci/boot.sh --quick.
#
# usage: boot-quick.sh REV
exec "$(dirname "$0")/boot.sh" --quick "$@"
