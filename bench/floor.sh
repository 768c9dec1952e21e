#!/usr/bin/env bash
# How close `gsd lint` is to the floor on this machine: a C program that only
# starts, or only lists and reads every file of the 40-phase tree once (no
# parsing), timed beside `gsd --version` and `gsd lint` with hyperfine.
# Needs: cc, python3, hyperfine, ../shared. Usage: bench/floor.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-40}"
SHARED="${SHARED:-../shared}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cargo build --release --quiet
GSD="$PWD/target/release/gsd"
cc -O2 -o "$WORK/floor" bench/floor.c
tree="$WORK/big-40"
python3 "$SHARED/spec/gsd-fixture/make-big.py" "$tree" 40 >/dev/null
(cd "$tree" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm fixture)
hyperfine -N -i -w 3 -r "$RUNS" --export-json "$WORK/f.json" \
  -n "C: process start only" "$WORK/floor $tree/.planning --start-only" \
  -n "C: list and read every file" "$WORK/floor $tree/.planning" \
  -n "gsd --version" "$GSD --version" \
  -n "gsd lint --format json" "$GSD -C $tree lint --format json" >/dev/null
python3 - "$WORK/f.json" <<'PY'
import json, sys
print("| call (40 phases, 420 files) | median |")
print("|---|---:|")
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"| {r['command']} | {r['median'] * 1000:.2f} ms |")
PY
