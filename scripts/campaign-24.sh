#!/usr/bin/env bash
# The 24-puzzle campaign of issue #31: Korf & Felner's instances that no committed results
# directory has solved yet, each under the heuristic expected to finish it first, continued from
# its checkpoint (`--resume`) in every session until solved.
#
#   scripts/campaign-24.sh            (from a checkout of its own, e.g. a git worktree: the runs
#                                      write results/ there; copy what they finish into main)
#
# BIN (default target/release/tilebench, a clean build) runs everything; TILEBENCH_PDB_DIR is
# the table cache (the tables are built on the first run, about 10 minutes and 12 GB of disk).
# Start it in the background so that it outlives the shell:
#   setsid nohup nice -n 19 scripts/campaign-24.sh > campaign.log 2>&1 < /dev/null &
# Stop it with `pkill -f scripts/campaign-24.sh; pkill -f 'tilebench run'`: the search in progress
# keeps its last checkpoint (every 300 s), which `--resume` continues.
#
# Which heuristic per instance (docs/performance.md, "Nodes against wall time"): the max of four
# reflected partitions (H1, results/korf50-24-max-fsm) costs about 3.9x pdb-6666r's time per node,
# so it is the faster choice only where it saves more than about 7x pdb-6666r's parent-pruned
# count; from clausecker's 6-6-6-6 column that holds for the instances in MAX_IDS, and pdb-6666r
# with `--pruning fsm` (results/korf50-24-fsm) should finish those in FSM_IDS first. Cheapest
# expected first, so that every session banks what it can.
set -u
BIN="${BIN:-target/release/tilebench}"
SET=instances/korf50-24.txt
H1='max(pdb-6666r,pdbr:1.2.5.6.7.10.11/3.4.8.9.12.13.14/15.16.20.21.22/17.18.19.23.24,pdbr:12.13.14.18.19.23.24/11.15.16.17.20.21.22/1.2.5.6.10/3.4.7.8.9,pdbr:1.2.5.6.7.10.11/12.13.14.18.19.23.24/15.16.17.20.21.22/3.4.8.9)'
ORDER="24 23 15 48 34 17 12 21 18 9 33 14 10 11 50"
MAX_IDS=" 24 48 34 12 21 18 9 33 "

"$BIN" pdb build pdb-6666r --goal blank-first || exit 1
for P in 1,2,5,6,7,10,11/3,4,8,9,12,13,14/15,16,20,21,22/17,18,19,23,24 \
  12,13,14,18,19,23,24/11,15,16,17,20,21,22/1,2,5,6,10/3,4,7,8,9 \
  1,2,5,6,7,10,11/12,13,14,18,19,23,24/15,16,17,20,21,22/3,4,8,9; do
  "$BIN" pdb build pdbr --size 5x5 --goal blank-first --partition "$P" || exit 1
done

# Whether some committed results directory has a solved row for instance $1.
solved() {
  cat results/korf50-24*/runs.csv 2>/dev/null |
    awk -F, -v id="$1" '$1 == "korf50-24" && $2 == id && $0 ~ /,solved,/ { found = 1 } END { exit !found }'
}

for ID in $ORDER; do
  if solved "$ID"; then
    continue
  fi
  if [[ "$MAX_IDS" == *" $ID "* ]]; then
    H="$H1" OUT=results/korf50-24-max-fsm
  else
    H=pdb-6666r OUT=results/korf50-24-fsm
  fi
  echo "=== $(date -u +%FT%TZ) instance $ID into $OUT"
  "$BIN" run --instances "$SET" -H "$H" --pruning fsm --search-threads 2 --jobs 1 \
    --checkpoint-every 300 --only-ids "$ID" --no-build --resume --retry time-limit --out "$OUT"
  echo "=== $(date -u +%FT%TZ) instance $ID exit $?"
done
