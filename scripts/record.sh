#!/usr/bin/env bash
# The results of a test stage (mk/check.mk): FILE holds a line per check, "passed: WHAT" or
# "skipped: WHAT (needs TOOL)", which summary.sh counts; a skip is printed as well.
#
# usage: record.sh begin FILE              (forget what an earlier run recorded)
#        record.sh passed FILE WHAT
#        record.sh skipped FILE WHAT TOOL
set -euo pipefail
[ $# -lt 2 ] || mkdir -p "$(dirname "$2")"
case ${1-}/$# in
  begin/2) : > "$2" ;;
  passed/3) echo "passed: $3" >> "$2" ;;
  skipped/4) echo "skipped: $3 (needs $4)" | tee -a "$2" ;;
  *) echo "usage: $0 begin FILE | passed FILE WHAT | skipped FILE WHAT TOOL" >&2; exit 2 ;;
esac
