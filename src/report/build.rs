//! Builds the [`Report`] model of a results directory: setup, summary tables with their
//! formulas, the comparison with published figures (only like with like), per-instance tables,
//! the plots and the history. Every number is a [`Summary`] field or computed here from
//! `runs.csv`, by a formula stated in the report beside it.

use std::collections::{BTreeMap, BTreeSet};

use super::format::{int, NONE};
use super::model::{self, Block, Cell, Column, Figure, Report, Rounding, Section, Table, Text};
use super::summary_csv::rounding;
use crate::analysis::outside::{compare_solvers, InstanceComparison, SolverComparison};
use crate::analysis::per_instance::{self, mismatch_note, PerInstanceComparison};
use crate::analysis::published::{
    setting_of, KORF100_SET, KORF100_SIZE, KORF_1985_MANHATTAN_MEAN, KORF_FELNER_2002,
    KORF_FELNER_2002_SOURCE, KORF_FELNER_GROUPING_NOTE, REFLECTED_663_NOTE,
};
use crate::analysis::Summary;
use crate::results::meta::{shell_line, LimitsInfo, Machine};
use crate::results::{Meta, Results, RunStatus, ITERATIONS_FILE, META_FILE, RUNS_FILE};

/// What goes into the report besides the results themselves.
#[derive(Debug, Clone, Default)]
pub struct Contents {
    /// The command line that regenerates the report.
    pub command: String,
    /// Add a table of every run, one row per instance (collapsed in HTML).
    pub per_instance: bool,
    /// The heuristics to report, in this order (empty: all, in file order).
    pub heuristics: Vec<String>,
    /// Predictions beside fixed-bound runs (see [`super::prediction`]); empty: no section.
    pub predicted: Vec<crate::analysis::prediction::PredictedVsMeasured>,
    /// Plots drawn but not shown (the default selection), which `--plots all` shows.
    pub plots_left_out: usize,
}

/// A plot already drawn into the report's directory, with its SVG text.
#[derive(Debug, Clone)]
pub struct DrawnFigure {
    pub kind: crate::plot::PlotKind,
    pub instance_set: String,
    pub stem: String,
    pub title: String,
    pub caption: String,
    /// Drawn from a history file (the History section) rather than from the results.
    pub history: Option<std::path::PathBuf>,
    pub svg: String,
}

/// The whole report of `results`.
pub fn build(
    results: &Results,
    summaries: &[Summary],
    figures: &[DrawnFigure],
    contents: &Contents,
) -> Report {
    let name = results
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| results.dir.display().to_string());
    let intro = vec![Text::plain("Regenerate with ")
        .code(&contents.command)
        .p(format!(" (tilebench {}). ", env!("CARGO_PKG_VERSION")))
        .p("Every figure below is computed from ")
        .code(RUNS_FILE)
        .p(format!(" ({} rows) and ", results.runs.len()))
        .code(ITERATIONS_FILE)
        .p(format!(" ({} rows) in ", results.iterations.len()))
        .code(results.dir.display().to_string())
        .p(", by the formula stated in ")
        .link("definitions", "Definitions")
        .p("; ")
        .code(super::SUMMARY_FILE)
        .p(" holds the summary tables as rounded here, ")
        .code(super::SUMMARY_FULL_FILE)
        .p(" unrounded.")
        .into()];
    let mut sections = vec![setup(results)];
    // Plots placed in a section of their own rather than under Plots.
    let mut placed: BTreeSet<String> = BTreeSet::new();
    // A lab experiment (several algorithms) leads with its core, the optimization path, its two
    // plots beside its tables rather than after every other section.
    let lab = results.compares_algorithms();
    if lab {
        if let Some(mut path) = super::optimization_path::sections(results) {
            if let Some(first) = path.first_mut() {
                for f in figures.iter().filter(|f| {
                    matches!(
                        f.kind,
                        crate::plot::PlotKind::NodesByLength | crate::plot::PlotKind::PeakStored
                    )
                }) {
                    first.push(figure(f));
                    placed.insert(f.stem.clone());
                }
            }
            sections.extend(path);
        }
    }
    for set in results.instance_sets() {
        let rows: Vec<&Summary> = summaries.iter().filter(|s| s.instance_set == set).collect();
        if rows.is_empty() {
            continue;
        }
        sections.push(summary_section(results, &set, &rows));
        if set == KORF100_SET {
            sections.push(korf_felner(results, &rows));
        }
        for s in &rows {
            let Some(p) = per_instance::published_column(&set, &s.heuristic) else {
                continue;
            };
            let stem = crate::plot::published_stem(&set, &s.heuristic);
            let plot = figures.iter().find(|f| f.stem == stem);
            placed.extend(plot.map(|f| f.stem.clone()));
            sections.push(beside_published(
                p,
                per_instance::compare(results, p).as_ref(),
                plot,
            ));
        }
        if contents.per_instance {
            let heuristics: Vec<&str> = rows.iter().map(|s| s.heuristic.as_str()).collect();
            sections.push(per_instance(results, &set, &heuristics));
        }
    }
    sections.extend(outside_solvers(results));
    if !contents.predicted.is_empty() {
        let plot = figures
            .iter()
            .find(|f| f.kind == crate::plot::PlotKind::PredictedVsMeasured);
        placed.extend(plot.map(|f| f.stem.clone()));
        sections.push(super::prediction::section(&contents.predicted, plot));
    }
    sections.push(definitions());
    let (history, plots): (Vec<&DrawnFigure>, Vec<&DrawnFigure>) = figures
        .iter()
        .filter(|f| !placed.contains(&f.stem))
        .partition(|f| f.history.is_some());
    if !plots.is_empty() || contents.plots_left_out > 0 {
        let mut s = Section::new(1, "Plots");
        if contents.plots_left_out > 0 {
            s.push(
                Text::plain(format!(
                    "{} more plots were drawn and left out: those of instance sets with too \
                     few solved instances to show anything (fewer than {}, or {} when \
                     algorithms are compared: the plots above, across sets, carry that \
                     comparison) and the scatter plot of each pair of methods. ",
                    contents.plots_left_out,
                    super::selection::MIN_INSTANCES_ALONE,
                    super::selection::MIN_INSTANCES
                ))
                .code(format!("{} --plots all", contents.command))
                .p(" draws every plot, ")
                .code("--plots KIND,…")
                .p(format!(
                    " those of some kinds ({}).",
                    super::selection::kind_names()
                )),
            );
        }
        for f in plots {
            s.push(figure(f));
        }
        sections.push(s);
    }
    if let Some(path) = history.first().and_then(|f| f.history.as_ref()) {
        let mut s = Section::new(1, "History");
        s.push(
            Text::plain("The trend over commits, from ")
                .code(path.display().to_string())
                .p(", where each ")
                .code("tilebench run")
                .p(
                    " appends a line per heuristic and instance set. A line joins only runs of \
                     the same instance set, the same instances and the same heuristic; a \
                     change of instances starts a new line.",
                ),
        );
        for f in history {
            s.push(figure(f));
        }
        sections.push(s);
    }
    Report {
        title: format!("tilebench report: {name}"),
        intro,
        sections,
    }
}

