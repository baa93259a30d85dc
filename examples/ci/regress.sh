#!/usr/bin/env bash
# regress.sh - the regression check of a pull request: the merge base of HEAD and BASE_REF
# against the checkout, side by side on this runner (tilebench regress), verdict as Markdown.
#
#   examples/ci/regress.sh BASE_REF OUT_MD [tilebench regress options...]
#   examples/ci/regress.sh origin/main regress.md --instructions
#
# Writes the Markdown verdict into OUT_MD (also when the check fails, so that it can be posted)
# and exits as tilebench regress does: 0 no regression, 1 regression, 2 bad input or a failed
# build. The tilebench that runs the check is $TILEBENCH when set, else this checkout's
# (cargo build --release). Builds of the merge base are cached in
# ${XDG_CACHE_HOME:-~/.cache}/tilebench/builds (keep that directory between CI runs).
set -euo pipefail

base_ref=${1:?usage: $0 BASE_REF OUT_MD [regress options...]}
out=${2:?usage: $0 BASE_REF OUT_MD [regress options...]}
shift 2

merge_base=$(git merge-base HEAD "$base_ref") || {
    echo "regress.sh: no merge base of HEAD and $base_ref (fetch the history: fetch-depth: 0)" >&2
    exit 2
}
if [ -z "${TILEBENCH:-}" ]; then
    cargo build --release --quiet --bin tilebench
    TILEBENCH=target/release/tilebench
fi

status=0
"$TILEBENCH" regress --base "$merge_base" "$@" > "$out" || status=$?
if [ "$status" -ge 2 ]; then
    # No verdict: say why in the comment instead.
    printf '# tilebench regress\n\nThe check could not run (exit %s); see the job log.\n' "$status" > "$out"
fi
echo "regress.sh: merge base $merge_base, exit $status, verdict in $out" >&2
exit "$status"
