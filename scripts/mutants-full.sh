#!/usr/bin/env bash
# The full mutation run of issue #29 (docs/testing.md, "The full list"): every mutant of
# src/heuristic, src/pdb and src/search at commit f2e76a1, in a worktree of its own, continued
# across sessions and machines. What earlier sessions found is committed in docs/mutation/
# (cargo-mutants' own lists); a run on a machine without an output directory starts from those
# lists, so `--iterate` skips every mutant already caught or unviable.
#
#   scripts/mutants-full.sh [WORKTREE] [OUT]      (defaults /work/wt-mut, /work/mut-out-full)
#
# Every outcome is kept in OUT/judged/ (the union over runs: cargo-mutants rewrites its own lists
# on every run). At the end of a session (after stopping the run) merge them into docs/mutation/
# and commit them:
#   REPO=. . scripts/mutants-env.sh
#   mutants_merge OUT/mutants.out OUT/judged; mutants_merge OUT/judged docs/mutation
# Needs `cargo install cargo-mutants` (v27.1.0 was used).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
WT="${1:-/work/wt-mut}"
OUT="${2:-/work/mut-out-full}"
. "$REPO/scripts/mutants-env.sh"
mutants_worktree "$WT"
# Everything judged before, here or in docs/mutation/, is skipped (`--iterate` skips what
# previously_caught.txt names): the tests at the pinned commit never change, so a mutant they
# missed once they miss again.
mkdir -p "$OUT/mutants.out"
mutants_merge "$OUT/mutants.out" "$OUT/judged"
(cat "$OUT"/judged/*.txt "$REPO"/docs/mutation/*.txt 2>/dev/null || true) | grep ': ' | sort -u \
  > "$OUT/mutants.out/previously_caught.txt"
# `--cargo-arg=--lib` (not `-- --lib`, as the earlier sessions ran it): the build of each
# mutant is then the library's unit tests alone, not also the `it` binary that they never run.
# A mutant that makes a search endless waits out the timeout: 420 s. The unit tests take 20 s on
# a quiet machine, 50 s beside the campaign, but past 180 s beside the campaign and a session's
# builds (load 4.5 on 2 cores): at 180 s, seven of a session's first twelve mutants "timed out"
# that way and were struck from the lists to be tested again.
# No baseline run (`--baseline=skip`): the pinned commit's tests pass (every session's first
# run checked it), and beside the campaign and a session's builds the baseline's A* test alone
# passed the 180 s timeout (opt-level 1), which ends the whole run before any mutant.
# A run interrupted mid-build can leave the incremental cache stale: every later build then
# failed to link ("undefined hidden symbol"), which cargo-mutants records as unviable (89
# mutants in the twelfth session). Starting each run without it costs one full build.
rm -rf "$WT/target/release/incremental"
status=0
cargo mutants --in-place --profile release --shuffle --iterate --timeout 420 --baseline=skip \
  --build-timeout 1200 -o "$OUT" -f 'src/heuristic/**' -f 'src/pdb/**' -f 'src/search/**' \
  -e src/search/slow.rs --cargo-arg=--lib || status=$?
mutants_merge "$OUT/mutants.out" "$OUT/judged"
exit "$status"