/// A drawn plot as a block of the report.
pub(super) fn figure(f: &DrawnFigure) -> Block {
    Block::Figure(Figure {
        stem: f.stem.clone(),
        title: f.title.clone(),
        caption: Text::plain(&f.caption),
        svg: f.svg.clone(),
    })
}

fn setup(results: &Results) -> Section {
    let mut s = Section::new(1, "Setup");
    let Some(meta) = &results.meta else {
        s.push(
            Text::plain("No ")
                .code(META_FILE)
                .p(" in the results directory: the setup is unknown."),
        );
        return s;
    };
    let mut t = Table::new(
        "setup",
        Text::plain("The setup, from ").code(META_FILE).p("."),
        vec![Column::text("setting"), Column::text("value")],
    );
    for (label, value) in setup_rows(meta) {
        t.row(vec![Cell::text(label), Cell::Rich(backticks(&value))]);
    }
    s.push(t);
    if meta.instance_sets.len() > MAX_SETS_IN_SETUP {
        let mut sets = Table::new(
            "instance-sets",
            Text::plain("The instance sets, from ")
                .code(META_FILE)
                .p("."),
            vec![
                Column::text("set"),
                Column::number("instances", None),
                Column::text("file, board, goal, origin"),
            ],
        );
        for set in &meta.instance_sets {
            sets.row(vec![
                Cell::text(&set.name),
                Cell::Count(set.instances as u64),
                Cell::Rich(backticks(&set_origin(set))),
            ]);
        }
        s.push(sets);
    }
    s
}

/// More instance sets than this are listed in a table of their own below the setup, which
/// then fits the first page.
const MAX_SETS_IN_SETUP: usize = 3;

/// Where one instance set comes from: its file, board, goal and generator or source.
fn set_origin(set: &crate::results::meta::SetInfo) -> String {
    let mut text = format!("`{}` ({} board, {} goal)", set.path, set.size, set.goal);
    if let Some(g) = &set.generator {
        text.push_str(&format!("; generated by `{g}`"));
    } else if let Some(seed) = &set.seed {
        text.push_str(&format!("; seed {seed}"));
    }
    if let Some(src) = &set.source {
        text.push_str(&format!("; source: {src}"));
    }
    text
}

/// Text with `code` spans marked by backticks, as the setup rows are written.
fn backticks(s: &str) -> Text {
    let mut t = Text::new();
    for (i, part) in s.split('`').enumerate() {
        if part.is_empty() {
            continue;
        }
        t = if i % 2 == 1 { t.code(part) } else { t.p(part) };
    }
    t
}

