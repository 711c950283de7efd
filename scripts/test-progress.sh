#!/usr/bin/env bash
# The filter ./baton test runs Maven's output through: Maven's output goes on to stdout unchanged (./baton test
# writes it to target/test.log); stderr gets a line per module as it starts (with the seconds since the start), each
# module's test totals, every failure in full (its stack trace, and Maven's summary of failures), and Maven's errors.
# It reads stdin to its end and exits 0: the build's status is Maven's. BatonTestOutputTest feeds it a recorded log.
set -uo pipefail

test_progress() {
  # Maven's advice after "-> [Help 1]" (re-run with -e, ...) is left to the log
  local start=$SECONDS line kind="" detail="" downloading="" helped=""
  while IFS= read -r line; do
    printf '%s\n' "$line"
    if [ -n "$detail" ]; then
      case "$line" in
        "" | "[INFO]"* | "[WARNING]"* | "[ERROR]"*) detail="" ;;
        *) printf '%s\n' "$line" >&2; continue ;;
      esac
    fi
    case "$line" in
      "[INFO] Building "*"["*/*"]")
        local step="${line##*[}" name="${line#\[INFO\] Building }"
        name="${name%% [0-9]*}"
        printf 'baton: %-8s %-34s %4d s\n' "[$step" "$name" $((SECONDS - start)) >&2
        ;;
      *"--- surefire:"*) kind="unit tests" ;;
      *"--- failsafe:"*":integration-test"*) kind="integration tests" ;;
      *"<<< FAILURE!"* | *"<<< ERROR!"*)
        printf '%s\n' "$line" >&2
        detail=1
        ;;
      "["*"] Tests run: "*", Skipped: "[0-9]*)
        case "$line" in
          *" -- in "*) ;;
          *) printf 'baton:          %-18s %s\n' "$kind" "${line#*\] }" >&2 ;;
        esac
        ;;
      *"-> [Help 1]") printf '%s\n' "$line" >&2; helped=1 ;;
      "[ERROR]"* | "[FATAL]"*) [ -n "$helped" ] || printf '%s\n' "$line" >&2 ;;
      *"Downloading from"*)
        if [ -z "$downloading" ]; then
          downloading=1
          echo "baton: downloading dependencies from Maven Central (once)..." >&2
        fi
        ;;
    esac
  done
}


test_progress
