#!/usr/bin/env bash
# The full mutation run of issue #29 (docs/testing.md, "The full list"): every mutant of
# src/heuristic, src/pdb and src/search at commit f2e76a1, in a worktree of its own, continued
# across sessions and machines. What earlier sessions found is committed in docs/mutation/
# (cargo-mutants' own lists); a run on a machine without an output directory starts from those
# lists, so `--iterate` skips every mutant already caught or unviable.
#
#   scripts/mutants-full.sh [WORKTREE] [OUT]      (defaults /work/wt-mut, /work/mut-out-full)
#
# Afterwards copy OUT/mutants.out/{caught,previously_caught,missed,timeout,unviable}.txt into
# docs/mutation/ and commit them. Needs `cargo install cargo-mutants` (v27.1.0 was used).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
WT="${1:-/work/wt-mut}"
OUT="${2:-/work/mut-out-full}"
COMMIT=f2e76a1
[ -d "$WT" ] || git -C "$REPO" worktree add -f "$WT" "$COMMIT"
cd "$WT"
git checkout -q -- .   # an interrupted --in-place run may leave a mutant applied
if [ ! -f "$OUT/mutants.out/outcomes.json" ] && [ ! -f "$OUT/mutants.out/caught.txt" ]; then
  mkdir -p "$OUT/mutants.out"
  for f in caught previously_caught unviable; do
    [ -f "$REPO/docs/mutation/$f.txt" ] && cp "$REPO/docs/mutation/$f.txt" "$OUT/mutants.out/"
  done
fi
# The cheap build per mutant of docs/testing.md: opt-level 1, many codegen units, incremental.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
  CARGO_PROFILE_RELEASE_INCREMENTAL=true
# `--cargo-arg=--lib` (not `-- --lib`, as the earlier sessions ran it): the build of each
# mutant is then the library's unit tests alone, not also the `it` binary that they never run.
exec cargo mutants --in-place --profile release --shuffle --iterate --timeout 300 \
  --build-timeout 1200 -o "$OUT" -f 'src/heuristic/**' -f 'src/pdb/**' -f 'src/search/**' \
  -e src/search/slow.rs --cargo-arg=--lib