/// The rows of the Setup table: the command as one shell line, the machine and the limits in
/// words, no internal fields. Values mark `code` with backticks.
fn setup_rows(meta: &Meta) -> Vec<(&'static str, String)> {
    let mut rows = vec![("command", format!("`{}`", shell_line(&meta.command_line)))];
    let commit = match (&meta.git_commit, meta.git_dirty) {
        (Some(c), Some(true)) => format!("{c}, with uncommitted changes"),
        (Some(c), Some(false)) => format!("{c}, no uncommitted changes"),
        (Some(c), None) => format!("{c} (uncommitted changes unknown)"),
        (None, _) => "unknown (not built from a git checkout)".to_string(),
    };
    rows.push((
        "tilebench",
        format!("{}, commit {commit}", meta.tilebench_version),
    ));
    rows.push(("compiler", meta.rustc_version.clone()));
    rows.push(("machine", machine_in_words(&meta.machine)));
    rows.push(("operating system", meta.machine.os.clone()));
    let threads = match meta.threads {
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    rows.push(("pool", threads));
    let finished = meta.finished.as_deref().unwrap_or(NONE);
    rows.push((
        "time (UTC)",
        format!(
            "started {}, finished {finished}; {}",
            meta.started, meta.state
        ),
    ));
    if !meta.previous_sessions.is_empty() {
        rows.push((
            "sessions",
            format!(
                "resumed: {} earlier session(s), the first started {}",
                meta.previous_sessions.len(),
                meta.previous_sessions[0].started
            ),
        ));
    }
    if meta.instance_sets.len() > MAX_SETS_IN_SETUP {
        let names: Vec<String> = meta
            .instance_sets
            .iter()
            .map(|s| format!("{} ({})", s.name, s.instances))
            .collect();
        rows.push((
            "instance sets",
            format!(
                "{} sets (instances in brackets): {}; their files and origins in the next table",
                names.len(),
                names.join(", ")
            ),
        ));
    }
    for set in meta
        .instance_sets
        .iter()
        .filter(|_| meta.instance_sets.len() <= MAX_SETS_IN_SETUP)
    {
        let origin = set_origin(set);
        let text = format!("{} instances from {origin}", set.instances);
        rows.push(("instance set", format!("{}: {text}", set.name)));
    }
    // IDA* alone (the default, and files from before the field) is not worth a row.
    if meta.algorithms != crate::results::meta::ida_only() {
        rows.push(("algorithms", meta.algorithms.join(", ")));
    }
    rows.push(("heuristics", meta.heuristics.join(", ")));
    for s in &meta.solvers {
        let mut text = format!("{}: `{}`", s.name, s.command);
        if let Some(h) = &s.heuristic {
            text.push_str(&format!(
                "; node counts set beside the built-in search with {h}"
            ));
        }
        if s.check_optimal {
            text.push_str("; unknown optimal lengths found by the built-in search");
        }
        rows.push(("outside solver", text));
    }
    rows.push(("limits per run", limits_per_session(meta)));
    rows.push(("pairs", format!("{} (instance, method) pairs", meta.pairs)));
    if let Some(c) = &meta.collected {
        let shards = meta
            .experiment
            .as_ref()
            .map_or(meta.shards.len(), |e| e.shards);
        rows.push((
            "collected",
            format!(
                "merged from {shards} shards at {} ({} pairs present, {} missing, {} failed)",
                c.at, c.present, c.missing, c.failed
            ),
        ));
    }
    if let Some(shard) = &meta.shard {
        rows.push((
            "shard",
            format!("{} of {} (0-based)", shard.index, shard.count),
        ));
    }
    rows
}

fn machine_in_words(m: &Machine) -> String {
    let mut parts = vec![m.cpu_model.clone().unwrap_or_else(|| "unknown CPU".into())];
    parts.push(match m.cores {
        1 => "1 core".to_string(),
        n => format!("{n} cores"),
    });
    if let Some(b) = m.memory_bytes {
        parts.push(format!("{:.1} GiB memory", b as f64 / (1u64 << 30) as f64));
    }
    if let Some(h) = &m.hostname {
        parts.push(format!("host {h}"));
    }
    parts.join(", ")
}

/// The limits of the last session, and of each earlier session (`--resume`, `--retry`) whose
/// limits differed: rows finished then ran under those, so a reader must see them all.
fn limits_per_session(meta: &Meta) -> String {
    let last = limits_in_words(&meta.limits);
    // Earlier sessions grouped by their limits, in order of first use: (limits, first start, count).
    let mut earlier: Vec<(&LimitsInfo, &str, usize)> = Vec::new();
    for p in meta
        .previous_sessions
        .iter()
        .filter(|p| p.limits != meta.limits)
    {
        match earlier.iter_mut().find(|(l, _, _)| **l == p.limits) {
            Some((_, _, n)) => *n += 1,
            None => earlier.push((&p.limits, &p.started, 1)),
        }
    }
    if earlier.is_empty() {
        return last;
    }
    let earlier: Vec<String> = earlier
        .into_iter()
        .map(|(l, started, n)| match n {
            1 => format!("{} (1 session, started {started})", limits_in_words(l)),
            n => format!(
                "{} ({n} sessions, the first started {started})",
                limits_in_words(l)
            ),
        })
        .collect();
    format!(
        "{last} (the last session, started {}); earlier sessions, whose finished rows were kept: {}",
        meta.started,
        earlier.join("; ")
    )
}

fn limits_in_words(l: &LimitsInfo) -> String {
    let mut parts = Vec::new();
    if let Some(n) = l.node_limit {
        parts.push(format!("{} generated nodes", int(n as f64)));
    }
    if let Some(t) = l.time_limit_seconds {
        parts.push(format!("{t} s of search"));
    }
    if let Some(m) = l.memory_limit_bytes {
        parts.push(format!(
            "{} of memory (the stored states of A* and bfs, an outside solver's resident memory)",
            crate::search::memory::Bytes(m)
        ));
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        format!("at most {}", parts.join(" and "))
    }
}

fn summary_section(results: &Results, set: &str, rows: &[&Summary]) -> Section {
    let reference = rows
        .iter()
        .find_map(|s| s.reduction.as_ref().map(|r| r.reference.clone()))
        .unwrap_or_else(|| "reference".to_string());
    let mut s = Section::new(1, format!("Summary: {set}"));
    s.push(
        Text::plain("Means are over each heuristic's ")
            .strong("solved")
            .p(" runs; ")
            .link("definitions", "Definitions")
            .p(" gives every formula and its rounding."),
    );
    // With one heuristic there is nothing to compare against: its reduction vs itself is 1.
    let compared = rows.iter().any(|r| {
        r.reduction
            .as_ref()
            .is_some_and(|x| x.reference != r.heuristic)
    });
    let mut columns = vec![
        Column::text("heuristic"),
        Column::number("solved / runs", None),
        Column::number("mean h0", Some("moves")),
        Column::number("mean nodes", None),
        Column::number("geometric-mean nodes", None),
        Column::number("mean seconds", Some("s")),
        Column::number("nodes per second", Some("1/s")),
    ];
    if compared {
        columns.push(Column::number(
            format!("reduction vs {reference} (instances)"),
            None,
        ));
    }
    columns.extend([
        Column::number("mean overhead measured (runs)", None),
        Column::number("mean overhead predicted (runs)", None),
    ]);
    let mut t = Table::new(
        format!("summary-{}", model::user_anchor(set)),
        Text::plain(format!("Summary of the solved runs on {set}.")),
        columns,
    );
    for r in rows {
        let with_count = |v: Option<(f64, usize)>| match v {
            Some((m, n)) => Cell::WithCount(Box::new(Cell::num(m, rounding::OVERHEAD)), n as u64),
            None => Cell::Empty,
        };
        let mut cells = vec![
            Cell::Code(r.heuristic.clone()),
            Cell::Fraction(r.solved as u64, r.runs as u64),
            Cell::opt(r.mean_h0, rounding::H0),
            Cell::opt(r.mean_generated, rounding::NODES),
            Cell::opt(r.geomean_generated, rounding::NODES),
            Cell::opt(r.mean_seconds, rounding::SECONDS),
            Cell::opt(r.nodes_per_second, rounding::NODES),
        ];
        if compared {
            cells.push(r.reduction.as_ref().map_or(Cell::Empty, |x| {
                Cell::WithCount(
                    Box::new(Cell::num(x.factor, rounding::FACTOR)),
                    x.common as u64,
                )
            }));
        }
        cells.extend([
            with_count(r.mean_overhead_measured),
            with_count(r.mean_overhead_predicted),
        ]);
        t.row(cells);
    }
    s.push(t);
    let unsolved = unsolved_by_method(results, set, rows);
    if !unsolved.is_empty() {
        let list: Vec<String> = unsolved
            .iter()
            .map(|((h, status), n)| format!("{h}: {n} {status}"))
            .collect();
        s.push(Text::plain(format!(
            "Runs not solved (left out of every mean): {}.",
            list.join("; ")
        )));
    }
    s
}

/// The runs of a set not solved, counted per method (as the summary rows name it: `astar+H`,
/// `bfs`, H for IDA*) and per status, every status counted.
fn unsolved_by_method(
    results: &Results,
    set: &str,
    rows: &[&Summary],
) -> BTreeMap<(String, String), usize> {
    let mut unsolved: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in results.runs.iter().filter(|r| {
        r.instance_set == set
            && r.status != RunStatus::Solved
            && rows.iter().any(|s| s.heuristic == r.method())
    }) {
        *unsolved
            .entry((r.method(), r.status.to_string()))
            .or_default() += 1;
    }
    unsolved
}

/// Ids of the solved runs of one heuristic on a set.
fn solved_ids<'a>(results: &'a Results, set: &str, heuristic: &str) -> BTreeSet<&'a str> {
    results
        .runs
        .iter()
        .filter(|r| {
            r.instance_set == set && r.heuristic == heuristic && r.status == RunStatus::Solved
        })
        .map(|r| r.instance_id.as_str())
        .collect()
}

