#!/usr/bin/env bash
# Inputs that once took time quadratic in their size (issue 28), each at
# three sizes, timed once with /usr/bin/time (wall seconds, peak KB):
#   - a plan of N unclosed `<task>` lines: `plan list`, `lint`, `graph`;
#   - N tasks on one line of a plan (4,000 is a 56 KB line): human `lint`;
#   - make-big.py's tree of N phases of one plan each (a roadmap checklist
#     of N phases, thousands of findings on it): human `lint`, `roadmap`.
# Needs python3, ../shared (the fixture) and GNU time.
# Usage: bench/quadratic.sh [gsd binary]   (default: a fresh release build)
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${SHARED:-../shared}"
FIXTURE="$SHARED/spec/gsd-fixture"
if [ $# -ge 1 ]; then GSD="$1"; else
  cargo build --release --quiet
  GSD="$PWD/target/release/gsd"
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# A copy of the fixture tree in $WORK/$1.
tree() {
  mkdir -p "$WORK/$1"
  cp -r "$FIXTURE/.planning" "$WORK/$1/"
  echo "$WORK/$1"
}

# time LABEL ARGS…: one run, output thrown away, exit 0 or 1 accepted.
timed() {
  local label="$1"; shift
  /usr/bin/time -o "$WORK/time" -f '%e s, %M KB' "$GSD" "$@" > /dev/null 2>&1 || true
  printf '| %s | %s |\n' "$label" "$(tail -1 "$WORK/time")"
}

echo "| case | time, peak memory |"
echo "|---|---|"
for n in 10000 20000 40000; do
  d="$(tree "unclosed-$n")"
  plan="$d/.planning/phases/01-foundation/01-01-PLAN.md"
  python3 - "$plan" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
text = open(path).read()
open(path, "w").write(text + '<task type="auto">\n' * n)
PY
  timed "$n unclosed \`<task>\`: plan list" -C "$d" plan list
  timed "$n unclosed \`<task>\`: lint" -C "$d" --color never lint
  timed "$n unclosed \`<task>\`: lint --format json" -C "$d" lint --format json
  timed "$n unclosed \`<task>\`: graph" -C "$d" graph
done
for n in 4000 8000 16000; do
  d="$(tree "one-line-$n")"
  plan="$d/.planning/phases/01-foundation/01-01-PLAN.md"
  python3 - "$plan" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
text = open(path).read()
open(path, "w").write(text + '<task>x</task>' * n + "\n")
PY
  timed "$n tasks on one $(( 14 * n / 1000 )) KB line: lint" -C "$d" --color never lint
done
for n in 2500 5000 10000; do
  d="$WORK/big-$n"
  python3 "$FIXTURE/make-big.py" "$d" "$n" 1 > /dev/null
  timed "$n phases (make-big.py $n 1): lint" -C "$d" --color never lint
  timed "$n phases (make-big.py $n 1): roadmap --json" -C "$d" roadmap --json
done
