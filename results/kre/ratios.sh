# predicted vs measured mean generated, per heuristic and bound
cd "${1:-results/kre}"
echo "heuristic,bound,boards,measured_mean_generated,predicted_generated,predicted/measured"
for d in */; do
  d=${d%/}; h=${d%-b*}; b=${d##*-b}
  [ -f "$d/runs.csv" ] || continue
  awk -F, -v h="$h" -v b="$b" -v pf="predict-$h.csv" '
    FNR==1 {next}
    FILENAME==pf { if ($1==b) p=$3; next }
    $4=="fixed-bound" { n++; s+=$10 }
    END { m=s/n; printf "%s,%s,%d,%.1f,%.1f,%.3f\n", h, b, n, m, p, p/m }' "predict-$h.csv" "$d/runs.csv"
done | sort -t, -k1,1 -k2,2n