fn korf_felner(results: &Results, rows: &[&Summary]) -> Section {
    let mut s = Section::new(2, "Beside Korf & Felner (2002)");
    s.push(Text::plain(format!("Source: {KORF_FELNER_2002_SOURCE}")));
    let all: BTreeSet<String> = (1..=KORF100_SIZE).map(|i| i.to_string()).collect();
    let mut table = Table::new(
        "korf-felner-2002",
        Text::plain(format!(
            "Our means over all {KORF100_SIZE} instances beside Korf & Felner's (difference = ours \
             − published; ratio = ours / published). Their seconds are on 2002 hardware: not a speed comparison."
        )),
        vec![
            Column::text("ours"),
            Column::text("published as"),
            Column::text("our setting"),
            Column::number("mean h0: ours", None),
            Column::number("published", None),
            Column::number("difference", None),
            Column::number("mean nodes: ours", None),
            Column::number("published", None),
            Column::number("ratio", None),
            Column::number("mean seconds: ours", Some("s")),
            Column::number("published", Some("s")),
        ],
    );
    let mut not_comparable = Vec::new();
    let mut notes = Vec::new();
    let mut shown = BTreeSet::new();
    // (ours, published as, our mean nodes, their mean nodes) of every row shown.
    let mut means: Vec<(&str, &str, Option<f64>, f64)> = Vec::new();
    for p in KORF_FELNER_2002 {
        let mut ours: Vec<&str> = vec![p.heuristic];
        // The reflected 6-6-3 is set beside 6-6-3: our grouping is not theirs, and the
        // reflection is what brings h(start) nearest theirs.
        if p.heuristic == "pdb-663" {
            ours.push("pdb-663r");
        }
        for h in ours {
            let Some(summary) = rows.iter().find(|s| s.heuristic == h) else {
                continue;
            };
            let solved = solved_ids(results, KORF100_SET, h);
            let complete = all.iter().all(|id| solved.contains(id.as_str()));
            if !complete {
                not_comparable.push(format!(
                    "{h}: not comparable: {} of {KORF100_SIZE} instances",
                    solved.len()
                ));
                continue;
            }
            let ratio = |o: Option<f64>, p: f64| {
                Cell::opt(o.filter(|_| p > 0.0).map(|o| o / p), rounding::RATIO)
            };
            shown.insert(h);
            means.push((h, p.label, summary.mean_generated, p.mean_nodes));
            table.row(vec![
                Cell::Code(h.to_string()),
                Cell::text(p.label),
                Cell::text(setting_of(h)),
                Cell::opt(summary.mean_h0, rounding::H0),
                Cell::num(p.mean_h0, rounding::H0),
                // h(start) is deterministic: its real digits, not a ratio rounded to 1.00.
                Cell::opt(summary.mean_h0.map(|o| o - p.mean_h0), rounding::H0),
                Cell::opt(summary.mean_generated, rounding::NODES),
                Cell::num(p.mean_nodes, rounding::NODES),
                ratio(summary.mean_generated, p.mean_nodes),
                Cell::opt(summary.mean_seconds, rounding::SECONDS),
                Cell::num(p.mean_seconds, Rounding::Decimals(3)),
            ]);
        }
    }
    let run_any = KORF_FELNER_2002
        .iter()
        .any(|p| rows.iter().any(|s| s.heuristic == p.heuristic));
    if table.rows.is_empty() {
        let k = rows
            .iter()
            .map(|s| solved_ids(results, KORF100_SET, &s.heuristic).len())
            .max()
            .unwrap_or(0);
        s.push(Text::plain(format!(
            "Not comparable: {k} of {KORF100_SIZE} instances. Korf & Felner give averages \
                 over all {KORF100_SIZE} instances, and a mean over a subset is a mean of other \
                 instances; only the per-instance comparison with Korf (1985) below is shown."
        )));
        if !run_any {
            s.push(Text::plain(
                "None of the heuristics in Korf & Felner's table was run.",
            ));
        }
        return s;
    }
    s.push(table);
    if let Some(factors) = reduction_factors(&means) {
        s.push(factors);
    }
    if !not_comparable.is_empty() {
        s.push(Text::plain(format!(
            "Left out, since their averages are over all {KORF100_SIZE} instances: {}.",
            not_comparable.join("; ")
        )));
    }
    if shown.contains("manhattan") {
        notes.push(Text::plain(format!(
            "Manhattan: the two published sources disagree. Korf & Felner's mean, 401,189,630 \
             nodes, is {:.3} times the mean of Korf's (1985) per-instance counts \
             (instances/korf100.txt), {:.0}; our counts are compared instance by instance with \
             the 1985 ones below.",
            401_189_630.0 / KORF_1985_MANHATTAN_MEAN,
            KORF_1985_MANHATTAN_MEAN
        )));
    }
    if shown
        .iter()
        .any(|h| h.starts_with("pdb-555") || h.starts_with("pdb-663"))
    {
        notes.push(Text::plain(KORF_FELNER_GROUPING_NOTE));
    }
    if shown.contains("pdb-663r") {
        notes.push(Text::plain(REFLECTED_663_NOTE));
    }
    if shown.iter().any(|h| h.starts_with("pdb-78")) {
        notes.push(Text::plain(
            "7-8: our groups are Korf & Felner's ({1,…,7} and {8,…,15}), so means should agree \
             up to the order in which operators are tried, which changes the last iteration's \
             count.",
        ));
    }
    if !notes.is_empty() {
        s.push(Block::List(notes));
    }
    s
}

