//! End-to-end: the trend over commits drawn from a history file (`tests/fixtures/history`:
//! 3 runs × 2 heuristics on `tiny`, one extra line for another set; pdb-555's node count
//! changes at the third run), by `plot --history`, by `plot`/`report` finding `history.csv`
//! beside the results directory, and the errors. Cost: under a second in release.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::bin::{arg, fails, ok, stdout};
use common::{assert_png, assert_svg, fresh_dir};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `<root>/results/tiny` (a copy of `tests/fixtures/small`) and, when given, `history` as
/// `<root>/results/history.csv`. Returns the results directory.
fn results_with_history(root: &str, history: Option<&str>) -> PathBuf {
    let results = fresh_dir(root).join("results").join("tiny");
    fs::create_dir_all(&results).unwrap();
    for f in ["runs.csv", "iterations.csv", "meta.json"] {
        fs::copy(fixture("small").join(f), results.join(f)).unwrap();
    }
    if let Some(text) = history {
        fs::write(results.parent().unwrap().join("history.csv"), text).unwrap();
    }
    results
}

fn history_text() -> String {
    fs::read_to_string(fixture("history/history.csv")).unwrap()
}

fn files(dir: &Path, part: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(part))
        .collect();
    names.sort();
    names
}

#[test]
fn plot_history_draws_both_trends_per_set() {
    let out = fresh_dir("history-plot/explicit");
    let history = fixture("history/history.csv");
    let o = ok(&["plot", "--history", arg(&history), "--out", arg(&out)]);
    let listed = stdout(&o);
    for (stem, title) in [
        ("tiny-history-speed", "tiny: speed over commits"),
        ("tiny-history-nodes", "tiny: nodes generated over commits"),
    ] {
        let svg = out.join(format!("{stem}.svg"));
        assert!(listed.contains(arg(&svg)), "{stem} not listed");
        assert_svg(&svg, title, 20);
        assert_png(&out.join(format!("{stem}.png")), (720, 460));
        let text = fs::read_to_string(&svg).unwrap();
        // One tick per run, labelled with the short commit and the day (the year in the
        // caption); * marks a dirty build.
        for label in ["1111111 05-01", "2222222 05-03", "3333333* 05-07"] {
            assert!(text.contains(label), "{stem}: no tick {label:?}");
        }
        assert!(text.contains("manhattan") && text.contains("pdb-555"));
    }
    // The node change of pdb-555 (300 → 280 over the same 3 runs) is ringed; Manhattan's
    // unchanged counts are not.
    let nodes = fs::read_to_string(out.join("tiny-history-nodes.svg")).unwrap();
    assert!(nodes.contains("node count changed"));
    let speed = fs::read_to_string(out.join("tiny-history-speed.svg")).unwrap();
    assert!(!speed.contains("node count changed"));
    // Without a results directory, every set of the file is looked at; `other` has a single
    // point, which is no trend, so nothing is drawn for it.
    assert!(files(&out, "other-history").is_empty());
}

#[test]
fn history_lines_join_only_totals_over_the_same_runs() {
    // tiny run whole (3 runs) twice, then in part (1 run) twice: two lines per heuristic.
    let mut text = history_text();
    for (commit, date) in [("4444444", "2024-05-08"), ("5555555", "2024-05-09")] {
        text.push_str(&format!(
            "{commit}dddddddddddddddddddddddddddddddd,{date}T10:00:00Z,manhattan,tiny,1,1,20,10,0.1,200\n"
        ));
    }
    let dir = fresh_dir("history-plot/runs");
    let history = dir.join("history.csv");
    fs::write(&history, text).unwrap();
    let out = dir.join("plots");
    ok(&["plot", "--history", arg(&history), "--out", arg(&out)]);
    let nodes = fs::read_to_string(out.join("tiny-history-nodes.svg")).unwrap();
    assert!(nodes.contains("manhattan (3 runs)"), "{nodes}");
    assert!(nodes.contains("manhattan (1 runs)"), "{nodes}");
    // pdb-555 has one count of runs: no suffix.
    assert!(nodes.contains(">\npdb-555\n<"), "{nodes}");
    // The drop from 1400 (3 runs) to 20 (1 run) is not drawn: no data line has manhattan's 5
    // points; the longest are manhattan (3 runs) and pdb-555, 3 points each.
    let polylines: Vec<usize> = nodes
        .lines()
        .filter(|l| l.starts_with("<polyline") && l.contains("stroke-width=\"2\""))
        .map(|l| {
            let points = l.split("points=\"").nth(1).unwrap();
            points.split('"').next().unwrap().split_whitespace().count()
        })
        .collect();
    assert_eq!(polylines.iter().max(), Some(&3), "{polylines:?}");
    assert_eq!(
        polylines.iter().filter(|&&n| n == 3).count(),
        2,
        "{polylines:?}"
    );
}

