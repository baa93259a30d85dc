#!/usr/bin/env python3
"""Side by side: tilebench builds on all of Korf's 100 with pdb-78r, alternating A, B, ... per
round so that machine drift cancels; each round runs `tilebench run --instances
instances/korf100.txt -H pdb-78r --jobs 1 --no-history` into a scratch directory and sums the
`seconds` of its runs.csv (search time, the table load left out). Prints each round, each build's
median and the per-round ratio of each build to the first. The tables come from
$TILEBENCH_PDB_DIR (build them once first: `tilebench pdb build pdb-78r --goal blank-first`).
Usage, from the project root:
    python3 benches/ab-pdb78.py ROUNDS BIN_A [BIN_B ...]"""
import csv, os, shutil, statistics, subprocess, sys, tempfile

rounds, bins = int(sys.argv[1]), sys.argv[2:]
out = os.path.join(tempfile.mkdtemp(prefix="ab-pdb78-"), "out")
seconds = {b: [] for b in bins}
for r in range(rounds):
    for b in bins:
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([b, "run", "--instances", "instances/korf100.txt", "-H", "pdb-78r",
                        "--jobs", "1", "--no-history", "--out", out],
                       check=True, capture_output=True)
        rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
        generated = sum(int(x["generated"]) for x in rows)
        seconds[b].append(sum(float(x["seconds"]) for x in rows))
        print(f"round {r + 1}: {b} {generated} generated, {seconds[b][-1]:.3f} s", flush=True)
for b in bins:
    print(f"{b}: median {statistics.median(seconds[b]):.3f} s")
for b in bins[1:]:
    ratios = [x / y for x, y in zip(seconds[b], seconds[bins[0]])]
    print(f"{b} / {bins[0]} per round: {' '.join(f'{x:.3f}' for x in ratios)}; "
          f"median {statistics.median(ratios):.3f}")
