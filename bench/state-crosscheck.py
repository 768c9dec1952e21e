#!/usr/bin/env python3
"""Cross-check gsd's reading against what GSD's own tools wrote into STATE.md.

Needs no labels. For every corpus tree (every workstream of a workstream
tree) with a STATE.md, compare `gsd roadmap --json` with STATE.md's
frontmatter `progress:` (completed/total plans, completed/total phases,
written by gsd-tools on every state update) and its position (`Phase:` /
`current_phase`). Every disagreement is one of:

  explained  gsd lint reports it with its evidence (a finding on STATE.md or
             ROADMAP.md that names the drift: STATE behind the disk, a stale
             position, a progress table that disagrees);
  unexplained  neither: a reading bug, or drift lint does not report.

    python3 bench/state-crosscheck.py [--gsd PATH] [--corpus DIR] [-v]
"""
import argparse, json, os, subprocess

DRIFT_CODES = {
    "state-progress-stale", "state-position-stale", "state-plan-count-mismatch",
    "state-progress-invalid", "state-unknown-phase", "state-phase-complete-status",
    "roadmap-progress-mismatch", "roadmap-complete-but-unfinished",
}

def run(gsd, tree, args, ws=None):
    cmd = [gsd, "-C", tree] + (["--ws", ws] if ws else []) + args
    p = subprocess.run(cmd, capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode in (0, 1) and p.stdout.strip() else None

def num(s):
    s = str(s).strip().lstrip("0") or "0"
    return s.split(" ")[0].lower()

def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--gsd", default=os.path.join(here, "..", "target", "debug", "gsd"))
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    counts = {"trees": 0, "agree": 0, "explained": 0, "unexplained": 0}
    by_code = {}
    for name in sorted(os.listdir(a.corpus)):
        tree = os.path.join(a.corpus, name)
        pl = os.path.join(tree, ".planning")
        if not os.path.isdir(pl):
            continue
        wsdir = os.path.join(pl, "workstreams")
        tracks = [None]
        if os.path.isdir(wsdir):
            tracks += sorted(w for w in os.listdir(wsdir) if os.path.isdir(os.path.join(wsdir, w)))
        for ws in tracks:
            base = os.path.join(wsdir, ws) if ws else pl
            if not os.path.isfile(os.path.join(base, "STATE.md")):
                continue
            st = run(a.gsd, tree, ["state", "--json"], ws)
            rd = run(a.gsd, tree, ["roadmap", "--json"], ws)
            if st is None or rd is None:
                continue
            fm = st.get("frontmatter") or {}
            prog = fm.get("progress") if isinstance(fm, dict) else None
            diffs = []
            if isinstance(prog, dict) and rd.get("current_milestone") is not None or (isinstance(prog, dict) and not rd.get("milestones")):
                want = (prog.get("completed_plans"), prog.get("total_plans"))
                got = (rd["total_summaries"], rd["total_plans"])
                if None not in want and tuple(map(int, want)) != got:
                    diffs.append(f"plans: STATE {want[0]}/{want[1]}, gsd {got[0]}/{got[1]}")
            pos = st.get("current_phase")
            if isinstance(pos, dict):
                pos = pos.get("phase")
            gpos = rd.get("current_phase") or rd.get("next_phase")
            if pos is not None and gpos is not None and num(pos) != num(gpos):
                diffs.append(f"position: STATE {pos}, gsd {gpos}")
            counts["trees"] += 1
            if not diffs:
                counts["agree"] += 1
                continue
            lint = run(a.gsd, tree, ["lint", "--format", "json"], ws) or {"diagnostics": []}
            found = sorted({d["code"] for d in lint["diagnostics"] if d["code"] in DRIFT_CODES})
            kind = "explained" if found else "unexplained"
            counts[kind] += 1
            for c in found:
                by_code[c] = by_code.get(c, 0) + 1
            if a.v or kind == "unexplained":
                print(f"{kind:11} {name}{'@' + ws if ws else ''}: {'; '.join(diffs)}" + (f"  [{', '.join(found)}]" if found else ""))
    print(json.dumps(counts))
    print("explaining findings (tracks):", json.dumps(dict(sorted(by_code.items(), key=lambda kv: -kv[1]))))

main()
