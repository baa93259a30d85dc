# Sourced by scripts/mutants-full.sh and scripts/mutants-survivors.sh: the commit the full
# mutation run of issue #29 is pinned to, its worktree, and the cheap build per mutant.
COMMIT=f2e76a1
# Makes worktree $1 at $COMMIT if there is none and enters it, restoring a mutant an interrupted
# `--in-place` run left applied.
mutants_worktree() {
  [ -d "$1" ] || git -C "$REPO" worktree add -f "$1" "$COMMIT"
  cd "$1"
  git checkout -q -- .
}
# The cheap build per mutant of docs/testing.md: opt-level 1, many codegen units, incremental.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
  CARGO_PROFILE_RELEASE_INCREMENTAL=true
# The outcome lists cargo-mutants writes, each kept in docs/mutation/ as the union over sessions.
MUTANT_LISTS="caught missed timeout unviable"
# Adds the lists in directory $1 (a run's mutants.out/) to those in directory $2.
mutants_merge() {
  mkdir -p "$2"
  for f in $MUTANT_LISTS; do
    (cat "$2/$f.txt" "$1/$f.txt" 2>/dev/null || true) | sed '/^$/d' | sort -u \
      > "$2/$f.tmp"
    mv "$2/$f.tmp" "$2/$f.txt"
  done
}