/// Manhattan's mean nodes over each other heuristic's, ours beside Korf & Felner's (each from
/// its own Manhattan row); none without a Manhattan row or another row.
fn reduction_factors(means: &[(&str, &str, Option<f64>, f64)]) -> Option<Table> {
    let (_, _, ours_manhattan, theirs_manhattan) =
        *means.iter().find(|(h, ..)| *h == "manhattan")?;
    let mut t = Table::new(
        "korf-felner-2002-reduction",
        Text::plain(
            "Reduction factors: mean nodes with Manhattan / mean nodes with the heuristic, ours \
             and Korf & Felner's, each from its own Manhattan row of the table above.",
        ),
        vec![
            Column::text("ours"),
            Column::text("published as"),
            Column::number("reduction vs Manhattan: ours", None),
            Column::number("published", None),
        ],
    );
    for &(h, label, ours, theirs) in means.iter().filter(|(h, ..)| *h != "manhattan") {
        let factor = |m: Option<f64>, x: Option<f64>| match (m, x) {
            (Some(m), Some(x)) if x > 0.0 => Cell::num(m / x, rounding::FACTOR),
            _ => Cell::Empty,
        };
        t.row(vec![
            Cell::Code(h.to_string()),
            Cell::text(label),
            factor(ours_manhattan, ours),
            factor(Some(theirs_manhattan), Some(theirs)),
        ]);
    }
    (!t.rows.is_empty()).then_some(t)
}

