#!/usr/bin/env bash
# Screenshots of a report as a reader sees it, written beside the report so that it can be
# judged without building anything (not committed: a regenerated report would leave them stale): html-first-page.png (report.html in headless Chromium,
# 1280x1600 pixels) and pdf-first-page.png (report.tex compiled with pdflatex, page 1 at 80 dpi).
# Needs chromium, latexmk/pdflatex and poppler-utils (pdftoppm); .ci/run installs them.
#
#   scripts/report-screenshots.sh reports/korf100
set -euo pipefail
dir=${1:?usage: $0 REPORT_DIR (holding report.html and report.tex)}
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-extensions --disable-sync --no-first-run --no-default-browser-check \
  --hide-scrollbars --user-data-dir="$work/profile" --window-size=1280,1600 \
  --screenshot="$dir/html-first-page.png" "file://$dir/report.html" 2>/dev/null

# Compile a copy, so that no LaTeX by-product lands in the report directory.
cp -r "$dir" "$work/tex"
(cd "$work/tex" && latexmk -pdf -interaction=nonstopmode -halt-on-error report.tex >/dev/null)
pdftoppm -png -r 80 -f 1 -l 1 -singlefile "$work/tex/report.pdf" "$dir/pdf-first-page"
echo "$dir/html-first-page.png $dir/pdf-first-page.png ($(pdfinfo "$work/tex/report.pdf" | awk '/^Pages:/ {print $2}') PDF pages)"
