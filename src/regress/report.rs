//! The report of a regression check, in the report model every other report uses (Markdown and
//! self-contained HTML through the same renderers): what was compared, the verdict, per method,
//! the per-pair table and the plot of the pairs' time ratios.

use std::path::{Path, PathBuf};

use super::output::{summary, RegressMeta};
use super::verdict::Verdict;
use super::RegressError;
use crate::path_io::At;
use crate::report::format::count;
use crate::report::model::{Block, Cell, Column, Figure, Report, Rounding, Section, Table, Text};
use crate::report::Format;

/// The report as a value (`figures`: the drawn plots with their SVG text).
pub fn build(meta: &RegressMeta, v: &Verdict, figures: &[(crate::plot::Figure, String)]) -> Report {
    let o = &v.options;
    let intro = vec![Block::List(vec![
        Text::plain("base: ").code(&meta.base.label),
        Text::plain("head: ").code(&meta.head.label),
        Text::plain("workload: ")
            .code(meta.workload.instances.join(","))
            .p(" × ")
            .code(meta.workload.heuristics.join(","))
            .p(format!(
                "; {} rounds (+{} warm-up), base and head alternating, one process per side \
                 and round, one job",
                meta.rounds, meta.warmup
            )),
        Text::plain(format!(
            "machine: {} ({} cores); load average {} → {}",
            meta.machine.cpu_model.as_deref().unwrap_or("unknown CPU"),
            meta.machine.cores,
            meta.load_start
                .map_or("unknown".into(), |l| format!("{:.2}", l[0])),
            meta.load_end
                .map_or("unknown".into(), |l| format!("{:.2}", l[0]))
        )),
        Text::plain(format!(
            "thresholds: time {} % beyond the 95 % interval, instructions {} %",
            o.threshold_pct, o.instructions_threshold_pct
        )),
        Text::plain("regenerate: ").code(meta.command_line.join(" ")),
    ])];
    let mut sections = Vec::new();

    let mut verdict = Section::new(1, "Verdict");
    verdict.push(Text::plain(summary(v)));
    if v.passed() {
        verdict.push(Text::plain("").strong("PASS").p(": no regression."));
    } else {
        verdict.push(
            Text::plain("")
                .strong("FAIL")
                .p(format!(": {}.", count(v.failures.len(), "problem"))),
        );
        verdict.push(Block::List(
            v.failures
                .iter()
                .map(|f| Text::plain(f.to_string()))
                .collect(),
        ));
    }
    if let Some(n) = v.noise_pct {
        verdict.push(Text::plain(format!(
            "Noise measured in this run: one paired ratio scatters by ±{n:.1} % (median \
             absolute deviation)."
        )));
    }
    sections.push(verdict);

    let mut per = Section::new(1, "Per method");
    let mut t = Table::new(
        "regress-per-method",
        Text::plain(
            "Per method, the geometric mean of its paired time ratios head/base over every pair \
             and round, with the 95 % Student t interval of the rounds' geometric means (a round \
             is the unit of noise), and the geometric mean of its instruction ratios.",
        ),
        vec![
            Column::text("method"),
            Column::number("pairs", None),
            Column::number("time ratio", None),
            Column::number("low", None),
            Column::number("high", None),
            Column::text("time verdict"),
            Column::number("instructions ratio", None),
        ],
    );
    for g in v.methods.iter().chain(std::iter::once(&v.overall)) {
        let verdict = g.time_verdict(v.options.threshold_pct);
        t.row(vec![
            Cell::Code(g.name.clone()),
            Cell::Count(g.pairs as u64),
            Cell::opt(g.time.map(|e| e.ratio), Rounding::Decimals(3)),
            Cell::opt(g.time.map(|e| e.lo), Rounding::Decimals(3)),
            Cell::opt(g.time.map(|e| e.hi), Rounding::Decimals(3)),
            Cell::text(verdict),
            Cell::opt(g.instructions_ratio, Rounding::Decimals(4)),
        ]);
    }
    per.push(t);
    sections.push(per);

    if !figures.is_empty() {
        let mut s = Section::new(1, "Plot");
        for (f, svg) in figures {
            s.push(Figure {
                stem: f.stem.clone(),
                title: f.title.clone(),
                caption: Text::plain(&f.caption),
                svg: svg.clone(),
            });
        }
        sections.push(s);
    }

    let mut pairs = Section::new(1, "Per pair");
    let mut t = Table::new(
        "regress-pairs",
        Text::plain("Every (instance, method): node counts, median seconds, ratios."),
        vec![
            Column::text("set"),
            Column::text("id"),
            Column::text("method"),
            Column::number("generated: base", None),
            Column::number("head", None),
            Column::number("seconds: base", Some("s")),
            Column::number("head", Some("s")),
            Column::number("time ratio", None),
            Column::number("low", None),
            Column::number("high", None),
            Column::number("instructions ratio", None),
            Column::text("change"),
        ],
    );
    for p in &v.pairs {
        t.row(vec![
            Cell::text(&p.pair.instance_set),
            Cell::text(&p.pair.instance_id),
            Cell::Code(p.pair.method.clone()),
            Cell::Count(p.base.generated),
            Cell::Count(p.head.generated),
            Cell::num(p.base.median_seconds, Rounding::Significant(4)),
            Cell::num(p.head.median_seconds, Rounding::Significant(4)),
            Cell::opt(p.time.map(|e| e.ratio), Rounding::Decimals(3)),
            Cell::opt(p.time.map(|e| e.lo), Rounding::Decimals(3)),
            Cell::opt(p.time.map(|e| e.hi), Rounding::Decimals(3)),
            Cell::opt(p.instructions_ratio, Rounding::Decimals(4)),
            Cell::text(if p.nodes_changed { "nodes" } else { "" }),
        ]);
    }
    pairs.push(t);
    sections.push(pairs);
    Report {
        title: "tilebench regress".into(),
        intro,
        sections,
    }
}

/// Draws the plot and writes `report.md` and `report.html` into `out_dir`; returns the files.
pub fn write(
    meta: &RegressMeta,
    v: &Verdict,
    out_dir: &Path,
) -> Result<Vec<PathBuf>, RegressError> {
    let figures = crate::plot::plot_regress(v, out_dir)?;
    let mut drawn = Vec::new();
    for f in figures {
        let p = out_dir.join(format!("{}.svg", f.stem));
        let svg = std::fs::read_to_string(&p).at(&p)?;
        drawn.push((f, svg));
    }
    let report = build(meta, v, &drawn);
    Ok(crate::report::render::write(&report, out_dir, &Format::DEFAULT).at(out_dir)?)
}