/// Our solved runs beside a published per-instance column: the counts as the paper counted,
/// how many match exactly, the distribution of the ratios, the mismatches with what is known
/// about them, every instance (collapsed) and the log-log plot.
fn beside_published(
    p: &per_instance::PublishedColumn,
    c: Option<&PerInstanceComparison>,
    plot: Option<&DrawnFigure>,
) -> Section {
    let mut s = Section::new(
        2,
        format!("Beside {}, {}, per instance", p.authors, p.setting),
    );
    s.push(Text::plain(format!("Source: {}", p.source)));
    let Some(c) = c else {
        s.push(
            Text::plain("No solved ")
                .code(p.heuristic)
                .p(" runs on ")
                .code(p.instance_set)
                .p(" with a published count to compare."),
        );
        return s;
    };
    let theirs = format!("{}'s", p.authors.split(" (").next().unwrap_or(p.authors));
    let counting = if p.counts_root {
        Text::plain(format!(
            "{theirs} counts include the root, which our search does not count, so an instance "
        ))
    } else {
        Text::plain(format!(
            "{theirs} counts leave the root out, as ours do, so an instance "
        ))
    };
    s.push(
        counting
            .strong("matches exactly")
            .p(" when our ")
            .code(p.ours_as())
            .p(format!(" equals {theirs} count.")),
    );
    let (ours_total, theirs_total) = c.totals();
    let ratio = Rounding::Significant(6);
    let mut items = vec![
        Text::plain("")
            .strong(format!(
                "{} of {} instances match exactly",
                c.exact(),
                c.rows.len()
            ))
            .p(" (those with a solved ")
            .code(p.heuristic)
            .p(format!(
                " run; {} have a published count).",
                p.counts().len()
            )),
        Text::plain(format!(
            "Totals over those {} instances: ours Σ({}) = {}, {theirs} Σ = {}, ratio {}.",
            c.rows.len(),
            p.ours_as(),
            Cell::Count(ours_total).display(),
            Cell::Count(theirs_total).display(),
            ratio.apply(ours_total as f64 / theirs_total as f64),
        )),
    ];
    if let Some((min, median, max, geo)) = c.ratio_distribution() {
        items.push(Text::plain(format!(
            "Ratio ours / published per instance: min {}, median {}, max {}, geometric mean {}.",
            ratio.apply(min),
            ratio.apply(median),
            ratio.apply(max),
            ratio.apply(geo),
        )));
    }
    items.push(Text::plain(p.differences));
    s.push(Block::List(items));
    let columns = |with_note: bool| {
        let mut v = vec![
            Column::text("instance"),
            Column::number(format!("ours: {}", p.ours_as()), Some("nodes")),
            Column::number(p.authors, Some("nodes")),
            Column::number("difference", Some("nodes")),
            Column::number("ratio", None),
        ];
        if with_note {
            v.push(Column::text("note"));
        }
        v
    };
    let row = |r: &per_instance::InstanceRow| {
        vec![
            Cell::text(&r.instance_id),
            Cell::Count(r.ours),
            Cell::Count(r.theirs),
            Cell::Diff(r.ours as i64 - r.theirs as i64),
            Cell::num(r.ratio(), ratio),
        ]
    };
    let id = format!("{}-{}", model::user_anchor(p.instance_set), p.column);
    let mut mismatches = Table::new(
        format!("{id}-mismatches"),
        Text::plain(format!("The instances whose count differs from {theirs}.")),
        columns(true),
    );
    for r in c.mismatches() {
        let mut cells = row(r);
        cells.push(Cell::text(mismatch_note(r.ours, r.theirs)));
        mismatches.row(cells);
    }
    if !mismatches.rows.is_empty() {
        s.push(mismatches);
    }
    let mut all = Table::new(
        id,
        Text::plain(format!(
            "Every solved instance beside {theirs} count (ratio = ours / published)."
        )),
        columns(false),
    );
    for r in &c.rows {
        all.row(row(r));
    }
    all.collapsed = all.rows.len() > COLLAPSE_ABOVE;
    s.push(all);
    if let Some(f) = plot {
        s.push(figure(f));
    }
    s
}

/// Tables with more rows than this are collapsed in HTML.
const COLLAPSE_ABOVE: usize = 30;

fn per_instance(results: &Results, set: &str, heuristics: &[&str]) -> Section {
    let mut s = Section::new(2, format!("Per instance: {set}"));
    let mut columns = vec![
        Column::text("instance"),
        Column::number("length", Some("moves")),
    ];
    for h in heuristics {
        columns.push(Column::number(format!("{h} nodes"), None));
        columns.push(Column::number(format!("{h} seconds"), Some("s")));
    }
    let mut t = Table::new(
        format!("per-instance-{}", model::user_anchor(set)),
        Text::plain(format!(
            "Every run on {set}: nodes generated and seconds per heuristic (a status in place \
             of the nodes when the run did not solve)."
        )),
        columns,
    );
    let mut ids: Vec<&str> = Vec::new();
    for r in results.runs.iter().filter(|r| r.instance_set == set) {
        if !ids.contains(&r.instance_id.as_str()) {
            ids.push(&r.instance_id);
        }
    }
    for id in ids {
        let runs: Vec<_> = results
            .runs
            .iter()
            .filter(|r| r.instance_set == set && r.instance_id == id)
            .collect();
        let length = runs
            .iter()
            .find(|r| r.status == RunStatus::Solved)
            .and_then(|r| r.length);
        let mut row = vec![
            Cell::text(id),
            length.map_or(Cell::Empty, |l| Cell::Count(u64::from(l))),
        ];
        for h in heuristics {
            match runs.iter().find(|r| r.heuristic == *h) {
                Some(r) if r.status == RunStatus::Solved => {
                    row.push(Cell::Count(r.generated));
                    row.push(Cell::num(r.seconds, rounding::SECONDS));
                }
                Some(r) => {
                    row.push(Cell::text(r.status.to_string()));
                    row.push(Cell::num(r.seconds, rounding::SECONDS));
                }
                None => {
                    row.push(Cell::Empty);
                    row.push(Cell::Empty);
                }
            }
        }
        t.row(row);
    }
    t.collapsed = true;
    s.push(t);
    s
}

/// "Outside solvers", when the results have any, and a subsection per solver: its command, its
/// verdicts, and per instance its length and reported node counts beside the built-in search's
/// under the heuristic it implements.
fn outside_solvers(results: &Results) -> Vec<Section> {
    let solvers = compare_solvers(results);
    if solvers.is_empty() {
        return Vec::new();
    }
    let mut s = Section::new(1, "Outside solvers");
    s.push(
        Text::plain("Programs run through the solver protocol (")
            .code("docs/solver-protocol.md")
            .p(
                ") on the same instances. Each answer was replayed with tilebench's board code; \
                 times are wall seconds of the whole process (start-up included); node counts \
                 are the ones the solver reported. The built-in columns are tilebench's IDA* \
                 under the heuristic the solver implements; ",
            )
            .strong("iterations agree")
            .p(" means every iteration's bound, generated and expanded counts are equal."),
    );
    let mut sections = vec![s];
    sections.extend(solvers.iter().map(outside_solver));
    sections
}

