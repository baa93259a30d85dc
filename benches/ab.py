#!/usr/bin/env python3
"""Side by side: the minimal C IDA* (../shared/bench/ida_manhattan.c) and one or more tilebench
builds on Korf's #1 with Manhattan, alternating C, A, B, ... per round so that machine drift
cancels; prints each build's median time and its median per-round ratio C-time / build-time
(above 1 = faster than C). Usage, from the project root:
    python3 benches/ab.py ROUNDS BIN_A [BIN_B ...]
e.g. the build of the last commit against this one (copy each target/release/tilebench aside)."""
import json, statistics, subprocess, sys, time

BOARD = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".split()
rounds, bins = int(sys.argv[1]), sys.argv[2:]
subprocess.run(["gcc", "-O3", "-march=native", "-o", "/tmp/tilebench-ida-ref",
                "../shared/bench/ida_manhattan.c"], check=True)


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


times = {b: [] for b in ["C"] + bins}
for _ in range(rounds):
    times["C"].append(timed(["/tmp/tilebench-ida-ref"] + BOARD)[0])
    for b in bins:
        t, out = timed([b, "solve", "--format", "json", "-H", "manhattan",
                        "--goal", "blank-first", " ".join(BOARD)])
        assert json.loads(out)["nodes_generated"] == 276361932, out
        times[b].append(t)
for b, v in times.items():
    print(f"{b}: median {statistics.median(v):.3f} s ({' '.join(f'{x:.2f}' for x in v)})")
for b in bins:
    ratio = statistics.median(c / t for c, t in zip(times["C"], times[b]))
    print(f"{b}: median per-round ratio C / build {ratio:.3f}")
