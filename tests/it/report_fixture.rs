//! The report's figures against aggregates computed by hand from `tests/fixtures/small`
//! (3 instances × 2 heuristics; the overhead columns are arbitrary values, not derived from
//! iterations.csv, since the report only averages them). Cost: well under a second.

use crate::common;

use std::fs;
use std::path::Path;

use tilebench::analysis::summarize;
use tilebench::report::{write_report, ReportOptions};
use tilebench::results::Results;

fn fixture() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/small"))
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9 * b.abs().max(1.0))
}

#[test]
fn aggregates_equal_hand_computed_values() {
    let results = Results::load(fixture()).unwrap();
    let s = summarize(&results);
    assert_eq!(s.len(), 2);
    let (m, p) = (&s[0], &s[1]);

    // manhattan: instances 1 and 2 solved, 3 hit the time limit (left out of every mean).
    assert_eq!(
        (m.heuristic.as_str(), m.solved, m.runs),
        ("manhattan", 2, 3)
    );
    assert!(close(m.mean_h0, 11.0)); // (10 + 12) / 2
    assert_eq!(m.total_generated, Some(1100)); // 100 + 1000
    assert!(close(m.mean_generated, 550.0)); // 1100 / 2
    assert!(close(m.geomean_generated, 100_000f64.sqrt())); // √(100 · 1000) = 316.23
    assert!(close(m.mean_seconds, 1.0)); // (0.5 + 1.5) / 2
    assert!(close(m.nodes_per_second, 550.0)); // 1100 / 2.0
    let r = m.reduction.as_ref().unwrap();
    assert_eq!((r.reference.as_str(), r.common), ("manhattan", 2));
    assert!(close(Some(r.factor), 1.0));
    let (om, n) = m.mean_overhead_measured.unwrap();
    // From iterations.csv (docs/conventions.md): run 1 completed 8, 32: r = 32/8 = 4, measured
    // 40/32 = 1.25, predicted 4/3; run 2 completed 40, 160: the same; run 3 is unsolved.
    assert!(close(Some(om), 1.25) && n == 2);
    let (op, n) = m.mean_overhead_predicted.unwrap();
    assert!(close(Some(op), 4.0 / 3.0) && n == 2);

    // pdb-555: all three solved.
    assert_eq!((p.heuristic.as_str(), p.solved, p.runs), ("pdb-555", 3, 3));
    assert!(close(p.mean_h0, 16.0)); // (14 + 16 + 18) / 3
    assert!(close(p.mean_generated, 100.0)); // (10 + 40 + 250) / 3
    assert!(close(p.geomean_generated, 100_000f64.cbrt())); // ∛(10 · 40 · 250) = 46.42
    assert!(close(p.mean_seconds, 1.0 / 3.0)); // (0.25 + 0.25 + 0.5) / 3
    assert!(close(p.nodes_per_second, 300.0)); // 300 / 1.0
                                               // Over the instances both solved (1, 2): (100 + 1000) / (10 + 40) = 22.
    let r = p.reduction.as_ref().unwrap();
    assert!(close(Some(r.factor), 22.0) && r.common == 2);
    let (om, n) = p.mean_overhead_measured.unwrap();
    // Run 1 completed only 2 nodes (measured 1, no r); runs 2 and 3 grew ×4 (2, 8 and 10, 40).
    // Measured and predicted are averaged over the same runs, those with both: 2 and 3.
    assert!(close(Some(om), 1.25) && n == 2); // (1.25 + 1.25) / 2, not (1 + 1.25 + 1.25) / 3
    let (op, n) = p.mean_overhead_predicted.unwrap();
    assert!(close(Some(op), 4.0 / 3.0) && n == 2); // run 1 has none
}