fn outside_solver(c: &SolverComparison) -> Section {
    let mut s = Section::new(2, format!("Outside solver: {}", c.solver));
    if let Some(command) = &c.command {
        s.push(Text::plain("Command: ").code(command).p("."));
    }
    let mut by_status: BTreeMap<RunStatus, usize> = BTreeMap::new();
    for i in &c.instances {
        *by_status.entry(i.status).or_default() += 1;
    }
    let statuses: Vec<String> = by_status
        .iter()
        .map(|(st, n)| format!("{n} {}", st.as_str()))
        .collect();
    let mut verdicts = Text::plain(format!(
        "{} instances: {}. ",
        c.instances.len(),
        statuses.join(", ")
    ));
    verdicts = match &c.heuristic {
        Some(h) => {
            let (lengths, l_of) = c.count(InstanceComparison::length_agrees);
            let (totals, t_of) = c.count(InstanceComparison::totals_agree);
            let (its, i_of) = c.count(|i| i.iterations_agree);
            verdicts
                .p("Beside the built-in search with ")
                .code(h)
                .p(format!(
                    ": lengths agree on {lengths} of {l_of}, node totals on {totals} of {t_of}, \
                 iterations on {its} of {i_of}."
                ))
        }
        None => verdicts
            .p("No built-in heuristic was named for it (")
            .code(format!("--solver {}:HEURISTIC=…", c.solver))
            .p("), so its counts stand alone."),
    };
    s.push(verdicts);
    let mut t = Table::new(
        format!("outside-{}", model::user_anchor(&c.solver)),
        Text::plain(format!(
            "Every run of {} beside the built-in search, instance by instance.",
            c.solver
        )),
        vec![
            Column::text("instance"),
            Column::text("status"),
            Column::number("length", Some("moves")),
            Column::number("built-in length", Some("moves")),
            Column::number("generated", None),
            Column::number("built-in generated", None),
            Column::number("expanded", None),
            Column::number("built-in expanded", None),
            Column::text("iterations agree"),
            Column::number("seconds", Some("s")),
        ],
    );
    let count = |v: Option<u64>| v.map_or(Cell::Empty, Cell::Count);
    for i in &c.instances {
        let (bl, bg, be) = match i.builtin {
            Some((l, g, e)) => (l.map(u64::from), Some(g), Some(e)),
            None => (None, None, None),
        };
        let agree = match i.iterations_agree {
            Some(true) => Cell::text("yes"),
            Some(false) => Cell::Rich(Text::new().strong("no")),
            None => Cell::Empty,
        };
        t.row(vec![
            Cell::text(format!("{} #{}", i.instance_set, i.instance_id)),
            Cell::text(i.status.as_str()),
            count(i.length.map(u64::from)),
            count(bl),
            Cell::Count(i.generated),
            count(bg),
            Cell::Count(i.expanded),
            count(be),
            agree,
            Cell::num(i.seconds, Rounding::Decimals(3)),
        ]);
    }
    t.collapsed = true;
    s.push(t);
    s
}

