//! `report.md`: setup, summary tables with their formulas, the published comparison and the
//! plots. Every figure printed here is a [`Summary`] field or computed in this file from
//! `runs.csv`, by a formula stated in the text beside it.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

use super::aggregate::{Summary, SOLVED};
use super::format::{fixed, int, opt, sig, NONE};
use super::published::{
    korf1985_manhattan_nodes, KORF100_SET, KORF_1985_SOURCE, KORF_FELNER_2002,
    KORF_FELNER_2002_SOURCE,
};
use crate::plot::Figure;
use crate::record::{ITERATIONS_FILE, META_FILE, RUNS_FILE};
use crate::results::Results;

/// Longer lists of differing instances are cut here (the count is still given in full).
const MAX_MISMATCHES_LISTED: usize = 25;

/// Our solved Manhattan runs on Korf's 100 beside Korf's (1985) per-instance counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Korf1985Comparison {
    /// Instances with both a solved Manhattan run and a published count.
    pub compared: usize,
    /// Of those, how many have generated + 1 == Korf's count.
    pub exact: usize,
    /// (instance id, our generated + 1, Korf's count) where they differ, in file order.
    pub mismatches: Vec<(String, u64, u64)>,
    /// Σ (generated + 1) and Σ Korf over the compared instances.
    pub ours_total: u64,
    pub korf_total: u64,
}

/// Compares the solved `manhattan` runs of the `korf100` set with Korf (1985); `None` when
/// there are none.
pub fn korf1985_comparison(results: &Results) -> Option<Korf1985Comparison> {
    let korf = korf1985_manhattan_nodes();
    let mut c = Korf1985Comparison {
        compared: 0,
        exact: 0,
        mismatches: vec![],
        ours_total: 0,
        korf_total: 0,
    };
    for r in results.runs.iter().filter(|r| {
        r.instance_set == KORF100_SET && r.heuristic == "manhattan" && r.status == SOLVED
    }) {
        let Some(&k) = korf.get(r.instance_id.as_str()) else {
            continue;
        };
        let ours = r.generated + 1;
        c.compared += 1;
        c.ours_total += ours;
        c.korf_total += k;
        if ours == k {
            c.exact += 1;
        } else {
            c.mismatches.push((r.instance_id.clone(), ours, k));
        }
    }
    (c.compared > 0).then_some(c)
}

/// The whole report.
pub(super) fn render(
    results: &Results,
    summaries: &[Summary],
    figures: &[Figure],
    command: &str,
) -> String {
    let mut md = String::new();
    let name = results
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| results.dir.display().to_string());
    let _ = writeln!(md, "# tilebench report: {name}\n");
    let _ = writeln!(
        md,
        "Regenerate with `{command}` (tilebench {}). Every figure below is computed from \
         `{runs}` ({} rows) and `{its}` ({} rows) in `{}`, by the formula stated beside it; \
         `{summary}` holds the summary tables unrounded.\n",
        env!("CARGO_PKG_VERSION"),
        results.runs.len(),
        results.iterations.len(),
        results.dir.display(),
        runs = RUNS_FILE,
        its = ITERATIONS_FILE,
        summary = super::SUMMARY_FILE,
    );
    setup(&mut md, results);
    for set in results.instance_sets() {
        let rows: Vec<&Summary> = summaries.iter().filter(|s| s.instance_set == set).collect();
        summary_table(&mut md, results, &set, &rows);
        if set == KORF100_SET {
            published(&mut md, results, &rows);
        }
    }
    definitions(&mut md);
    plots(&mut md, figures);
    md
}