#[test]
fn report_prints_the_hand_computed_figures() {
    let out = common::fresh_dir("report-fixture");
    let path = write_report(fixture(), &out, &ReportOptions::default()).unwrap();
    let md = fs::read_to_string(path).unwrap();
    for line in [
        // Rounded as the report's Definitions say: counts to integers, h0 and overheads to 3
        // decimals, seconds and factors to 4 significant digits.
        "| `manhattan` | 2 / 3 | 11.000 | 550 | 316 | 1.000 | 550 | 1.000 (2) | 1.250 (2) | 1.333 (2) |",
        "| `pdb-555` | 3 / 3 | 16.000 | 100 | 46 | 0.3333 | 300 | 22.00 (2) | 1.250 (2) | 1.333 (2) |",
        "Runs not solved (left out of every mean): manhattan: 1 time-limit.",
        // The Setup table in words, from the typed meta.json.
        "| command | `tilebench run --instances 'tiny sets/tiny.txt' -H manhattan,pdb-555 \
         --node-limit 1000000 --time-limit 60` |",
        "| tilebench | 0.1.0, commit 0000000000000000000000000000000000000000, with uncommitted \
         changes |",
        "| machine | Example CPU, 2 cores, 8.0 GiB memory, host fixture |",
        "| parallelism | 2 pairs at a time, each search on 1 thread |",
        "| instance set | tiny: 3 instances from `tiny sets/tiny.txt` (3x3 board, blank-last goal); \
         seed 7 |",
        "| heuristics | manhattan, pdb-555 |",
        "| limits per run | at most 1,000,000 generated nodes and 60 s of search |",
        "| pairs | 6 (instance, method) pairs |",
    ] {
        assert!(md.contains(line), "report lacks\n{line}\n---\n{md}");
    }
    // No internal field and no raw JSON.
    for absent in [
        "pairs_done_before",
        "previous_sessions",
        "{\"",
        "schema_version",
    ] {
        assert!(!md.contains(absent), "report shows {absent}\n{md}");
    }
    // Not Korf's 100: no published comparison.
    assert!(!md.contains("Korf & Felner"));
    // The unrounded figures are published beside the report.
    let csv = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        csv.contains("tiny,pdb-555,3,3,16.000,100,46,300,0.3333,"),
        "{csv}"
    );
    let full = fs::read_to_string(out.join("summary-full.csv")).unwrap();
    assert!(
        full.contains("tiny,pdb-555,3,3,16,100,46.41588833612"),
        "{full}"
    );
    assert!(full.contains(",0.3333333333333333,"), "{full}");
    // Plots were drawn and embedded: 1 per-instance, 1 distribution, 1 scatter, 3 iteration
    // (instances 2, 1 by Manhattan nodes; only 2 solved by it), 1 overhead, 1 speed.
    let embedded = md.lines().filter(|l| l.starts_with("![")).count();
    assert_eq!(embedded, 7, "{md}");
    assert!(md.contains("(tiny-iterations-2.png)") && md.contains("(tiny-iterations-1.png)"));
}

#[test]
fn heuristics_are_chosen_and_ordered_and_instances_named_by_id() {
    use common::bin::{arg, fails, ok};
    let out = common::fresh_dir("report-fixture-heuristics");
    let fixture = arg(fixture());
    ok(&[
        "report",
        fixture,
        "--out",
        arg(&out),
        "--heuristics",
        "pdb-555,manhattan",
        "--no-history",
    ]);
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let p = md.find("| `pdb-555` | 3 / 3 |").expect("pdb-555 row");
    let m = md.find("| `manhattan` | 2 / 3 |").expect("manhattan row");
    assert!(p < m, "rows in the order asked for");
    assert!(
        md.contains("--no-history --heuristics pdb-555,manhattan"),
        "{md}"
    );
    let csv = fs::read_to_string(out.join("summary.csv")).unwrap();
    let rows: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(rows, ["pdb-555", "manhattan"]);

    // One of them only: the other is in no table and no plot.
    let out = common::fresh_dir("report-fixture-one-heuristic");
    ok(&[
        "report",
        fixture,
        "--out",
        arg(&out),
        "--heuristics",
        "pdb-555",
    ]);
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("`manhattan` |"), "{md}");
    let svg = fs::read_to_string(out.join("tiny-nodes-per-instance.svg")).unwrap();
    assert!(!svg.contains(">\nmanhattan\n<") && svg.contains(">\npdb-555\n<"));
    // Three instances: the x axis names them by id.
    assert!(
        svg.contains("instance id, sorted by pdb-555 nodes"),
        "{svg}"
    );

    let err = fails(&[
        "report",
        fixture,
        "--out",
        arg(&out),
        "--heuristics",
        "nope",
    ]);
    assert!(
        err.contains("'nope' is not in the results (they have: manhattan, pdb-555)"),
        "{err}"
    );
}

