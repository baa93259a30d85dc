#!/usr/bin/env bash
# The second stage of the full mutation run of issue #29 (docs/testing.md, "The full list"):
# every mutant the first stage (scripts/mutants-full.sh, the library's unit tests alone) left
# alive is tested again against the integration tests (`tests/it`), in a worktree of its own at
# the same commit, so that what is left after both stages is what no test of the suite catches.
#
#   scripts/mutants-survivors.sh [FIRST_OUT] [WORKTREE] [OUT]
#       (defaults /work/mut-out-full, /work/wt-mut2, /work/mut-out-survivors)
#
# It takes the mutants the first stage missed (FIRST_OUT's lists, and docs/mutation/missed.txt
# where an earlier machine's first stage left them), less those this stage already judged, and
# hands them to `cargo mutants --re`. At the end of a session (after stopping it) merge its lists
# into docs/mutation/survivors/ and commit them:
#   REPO=. . scripts/mutants-env.sh
#   mutants_merge OUT.run/mutants.out OUT/mutants.out; mutants_merge OUT/mutants.out docs/mutation/survivors
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
FIRST="${1:-/work/mut-out-full}"
WT="${2:-/work/wt-mut2}"
OUT="${3:-/work/mut-out-survivors}"
. "$REPO/scripts/mutants-env.sh"
mutants_worktree "$WT"
mkdir -p "$OUT/mutants.out"
if [ ! -f "$OUT/mutants.out/caught.txt" ] && [ -d "$REPO/docs/mutation/survivors" ]; then
  cp "$REPO"/docs/mutation/survivors/*.txt "$OUT/mutants.out/" 2>/dev/null || true
fi
# cargo-mutants rewrites its lists in OUT.run on every run: what a run (even one cut off)
# judged is merged into OUT's, before and after.
mutants_merge "$OUT.run/mutants.out" "$OUT/mutants.out"
names="$( (cat "$FIRST"/{mutants.out,judged}/missed.txt "$REPO/docs/mutation/missed.txt" 2>/dev/null || true) | sort -u)"
judged="$( (cat "$OUT"/mutants.out/*.txt 2>/dev/null || true) | sort -u)"
todo="$(comm -23 <(printf '%s\n' "$names") <(printf '%s\n' "$judged") | sed '/^$/d')"
[ -n "$todo" ] || { echo "no survivors to test"; exit 0; }
echo "$(printf '%s\n' "$todo" | wc -l) survivors of the unit tests to test against tests/it"
# One anchored, escaped alternative per name.
re="^($(printf '%s\n' "$todo" | sed 's/[][\.|$(){}?+*^]/\\&/g' | paste -sd'|'))\$"
# The test timeout is cargo-mutants' own (5× the unmutated baseline's, measured under the same
# load): a fixed one below the `it` suite's time at this cheap profile would count every mutant
# as a timeout, that is as caught.
status=0
cargo mutants --in-place --profile release --build-timeout 1800 -o "$OUT.run" \
  -f 'src/heuristic/**' -f 'src/pdb/**' -f 'src/search/**' -e src/search/slow.rs \
  --re "$re" --cargo-arg=--test=it || status=$?
mutants_merge "$OUT.run/mutants.out" "$OUT/mutants.out"
exit "$status"