fn setup(md: &mut String, results: &Results) {
    let _ = writeln!(md, "## Setup\n");
    let Some(meta) = &results.meta else {
        let _ = writeln!(
            md,
            "No `{META_FILE}` in the results directory: the setup is unknown.\n"
        );
        return;
    };
    let Some(object) = meta.as_object() else {
        let _ = writeln!(
            md,
            "`{META_FILE}` is not a JSON object: {}\n",
            compact(meta)
        );
        return;
    };
    // Known keys first, in a reading order, with labels; then any others as they come.
    const KNOWN: &[(&str, &str)] = &[
        ("command", "command"),
        ("tilebench_version", "tilebench version"),
        ("git_commit", "git commit"),
        ("git_dirty", "uncommitted changes"),
        ("rustc", "rustc"),
        ("cpu", "CPU"),
        ("cores", "cores"),
        ("memory_bytes", "memory"),
        ("os", "operating system"),
        ("started", "started"),
        ("finished", "finished"),
        ("seeds", "seeds"),
        ("limits", "limits"),
        ("instances", "instances"),
        ("heuristics", "heuristics"),
        ("jobs", "jobs"),
    ];
    let _ = writeln!(md, "From `{META_FILE}`:\n");
    let _ = writeln!(md, "| setting | value |\n|---|---|");
    for (key, label) in KNOWN {
        if let Some(v) = object.get(*key) {
            let value = if *key == "memory_bytes" {
                match v.as_f64() {
                    Some(b) => format!("{} bytes ({:.1} GiB)", int(b), b / (1u64 << 30) as f64),
                    None => compact(v),
                }
            } else {
                compact(v)
            };
            let _ = writeln!(md, "| {label} | {} |", cell(&value));
        }
    }
    for (key, v) in object {
        if !KNOWN.iter().any(|(k, _)| k == key) {
            let _ = writeln!(md, "| {key} | {} |", cell(&compact(v)));
        }
    }
    md.push('\n');
}

/// A JSON value in one line: strings bare, arrays of scalars comma-separated, the rest as JSON.
fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => NONE.to_string(),
        Value::Array(items) if items.iter().all(|i| !i.is_array() && !i.is_object()) => {
            items.iter().map(compact).collect::<Vec<_>>().join(", ")
        }
        other => other.to_string(),
    }
}

/// Safe inside a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn summary_table(md: &mut String, results: &Results, set: &str, rows: &[&Summary]) {
    let reference = rows
        .iter()
        .find_map(|s| s.reduction.as_ref().map(|r| r.reference.clone()))
        .unwrap_or_else(|| "reference".to_string());
    let _ = writeln!(md, "## Summary: {set}\n");
    let _ = writeln!(
        md,
        "Means are over each heuristic's **solved** runs; see [Definitions](#definitions) for \
         every formula.\n"
    );
    let _ = writeln!(
        md,
        "| heuristic | solved / runs | mean h0 | mean nodes | geometric-mean nodes | mean seconds \
         | nodes per second | reduction vs {reference} (instances) | mean overhead measured (runs) \
         | mean overhead predicted (runs) |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for s in rows {
        let _ = writeln!(
            md,
            "| {} | {} / {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.heuristic,
            s.solved,
            s.runs,
            opt(s.mean_h0, |v| fixed(v, 3)),
            opt(s.mean_generated, int),
            opt(s.geomean_generated, int),
            opt(s.mean_seconds, |v| sig(v, 4)),
            opt(s.nodes_per_second, int),
            s.reduction
                .as_ref()
                .map(|r| format!("{} ({})", sig(r.factor, 4), r.common))
                .unwrap_or_else(|| NONE.to_string()),
            with_count(s.mean_overhead_measured),
            with_count(s.mean_overhead_predicted),
        );
    }
    md.push('\n');
    // Runs that did not solve, by status.
    let mut unsolved: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in results
        .runs
        .iter()
        .filter(|r| r.instance_set == set && r.status != SOLVED)
    {
        *unsolved.entry((&r.heuristic, &r.status)).or_default() += 1;
    }
    if !unsolved.is_empty() {
        let list: Vec<String> = unsolved
            .iter()
            .map(|((h, status), n)| format!("{h}: {n} {status}"))
            .collect();
        let _ = writeln!(
            md,
            "Runs not solved (left out of every mean): {}.\n",
            list.join("; ")
        );
    }
}

fn with_count(v: Option<(f64, usize)>) -> String {
    v.map(|(m, n)| format!("{} ({n})", fixed(m, 3)))
        .unwrap_or_else(|| NONE.to_string())
}

fn ratio(ours: Option<f64>, published: f64) -> String {
    opt(ours.filter(|_| published > 0.0), |o| sig(o / published, 3))
}

