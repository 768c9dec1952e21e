#!/usr/bin/env bash
# What the checks of real plans are: classifies every check of every plan of
# the corpus (src/ralph/checks.rs, as `gsd plan ID --start-ralph` does) and
# prints the table — plans with only commands, with no commands, mixed, with
# no checks; checks by kind; and what gsd does with each kind.
#
# The classifier is given no PATH and the corpus holds no project files, so
# the figures are the same on every machine: a program counts as a command
# here only as a shell builtin, a known dev tool or a path (`./x.sh`). On a
# real project, PATH and the project's own scripts can only add commands.
#
# Usage: bench/check-kinds.sh [corpus folder] [checks.jsonl]
#   corpus folder  default ../shared/corpus (134 trees of real .planning/)
#   checks.jsonl   also write every check, one JSON object a line (tree,
#                  plan, source, kind, text, probe, why), for sampling
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="$(cd "${1:-../shared/corpus}" && pwd)"
OUT="${2:-}"
if [ -n "$OUT" ]; then
  OUT="$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")"
  export GSD_CHECK_KINDS_OUT="$OUT"
fi
# GSD_CORPUS turns the corpus test on (build.rs sets the `gsd_corpus` cfg).
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
if ! GSD_CORPUS="$CORPUS" cargo test --quiet --test check_kinds corpus_check_kinds -- --nocapture >"$LOG" 2>&1; then
  cat "$LOG" >&2
  exit 1
fi
sed -n '/^corpus:/,/^test result/p' "$LOG" | grep -v -e '^\.$' -e '^test result'
if [ -n "$OUT" ]; then
  echo
  echo "every check: $OUT ($(wc -l <"$OUT") lines)"
fi
