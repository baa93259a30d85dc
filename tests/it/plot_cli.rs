//! End-to-end: `tilebench plot` and `tilebench report` on a synthetic Korf-100-shaped results
//! directory (6 heuristics × 100 instances, nodes from ~1e1 to ~1e10), and their errors.
//! Cost: about 2 s in release (the PNG encoding dominates).

use crate::common;

use std::fs;

use common::bin::{arg, fails, ok, read_runs, run as tilebench};
use common::{
    assert_png, assert_svg, fresh_dir, log_axis_value, svg_points, svg_y_ticks, synthetic_results,
};
use tilebench::results::RunStatus;

/// `tilebench <command> <results> --out <results>/o`, expected to fail; returns stderr.
fn fails_on(command: &str, results: &std::path::Path) -> String {
    let out = results.join("o");
    fails(&[
        command,
        results.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn plot_writes_every_plot_as_svg_and_png() {
    let results = fresh_dir("plot-cli/results/korf100");
    synthetic_results(&results, "korf100", 100, 3, 7);
    let out = results.parent().unwrap().parent().unwrap().join("out");
    let _ = fs::remove_dir_all(&out);
    let o = tilebench(&[
        "plot",
        results.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--scatter",
        "pdb-555,pdb-78r",
        "--instances",
        "5,17",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listed = String::from_utf8(o.stdout).unwrap();
    let expected = [
        (
            "korf100-nodes-per-instance",
            "nodes generated per instance",
            (720, 460),
        ),
        (
            "korf100-nodes-distribution",
            "distribution of nodes",
            // Horizontal boxes, their names level on the y axis: the common size.
            (720, 460),
        ),
        (
            "korf100-scatter-pdb-555-vs-pdb-78r",
            "pdb-78r against pdb-555",
            (680, 470),
        ),
        ("korf100-iterations-5", "instance 5", (720, 460)),
        ("korf100-iterations-17", "instance 17", (720, 460)),
        (
            "korf100-overhead",
            "iterative-deepening overhead, measured against",
            (680, 470),
        ),
        ("korf100-seconds-vs-nodes", "time against nodes", (720, 460)),
    ];
    for (stem, title, size) in expected {
        let svg = out.join(format!("{stem}.svg"));
        let png = out.join(format!("{stem}.png"));
        assert!(listed.contains(svg.to_str().unwrap()), "{stem} not listed");
        assert_svg(&svg, title, 50);
        assert_png(&png, size);
    }
    // Log axes are labelled 10⁶, never 1000000, and every tick of an axis alike (never 1000
    // beside 1e4).
    let nodes = fs::read_to_string(out.join("korf100-nodes-per-instance.svg")).unwrap();
    let labels: Vec<&str> = nodes.lines().map(str::trim).collect();
    assert!(
        labels.contains(&"10⁶") && labels.contains(&"10¹⁰"),
        "no 10⁶ tick label"
    );
    assert!(!nodes.contains(">\n1000000"));
    let ticks = svg_y_ticks(&nodes);
    assert!(ticks.len() >= 3, "{ticks:?}");
    assert!(
        !labels.iter().any(|l| l.starts_with("1e") || *l == "1000"),
        "a tick in another notation"
    );
    // Exactly the plots asked for: 8 figures (with ours beside Korf's 1985 counts), 16 files.
    assert_eq!(fs::read_dir(&out).unwrap().count(), 16);

    // The data drawn: one point per solved run in each heuristic's series (Manhattan left 3
    // unsolved), and a y axis whose decades just cover the smallest and largest count.
    let mut sizes: Vec<usize> = svg_points(&nodes).values().map(Vec::len).collect();
    sizes.sort();
    assert_eq!(sizes, [97, 100, 100, 100, 100, 100]);
    let runs = read_runs(&results);
    let solved = runs.iter().filter(|r| r.status == RunStatus::Solved);
    let min = solved.clone().filter_map(|r| r.generated).min().unwrap() as f64;
    let max = solved.filter_map(|r| r.generated).max().unwrap() as f64;
    let ticks = svg_y_ticks(&nodes);
    let (top, bottom) = (ticks[0].1, ticks[ticks.len() - 1].1);
    assert!(
        bottom <= min && min < bottom * 10.0,
        "axis from {bottom}, data from {min}"
    );
    assert!(
        top >= max && max * 10.0 > top,
        "axis to {top}, data to {max}"
    );
}

/// The nodes-per-instance plot of `tests/fixtures/small` read back from its SVG: one series per
/// heuristic with a point per solved run, at the run's count on the log axis (within a pixel),
/// instances in the order of Manhattan's counts (the unsolved one last), axis 1 to 1e4.
#[test]
fn nodes_per_instance_draws_each_solved_run_at_its_count() {
    let dir = fresh_dir("plot-cli/data");
    let results = dir.join("tiny");
    fs::create_dir_all(&results).unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/small");
    for f in ["runs.csv", "iterations.csv", "meta.json"] {
        fs::copy(fixture.join(f), results.join(f)).unwrap();
    }
    let out = dir.join("out");
    ok(&["plot", arg(&results), "--out", arg(&out)]);
    let svg = fs::read_to_string(out.join("tiny-nodes-per-instance.svg")).unwrap();
    let ticks = svg_y_ticks(&svg);
    let labels: Vec<f64> = ticks.iter().map(|t| t.1).collect();
    assert_eq!(labels, [1e4, 1e3, 1e2, 1e1, 1e0]);
    let mut series: Vec<Vec<f64>> = svg_points(&svg)
        .into_values()
        .map(|mut points| {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            points.iter().map(|p| log_axis_value(&ticks, p.1)).collect()
        })
        .collect();
    series.sort_by_key(Vec::len);
    // manhattan: instances 1 and 2 (100, 1000 nodes; 3 hit the time limit); pdb-555: 10, 40, 250.
    let want: [&[f64]; 2] = [&[100.0, 1000.0], &[10.0, 40.0, 250.0]];
    assert_eq!(series.len(), 2, "{series:?}");
    for (got, want) in series.iter().zip(want) {
        assert_eq!(got.len(), want.len(), "{series:?}");
        for (g, w) in got.iter().zip(want) {
            // One pixel is 1/143 of a decade here: 1.6 %.
            assert!((g / w - 1.0).abs() < 0.03, "{series:?}");
        }
    }
}

#[test]
fn report_embeds_plots_and_defaults() {
    let results = fresh_dir("report-cli/results/korf100");
    synthetic_results(&results, "korf100", 30, 2, 11);
    let out = results
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("reports/korf100");
    let _ = fs::remove_dir_all(&out);
    let o = tilebench(&[
        "report",
        results.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    for needle in [
        "## Setup",
        "| machine | unknown CPU, 2 cores, 8.0 GiB memory |",
        "| limits per run | at most 60 s of search |",
        "## Summary: korf100",
        "| `manhattan` | 28 / 30 |",
        "manhattan: 2 time-limit",
        "### Beside Korf & Felner (2002)",
        "### Beside Korf (1985)",
        "## Definitions",
        "![korf100: nodes generated per instance](korf100-nodes-per-instance.png)",
        "[SVG](korf100-scatter-manhattan-vs-pdb-78r.svg)",
    ] {
        assert!(md.contains(needle), "report lacks {needle:?}\n{md}");
    }
    // Every embedded image exists.
    for line in md.lines().filter(|l| l.starts_with("![")) {
        let file = line.rsplit_once("](").unwrap().1.trim_end_matches(')');
        assert!(out.join(file).exists(), "{file}");
    }
    assert!(out.join("summary.csv").exists());
}

/// A heuristic name too long for a legend or a column (a max of custom partitions) is shown
/// as `H1` in every table and figure, keyed to its full name in the Setup; the files keep it.
#[test]
fn a_long_heuristic_name_is_shown_short_and_keyed_in_the_setup() {
    const LONG: &str = "max(pdb-78r,pdb:1.2.3.4.5.6/7.8.9.10.11.12/13.14.15)";
    let results = fresh_dir("report-long-name/results/korf100");
    synthetic_results(&results, "korf100", 12, 0, 5);
    for file in ["runs.csv", "iterations.csv", "meta.json"] {
        let path = results.join(file);
        if let Ok(text) = fs::read_to_string(&path) {
            // "pdb-78r" ends a field in both CSV files: quote the name, which holds commas.
            let text = text
                .replace(",pdb-78r,", &format!(",\"{LONG}\","))
                .replace("\"pdb-78r\"", &format!("\"{LONG}\""));
            fs::write(&path, text).unwrap();
        }
    }
    let out = results.parent().unwrap().join("report");
    let _ = fs::remove_dir_all(&out);
    ok(&[
        "report",
        results.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let (setup, rest) = md.split_once("## Summary").unwrap();
    assert!(
        setup.contains(&format!(
            "| short names (in tables and figures) | H1 = `{LONG}` |"
        )),
        "{setup}"
    );
    assert!(rest.contains("| `H1` | 12 / 12 |"), "{rest}");
    assert!(!rest.contains(LONG), "{rest}");
    // Figures: the legends, titles and the scatter's file name and axis.
    let scatter = fs::read_to_string(out.join("korf100-scatter-manhattan-vs-H1.svg")).unwrap();
    assert!(scatter.contains("H1: nodes generated"), "{scatter}");
    for entry in fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "svg") {
            let svg = fs::read_to_string(&path).unwrap();
            assert!(
                !svg.contains("pdb:1.2.3"),
                "{} draws the long name",
                path.display()
            );
        }
    }
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains(LONG), "{summary}");
}

#[test]
fn bad_results_directories_give_clear_errors() {
    let dir = fresh_dir("bad-results/korf100");
    synthetic_results(&dir, "korf100", 3, 0, 1);
    let runs = dir.join("runs.csv");
    let text = fs::read_to_string(&runs).unwrap();

    // Drop the generated column (one every file has: only columns added later with a serde
    // default, and optional ones, may be absent).
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|c| *c == "generated").unwrap();
    let cut: String = text
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(col);
            f.join(",") + "\n"
        })
        .collect();
    fs::write(&runs, cut).unwrap();
    let err = fails_on("plot", &dir);
    assert!(
        err.contains("runs.csv: missing column 'generated'"),
        "{err}"
    );

    // Header only.
    fs::write(&runs, text.lines().next().unwrap().to_string() + "\n").unwrap();
    let err = fails_on("report", &dir);
    assert!(err.contains("runs.csv: no rows"), "{err}");

    // A bad number names file and line.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let length = header.iter().position(|c| *c == "length").unwrap();
    let mut f: Vec<&str> = lines[3].split(',').collect();
    f[length] = "fifty-seven";
    lines[3] = f.join(",");
    fs::write(&runs, lines.join("\n") + "\n").unwrap();
    let err = fails_on("report", &dir);
    assert!(err.contains("runs.csv, line 4"), "{err}");

    // Unknown scatter heuristic.
    fs::write(&runs, &text).unwrap();
    let err = fails(&[
        "plot",
        dir.to_str().unwrap(),
        "--out",
        dir.join("o").to_str().unwrap(),
        "--scatter",
        "manhattan,pdb-999",
    ]);
    assert!(err.contains("'pdb-999' is not in the results"), "{err}");

    // Missing directory.
    let err = fails(&[
        "report",
        dir.join("nope").to_str().unwrap(),
        "--out",
        dir.join("o").to_str().unwrap(),
    ]);
    assert!(err.contains("runs.csv: no such file"), "{err}");
}
