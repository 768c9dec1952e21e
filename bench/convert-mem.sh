#!/usr/bin/env bash
# Peak memory and time of `gsd convert` on a generated ~50 MB plan (94,000
# tasks with real-world markup: `Vec<u8>`, `a < b && c > d`, numbered steps,
# <automated> checks), into every target format. The goal is a peak at most
# 3x the input (150 MB). Needs /usr/bin/time (Debian package `time`).
# Usage: bench/convert-mem.sh [size-in-MB]
set -euo pipefail
cd "$(dirname "$0")/.."
MB="${1:-50}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
cargo build --release --quiet
GSD="$PWD/target/release/gsd"
PLAN="$WORK/PLAN.md"
python3 - "$PLAN" "$MB" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
task = '''<task type="auto">
  <name>Task {i}: implement the thing number {i}</name>
  <files>src/module_{i}.rs, tests/module_{i}.rs</files>
  <action>
  Implement `fn handler_{i}(x: Vec<u8>) -> Result<(), Error>` where a < b && c > d.
  1. Add the parser for record {i}
  2. Wire it into the dispatcher and keep the error path covered
  3. Document the edge cases in the module docs, including empty input
  </action>
  <verify><automated>cargo test module_{i}</automated></verify>
  <done>Module {i} parses records and the tests pass</done>
</task>
'''
with open(path, 'w') as f:
    f.write('---\nphase: 01-big\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: true\nmust_haves:\n  truths: [x]\n---\n\n<tasks>\n')
    size, i = 0, 0
    while size < mb * 1024 * 1024:
        t = task.format(i=i); f.write(t); size += len(t); i += 1
    f.write('</tasks>\n')
PY
IN=$(stat -c %s "$PLAN")
echo "input: $((IN / 1024 / 1024)) MB"
echo "| target | peak RSS | peak / input | time |"
echo "|---|---:|---:|---:|"
for to in msw-json gsd-xml feature-list tasks-md prd-json spec-md; do
  /usr/bin/time -v "$GSD" convert "$PLAN" --to "$to" >"$WORK/out" 2>"$WORK/time"
  kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$WORK/time")
  t=$(awk -F': ' '/Elapsed/ {print $2}' "$WORK/time")
  python3 -c "print(f'| $to | {$kb/1024:.0f} MB | {$kb*1024/$IN:.2f}x | $t |')"
done