fn definitions() -> Section {
    let mut s = Section::new(1, "Definitions");
    s.push(
        Text::plain("Column names in ")
            .code("code")
            .p(" are those of ")
            .code(RUNS_FILE)
            .p(
                ". For one heuristic on one instance set, let S be its runs with status solved \
                 and n = |S|.",
            ),
    );
    let def = |name: &str, body: Text, r: Option<Rounding>| {
        let mut t = Text::plain("").strong(name).p(": ");
        t.0.extend(body.0);
        if let Some(r) = r {
            t = t.p(format!(" Rounded {}.", r.describe()));
        }
        t
    };
    let mut items = vec![
        def(
            "solved / runs",
            Text::plain("n / the number of rows of ").code(RUNS_FILE).p(" for that set and heuristic."),
            None,
        ),
        def("mean h0", Text::plain("Σ ").code("h0").p(" / n over S."), Some(rounding::H0)),
        def(
            "mean nodes",
            Text::plain("Σ ")
                .code("generated")
                .p(" / n over S (nodes generated, summed over all iterations; the root is not counted)."),
            Some(rounding::NODES),
        ),
        def(
            "geometric-mean nodes",
            Text::plain("exp(Σ ln ")
                .code("generated")
                .p(" / m) over the m runs of S with ")
                .code("generated")
                .p(" > 0."),
            Some(rounding::NODES),
        ),
        def(
            "mean seconds",
            Text::plain("Σ ").code("seconds").p(" / n over S (wall-clock time of the search)."),
            Some(rounding::SECONDS),
        ),
        def(
            "nodes per second",
            Text::plain("Σ ")
                .code("generated")
                .p(" / Σ ")
                .code("seconds")
                .p(" over S, the total rate, not the mean of the per-run rates."),
            Some(rounding::NODES),
        ),
        def(
            "reduction vs R",
            Text::plain("with R the reference heuristic (")
                .code("manhattan")
                .p(", or the first heuristic when Manhattan was not run) and C the instances solved by both, Σ_C ")
                .code("generated")
                .p("(R) / Σ_C ")
                .code("generated")
                .p("(heuristic), the ratio of their mean nodes over C; |C| is in brackets."),
            Some(rounding::FACTOR),
        ),
        def(
            "mean overhead measured / predicted",
            Text::plain("mean of ")
                .code("overhead_measured")
                .p(" / ")
                .code("overhead_predicted")
                .p(" over the runs of S that have one (their number in brackets)."),
            Some(rounding::OVERHEAD),
        ),
        def(
            "ratio (published comparisons)",
            Text::plain("ours / published."),
            Some(rounding::RATIO),
        ),
    ];
    items.push(Text::plain("").strong("overheads").p(
        ": with N_1 … N_k the nodes generated per iteration and the last iteration left \
                 out as cut short: r = N_(k−1) / N_(k−2), the growth between the last two \
                 completed iterations (not the geometric mean from the first, which the first \
                 tiny iterations inflate), measured = (N_1 + … + N_(k−1)) / N_(k−1), predicted \
                 = r / (r − 1).",
    ));
    items.push(
        Text::plain("")
            .code(super::SUMMARY_FILE)
            .p(" holds these columns rounded as above (without thousands separators); ")
            .code(super::SUMMARY_FULL_FILE)
            .p(" the same columns unrounded."),
    );
    s.push(Block::List(items));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;

    /// The committed lab experiment has 9 instance sets: the setup names them in one row (so
    /// that it fits the first page) and a table of their own gives each one's origin.
    #[test]
    fn reduction_factors_set_ours_beside_theirs() {
        let means = [
            (
                "manhattan",
                "Manhattan distance",
                Some(400.0),
                401_189_630.0,
            ),
            (
                "pdb-663",
                "disjoint additive PDB 6-6-3",
                Some(4.0),
                617_555.0,
            ),
        ];
        let t = reduction_factors(&means).unwrap();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][2], Cell::num(100.0, rounding::FACTOR));
        assert_eq!(
            t.rows[0][3],
            Cell::num(401_189_630.0 / 617_555.0, rounding::FACTOR)
        );
        assert!(reduction_factors(&means[1..]).is_none());
    }

    #[test]
    fn many_instance_sets_get_a_table_of_their_own() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/optimization-path");
        let results = Results::load(&dir).unwrap();
        let meta = results.meta.as_ref().unwrap();
        assert!(meta.instance_sets.len() > MAX_SETS_IN_SETUP);
        let rows = setup_rows(meta);
        assert_eq!(
            rows.iter().filter(|(l, _)| *l == "instance sets").count(),
            1
        );
        assert!(rows.iter().all(|(l, _)| *l != "instance set"), "{rows:?}");
        let section = setup(&results);
        let tables: Vec<&Table> = section
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::Table(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[1].rows.len(), meta.instance_sets.len());
    }

    /// A stop is counted under the method that stopped (`astar+manhattan`, not `manhattan`), and
    /// breadth-first search's stops are counted too.
    #[test]
    fn unsolved_notes_name_the_method_and_count_every_stop() {
        let run = |algorithm, heuristic: &str, id: &str, status| crate::results::RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            algorithm,
            heuristic: heuristic.into(),
            status,
            ..Default::default()
        };
        let results = Results {
            dir: "r".into(),
            runs: vec![
                run(Algorithm::Ida, "manhattan", "1", RunStatus::Solved),
                run(Algorithm::Astar, "manhattan", "1", RunStatus::MemoryLimit),
                run(Algorithm::Bfs, "", "1", RunStatus::MemoryLimit),
                run(Algorithm::Bfs, "", "2", RunStatus::TimeLimit),
                crate::results::RunRecord {
                    h0: Some(0),
                    ..run(Algorithm::Bfs, "", "3", RunStatus::Solved)
                },
            ],
            iterations: vec![],
            meta: None,
        };
        let summaries = crate::analysis::summarize(&results);
        let rows: Vec<&Summary> = summaries.iter().collect();
        let got = unsolved_by_method(&results, "s", &rows);
        let want: BTreeMap<(String, String), usize> = [
            (("astar+manhattan".into(), "memory-limit".into()), 1),
            (("bfs".into(), "memory-limit".into()), 1),
            (("bfs".into(), "time-limit".into()), 1),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, want);
        let bfs = summaries.iter().find(|s| s.heuristic == "bfs").unwrap();
        assert_eq!(bfs.mean_h0, None, "BFS has no h0");
    }

    #[test]
    fn limits_name_every_session_whose_limits_differed() {
        let mut meta = crate::results::meta::tests::sample();
        meta.limits.node_limit = Some(100_000_000);
        meta.limits.time_limit_seconds = None;
        meta.started = "2026-12-01T10:00:00Z".into();
        let same = meta.clone();
        let mut first = meta.clone();
        first.limits.node_limit = Some(1_000_000);
        first.started = "2026-11-30T09:00:00Z".into();
        meta.previous_sessions = vec![first.clone(), same, first];
        let limits = setup_rows(&meta)
            .into_iter()
            .find(|(label, _)| *label == "limits per run")
            .unwrap()
            .1;
        assert_eq!(
            limits,
            "at most 100,000,000 generated nodes (the last session, started \
             2026-12-01T10:00:00Z); earlier sessions, whose finished rows were kept: at most \
             1,000,000 generated nodes (2 sessions, the first started 2026-11-30T09:00:00Z)"
        );
        meta.previous_sessions.retain(|p| p.limits == meta.limits);
        let limits = setup_rows(&meta)
            .into_iter()
            .find(|(l, _)| *l == "limits per run");
        assert_eq!(limits.unwrap().1, "at most 100,000,000 generated nodes");
    }
}
