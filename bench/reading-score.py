#!/usr/bin/env python3
"""Score `gsd roadmap --json` against the hand labels in tests/reading-labels/.

Each label (one JSON per corpus tree, made by a helper who read the files and
never ran gsd) gives the current milestone, its phases and their completion,
the phase to work on, and plans done/total. A tree is right when all four
agree. The corpus is split once by a fixed rule: the first hex digit of
sha256(folder name) is 0-9 for the tuning part, a-f for the held-out part.
Held-out trees are scored but their per-tree answers are only shown with
--show-holdout (look at them only to measure, at the end).

    python3 bench/reading-score.py [--gsd PATH] [--corpus DIR] [--show-holdout]

Trees from outside the corpus (a batch of never-seen trees, one label per
tree, no split): every tree is scored and shown.

    python3 bench/reading-score.py --trees DIR --labels DIR
"""
import argparse, hashlib, json, os, re, subprocess, sys

def part(name):
    return "holdout" if hashlib.sha256(name.encode()).hexdigest()[0] in "abcdef" else "tune"

def num(n):
    if n is None:
        return None
    s = str(n).strip()
    m = re.match(r"^0*(\d.*)$", s)
    s = m.group(1) if m else s
    return s.lower()

def ver(v):
    """A milestone identifier as compared: `Milestone 3` and `M3` are one."""
    if v is None:
        return None
    s = str(v).strip().lower()
    return "m" + s[len("milestone "):] if s.startswith("milestone ") else s

def gsd_reading(gsd, tree, ws):
    cmd = [gsd, "-C", tree, "roadmap", "--json"]
    if ws:
        cmd += ["--ws", ws]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1:] if p.stderr else []
    return json.loads(p.stdout), None

def score(label, r):
    """The components that disagree (empty: right)."""
    wrong = []
    if r is None:
        r = {"milestones": [], "phases": [], "current_phase": None, "next_phase": None,
             "total_plans": 0, "total_summaries": 0}
    cur = [m for m in r.get("milestones", []) if m.get("current")]
    lm = label.get("current_milestone")
    if isinstance(lm, str):
        # A label that names the milestone as the roadmap writes it ("v1.1",
        # "Milestone 1", "M1"): it is the version, or the title's words.
        lm = {"version": lm, "title": lm}
    if lm is None:
        if cur:
            wrong.append(f"milestone: gsd {cur[0].get('version')} {cur[0].get('title')!r}, label none")
    else:
        if not cur:
            wrong.append(f"milestone: gsd none, label {lm.get('version')} {lm.get('title')!r}")
        else:
            g = cur[0]
            same_ver = lm.get("version") and ver(g.get("version")) == ver(lm.get("version"))
            t1, t2 = (g.get("title") or "").lower(), (lm.get("title") or "").lower()
            same_title = t2 and (t2 in t1 or t1 in t2)
            by_title = not lm.get("version") or lm.get("version") == lm.get("title")
            if not (same_ver or (by_title and same_title)):
                wrong.append(f"milestone: gsd {g.get('version')} {g.get('title')!r}, label {lm.get('version')} {lm.get('title')!r}")
    # Phases of the current milestone (or the whole roadmap): gsd marks them active.
    gp = [(num(p["number"]), p.get("status") == "complete") for p in r.get("phases", [])
          if p.get("active") and not p.get("backlog")]
    lp = [(num(p["number"]), bool(p["complete"])) for p in label.get("phases", [])]
    if sorted(gp) != sorted(lp):
        gd, ld = dict(gp), dict(lp)
        diff = []
        for n in sorted(set(gd) | set(ld), key=lambda x: (len(x), x)):
            if gd.get(n) != ld.get(n):
                diff.append(f"{n}: gsd {gd.get(n, '-')} label {ld.get(n, '-')}")
        wrong.append("phases: " + "; ".join(diff[:8]))
    pos = r.get("current_phase") or r.get("next_phase")
    if num(pos) != num(label.get("position")):
        wrong.append(f"position: gsd {pos}, label {label.get('position')}")
    plans = (r.get("total_summaries", 0), r.get("total_plans", 0))
    if plans != (label.get("plans_done", 0), label.get("plans_total", 0)):
        wrong.append(f"plans: gsd {plans[0]}/{plans[1]}, label {label.get('plans_done')}/{label.get('plans_total')}")
    return wrong

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsd", default=os.path.join(here, "..", "target", "debug", "gsd"), help="the gsd binary (default: the debug build the tests use)")
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    ap.add_argument("--show-holdout", action="store_true")
    ap.add_argument("--trees", help="a folder of OWNER+NAME/.planning trees outside the corpus")
    ap.add_argument("--labels", help="their labels (with --trees)")
    a = ap.parse_args()
    if a.trees or a.labels:
        if not (a.trees and a.labels):
            ap.error("--trees and --labels go together")
        ok = n = 0
        for f in sorted(os.listdir(a.labels)):
            if not f.endswith(".json"):
                continue
            label = json.load(open(os.path.join(a.labels, f)))
            r, err = gsd_reading(a.gsd, os.path.join(a.trees, label["tree"]), label.get("workstream"))
            wrong = score(label, r)
            n += 1
            ok += not wrong
            if wrong:
                print(f"{label['tree']}: " + (f"[gsd failed: {err}] " if err else "") + " | ".join(wrong))
        print(f"{ok}/{n} trees right on all of milestone, phases, position, plans"
              + (f" ({100 * ok / n:.0f}%)" if n else ""))
        return
    labels_dir = os.path.join(here, "..", "tests", "reading-labels")
    figures = {"tune": [0, 0], "holdout": [0, 0]}
    for sub in ("tune", "holdout"):
        d = os.path.join(labels_dir, sub)
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            label = json.load(open(os.path.join(d, f)))
            name = label["tree"]
            assert part(name) == sub, f"{name} is filed under {sub} but the rule puts it in {part(name)}"
            r, err = gsd_reading(a.gsd, os.path.join(a.corpus, name), label.get("workstream"))
            wrong = score(label, r)
            figures[sub][1] += 1
            figures[sub][0] += not wrong
            if wrong and (sub == "tune" or a.show_holdout):
                print(f"{sub} {name}: " + (f"[gsd failed: {err}] " if err else "") + " | ".join(wrong))
    for sub, (ok, n) in figures.items():
        print(f"{sub}: {ok}/{n} trees right on all of milestone, phases, position, plans"
              + (f" ({100 * ok / n:.0f}%)" if n else ""))

if __name__ == "__main__":
    main()
