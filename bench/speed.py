#!/usr/bin/env python3
"""Time and peak memory of gsd's read commands against gsd-tools', side by side.

Each call is a fresh process; its wall time is the median of RUNS runs and its
peak RSS is the largest of them (from wait4's rusage for that very process, so
nothing else on the machine is counted). Prints two Markdown tables: the
comparison at each tree size (and the largest corpus tree), and the curve of
`gsd lint` at 100, 1,000, 3,000 and 10,000 phases.

Usage: bench/speed.py GSD GSD_TOOLS_CJS [--runs N] [--sizes 40,1000,10000]
                      [--curve 100,1000,3000,10000] [--corpus DIR] [--work DIR]
                      [--before OLD_GSD]
GSD is the release binary (--before adds columns for an older one); GSD_TOOLS_CJS is get-shit-done/bin/gsd-tools.cjs
of npm get-shit-done-cc (`bash .ci/gsd-sdk` prints the package folder).
Trees come from ../shared/spec/gsd-fixture/make-big.py (6 plans a phase) and
are kept in --work for the next run.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("SHARED", os.path.join(HERE, "..", "..", "shared"))


def measure(argv, cwd, runs):
    """Median wall seconds and peak RSS (KB) of `argv` over `runs` runs."""
    times, peak = [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - t0)
        peak = max(peak, usage.ru_maxrss)
    return statistics.median(times), peak


def make_tree(work, phases):
    tree = os.path.join(work, f"big-{phases}")
    if not os.path.isdir(os.path.join(tree, ".planning")):
        subprocess.run([sys.executable, os.path.join(SHARED, "spec/gsd-fixture/make-big.py"), tree, str(phases)],
                       check=True, stdout=subprocess.DEVNULL)
        git = ["git", "-C", tree, "-c", "user.email=b@b", "-c", "user.name=b"]
        subprocess.run(git[:3] + ["init", "-q"], check=True)
        subprocess.run(git[:3] + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "fixture"], check=True)
    return tree


def fmt_time(s):
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def fmt_mem(kb):
    return f"{kb / 1024:.0f} MB" if kb >= 10 * 1024 else f"{kb / 1024:.1f} MB"


def runs_for(files, runs):
    # Big trees take seconds a call: fewer runs, same median idea.
    return runs if files < 5000 else max(1, min(runs, 3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gsd")
    ap.add_argument("tools")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--sizes", default="40,1000,10000")
    ap.add_argument("--curve", default="100,1000,3000,10000")
    ap.add_argument("--corpus", default=os.environ.get("GSD_CORPUS", os.path.join(SHARED, "corpus")))
    ap.add_argument("--work", default="/tmp/gsd-bench")
    ap.add_argument("--before", help="an older gsd binary, measured in the same run")
    a = ap.parse_args()
    gsd, tools = os.path.abspath(a.gsd), os.path.abspath(a.tools)
    os.makedirs(a.work, exist_ok=True)

    trees = [(f"{n:,} phases", make_tree(a.work, n)) for n in map(int, a.sizes.split(",")) if n]
    if os.path.isdir(a.corpus):
        sized = []
        for d in os.listdir(a.corpus):
            p = os.path.join(a.corpus, d, ".planning")
            if os.path.isdir(p):
                sized.append((sum(len(f) for _, _, f in os.walk(p)), d))
        if sized:
            files, name = max(sized)
            trees.append((f"corpus {name} ({files} files)", os.path.join(a.corpus, name)))

    # (gsd call, gsd-tools call it answers like) — lint stands for both validations.
    pairs = [
        ("lint --format json", "validate consistency"),
        ("lint --format json", "validate health"),
        ("roadmap --json", "roadmap analyze"),
        ("sdk query roadmap.analyze --no-fallback", "roadmap analyze"),
        ("state --json", "state load"),
    ]
    old = os.path.abspath(a.before) if a.before else None
    before_head = "| gsd before: time | peak RSS " if old else ""
    print(f"| tree | gsd call {before_head}| gsd time | gsd peak RSS | gsd-tools call | gsd-tools time | gsd-tools peak RSS | gsd-tools time / gsd time |")
    print("|---|---" + ("|---:|---:" if old else "") + "|---:|---:|---|---:|---:|---:|")
    for label, tree in trees:
        files = sum(len(f) for _, _, f in os.walk(os.path.join(tree, ".planning")))
        runs = runs_for(files, a.runs)
        ours_cache, theirs_cache, before_cache = {}, {}, {}
        for ours, theirs in pairs:
            if ours not in ours_cache:
                ours_cache[ours] = measure([gsd, "-C", tree] + ours.split(), tree, runs)
                if old:
                    before_cache[ours] = measure([old, "-C", tree] + ours.split(), tree, runs)
            if theirs not in theirs_cache:
                theirs_cache[theirs] = measure(["node", tools] + theirs.split() + ["--cwd", tree], tree, runs)
            (gt, gm), (tt, tm) = ours_cache[ours], theirs_cache[theirs]
            before = ""
            if old:
                bt, bm = before_cache[ours]
                before = f"| {fmt_time(bt)} | {fmt_mem(bm)} "
            print(f"| {label} | `gsd {ours}` {before}| {fmt_time(gt)} | {fmt_mem(gm)} | `{theirs}` | {fmt_time(tt)} | "
                  f"{fmt_mem(tm)} | {tt / gt:.1f}× |", flush=True)

    if a.curve:
        print()
        before_head = "| before: time | peak RSS " if old else ""
        print(f"| phases | files {before_head}| `gsd lint --format json` time | peak RSS | time per 1,000 files |")
        print("|---:|---:" + ("|---:|---:" if old else "") + "|---:|---:|---:|")
        for n in map(int, a.curve.split(",")):
            tree = make_tree(a.work, n)
            files = sum(len(f) for _, _, f in os.walk(os.path.join(tree, ".planning")))
            t, m = measure([gsd, "-C", tree, "lint", "--format", "json"], tree, runs_for(files, a.runs))
            before = ""
            if old:
                bt, bm = measure([old, "-C", tree, "lint", "--format", "json"], tree, runs_for(files, a.runs))
                before = f"| {fmt_time(bt)} | {fmt_mem(bm)} "
            print(f"| {n:,} | {files:,} {before}| {fmt_time(t)} | {fmt_mem(m)} | {t / files * 1000 * 1000:.1f} ms |", flush=True)


if __name__ == "__main__":
    main()
