#!/usr/bin/env bash
# Record what every read command prints on every tree, so a change that must
# not change any output (a faster model, a refactor) can be proved to keep
# them byte for byte: record with the binary before the change, record with
# the one after, and diff the two folders.
#
#   bench/output-diff.sh record GSD OUT [TREES...]   # one file per command×tree
#   bench/output-diff.sh compare OLD_GSD NEW_GSD [TREES...]
#   bench/output-diff.sh check GSD [HASHES]          # CI: the outputs' hashes
#   bench/output-diff.sh hashes GSD > HASHES         #   and how to renew them
#
# `check` runs only the CI_COMMANDS (the calls that read the whole model)
# and compares their SHA-256 with bench/output-hashes.txt, so CI needs no
# second binary; after a change meant to change an output, renew the file
# with `hashes` and review the outputs that differ with `compare`.
#
# TREES default to every tree of ../shared/corpus (GSD_CORPUS) and every
# fixture with a .planning/ folder. Each output file holds the exit code,
# stdout and stderr of one call.
set -euo pipefail
cd "$(dirname "$0")/.."

# The read commands, one per line (arguments after `gsd -C TREE --color never`).
COMMANDS=(
  "lint --format json"
  "lint"
  "lint --format github"
  "lint --format sarif"
  "roadmap --json"
  "roadmap"
  "roadmap --explain"
  "state --json"
  "state"
  "plan list --json"
  "plan list"
  "phase list --json"
  "phase list"
  "workstream --json"
  "graph --format json"
  "graph"
  "sdk query roadmap.analyze --no-fallback"
  "sdk query state.load --no-fallback"
  "sdk query state-snapshot --no-fallback"
  "sdk query progress.json --no-fallback"
  "sdk query phases.list --no-fallback"
  "sdk query roadmap.get-phase 1 --no-fallback"
  "sdk query find-phase 1 --no-fallback"
)

# The CI subset: the whole model (lint reads every file) and the roadmap.
CI_COMMANDS=(
  "lint --format json"
  "roadmap --json"
)

default_trees() {
  local corpus="${GSD_CORPUS:-../shared/corpus}"
  if [ -d "$corpus" ]; then
    find "$corpus" -mindepth 1 -maxdepth 1 -type d | sort
  fi
  find fixtures -mindepth 2 -maxdepth 4 -name .planning -type d | sed 's|/.planning$||' | sort
}

# record GSD OUT TREES...: one file per command and tree in OUT.
record() {
  local gsd="$1" out="$2"; shift 2
  mkdir -p "$out"
  local tree cmd name i
  for tree in "$@"; do
    name="$(basename "$tree")"
    [ "$(dirname "$tree")" = "fixtures/sdk-parity" ] && name="sdk-parity+$name"
    i=0
    for cmd in "${COMMANDS[@]}"; do
      i=$((i + 1))
      # shellcheck disable=SC2086 # the command is split into its words on purpose
      {
        local rc=0
        (cd "$tree" && NO_COLOR=1 GSD_SDK_FALLBACK=off "$gsd" --color never $cmd >"$out/.stdout" 2>"$out/.stderr") || rc=$?
        printf '$ gsd %s\nexit %s\n--- stdout\n' "$cmd" "$rc"
        cat "$out/.stdout"
        printf '\n--- stderr\n'
        cat "$out/.stderr"
      } >"$out/$name.$(printf %02d "$i")"
    done
  done
  rm -f "$out/.stdout" "$out/.stderr"
}

# hashes GSD TREES...: "sha256  name" of each CI_COMMANDS output, sorted.
hashes() {
  local gsd="$1"; shift
  local work; work="$(mktemp -d)"
  COMMANDS=("${CI_COMMANDS[@]}")
  record "$gsd" "$work" "$@"
  (cd "$work" && sha256sum -- * | sort -k2)
  rm -rf "$work"
}

mode="${1:-}"
case "$mode" in
  hashes)
    [ $# -ge 2 ] || { echo "usage: $0 hashes GSD" >&2; exit 2; }
    gsd="$(realpath "$2")"
    mapfile -t trees < <(default_trees)
    hashes "$gsd" "${trees[@]}"
    ;;
  check)
    [ $# -ge 2 ] || { echo "usage: $0 check GSD [HASHES]" >&2; exit 2; }
    gsd="$(realpath "$2")" want="${3:-bench/output-hashes.txt}"
    mapfile -t trees < <(default_trees)
    got="$(hashes "$gsd" "${trees[@]}")"
    # Without the corpus (no ../shared), only the fixtures' lines are checked.
    if [ -d "${GSD_CORPUS:-../shared/corpus}" ]; then
      expected="$(cat "$want")"
    else
      expected="$(grep -F -f <(printf '%s\n' "$got" | awk '{print "  " $2}') "$want" || true)"
    fi
    if ! diff <(printf '%s\n' "$expected") <(printf '%s\n' "$got"); then
      echo "error: outputs changed (< expected, > now); see bench/output-diff.sh for how to review and renew" >&2
      exit 1
    fi
    echo "$(printf '%s\n' "$got" | wc -l) outputs as recorded in $want" >&2
    ;;
  record)
    [ $# -ge 3 ] || { echo "usage: $0 record GSD OUT [TREES...]" >&2; exit 2; }
    gsd="$(realpath "$2")" out="$3"; shift 3
    if [ $# -eq 0 ]; then mapfile -t trees < <(default_trees); else trees=("$@"); fi
    record "$gsd" "$out" "${trees[@]}"
    echo "recorded $(( ${#trees[@]} * ${#COMMANDS[@]} )) outputs (${#trees[@]} trees × ${#COMMANDS[@]} commands) in $out" >&2
    ;;
  compare)
    [ $# -ge 3 ] || { echo "usage: $0 compare OLD_GSD NEW_GSD [TREES...]" >&2; exit 2; }
    old="$(realpath "$2")" new="$(realpath "$3")"; shift 3
    if [ $# -eq 0 ]; then mapfile -t trees < <(default_trees); else trees=("$@"); fi
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    record "$old" "$work/old" "${trees[@]}"
    record "$new" "$work/new" "${trees[@]}"
    total=$(( ${#trees[@]} * ${#COMMANDS[@]} ))
    differ=$(diff -rq "$work/old" "$work/new" | wc -l || true)
    diff -rq "$work/old" "$work/new" | sed "s|.*/old/|differs: |; s| and .*||" || true
    diff -r "$work/old" "$work/new" | head -200 || true
    echo "compared $total outputs (${#trees[@]} trees × ${#COMMANDS[@]} commands): $differ differ" >&2
    [ "$differ" -eq 0 ]
    ;;
  *)
    echo "usage: $0 record GSD OUT [TREES...] | compare OLD_GSD NEW_GSD [TREES...] | check GSD [HASHES] | hashes GSD" >&2
    exit 2
    ;;
esac