fn published(md: &mut String, results: &Results, rows: &[&Summary]) {
    let _ = writeln!(md, "### Beside Korf & Felner (2002)\n");
    let _ = writeln!(md, "Source: {KORF_FELNER_2002_SOURCE}\n");
    let _ = writeln!(
        md,
        "Ratio = ours / published. The published averages are over all 100 instances; ours over \
         our solved runs (`solved` column), so a row with fewer than 100 solved is not directly \
         comparable. Seconds compare our machine with 2002 hardware.\n"
    );
    let _ = writeln!(
        md,
        "| heuristic | published as | solved | mean h0: ours | published | ratio | mean nodes: ours \
         | published | ratio | mean seconds: ours | published | ratio |"
    );
    let _ = writeln!(
        md,
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for p in KORF_FELNER_2002 {
        let ours = rows.iter().find(|s| s.heuristic == p.heuristic);
        let (solved, h0, nodes, seconds) = match ours {
            Some(s) => (
                format!("{} / {}", s.solved, s.runs),
                s.mean_h0,
                s.mean_generated,
                s.mean_seconds,
            ),
            None => ("not run".to_string(), None, None, None),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {solved} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            p.heuristic,
            p.label,
            opt(h0, |v| fixed(v, 3)),
            fixed(p.mean_h0, 3),
            ratio(h0, p.mean_h0),
            opt(nodes, int),
            int(p.mean_nodes),
            ratio(nodes, p.mean_nodes),
            opt(seconds, |v| sig(v, 4)),
            fixed(p.mean_seconds, 3),
            ratio(seconds, p.mean_seconds),
        );
    }
    md.push('\n');

    let _ = writeln!(
        md,
        "### Beside Korf (1985), Manhattan distance, per instance\n"
    );
    let _ = writeln!(md, "Source: {KORF_1985_SOURCE}\n");
    let Some(c) = korf1985_comparison(results) else {
        let _ = writeln!(
            md,
            "No solved `manhattan` runs on `{KORF100_SET}` to compare.\n"
        );
        return;
    };
    let _ = writeln!(
        md,
        "Korf's counts are for the blank-first goal. Our search does not count the root and \
         Korf did, so an instance **matches exactly** when our `generated` + 1 equals Korf's \
         count.\n"
    );
    let _ = writeln!(
        md,
        "- **{} of {} instances match exactly** (instances with a solved Manhattan run and a \
         published count).",
        c.exact, c.compared
    );
    let _ = writeln!(
        md,
        "- Totals over those {} instances: ours Σ(generated + 1) = {}, Korf's Σ = {}, ratio \
         ours / Korf's = {}.\n",
        c.compared,
        int(c.ours_total as f64),
        int(c.korf_total as f64),
        sig(c.ours_total as f64 / c.korf_total as f64, 6),
    );
    if !c.mismatches.is_empty() {
        if c.mismatches.len() > MAX_MISMATCHES_LISTED {
            let _ = writeln!(
                md,
                "The first {MAX_MISMATCHES_LISTED} of the {} instances that differ, in `{RUNS_FILE}` order:\n",
                c.mismatches.len()
            );
        } else {
            let _ = writeln!(md, "The instances that differ:\n");
        }
        let _ = writeln!(
            md,
            "| instance | ours: generated + 1 | Korf 1985 | difference | ratio |\n|---|---:|---:|---:|---:|"
        );
        for (id, ours, k) in c.mismatches.iter().take(MAX_MISMATCHES_LISTED) {
            let _ = writeln!(
                md,
                "| {id} | {} | {} | {} | {} |",
                int(*ours as f64),
                int(*k as f64),
                int(*ours as f64 - *k as f64),
                sig(*ours as f64 / *k as f64, 6),
            );
        }
        md.push('\n');
    }
}

fn definitions(md: &mut String) {
    let _ = writeln!(md, "## Definitions\n");
    let _ = writeln!(
        md,
        "Column names in `code` are those of `{RUNS_FILE}`. For one heuristic on one instance set, \
         let S be its runs with `status` = `solved` and n = |S|.\n\n\
         - **solved / runs**: n / the number of rows of `{RUNS_FILE}` for that set and heuristic.\n\
         - **mean h0**: Σ `h0` / n over S.\n\
         - **mean nodes**: Σ `generated` / n over S (nodes generated, summed over all iterations; \
         the root is not counted).\n\
         - **geometric-mean nodes**: exp(Σ ln `generated` / m) over the m runs of S with \
         `generated` > 0.\n\
         - **mean seconds**: Σ `seconds` / n over S (wall-clock time of the search).\n\
         - **nodes per second**: Σ `generated` / Σ `seconds` over S, the total rate, not the mean \
         of the per-run rates.\n\
         - **reduction vs R**: with R the reference heuristic (`manhattan`, or the first heuristic \
         in `{RUNS_FILE}` when Manhattan was not run) and C the instances solved by both, \
         Σ_C `generated`(R) / Σ_C `generated`(heuristic) = the ratio of their mean nodes over C; \
         |C| is in brackets.\n\
         - **mean overhead measured / predicted**: mean of `overhead_measured` / \
         `overhead_predicted` over the runs of S that have one (their number in brackets). With \
         N_1 … N_k the nodes generated per iteration and the last iteration left out as cut \
         short: r = (N_(k−1) / N_1)^(1/(k−2)), measured = (N_1 + … + N_(k−1)) / N_(k−1), \
         predicted = r / (r − 1).\n\
         - Rounding: counts to the nearest integer, h0 and overheads to 3 decimals, seconds and \
         factors to 4 significant digits, ratios to 3; `{}` holds the unrounded values.\n",
        super::SUMMARY_FILE
    );
}

fn plots(md: &mut String, figures: &[Figure]) {
    let (history, figures): (Vec<&Figure>, Vec<&Figure>) =
        figures.iter().partition(|f| f.history.is_some());
    if !figures.is_empty() {
        let _ = writeln!(md, "## Plots\n");
        embed(md, &figures);
    }
    if let Some(path) = history.first().and_then(|f| f.history.as_ref()) {
        let _ = writeln!(md, "## History\n");
        let _ = writeln!(
            md,
            "The trend over commits, from `{}`, where each `tilebench run` appends a line per \
             heuristic and instance set (see the README, Regression tracking → History).\n",
            path.display()
        );
        embed(md, &history);
    }
}

fn embed(md: &mut String, figures: &[&Figure]) {
    for f in figures {
        let _ = writeln!(md, "### {}\n", f.title);
        let _ = writeln!(md, "{}\n", f.caption);
        let _ = writeln!(
            md,
            "![{}]({stem}.png)\n\n[SVG]({stem}.svg)\n",
            f.title,
            stem = f.stem
        );
    }
}

/// The summary tables as CSV, unrounded.
pub(super) fn summary_csv(summaries: &[Summary]) -> String {
    let mut out = String::from(
        "instance_set,heuristic,runs,solved,mean_h0,mean_generated,geomean_generated,\
         total_generated,mean_seconds,total_seconds,nodes_per_second,reference,reduction_factor,\
         reduction_instances,mean_overhead_measured,overhead_measured_runs,\
         mean_overhead_predicted,overhead_predicted_runs\n",
    );
    let o = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    for s in summaries {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            s.instance_set,
            s.heuristic,
            s.runs,
            s.solved,
            o(s.mean_h0),
            o(s.mean_generated),
            o(s.geomean_generated),
            s.total_generated,
            o(s.mean_seconds),
            s.total_seconds,
            o(s.nodes_per_second),
            s.reduction
                .as_ref()
                .map(|r| r.reference.as_str())
                .unwrap_or(""),
            o(s.reduction.as_ref().map(|r| r.factor)),
            s.reduction
                .as_ref()
                .map(|r| r.common.to_string())
                .unwrap_or_default(),
            o(s.mean_overhead_measured.map(|m| m.0)),
            s.mean_overhead_measured.map(|m| m.1).unwrap_or(0),
            o(s.mean_overhead_predicted.map(|m| m.0)),
            s.mean_overhead_predicted.map(|m| m.1).unwrap_or(0),
        );
    }
    out
}
