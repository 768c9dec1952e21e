#!/usr/bin/env bash
# Benchmark `gsd ralph hook stop` against the official ralph-loop plugin's
# stop-hook.sh (bash + jq + perl) on the same input, in two cases:
#   no loop  — the hook fires on every stop of every session;
#   loop     — an active loop whose final text must be read from a 100 MB
#              transcript (no last_assistant_message in the input).
# The plugin's script is not vendored: pass STOP_HOOK_SH=path, or it is
# downloaded from anthropics/claude-plugins-official at a pinned commit.
# (hyperfine's shell runs both commands, so each pays the same spawn cost,
# which hyperfine subtracts.)
# Needs: hyperfine, jq, perl, python3. Usage: bench/hook.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-20}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
PIN=2181cf4c954db00a9e0d0ddacbb624da7ed1d4bf
if [ -z "${STOP_HOOK_SH:-}" ]; then
  STOP_HOOK_SH="$WORK/stop-hook.sh"
  curl -fsSL "https://raw.githubusercontent.com/anthropics/claude-plugins-official/$PIN/plugins/ralph-loop/hooks/stop-hook.sh" -o "$STOP_HOOK_SH"
fi

cargo build --release --quiet
GSD="$PWD/target/release/gsd"

# One project for each tool; both start with no loop.
ours="$WORK/ours"; theirs="$WORK/theirs"
mkdir -p "$ours" "$theirs"
cp -r fixtures/clean/. "$ours/"
(cd "$ours" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm fixture)

# A 100 MB transcript whose last assistant text block is the final text.
transcript="$WORK/transcript.jsonl"
python3 - "$transcript" <<'PY'
import json, sys
line = json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [
    {"type": "text", "text": "working " + "x" * 900}]}}, separators=(",", ":")) + "\n"
with open(sys.argv[1], "w") as f:
    for _ in range(100 * 1024 * 1024 // len(line)):
        f.write(line)
    f.write(json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "text", "text": "Still going, tests next."}]}}, separators=(",", ":")) + "\n")
PY
input="$WORK/input.json"
printf '{"session_id":"S","hook_event_name":"Stop","stop_hook_active":false,"transcript_path":"%s"}' "$transcript" > "$input"

results="$WORK/results.md"
run() { # name, prepare for stop-hook.sh, prepare for gsd
  hyperfine -i -w 2 -r "$RUNS" --export-json "$WORK/h.json" \
    --prepare "$2" -n "stop-hook.sh" "cd $theirs && bash $STOP_HOOK_SH < $input" >/dev/null
  cp "$WORK/h.json" "$WORK/theirs.json"
  hyperfine -i -w 2 -r "$RUNS" --export-json "$WORK/h.json" \
    --prepare "$3" -n "gsd" "$GSD -C $ours ralph hook stop < $input" >/dev/null
  python3 - "$WORK/theirs.json" "$WORK/h.json" "$1" >> "$results" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["results"][0]["median"] * 1000
g = json.load(open(sys.argv[2]))["results"][0]["median"] * 1000
print(f"| {sys.argv[3]} | {t:.1f} ms | {g:.2f} ms | {t/g:.0f}× |")
PY
}

run "no loop" "true" "true"

# Start both loops; keep copies of their state to restore before each run
# (every call counts an iteration, and gsd would call the same text stuck).
(cd "$ours" && "$GSD" plan 01-01 --start-ralph --max-iterations 100000 --check true >/dev/null)
cp "$ours/.gsd/ralph/loop.json" "$WORK/loop.json"
mkdir -p "$theirs/.claude"
printf -- '---\nactive: true\niteration: 1\nsession_id: S\nmax_iterations: 100000\ncompletion_promise: "DONE"\nstarted_at: "2026-01-01T00:00:00Z"\n---\n\nWork through plan 01-01.\n' > "$WORK/ralph-loop.local.md"
run "loop, 100 MB transcript" \
  "cp $WORK/ralph-loop.local.md $theirs/.claude/ralph-loop.local.md" \
  "cp $WORK/loop.json $ours/.gsd/ralph/loop.json"

# Both must have answered "block" on the loop case, or the timing means nothing.
cp "$WORK/ralph-loop.local.md" "$theirs/.claude/ralph-loop.local.md"
cp "$WORK/loop.json" "$ours/.gsd/ralph/loop.json"
(cd "$theirs" && bash "$STOP_HOOK_SH" < "$input") | grep -q '"decision": "block"'
"$GSD" -C "$ours" ralph hook stop < "$input" | grep -q '"decision":"block"'

{
  echo "| case | stop-hook.sh | gsd ralph hook stop | ratio |"
  echo "|---|---|---|---|"
  cat "$results"
} | tee "$WORK/table.md"