#[test]
fn report_embeds_the_history_found_beside_the_results() {
    let results = results_with_history("history-plot/beside", Some(&history_text()));
    let out = results.parent().unwrap().parent().unwrap().join("report");
    ok(&["report", arg(&results), "--out", arg(&out)]);
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let section = md.split("## History").nth(1).expect("a History section");
    assert!(section.contains("history.csv`"), "{section}");
    for needle in [
        "![tiny: speed over commits](tiny-history-speed.png)",
        "![tiny: nodes generated over commits](tiny-history-nodes.png)",
    ] {
        assert!(section.contains(needle), "{section}");
    }
    // Only the results' own instance sets: `other` is not drawn.
    assert_eq!(
        files(&out, "history"),
        [
            "tiny-history-nodes.png",
            "tiny-history-nodes.svg",
            "tiny-history-speed.png",
            "tiny-history-speed.svg"
        ]
    );
    // The results' plots are still under "## Plots", before the history.
    let plots = md.split("## Plots").nth(1).unwrap();
    assert!(plots.find("tiny-nodes-per-instance.png") < plots.find("## History"));
}

#[test]
fn no_history_no_history_plot() {
    let results = results_with_history("history-plot/none", None);
    let out = results.parent().unwrap().join("plots");
    ok(&["plot", arg(&results), "--out", arg(&out)]);
    assert!(files(&out, "history").is_empty());
    assert!(!files(&out, "tiny-").is_empty());
    let report = results.parent().unwrap().join("report");
    ok(&["report", arg(&results), "--out", arg(&report)]);
    let md = fs::read_to_string(report.join("report.md")).unwrap();
    assert!(!md.contains("## History"));

    // A history without lines for the results' sets draws nothing either.
    let only_other: String = history_text()
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || l.contains(",other,"))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let results = results_with_history("history-plot/other", Some(&only_other));
    let out = results.parent().unwrap().join("plots");
    ok(&["plot", arg(&results), "--out", arg(&out)]);
    assert!(files(&out, "history").is_empty());
    // Asked for explicitly, that is an error.
    let history = results.parent().unwrap().join("history.csv");
    let err = fails(&[
        "plot",
        arg(&results),
        "--history",
        arg(&history),
        "--out",
        arg(&out),
    ]);
    assert!(
        err.contains("no history lines for instance set(s) tiny"),
        "{err}"
    );
}

#[test]
fn a_malformed_history_names_file_and_line() {
    let mut lines: Vec<String> = history_text().lines().map(str::to_string).collect();
    lines[3] = lines[3].replace(",1400,", ",many,");
    let bad = lines.join("\n") + "\n";
    let results = results_with_history("history-plot/bad", Some(&bad));
    let history = results.parent().unwrap().join("history.csv");
    let expected = format!("{}, line 4: column 'total_generated'", history.display());
    // Found beside the results, by plot and by report, and given explicitly.
    for args in [
        vec!["plot", arg(&results)],
        vec!["report", arg(&results)],
        vec!["plot", "--history", arg(&history)],
    ] {
        let out = results.parent().unwrap().join("o");
        let err = fails(&[&args[..], &["--out", arg(&out)]].concat());
        assert!(err.contains(&expected), "{args:?}: {err}");
    }
    // A file that is not a history at all.
    fs::write(&history, "a,b\n1,2\n").unwrap();
    let out = results.parent().unwrap().join("o");
    let err = fails(&["plot", "--history", arg(&history), "--out", arg(&out)]);
    assert!(err.contains("not tilebench's history header"), "{err}");
    // A history of one run has no trend, and says so rather than "no lines".
    let one_run = history_text()
        .lines()
        .take(2)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    fs::write(&history, one_run).unwrap();
    let err = fails(&["plot", "--history", arg(&history), "--out", arg(&out)]);
    assert!(
        err.contains("nothing to plot: 1 history line from 1 run")
            && err.contains("at least two runs"),
        "{err}"
    );
    // Neither a results directory nor --history.
    let err = fails(&["plot"]);
    assert!(err.contains("RESULTS_DIR"), "{err}");
}

#[test]
fn a_report_shows_only_the_history_of_its_own_selection() {
    // The history beside the results has two runs of tiny over 1 instance, none over the 3 the
    // results have: that is the trend of another selection, so the report has no History.
    let mut text = history_text().lines().next().unwrap().to_string() + "\n";
    for (commit, date) in [("4444444", "2024-05-08"), ("5555555", "2024-05-09")] {
        text.push_str(&format!(
            "{commit}dddddddddddddddddddddddddddddddd,{date}T10:00:00Z,manhattan,tiny,1,1,20,10,0.1,200\n"
        ));
    }
    let results = results_with_history("history-plot/selection", Some(&text));
    let report = results.parent().unwrap().join("report");
    ok(&["report", arg(&results), "--out", arg(&report)]);
    let md = fs::read_to_string(report.join("report.md")).unwrap();
    assert!(!md.contains("## History"), "{md}");
    assert!(files(&report, "history").is_empty());
    // With the lines of the fixture (3 runs each), it has one.
    let results = results_with_history("history-plot/selection-same", Some(&history_text()));
    let report = results.parent().unwrap().join("report");
    ok(&[
        "report",
        arg(&results),
        "--out",
        arg(&report),
        "--no-history",
    ]);
    let md = fs::read_to_string(report.join("report.md")).unwrap();
    assert!(!md.contains("## History"), "--no-history leaves it out");
    ok(&["report", arg(&results), "--out", arg(&report)]);
    let md = fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("## History"), "{md}");
}
