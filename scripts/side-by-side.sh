#!/usr/bin/env bash
# side-by-side.sh - this checkout against another commit, alternating runs on one machine, for
# the search time of Korf's 100 under each heuristic named (pdb-*; one process per run, so what
# ran before does not change the memory layout) and of Korf's #1 (manhattan, linear-conflict).
#
#   scripts/side-by-side.sh OLD_COMMIT ROUNDS HEURISTIC...
#   scripts/side-by-side.sh 7576135 10 linear-conflict pdb-663r pdb-78r
#
# Builds the examples of both (OLD_COMMIT in a worktree under target/side-by-side, its own target
# dir), then runs old, new, old, new, ... ROUNDS times per heuristic and prints every time and the
# medians: seconds of search only (table loading excluded), smaller is better. Pattern databases
# come from $TILEBENCH_PDB_DIR (default ./pdb-cache), built there if missing (pdb-78 takes a
# minute). Figures are comparable only within one run of this script.
set -euo pipefail

old=${1:?usage: $0 OLD_COMMIT ROUNDS HEURISTIC...}
rounds=${2:?usage: $0 OLD_COMMIT ROUNDS HEURISTIC...}
shift 2
[ $# -gt 0 ] || { echo "usage: $0 OLD_COMMIT ROUNDS HEURISTIC..." >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
cd "$root"
export TILEBENCH_PDB_DIR="${TILEBENCH_PDB_DIR:-$root/pdb-cache}"
work="$root/target/side-by-side"
mkdir -p "$work"
git worktree prune
if [ ! -e "$work/old/.git" ]; then
    git worktree add --detach "$work/old" "$old" >/dev/null
else
    git -C "$work/old" checkout --quiet --detach "$old"
fi
echo "old: $(git -C "$work/old" log --oneline -1)"
echo "new: $(git log --oneline -1)$(git diff --quiet HEAD || echo ' (with uncommitted changes)')"
(cd "$work/old" && CARGO_TARGET_DIR="$work/old-target" cargo build --release --quiet --examples)
cargo build --release --quiet --examples
declare -A dir=([old]="$work/old-target/release/examples" [new]="$root/target/release/examples")

# Seconds of search of one run: Korf's 100 for a PDB, the best of one solve of Korf's #1 else.
seconds() { # build heuristic
    case $2 in
        pdb*) "${dir[$1]}/pdb_korf100" "$2" | awk -v h="$2" '$1 == h { print $5 }' ;;
        *) "${dir[$1]}/nodes_per_second" "$2" 1 2>&1 | sed -n 's/.*best \([0-9.]*\) s.*/\1/p' ;;
    esac
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for h in "$@"; do
    times_old=() times_new=()
    for _ in $(seq "$rounds"); do
        times_old+=("$(seconds old "$h")")
        times_new+=("$(seconds new "$h")")
    done
    echo "$h old: ${times_old[*]}"
    echo "$h new: ${times_new[*]}"
    m_old=$(printf '%s\n' "${times_old[@]}" | median)
    m_new=$(printf '%s\n' "${times_new[@]}" | median)
    echo "$h median old $m_old s, new $m_new s, new/old $(awk -v a="$m_new" -v b="$m_old" 'BEGIN { printf "%.3f", a / b }')"
done