/// A real run beside Korf & Felner's per-instance counts: `tests/fixtures/korf50-24-small` is
/// the output of `TILEBENCH_PDB_DIR=/work/pdb-cache-shared tilebench run --instances
/// instances/korf50-24.txt:38-40 -H pdb-6666r --time-limit 15 --out target/tmp/k24
/// --no-history --jobs 1` (#38 and #40 solved in 4.8 and 7.3 s, #39 cut by the time limit).
fn korf50_24() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/korf50-24-small"
    ))
}

/// The section `Beside Korf & Felner (2002), …, per instance` of a report in Markdown.
fn published_section(md: &str) -> &str {
    let start = md
        .find("## Beside Korf & Felner (2002), 6-6-6-6")
        .unwrap_or_else(|| panic!("no per-instance section:\n{md}"));
    let rest = &md[start + 3..];
    &md[start..start + 3 + rest.find("\n#").unwrap_or(rest.len())]
}

#[test]
fn per_instance_section_beside_korf_felner_comes_from_the_runs() {
    let out = common::fresh_dir("report-korf50-24");
    let md =
        fs::read_to_string(write_report(korf50_24(), &out, &ReportOptions::default()).unwrap())
            .unwrap();
    let s = published_section(&md);
    for line in [
        "**2 of 2 instances match exactly** (those with a solved `pdb-6666r` run; 50 have a \
         published count).",
        "Totals over the 2 solved instances: ours Σ(generated) = 103,273,085, Korf & Felner's Σ = \
         103,273,085, ratio 1.00000.",
        "Ratio ours / published per instance: min 1.00000, median 1.00000, max 1.00000, \
         geometric mean 1.00000.",
        "| 38 | 38,173,507 | 38,173,507 | 0 | 1.00000 |",
        "| 40 | 65,099,578 | 65,099,578 | 0 | 1.00000 |",
        "(korf50-24-published-pdb-6666r.png)",
    ] {
        assert!(s.contains(line), "section lacks\n{line}\n---\n{s}");
    }
    assert!(
        !s.contains("| 39 |"),
        "#39 hit the time limit: not compared\n{s}"
    );
    assert!(!s.contains("differs from"), "no mismatch table\n{s}");
    // The plot is in the section, not again under Plots.
    assert_eq!(md.matches("(korf50-24-published-pdb-6666r.png)").count(), 1);
    // One heuristic: no "reduction vs itself" column (the two-heuristic fixture above has it).
    assert!(
        md.contains("| `pdb-6666r` | 2 / 3 |") && !md.contains("reduction vs pdb-6666r"),
        "{md}"
    );

    // The same runs with #40's count doubled (its last iteration 65,099,578 nodes larger):
    // the section follows the data.
    let changed = common::fresh_dir("report-korf50-24-changed/results");
    for (f, from, to) in [
        ("runs.csv", ",65099578,47116125,", ",130199156,112215703,"),
        ("iterations.csv", ",47116125,", ",112215703,"),
        ("meta.json", "", ""),
    ] {
        let text = fs::read_to_string(korf50_24().join(f)).unwrap();
        if !from.is_empty() {
            assert_eq!(text.matches(from).count(), 1, "{f}");
        }
        fs::write(changed.join(f), text.replace(from, to)).unwrap();
    }
    let out = changed.parent().unwrap().join("report");
    let md = fs::read_to_string(write_report(&changed, &out, &ReportOptions::default()).unwrap())
        .unwrap();
    let s = published_section(&md);
    for line in [
        "**1 of 2 instances match exactly**",
        "ratio 1.63036.", // (38,173,507 + 130,199,156) / 103,273,085
        "min 1.00000, median 1.50000, max 2.00000, geometric mean 1.41421.",
        "| 40 | 130,199,156 | 65,099,578 | +65,099,578 | 2.00000 | cause not known",
    ] {
        assert!(s.contains(line), "section lacks\n{line}\n---\n{s}");
    }
}

