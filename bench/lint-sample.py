#!/usr/bin/env python3
"""A seeded sample of gsd's error and warning findings on a folder of trees,
for a judge who did not write the rules (tests/corpus-review.md's method).

Every error and warning `gsd lint --format json` reports on each tree is
keyed `TREE FILE:LINE CODE`; the sample is the N findings whose sha256 of
that key is smallest, so it does not depend on the order of trees or on who
draws it. Prints one Markdown row per finding, with an empty verdict column.

    python3 bench/lint-sample.py --trees DIR [--n 60] [--gsd PATH]
"""
import argparse, hashlib, json, os, subprocess

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--trees", required=True, help="a folder of OWNER+NAME/.planning trees")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--gsd", default=os.path.join(here, "..", "target", "debug", "gsd"))
    a = ap.parse_args()
    found = []
    total = 0
    for tree in sorted(os.listdir(a.trees)):
        root = os.path.join(a.trees, tree)
        if not os.path.isdir(os.path.join(root, ".planning")):
            continue
        p = subprocess.run([a.gsd, "-C", root, "lint", "--format", "json"], capture_output=True, text=True)
        for d in json.loads(p.stdout)["diagnostics"]:
            if d["severity"] not in ("error", "warning"):
                continue
            total += 1
            key = f"{tree} {d['file']}:{d.get('line') or 0} {d['code']}"
            found.append((hashlib.sha256(key.encode()).hexdigest(), key, d))
    # Two findings may share a key (one line, one rule, two messages).
    found.sort(key=lambda f: (f[0], f[1], f[2]["message"]))
    print(f"<!-- {min(a.n, len(found))} of {total} error and warning findings, smallest sha256 of `TREE FILE:LINE CODE` -->")
    print("| finding | severity | message | verdict | why |")
    print("|---|---|---|---|---|")
    for _, key, d in found[: a.n]:
        msg = d["message"].replace("|", "\\|")
        print(f"| `{key}` | {d['severity']} | {msg} | | |")

if __name__ == "__main__":
    main()
