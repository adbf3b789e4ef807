#!/bin/bash
# A shell for make (make SHELL=scripts/timed-shell.sh, as .ci/run does) that runs each recipe
# line as bash would, then appends to the file $TIMED_SHELL_LOG a line of four tab-separated
# fields: the CPU seconds the line used (user and system, its children's included), its wall
# seconds, its exit status and its first 100 characters. So CI can say which lines its time
# went to: `sort -rn` the file.
start=$EPOCHREALTIME
/bin/bash "$@"
status=$?
if [[ -n ${TIMED_SHELL_LOG:-} ]]; then
  # `times` prints the shell's own times, then its children's, as "1m2.345s 0m0.010s".
  cpu_file=$(mktemp)
  times > "$cpu_file"
  cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } }
             END { printf "%.1f", s }' "$cpu_file")
  rm -f "$cpu_file"
  wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  line=${*: -1}
  line=${line//[$'\t\n']/ }
  printf '%s\t%s\t%s\t%s\n' "$cpu" "$wall" "$status" "${line:0:100}" >> "$TIMED_SHELL_LOG"
fi
exit $status