/// Copies the files of `from` (no subdirectories) into `to`.
fn copy_files(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn predicted_vs_measured_comes_from_the_predictions_and_the_fixed_bound_runs() {
    let kre = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/results/kre"));
    // An experiment directory: the predictions and two fixed-bound results directories of the
    // committed experiment (10,000 boards each).
    let exp = common::fresh_dir("report-kre/kre");
    for b in ["manhattan-b40", "manhattan-b41"] {
        copy_files(&kre.join(b), &exp.join(b));
    }
    // The prediction for bound 40 set to twice the measured mean (83,032.1519 nodes).
    let predicted = fs::read_to_string(kre.join("predict-manhattan.csv")).unwrap();
    assert!(predicted.contains("\n40,47512.6,101018.8\n"));
    // With the comment lines `tilebench predict` writes above the rows, naming its command.
    let header = "# command: tilebench predict -H manhattan --bounds 40..44 --seed 43\n\
                  # tilebench: 0.1.0, commit abc, no uncommitted changes\n";
    let rows = predicted.lines().skip_while(|l| l.starts_with('#'));
    let rows: String = rows.map(|l| format!("{l}\n")).collect();
    fs::write(
        exp.join("predict-manhattan.csv"),
        format!("{header}{rows}").replace("\n40,47512.6,101018.8\n", "\n40,1,166064.3038\n"),
    )
    .unwrap();
    let out = exp.parent().unwrap().join("report");
    let md =
        fs::read_to_string(write_report(&exp, &out, &ReportOptions::default()).unwrap()).unwrap();
    for line in [
        "## Predicted vs measured",
        "| `manhattan` | 40 | 10,000 | 83,032 | 166,064 | 2.00 | 62 |",
        "| `manhattan` | 41 | 10,000 | 171,364 | 215,213 | 1.26 | 59 |",
        "`manhattan`: predicted / measured from 1.26 to 2.00 over bounds 40–41.",
        "(kre-predicted-vs-measured.png)",
        "| `manhattan-b41` | manhattan | 41 | 10,000 |",
        "- `tilebench predict -H manhattan --bounds 40..44 --seed 43`",
    ] {
        assert!(md.contains(line), "report lacks\n{line}\n---\n{md}");
    }
    let csv = fs::read_to_string(out.join("predicted-vs-measured.csv")).unwrap();
    assert!(
        csv.contains("manhattan,40,10000,83032.1519,166064.3038,2,0.6159751364940838\n"),
        "{csv}"
    );

    // One results directory with a prediction file inside: its report gets the section too,
    // for the one bound it measured.
    let one = common::fresh_dir("report-kre-one/manhattan-b41");
    copy_files(&kre.join("manhattan-b41"), &one);
    fs::copy(
        kre.join("predict-manhattan.csv"),
        one.join("predict-manhattan.csv"),
    )
    .unwrap();
    let out = one.parent().unwrap().join("report");
    let md =
        fs::read_to_string(write_report(&one, &out, &ReportOptions::default()).unwrap()).unwrap();
    assert!(
        md.contains("| `manhattan` | 41 | 10,000 | 171,364 | 215,213 | 1.26 | 59 |"),
        "{md}"
    );
    assert!(!md.contains("| `manhattan` | 40 |"), "{md}");
    // Without predictions, no section.
    fs::remove_file(one.join("predict-manhattan.csv")).unwrap();
    let md =
        fs::read_to_string(write_report(&one, &out, &ReportOptions::default()).unwrap()).unwrap();
    assert!(!md.contains("Predicted vs measured"), "{md}");
}

/// `report A --beside B` reads B's runs as if they were A's: the small fixture split by
/// heuristic into two directories reports the same summary rows as the whole, with B's setup
/// beside A's and the scatter's caption giving the reduction's geometric mean; a run in both is
/// refused.
#[test]
fn runs_of_another_directory_are_set_beside() {
    use common::bin::{arg, fails, ok};
    let dir = common::fresh_dir("report-beside");
    let (a, b) = (dir.join("manhattan"), dir.join("pdb-555"));
    for (to, h) in [(&a, "manhattan"), (&b, "pdb-555")] {
        copy_files(fixture(), to);
        for file in ["runs.csv", "iterations.csv"] {
            let text = fs::read_to_string(to.join(file)).unwrap();
            let kept: Vec<&str> = text
                .lines()
                .enumerate()
                .filter(|(i, l)| *i == 0 || l.split(',').nth(2) == Some(h))
                .map(|(_, l)| l)
                .collect();
            fs::write(to.join(file), kept.join("\n") + "\n").unwrap();
        }
    }
    let (whole, beside) = (dir.join("whole"), dir.join("beside"));
    ok(&["report", arg(fixture()), "--out", arg(&whole)]);
    ok(&[
        "report",
        arg(&a),
        "--beside",
        arg(&b),
        "--out",
        arg(&beside),
    ]);
    let rows = |out: &Path| -> Vec<String> {
        let md = fs::read_to_string(out.join("report.md")).unwrap();
        md.lines()
            .filter(|l| l.starts_with("| `manhattan` |") || l.starts_with("| `pdb-555` |"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(rows(&beside), rows(&whole));
    assert_eq!(rows(&beside).len(), 2);
    let md = fs::read_to_string(beside.join("report.md")).unwrap();
    assert!(md.contains(&format!("--beside {}", b.display())), "{md}");
    assert!(
        md.contains("in `") && md.contains("with beside them `runs.csv` (3 rows)"),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "The setup of the runs beside them, from `{}`",
            b.join("meta.json").display()
        )),
        "{md}"
    );
    // Instances 1 and 2: 100 / 10 and 1000 / 40, geometric mean √250.
    assert!(
        md.contains("geometric mean 15.8 over these 2 instances (from 10.0 to 25.0)"),
        "{md}"
    );
    let err = fails(&[
        "report",
        arg(&a),
        "--beside",
        arg(&a),
        "--out",
        arg(&beside),
    ]);
    assert!(err.contains("run tiny #1 by manhattan is also in"), "{err}");
    // A prediction experiment's report is of predictions: nothing is set beside it, nor it beside.
    let kre = dir.join("kre");
    fs::create_dir_all(&kre).unwrap();
    fs::write(kre.join("predict-manhattan.csv"), "").unwrap();
    for (reported, other) in [(&kre, &a), (&a, &kre)] {
        let err = fails(&[
            "report",
            arg(reported),
            "--beside",
            arg(other),
            "--out",
            arg(&beside),
        ]);
        assert!(
            err.contains(&format!("{}: a prediction experiment", kre.display())),
            "{err}"
        );
    }
}

/// A report names an instance set's spiral goal with its layout, so that a reader knows which
/// goal was used (the 8-puzzle spiral has the blank in the middle).
#[test]
fn the_setup_gives_the_spiral_goal_with_its_layout() {
    let dir = common::fresh_dir("report-spiral");
    let set = common::bin::gen(
        &dir,
        "sp.txt",
        &[
            "--size", "3x3", "--count", "2", "--seed", "1", "--goal", "spiral", "--walk", "8",
        ],
    );
    let out = dir.join("results");
    let o = common::bin::run_into(&set, "manhattan", &out);
    assert!(o.status.success(), "{}", common::bin::stderr(&o));
    let reports = dir.join("reports");
    common::bin::ok(&[
        "report",
        common::bin::arg(&out),
        "--out",
        common::bin::arg(&reports),
    ]);
    let md = fs::read_to_string(reports.join("report.md")).unwrap();
    assert!(
        md.contains("(3x3 board, spiral (1 2 3 8 0 4 7 6 5) goal)"),
        "{md}"
    );
}
