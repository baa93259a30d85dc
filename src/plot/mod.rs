//! Comparison plots of a results directory, each written as SVG and PNG with the bundled font
//! (no system font library): one file per plot kind, shared axis and style helpers.
//!
//! Every plot is drawn per instance set; file names start with the set's name
//! (`korf100-nodes-per-instance.svg`).

mod axis;
mod by_length;
mod chart;
mod compare;
mod distribution;
mod history;
mod iterations;
mod kind;
mod legend;
pub(crate) mod names;
mod nodes_per_instance;
mod overhead;
pub mod pdf;
mod prediction;
mod regress;
mod scatter;
mod speed;
mod style;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use thiserror::Error;

use crate::analysis::{heuristics_of_set, reference_heuristic, solved_by_instance};
use crate::path_io::At;
use crate::results::atomic;
use crate::results::history::{self as history_file, HistoryError, HistoryRow};
use crate::results::{Results, RunRecord, RunStatus};

pub use axis::{log_label, LogAxis};
pub use compare::plot_comparison;
pub use kind::{PlotKind, UnknownKind};
pub(crate) use names::ShortNames;
pub(crate) use nodes_per_instance::LATER_WORK;
pub use prediction::plot_predictions;
pub use regress::plot_regress;

/// Why plots could not be drawn.
#[derive(Debug, Error)]
pub enum PlotError {
    #[error(transparent)]
    Io(#[from] crate::path_io::PathIo),
    #[error("drawing failed: {0}")]
    Draw(String),
    #[error("--scatter {0}: expected two heuristic names separated by a comma, such as manhattan,pdb-555")]
    BadPair(String),
    #[error("--scatter: heuristic '{name}' is not in the results (they have: {known})")]
    UnknownHeuristic { name: String, known: String },
    #[error("--heuristics: '{name}' is not in the results (they have: {known})")]
    UnknownChosen { name: String, known: String },
    #[error("--instances: instance '{0}' has no iterations in the results")]
    UnknownInstance(String),
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error("{path}: no history lines for instance set(s) {sets}", path = .path.display())]
    HistoryWithoutSets { path: PathBuf, sets: String },
    #[error(
        "{path}: nothing to plot: {lines} from {runs}, and a trend needs one \
         heuristic's lines from at least two runs over the same number of instances (each \
         `tilebench run` or regress build adds one per heuristic and set)",
        path = .path.display()
    )]
    /// `lines` and `runs` counted in words ("1 history line").
    NoTrend {
        path: PathBuf,
        lines: String,
        runs: String,
    },
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        PlotError::Draw(e.to_string())
    }
}

/// Choices the user can make about which plots to draw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlotOptions {
    /// Scatter pairs (x heuristic, y heuristic). Empty: every heuristic against Manhattan (or
    /// against the first heuristic when Manhattan was not run).
    pub scatter: Vec<(String, String)>,
    /// Instance ids for the per-iteration plots. Empty: the three hardest instances solved by
    /// the reference heuristic.
    pub instances: Vec<String>,
    /// The history file to draw the trend over commits from. `None`: the results directory's
    /// own history (`history.csv` inside it, else beside it), when there is one.
    pub history: Option<PathBuf>,
    /// Draw no history, even when there is a history file inside or beside the results.
    pub no_history: bool,
    /// The heuristics to draw, in this order; empty: all, in the order of `runs.csv`.
    pub heuristics: Vec<String>,
}

impl PlotOptions {
    /// Parses `A,B` into a scatter pair.
    pub(crate) fn parse_pair(s: &str) -> Result<(String, String), PlotError> {
        // Split as `run -H` splits: a `max(…)` or a custom partition keeps its commas.
        match &crate::heuristic::split_names(s)[..] {
            [a, b] => Ok((a.clone(), b.clone())),
            _ => Err(PlotError::BadPair(s.to_string())),
        }
    }
}

/// How many instances the per-iteration plots show by default.
pub(crate) const DEFAULT_ITERATION_INSTANCES: usize = 3;

/// A plot that was written: `<stem>.svg` and `<stem>.png` in the output directory.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub kind: PlotKind,
    pub instance_set: String,
    pub stem: String,
    pub title: String,
    /// What the plot shows and how to read it (one or two sentences for the report), with code
    /// spans in backticks.
    pub caption: String,
    /// The history file the figure was drawn from; `None` for plots of the results directory.
    pub history: Option<PathBuf>,
    /// The SVG as written, for inlining and for the PDF.
    pub svg: String,
}

/// Draws every plot for every instance set into `out_dir` (created if needed).
pub(crate) fn plot_all(
    results: &Results,
    out_dir: &Path,
    options: &PlotOptions,
) -> Result<Vec<Figure>, PlotError> {
    let names: Vec<&str> = results.runs.iter().map(|r| r.heuristic.as_str()).collect();
    let _outside = style::Outside::drawn(
        (results.runs.iter())
            .filter(|r| matches!(r.method(), crate::results::Method::Outside { .. }))
            .map(RunRecord::label)
            .collect(),
    );
    style::with_unknown(&names, || {
        prepare(out_dir)?;
        let all_heuristics = chosen_heuristics(results, &options.heuristics)?;
        for (a, b) in &options.scatter {
            for name in [a, b] {
                if !all_heuristics.contains(name) {
                    return Err(PlotError::UnknownHeuristic {
                        name: name.clone(),
                        known: all_heuristics.join(", "),
                    });
                }
            }
        }
        for id in &options.instances {
            if !results.iterations.iter().any(|i| &i.instance_id == id) {
                return Err(PlotError::UnknownInstance(id.clone()));
            }
        }
        let short = ShortNames::of_runs(&results.runs);
        let mut figures = Vec::new();
        for set in results.instance_sets() {
            let data = SetData::new(results, &set, &all_heuristics, &short);
            let mut out = Out::new(out_dir, &set, &mut figures);
            out.short = Some(&short);
            nodes_per_instance::plot(&data, &mut out)?;
            distribution::plot(&data, &mut out)?;
            scatter::plot(&data, &options.scatter, &mut out)?;
            scatter::plot_published(&data, &mut out)?;
            nodes_per_instance::plot_later_work(&data, &mut out)?;
            iterations::plot(&data, &options.instances, &mut out)?;
            overhead::plot(&data, &mut out)?;
            speed::plot(&data, &mut out)?;
        }
        // The optimization-path plots span every instance set.
        let mut out = Out::new(out_dir, by_length::PREFIX, &mut figures);
        out.short = Some(&short);
        by_length::plot(results, &by_length::PEAK_STORED, &mut out)?;
        by_length::plot(results, &by_length::NODES_BY_LENGTH, &mut out)?;
        let sets = results.instance_sets();
        let history = match &options.history {
            _ if options.no_history => None,
            Some(path) => Some(path.clone()),
            None => Some(history_file::for_plot(&results.dir)).filter(|p| p.exists()),
        };
        if let Some(path) = history {
            // Only history lines over as many runs as these results have of the same set and
            // heuristic: the trend of this selection, not of another run of the same set.
            let mut runs: HashMap<(&str, &str), u64> = HashMap::new();
            for r in &results.runs {
                *runs.entry((&r.instance_set, &r.heuristic)).or_default() += 1;
            }
            let rows: Vec<HistoryRow> = history_file::load(&path)?
                .into_iter()
                .filter(|h| {
                    runs.get(&(h.instance_set.as_str(), h.heuristic.as_str())) == Some(&h.runs)
                })
                .collect();
            let drawn = history_figures(&path, &rows, Some(&sets), &all_heuristics, out_dir)?;
            if drawn.is_empty() && options.history.is_some() {
                return Err(PlotError::HistoryWithoutSets {
                    path,
                    sets: sets.join(", "),
                });
            }
            figures.extend(drawn);
        }
        Ok(figures)
    })
}

/// The heuristics to draw: `chosen` in its order after checking each is in the results, or
/// every heuristic of the results in file order when `chosen` is empty.
pub(crate) fn chosen_heuristics(
    results: &Results,
    chosen: &[String],
) -> Result<Vec<String>, PlotError> {
    let all = results.methods();
    if chosen.is_empty() {
        return Ok(all);
    }
    let mut out: Vec<String> = Vec::new();
    for name in chosen {
        if !all.contains(name) {
            return Err(PlotError::UnknownChosen {
                name: name.clone(),
                known: all.join(", "),
            });
        }
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    Ok(out)
}

/// Draws the trend over commits from the history file at `path` (see [`crate::results::history`]): per
/// instance set, `<set>-history-speed` and `<set>-history-nodes`. `sets`: only these instance
/// sets (`None`: every set in the file). `heuristics`: only these, in this order (empty: all).
/// A malformed file is an error naming file and line, and so is one with nothing to draw (no
/// heuristic with lines from two runs), saying why.
pub fn plot_history(
    path: &Path,
    sets: Option<&[String]>,
    heuristics: &[String],
    out_dir: &Path,
) -> Result<Vec<Figure>, PlotError> {
    let rows: Vec<HistoryRow> = history_file::load(path)?;
    let figures = history_figures(path, &rows, sets, heuristics, out_dir)?;
    if figures.is_empty() {
        let mut runs: Vec<(&str, &str)> = rows.iter().map(|r| (&*r.commit, &*r.date)).collect();
        runs.dedup();
        return Err(PlotError::NoTrend {
            path: path.to_path_buf(),
            lines: crate::report::format::count(rows.len(), "history line"),
            runs: crate::report::format::count(runs.len(), "run"),
        });
    }
    Ok(figures)
}

/// [`plot_history`] of rows already read from `path`.
fn history_figures(
    path: &Path,
    rows: &[HistoryRow],
    sets: Option<&[String]>,
    heuristics: &[String],
    out_dir: &Path,
) -> Result<Vec<Figure>, PlotError> {
    style::register_font();
    let sets: Vec<String> = match sets {
        Some(sets) => sets.to_vec(),
        None => {
            let mut all: Vec<String> = Vec::new();
            for r in rows {
                if !all.contains(&r.instance_set) {
                    all.push(r.instance_set.clone());
                }
            }
            all
        }
    };
    let names: Vec<&str> = rows.iter().map(|r| r.heuristic.as_str()).collect();
    style::with_unknown(&names, || {
        let mut figures = Vec::new();
        for set in sets
            .iter()
            .filter(|s| rows.iter().any(|r| &r.instance_set == *s))
        {
            prepare(out_dir)?;
            let mut out = Out::new(out_dir, set, &mut figures);
            out.history = Some(path);
            history::plot(rows, set, heuristics, &mut out)?;
        }
        Ok(figures)
    })
}

/// The runs of one instance set, arranged for plotting.
struct SetData<'a> {
    results: &'a Results,
    set: String,
    /// Heuristics with runs on this set, in file order.
    heuristics: Vec<String>,
    /// Solved runs by heuristic, then instance id.
    solved: HashMap<String, HashMap<&'a str, &'a RunRecord>>,
    reference: Option<String>,
    /// For names drawn inside a chart (axes, file names); legends and titles are shortened
    /// by [`Out`].
    short: &'a ShortNames,
}

impl<'a> SetData<'a> {
    fn new(
        results: &'a Results,
        set: &str,
        chosen: &[String],
        short: &'a ShortNames,
    ) -> SetData<'a> {
        let of_set = heuristics_of_set(results, set);
        let heuristics: Vec<String> = chosen
            .iter()
            .filter(|h| of_set.contains(h))
            .cloned()
            .collect();
        let solved = heuristics
            .iter()
            .map(|h| (h.clone(), solved_by_instance(results, set, h)))
            .collect();
        SetData {
            results,
            set: set.to_string(),
            reference: reference_heuristic(&heuristics).map(str::to_string),
            heuristics,
            solved,
            short,
        }
    }

    /// `name` as figures show it (see [`ShortNames`]).
    fn shown(&self, name: &str) -> String {
        self.short.apply(name)
    }

    fn color(&self, heuristic: &str) -> RGBColor {
        style::color_of(heuristic)
    }

    /// Solved runs of a heuristic on this set, in file order.
    fn solved_runs(&self, heuristic: &'a str) -> impl Iterator<Item = &'a RunRecord> + '_ {
        self.results.runs.iter().filter(move |r| {
            r.instance_set == self.set && r.label() == heuristic && r.status == RunStatus::Solved
        })
    }
}

/// A labelled, coloured set of points.
type Series = (String, RGBColor, Vec<(f64, f64)>);

/// Where a plot goes.
struct Out<'o> {
    dir: &'o Path,
    set: &'o str,
    /// The history file, for plots drawn from one.
    history: Option<&'o Path>,
    /// Short names shown for long heuristic names in legends, titles and captions.
    short: Option<&'o ShortNames>,
    figures: &'o mut Vec<Figure>,
}

impl<'o> Out<'o> {
    fn new(dir: &'o Path, set: &'o str, figures: &'o mut Vec<Figure>) -> Out<'o> {
        Out {
            dir,
            set,
            history: None,
            short: None,
            figures,
        }
    }

    /// Renders `chart` as `<set>-<name>.svg` and `.png` and records the figure.
    fn save(
        &mut self,
        kind: PlotKind,
        name: &str,
        size: (u32, u32),
        chart: &impl Chart,
        title: String,
        caption: String,
    ) -> Result<(), PlotError> {
        let drawn = Drawn {
            entries: chart.legend(),
            svg: &|area| chart.draw(area),
            png: &|area| chart.draw(area),
        };
        self.save_drawn(kind, name, size, &drawn, title, caption)
    }

    /// [`Out::save`] for any chart: compiled once, not once per kind of chart.
    fn save_drawn(
        &mut self,
        kind: PlotKind,
        name: &str,
        size: (u32, u32),
        chart: &Drawn,
        title: String,
        caption: String,
    ) -> Result<(), PlotError> {
        let shown = |text: &str| self.short.map_or(text.to_string(), |s| s.apply(text));
        let entries: Vec<legend::Entry> = chart
            .entries
            .iter()
            .map(|legend::Entry(label, sample)| legend::Entry(shown(label), *sample))
            .collect();
        let (title, mut caption) = (shown(&title), shown(&caption));
        let size = legend::fitted(size, &entries);
        let stem = format!(
            "{}-{}",
            atomic::name_component(self.set),
            atomic::sanitized(name)
        );
        let svg_path = self.dir.join(format!("{stem}.svg"));
        let png_path = self.dir.join(format!("{stem}.png"));
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            root.fill(&WHITE)?;
            legend::lay_out(&root, &entries, chart.svg, &title)?;
            root.present()?;
        }
        for note in NOTES.with(|n| n.borrow().clone()) {
            if !caption.contains(note.unless) {
                caption.push_str(note.text);
            }
        }
        atomic::write(&svg_path, svg.as_bytes()).at(&svg_path)?;
        // The PNG encoder wants a path: it draws inside a private directory, then the file is
        // renamed into place (never through a symlink planted at `png_path`).
        let mut drawn: Result<(), PlotError> = Ok(());
        let written = atomic::write_via_path(&png_path, |inner| {
            drawn = (|| {
                let root = BitMapBackend::new(inner, size).into_drawing_area();
                root.fill(&WHITE)?;
                legend::lay_out(&root, &entries, chart.png, &title)?;
                root.present()?;
                Ok(())
            })();
            drawn
                .as_ref()
                .map(|_| ())
                .map_err(|e| std::io::Error::other(e.to_string()))
        });
        drawn?;
        written.at(&png_path)?;
        self.figures.push(Figure {
            kind,
            instance_set: self.set.to_string(),
            stem,
            title,
            caption,
            history: self.history.map(Path::to_path_buf),
            svg,
        });
        Ok(())
    }
}

/// A chart as [`Out::save_drawn`] takes it: its legend and its drawing on the two backends.
struct Drawn<'a> {
    entries: Vec<legend::Entry>,
    svg: &'a OnSvg<'a>,
    png: &'a OnPng<'a>,
}

/// A chart drawing itself on an SVG area (whatever the lifetime of the backend's buffer: the
/// buffers are made inside [`Out::save_drawn`]).
type OnSvg<'a> = dyn for<'b> Fn(&DrawingArea<SVGBackend<'b>, Shift>) -> Result<(), PlotError> + 'a;
/// The same on a bitmap (PNG) area.
type OnPng<'a> =
    dyn for<'b> Fn(&DrawingArea<BitMapBackend<'b>, Shift>) -> Result<(), PlotError> + 'a;

/// A plot that can draw itself on any plotters backend.
trait Chart {
    /// The legend's entries, in the order drawn: [`legend::lay_out`] sizes the legend's column
    /// from them (empty: no legend, no column).
    fn legend(&self) -> Vec<legend::Entry>;
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>;
}

/// The file stem of the per-instance published comparison plot of `heuristic` on `set` (see
/// [`crate::analysis::per_instance`]), so that the report can place it in its section.
pub(crate) fn published_stem(set: &str, heuristic: &str) -> String {
    format!(
        "{}-{}",
        atomic::name_component(set),
        atomic::sanitized(&scatter::published_name(heuristic))
    )
}

/// Before drawing into `dir`: the bundled font registered, the directory created.
fn prepare(dir: &Path) -> Result<(), PlotError> {
    style::register_font();
    Ok(fs::create_dir_all(dir).at(dir)?)
}

thread_local! {
    /// The places that have a marker in the figure being drawn, with the number of series
    /// marked there ([`new_figure`] empties it).
    static MARKED: std::cell::RefCell<std::collections::HashMap<(u64, u64, i32), i32>> =
        std::cell::RefCell::default();
    /// What the figure being drawn needs its caption to say ([`note`]).
    static NOTES: std::cell::RefCell<Vec<Note>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A point in a chart's data coordinates.
type Point = (f64, f64);

/// Where a marker goes: its point, and a shift of so many pixels to the right of it (markers
/// set side by side, see `by_length`).
type Placed = (Point, i32);

/// Each of a series' markers with the number of earlier series of the figure marked at the same
/// place; then marks them for the series after (once per place, however often this series
/// repeats it).
fn mark(places: &[Placed]) -> Vec<(Placed, i32)> {
    let key = |&((x, y), dx): &Placed| (x.to_bits(), y.to_bits(), dx);
    MARKED.with(|m| {
        let mut marked = m.borrow_mut();
        let earlier = (places.iter())
            .map(|p| (*p, marked.get(&key(p)).copied().unwrap_or(0)))
            .collect();
        let mine: std::collections::HashSet<(u64, u64, i32)> = places.iter().map(key).collect();
        for k in mine {
            *marked.entry(k).or_default() += 1;
        }
        earlier
    })
}

/// Starts a figure: no point has a marker yet, the caption needs no note.
fn new_figure() {
    MARKED.with(|m| m.borrow_mut().clear());
    NOTES.with(|n| n.borrow_mut().clear());
}

/// A sentence that a figure's caption gets when its drawing needed it (a ring was drawn,
/// markers were set side by side), unless the caption already says it (holds `unless`): the
/// drawing, not the caption's writer, knows whether it happened.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Note {
    text: &'static str,
    unless: &'static str,
}

/// Adds `note` to the figure being drawn (once).
fn note(note: Note) {
    NOTES.with(|n| {
        let mut notes = n.borrow_mut();
        if !notes.contains(&note) {
            notes.push(note);
        }
    });
}

/// What a figure with rings says in its caption.
const RING_NOTE: Note = Note {
    text: " A ring around a marker, in a series' own shape and colour, is a further series \
           with the same value there (each one a ring further out).",
    unless: " a ring ",
};

/// How a marker is painted. Each way means one thing in every figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fill {
    /// A point as measured: a solved run, an iteration.
    Full,
    /// Outlined only: a run stopped by a limit (and, larger, a ring round another series'
    /// marker: the same value there).
    Hollow,
    /// Outlined with its left half filled: an A* run, where IDA*'s of the same heuristic (same
    /// colour and marker) stand beside it with no line to tell them apart (seconds against
    /// nodes). Hollow, as it was, said "stopped" in the other figures.
    Half,
}

/// Draws `look`'s marker on each point, `size` pixels from its centre, painted `fill` (see
/// [`draw_placed`]).
fn draw_markers<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    points: &[(f64, f64)],
    look: style::Look,
    size: i32,
    fill: Fill,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
{
    let places: Vec<Placed> = points.iter().map(|&p| (p, 0)).collect();
    draw_placed(chart, &places, look, size, fill)
}

/// Draws `look`'s marker at each place, `size` pixels from its centre, painted `fill`. A
/// place where earlier series of the figure have markers gets a ring in this series' shape
/// around them instead, one step further out for each earlier series, so that a series equal to
/// others (an outside solver that reproduces the built-in search's counts) is seen, not hidden
/// under them.
fn draw_placed<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    places: &[Placed],
    look: style::Look,
    size: i32,
    fill: Fill,
) -> Result<(), PlotError>
where
    DB: DrawingBackend + 'a,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
{
    let area = chart.plotting_area();
    for ((p, dx), n) in mark(places) {
        if n > 0 {
            note(RING_NOTE);
            draw_marker(area, p, dx, look, size + 3 * n, Fill::Hollow)?;
        } else {
            draw_marker(area, p, dx, look, size, fill)?;
        }
    }
    Ok(())
}

/// Draws `look`'s marker painted `fill` at `at`, shifted `dx` pixels right, `size` pixels from
/// its centre: on a chart's plotting area or in a legend, alike.
pub(super) fn draw_marker<DB, CT>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    dx: i32,
    look: style::Look,
    size: i32,
    fill: Fill,
) -> Result<(), PlotError>
where
    DB: DrawingBackend,
    CT: plotters::coord::CoordTranslate,
    CT::From: Clone,
{
    let shifted = |corners: Vec<(i32, i32)>| -> Vec<(i32, i32)> {
        corners.into_iter().map(|(x, y)| (x + dx, y)).collect()
    };
    let corners = outline(look.marker, size);
    let at = || EmptyElement::at(at.clone());
    match (fill, &corners) {
        (Fill::Full, None) => {
            area.draw(&(at() + Circle::new((dx, 0), size, look.color.filled())))?
        }
        (Fill::Full, Some(c)) => {
            area.draw(&(at() + Polygon::new(shifted(c.clone()), look.color.filled())))?
        }
        (Fill::Half, _) => {
            // The circle as a polygon of 24 sides, as fine as the printed marker.
            let whole = corners.clone().unwrap_or_else(|| {
                (0..24)
                    .map(|k| {
                        let (sin, cos) = (f64::from(k) * 15.0).to_radians().sin_cos();
                        let r = f64::from(size);
                        ((r * cos).round() as i32, (r * sin).round() as i32)
                    })
                    .collect()
            });
            area.draw(&(at() + Polygon::new(shifted(left_half(&whole)), look.color.filled())))?
        }
        (Fill::Hollow, _) => {}
    }
    if fill != Fill::Full {
        let stroke = look.color.stroke_width(2);
        match corners {
            None => area.draw(&(at() + Circle::new((dx, 0), size, stroke)))?,
            // A closed path (plotters fills a polygon whatever its style).
            Some(mut c) => {
                c.push(c[0]);
                area.draw(&(at() + PathElement::new(shifted(c), stroke)))?
            }
        }
    }
    Ok(())
}

/// The part of a polygon (corners around its centre, in pixels) left of its centre: the
/// polygon cut by the vertical line x = 0.
fn left_half(corners: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut half = Vec::new();
    for (k, &(x0, y0)) in corners.iter().enumerate() {
        let (x1, y1) = corners[(k + 1) % corners.len()];
        if x0 <= 0 {
            half.push((x0, y0));
        }
        if (x0 < 0 && x1 > 0) || (x0 > 0 && x1 < 0) {
            let t = f64::from(x0) / f64::from(x0 - x1);
            half.push((0, (f64::from(y0) + t * f64::from(y1 - y0)).round() as i32));
        }
    }
    half
}

/// The corners of `marker` around its centre, in pixels, for a marker as large as a circle of
/// radius `size` (pointed shapes reach a little further, to look as large); None for the circle.
pub(super) fn outline(marker: style::Marker, size: i32) -> Option<Vec<(i32, i32)>> {
    use style::Marker as M;
    let s = f64::from(size);
    // `n` corners at `radius`, the first at `start` degrees (y grows downwards: −90 is up).
    let regular = |radius: f64, n: usize, start: f64| -> Vec<(f64, f64)> {
        (0..n)
            .map(|k| {
                let a = (start + 360.0 * k as f64 / n as f64).to_radians();
                (radius * a.cos(), radius * a.sin())
            })
            .collect()
    };
    // A plus of arms `s + 2` long and `s` wide, turned by `turn` degrees.
    let plus = |turn: f64| -> Vec<(f64, f64)> {
        let (a, w) = (s + 2.0, s / 2.0);
        let arm = [(-w, -a), (w, -a), (w, -w)];
        let (sin, cos) = turn.to_radians().sin_cos();
        (0..4)
            .flat_map(|q| {
                let (qs, qc) = (f64::from(q) * std::f64::consts::FRAC_PI_2).sin_cos();
                arm.map(|(x, y)| (x * qc - y * qs, x * qs + y * qc))
            })
            .map(|(x, y)| (x * cos - y * sin, x * sin + y * cos))
            .collect()
    };
    let corners = match marker {
        M::Circle => return None,
        M::Square => regular(s * std::f64::consts::SQRT_2, 4, -45.0),
        M::Diamond => regular(s + 1.5, 4, -90.0),
        M::Triangle => regular(s + 2.0, 3, -90.0),
        M::TriangleDown => regular(s + 2.0, 3, 90.0),
        M::TriangleLeft => regular(s + 2.0, 3, 180.0),
        M::TriangleRight => regular(s + 2.0, 3, 0.0),
        M::Hexagon => regular(s + 1.0, 6, -90.0),
        M::Star => {
            let (outer, inner) = (
                regular(s + 3.0, 5, -90.0),
                regular((s + 3.0) * 0.45, 5, -54.0),
            );
            outer
                .into_iter()
                .zip(inner)
                .flat_map(|(o, i)| [o, i])
                .collect()
        }
        M::Plus => plus(0.0),
        M::Cross => plus(45.0),
    };
    Some(
        corners
            .into_iter()
            .map(|(x, y)| (x.round() as i32, y.round() as i32))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{IterationRecord, RunRecord, RunStatus};
    use crate::search::Algorithm;
    use std::collections::BTreeSet;

    /// `--scatter A,B` splits where `run -H` does: a max or a custom partition keeps its commas.
    #[test]
    fn a_scatter_pair_may_name_a_max() {
        let pair = |s: &str| PlotOptions::parse_pair(s).map_err(|e| e.to_string());
        assert_eq!(
            pair("pdb-6666r,max(pdb-6666r,pdbr:1.2/3.4)"),
            Ok(("pdb-6666r".into(), "max(pdb-6666r,pdbr:1.2/3.4)".into()))
        );
        assert_eq!(
            pair(" manhattan , pdb:1,2/3,4"),
            Ok(("manhattan".into(), "pdb:1,2/3,4".into()))
        );
        for bad in ["manhattan", "a,b,c", ",b", "a,"] {
            assert!(pair(bad).unwrap_err().contains("expected two"), "{bad}");
        }
    }

    /// The (element, fill colour) pairs of an SVG's markers: `circle`, `polygon` (triangle) or
    /// `rect` (square), read back from the file plotters wrote.
    fn markers(svg: &str) -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        for kind in ["circle", "polygon", "rect"] {
            for part in svg.split(&format!("<{kind} ")).skip(1) {
                let tag = &part[..part.find('>').unwrap_or(part.len())];
                if let Some(at) = tag.find("fill=\"#") {
                    let colour = &tag[at + 6..at + 13];
                    out.insert((kind.to_string(), colour.to_string()));
                }
            }
        }
        out
    }

    fn hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    /// The text of every `<text>` element of an SVG, trimmed.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let body = &t[t.find('>')? + 1..];
                Some(body[..body.find("</text>")?].trim().to_string())
            })
            .collect()
    }

    /// An attribute's number in an SVG tag (`width="720"`).
    /// Every SVG file in `dir`: its path, its text, and the width and height of its `<svg>`.
    fn svg_files(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String, f64, f64)> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "svg") {
                continue;
            }
            let svg = std::fs::read_to_string(&path).unwrap();
            let tag = &svg[svg.find("<svg").unwrap()..];
            let tag = &tag[..tag.find('>').unwrap()];
            let (w, h) = (
                number_attr(tag, "width").unwrap(),
                number_attr(tag, "height").unwrap(),
            );
            files.push((path, svg, w, h));
        }
        files
    }

    /// Every plot of `runs` and `iterations` (as in a directory "s", without history), drawn
    /// into a fresh temporary directory: the directory (kept while it lives), the plots' folder
    /// and the figures.
    fn plotted(
        runs: Vec<RunRecord>,
        iterations: Vec<crate::results::IterationRecord>,
    ) -> (tempfile::TempDir, PathBuf, Vec<Figure>) {
        let results = Results {
            dir: "s".into(),
            runs,
            iterations,
            meta: None,
        };
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("plots");
        let options = PlotOptions {
            no_history: true,
            ..PlotOptions::default()
        };
        let figures = plot_all(&results, &dir, &options).unwrap();
        (tmp, dir, figures)
    }

    fn number_attr(tag: &str, name: &str) -> Option<f64> {
        let key = format!(" {name}=\"");
        let i = tag.find(&key)? + key.len();
        tag[i..i + tag[i..].find('"')?].parse().ok()
    }

    /// By default the per-iteration plots show the hardest instances the reference solved,
    /// those that every method ran first: here pdb-663 (set beside, say) ran only #1 and #2.
    #[test]
    fn iteration_plots_prefer_instances_every_method_ran() {
        let mut runs = Vec::new();
        let mut iterations = Vec::new();
        for (k, id) in ["1", "2", "3", "4"].into_iter().enumerate() {
            for h in ["manhattan", "pdb-663"]
                .into_iter()
                .filter(|h| k < 2 || *h == "manhattan")
            {
                let generated = 1000 * 10u64.pow(k as u32);
                runs.push(RunRecord {
                    instance_set: "s".into(),
                    instance_id: id.into(),
                    heuristic: h.into(),
                    status: RunStatus::Solved,
                    length: Some(30),
                    generated: Some(generated),
                    ..RunRecord::default()
                });
                iterations.push(crate::results::IterationRecord {
                    instance_set: "s".into(),
                    instance_id: id.into(),
                    heuristic: h.into(),
                    iteration: 1,
                    bound: 30,
                    generated,
                    ..Default::default()
                });
            }
        }
        let (_tmp, _dir, figures) = plotted(runs, iterations);
        let mut drawn: Vec<&str> = figures
            .iter()
            .filter_map(|f| f.stem.strip_prefix("s-iterations-"))
            .collect();
        drawn.sort_unstable();
        assert_eq!(drawn, ["1", "2", "4"]);
    }

    /// A lab-shaped set: IDA* with two heuristics solves all 4 boards, A*+Manhattan 3 of them,
    /// A*+pdb-663 one, BFS none (memory limit); instance 4 has its IDA* iterations from bound 41
    /// and BFS's one row at the depth 22 it reached. Every plot reads at print size (no text
    /// under 8 pt when set as the LaTeX report sets it: 16 cm wide at most, 0.38 of a 24 cm text
    /// height tall), names in its legend only what it draws, fits its x axis to the iterations
    /// drawn, and compares the methods of the box plot over the boards all of them solved.
    #[test]
    fn plots_read_at_print_size_and_show_only_what_they_draw() {
        let run = |algorithm: Algorithm, heuristic: &str, id: &str, status, generated| RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            algorithm: algorithm.into(),
            heuristic: heuristic.into(),
            status,
            length: (status == RunStatus::Solved).then_some(50),
            optimal_length: Some(50),
            generated: Some(generated),
            peak_stored: Some(generated / 2),
            ..RunRecord::default()
        };
        let mut runs = Vec::new();
        for (k, id) in ["1", "2", "3", "4"].into_iter().enumerate() {
            let n = 1000 * 10u64.pow(k as u32);
            let solved_if = |c: bool| {
                if c {
                    RunStatus::Solved
                } else {
                    RunStatus::MemoryLimit
                }
            };
            runs.push(run(Algorithm::Bfs, "", id, RunStatus::MemoryLimit, n * 50));
            runs.push(run(Algorithm::Astar, "manhattan", id, solved_if(k < 3), n));
            runs.push(run(
                Algorithm::Astar,
                "pdb-663",
                id,
                solved_if(k == 0),
                n / 20,
            ));
            runs.push(run(
                Algorithm::Ida,
                "manhattan",
                id,
                RunStatus::Solved,
                n * 3,
            ));
            runs.push(run(
                Algorithm::Ida,
                "pdb-663",
                id,
                RunStatus::Solved,
                n / 10,
            ));
        }
        let row =
            |algorithm: Algorithm, heuristic: &str, iteration, bound, generated| IterationRecord {
                instance_set: "s".into(),
                instance_id: "4".into(),
                algorithm: algorithm.into(),
                heuristic: heuristic.into(),
                iteration,
                bound,
                expanded: generated / 2,
                generated,
                seconds: 0.1,
            };
        // A*+Manhattan stopped on instance 4 at f = 47 (A* writes one row, at its last bound).
        let mut iterations = vec![
            row(Algorithm::Bfs, "", 1, 22, 5_000_000),
            row(Algorithm::Astar, "manhattan", 1, 47, 2_000_000),
        ];
        for (i, bound) in [41, 43, 45, 47, 49].into_iter().enumerate() {
            let n = 100 * 10u64.pow(i as u32);
            iterations.push(row(Algorithm::Ida, "manhattan", i as u32 + 1, bound, n));
            iterations.push(row(Algorithm::Ida, "pdb-663", i as u32 + 1, bound, n / 50));
        }
        let (_tmp, dir, figures) = plotted(runs, iterations);
        // As report/render/latex sets a figure (its test checks the preamble says so).
        let (width_pt, height_pt) = (16.0 * 28.4528, 0.38 * 24.0 * 28.4528);
        let mut svgs = 0;
        for (path, svg, w, h) in svg_files(&dir) {
            svgs += 1;
            let pt_per_px = (width_pt / w).min(height_pt / h);
            for part in svg.split("font-size=\"").skip(1) {
                let px: f64 = part[..part.find('"').unwrap()].parse().unwrap();
                assert!(
                    px * pt_per_px >= 8.0,
                    "{}: text of {px} px is {:.1} pt printed",
                    path.display(),
                    px * pt_per_px
                );
            }
        }
        assert!(svgs >= 5, "{svgs} plots");

        let read = |stem: &str| std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        let nodes = texts(&read("s-nodes-per-instance"));
        assert!(nodes.contains(&"manhattan".to_string()), "{nodes:?}");
        assert!(!nodes.contains(&"bfs".to_string()), "{nodes:?}");

        let svg = read("s-iterations-4");
        let iterations = texts(&svg);
        // The x axis's tick labels are centred under their tick (the y axis's end at it).
        let ticks: Vec<u32> = svg
            .split("<text")
            .skip(1)
            .filter(|t| t[..t.find('>').unwrap()].contains("text-anchor=\"middle\""))
            .filter_map(|t| {
                let body = &t[t.find('>')? + 1..];
                body[..body.find("</text>")?].trim().parse().ok()
            })
            .collect();
        assert!(
            ticks.iter().all(|&t| (40..=50).contains(&t)) && ticks.contains(&41),
            "x ticks {ticks:?} do not fit the bounds 41..49"
        );
        assert!(
            !iterations.iter().any(|t| t.starts_with("bfs")),
            "{iterations:?}"
        );
        // A*'s one point is hollow when the run stopped, and the legend says why.
        assert!(
            iterations.contains(&"astar+manhattan: stopped (memory-limit)".to_string()),
            "{iterations:?}"
        );
        let legend_at = svg.match_indices("fill=\"#FFFFFF\"").nth(1).unwrap().0;
        let blue = hex(style::color_of("manhattan"));
        // Manhattan's circles before the legend: IDA*'s five filled, A*'s one outlined.
        let circles = |filled: bool| {
            (svg[..legend_at].split("<circle ").skip(1))
                .map(|t| &t[..t.find('>').unwrap()])
                .filter(|tag| match filled {
                    true => tag.contains(&format!("fill=\"{blue}\"")),
                    false => tag.contains("fill=\"none\"") && tag.contains(&blue),
                })
                .count()
        };
        assert_eq!(circles(true), 5, "a filled marker for the stopped A* run");
        assert_eq!(circles(false), 1, "no hollow marker for the stopped A* run");

        let boxes = texts(&read("s-nodes-distribution"));
        for (method, drawn) in [
            ("manhattan", true),
            ("pdb-663", true),
            ("astar+manhattan", true),
            ("astar+pdb-663", false),
            ("bfs", false),
        ] {
            assert_eq!(
                boxes.contains(&method.to_string()),
                drawn,
                "{method}: {boxes:?}"
            );
        }
        let caption = &figures
            .iter()
            .find(|f| f.kind == PlotKind::NodesDistribution)
            .unwrap()
            .caption;
        assert!(
            caption.contains("over the 3 instances of s that every method drawn solved")
                && caption.contains("astar+pdb-663 (1 solved)"),
            "{caption}"
        );
    }

    /// BFS, A* and IDA* with Manhattan distance drawn together: in the nodes-per-instance and
    /// optimization-path plots each has its own (colour, marker), the colour the heuristic's
    /// and the marker the algorithm's, as the SVG shows.
    #[test]
    fn every_series_is_drawn_distinct_in_the_svg() {
        let run = |algorithm: Algorithm, heuristic: &str, id: &str, generated| RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            algorithm: algorithm.into(),
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            length: Some(10 + id.len() as u32),
            optimal_length: Some(10 + id.len() as u32),
            generated: Some(generated),
            peak_stored: Some(generated / 2),
            ..RunRecord::default()
        };
        let mut runs = Vec::new();
        for (id, n) in [("1", 1000), ("22", 5000), ("333", 20000)] {
            runs.push(run(Algorithm::Bfs, "", id, n * 10));
            runs.push(run(Algorithm::Astar, "manhattan", id, n));
            runs.push(run(Algorithm::Ida, "manhattan", id, n * 2));
        }
        let (_tmp, dir, _) = plotted(runs, vec![]);
        let blue = hex(style::color_of("manhattan"));
        let black = hex(style::BFS_COLOR);
        for file in [
            "s-nodes-per-instance.svg",
            "optimization-path-nodes-by-length.svg",
        ] {
            let svg = std::fs::read_to_string(dir.join(file)).unwrap();
            let got = markers(&svg);
            // Manhattan's circle (IDA* and A*: their lines differ), BFS's cross.
            for want in [("circle", &blue), ("polygon", &black)] {
                assert!(
                    got.contains(&(want.0.to_string(), want.1.clone())),
                    "{file}: no {want:?} in {got:?}"
                );
            }
            assert!(
                !got.contains(&("circle".to_string(), black.clone())),
                "{file}"
            );
        }
    }

    /// The scatter's caption names the heuristic that generates fewer nodes as the one with the
    /// reduction, whichever axis it is on (with the stronger on x, the points lie above).
    #[test]
    fn the_scatter_caption_names_the_stronger_heuristic_on_either_axis() {
        let run = |heuristic: &str, id: &str, generated| RunRecord {
            instance_set: "s".into(),
            instance_id: id.into(),
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            generated: Some(generated),
            ..RunRecord::default()
        };
        let mut runs = Vec::new();
        for (id, n) in [("1", 1000), ("2", 4000), ("3", 9000)] {
            runs.push(run("manhattan", id, n * 10));
            runs.push(run("pdb-663", id, n));
        }
        let results = Results {
            dir: "s".into(),
            runs,
            iterations: vec![],
            meta: None,
        };
        let caption = |x: &str, y: &str| {
            let tmp = tempfile::tempdir().unwrap();
            let options = PlotOptions {
                no_history: true,
                scatter: vec![(x.into(), y.into())],
                ..PlotOptions::default()
            };
            let figures = plot_all(&results, tmp.path(), &options).unwrap();
            (figures.into_iter())
                .find(|f| f.kind == PlotKind::Scatter)
                .unwrap()
                .caption
        };
        let said = "is pdb-663's reduction factor: manhattan's nodes over pdb-663's, geometric \
                    mean 10.0 over these 3 instances (from 10.0 to 10.0)";
        let below = caption("manhattan", "pdb-663");
        assert!(
            below.contains(&format!("distance below it {said}")),
            "{below}"
        );
        let above = caption("pdb-663", "manhattan");
        assert!(
            above.contains(&format!("distance above it {said}")),
            "{above}"
        );
    }

    /// The ours-against-published figure of a heuristic left out by `--heuristics` is not
    /// drawn (its section is not in the report either).
    #[test]
    fn a_heuristic_left_out_has_no_published_figure() {
        let run = |heuristic: &str, generated| RunRecord {
            instance_set: "korf100".into(),
            instance_id: "1".into(),
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            generated: Some(generated),
            ..RunRecord::default()
        };
        let results = Results {
            dir: "s".into(),
            runs: vec![run("manhattan", 276_361_932), run("pdb-663", 100_000)],
            iterations: vec![],
            meta: None,
        };
        let published = |heuristics: Vec<String>| {
            let tmp = tempfile::tempdir().unwrap();
            let options = PlotOptions {
                no_history: true,
                heuristics,
                ..PlotOptions::default()
            };
            let figures = plot_all(&results, tmp.path(), &options).unwrap();
            figures.iter().any(|f| f.kind == PlotKind::Published)
        };
        assert!(published(vec![]));
        assert!(!published(vec!["pdb-663".into()]));
    }

    /// The optimization-path plots of boards of two sizes: one figure per size, each with its
    /// own runs (a length is another depth on each board).
    #[test]
    fn optimization_path_plots_are_drawn_per_board_size() {
        let lab = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/optimization-path");
        let mut results = Results::load(&lab).unwrap();
        let meta = results.meta.as_mut().unwrap();
        let mut small = meta.instance_sets[0].clone();
        (small.name, small.size) = ("small".into(), "3x3".into());
        meta.instance_sets.push(small);
        results.runs.push(RunRecord {
            instance_set: "small".into(),
            instance_id: "1".into(),
            algorithm: Algorithm::Bfs.into(),
            status: RunStatus::Solved,
            optimal_length: Some(27),
            length: Some(27),
            generated: Some(7),
            peak_stored: Some(5),
            ..RunRecord::default()
        });
        let tmp = tempfile::tempdir().unwrap();
        let options = PlotOptions {
            no_history: true,
            ..PlotOptions::default()
        };
        let figures = plot_all(&results, tmp.path(), &options).unwrap();
        let stems: Vec<&str> = (figures.iter())
            .filter(|f| matches!(f.kind, PlotKind::NodesByLength | PlotKind::PeakStored))
            .map(|f| f.stem.as_str())
            .collect();
        assert_eq!(
            stems,
            [
                "optimization-path-peak-stored-3x3",
                "optimization-path-peak-stored-4x4",
                "optimization-path-nodes-by-length-3x3",
                "optimization-path-nodes-by-length-4x4",
            ]
        );
        let small = figures
            .iter()
            .find(|f| f.stem.ends_with("length-3x3"))
            .unwrap();
        assert!(small.title.ends_with(", 3x3 boards"), "{}", small.title);
        // The 3x3 figure holds only the BFS run: its markers are BFS's alone.
        let svg = std::fs::read_to_string(tmp.path().join(format!("{}.svg", small.stem))).unwrap();
        let mut got = markers(&svg);
        got.remove(&("rect".to_string(), hex(WHITE)));
        let bfs = ("polygon".to_string(), hex(style::BFS_COLOR));
        assert_eq!(got, BTreeSet::from([bfs]));
    }

    /// An SVG element as a test reads it: its tag name, stroke or fill colour, and points.
    #[derive(Debug)]
    struct Shape {
        /// `circle`, `polygon` or `polyline`.
        kind: String,
        /// The fill colour, else the stroke's (`#1F77B4`).
        colour: String,
        filled: bool,
        /// The stroke's width: 2 for data, 1 for the axes.
        width: f64,
        /// A circle's centre; a polygon's or polyline's points.
        points: Vec<(f64, f64)>,
    }

    impl Shape {
        /// A piece of a data line: an open polyline as wide as the data's strokes.
        fn is_line(&self) -> bool {
            !self.is_marker() && self.width == 2.0
        }

        /// A marker: a circle, a filled polygon or a closed outline (a hollow marker, a ring).
        fn is_marker(&self) -> bool {
            self.kind != "polyline"
                || self.points.len() > 2 && self.points[0] == self.points[self.points.len() - 1]
        }

        /// Where a marker's centre is: the circle's, or the mean of its corners.
        fn centre(&self) -> (f64, f64) {
            let corners = match self.kind.as_str() {
                "polyline" => &self.points[..self.points.len() - 1],
                _ => &self.points[..],
            };
            let n = corners.len() as f64;
            let (x, y) = corners
                .iter()
                .fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
            (x / n, y / n)
        }
    }

    /// The circles, polygons and polylines an SVG plot draws before its legend box (the data).
    fn shapes(svg: &str) -> Vec<Shape> {
        let legend_at = svg
            .match_indices("fill=\"#FFFFFF\"")
            .nth(1)
            .map_or(svg.len(), |m| m.0);
        let attr = |tag: &str, name: &str| -> Option<String> {
            let key = format!(" {name}=\"");
            let i = tag.find(&key)? + key.len();
            Some(tag[i..i + tag[i..].find('"')?].to_string())
        };
        let mut out = Vec::new();
        for part in svg[..legend_at].split('<').skip(1) {
            let tag = &part[..part.find('>').unwrap_or(part.len())];
            let Some(kind) = ["circle", "polygon", "polyline"]
                .into_iter()
                .find(|k| tag.starts_with(&format!("{k} ")))
            else {
                continue;
            };
            let fill = attr(tag, "fill").filter(|f| f.starts_with('#'));
            let colour = fill
                .clone()
                .or_else(|| attr(tag, "stroke"))
                .unwrap_or_default();
            let points = match kind {
                "circle" => vec![(
                    number_attr(tag, "cx").unwrap(),
                    number_attr(tag, "cy").unwrap(),
                )],
                _ => (attr(tag, "points").unwrap().split_whitespace())
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect(),
            };
            out.push(Shape {
                kind: kind.to_string(),
                colour,
                filled: fill.is_some(),
                width: number_attr(tag, "stroke-width").unwrap_or(0.0),
                points,
            });
        }
        out
    }

    /// The optimization path's lines go through solved runs only: A*+Manhattan's dashed line
    /// runs from its solved run of length 10 to its solved one of length 20 (not to the median
    /// with the run stopped at 20), and no further (at 30 it only stopped); BFS, which solved
    /// none, has no line; its stopped runs are hollow markers; the caption counts them.
    #[test]
    fn by_length_lines_go_through_solved_runs_only() {
        use RunStatus::{MemoryLimit as Stopped, Solved};
        let run = |algorithm: Algorithm, heuristic: &str, length: u32, status, generated: u64| {
            RunRecord {
                instance_set: "s".into(),
                instance_id: format!("{length}-{generated}"),
                algorithm: algorithm.into(),
                heuristic: heuristic.into(),
                status,
                length: (status == Solved).then_some(length),
                optimal_length: Some(length),
                generated: Some(generated),
                peak_stored: Some(generated / 2),
                ..RunRecord::default()
            }
        };
        let mut runs = vec![
            run(Algorithm::Astar, "manhattan", 10, Solved, 1_000),
            run(Algorithm::Astar, "manhattan", 20, Solved, 10_000),
            run(Algorithm::Astar, "manhattan", 20, Stopped, 1_000_000),
            run(Algorithm::Astar, "manhattan", 30, Stopped, 2_000_000),
        ];
        for length in [10, 20, 30] {
            runs.push(run(Algorithm::Bfs, "", length, Stopped, 4_000_000));
        }
        let (_tmp, dir, figures) = plotted(runs, vec![]);
        let blue = hex(style::color_of("manhattan"));
        for stem in [
            "optimization-path-nodes-by-length",
            "optimization-path-peak-stored",
        ] {
            let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
            let shapes = shapes(&svg);
            let mut solved: Vec<(f64, f64)> = (shapes.iter())
                .filter(|s| s.kind == "circle" && s.colour == blue && s.filled)
                .map(Shape::centre)
                .collect();
            let stopped = (shapes.iter())
                .filter(|s| s.kind == "circle" && s.colour == blue && !s.filled)
                .count();
            assert_eq!((solved.len(), stopped), (2, 2), "{stem}: {shapes:?}");
            solved.sort_by(|p, q| p.0.total_cmp(&q.0));
            let (a, b) = (solved[0], solved[1]);
            let line: Vec<(f64, f64)> = (shapes.iter())
                .filter(|s| s.is_line() && s.colour == blue)
                .flat_map(|s| s.points.clone())
                .collect();
            assert!(line.len() > 2, "{stem}: no line");
            for (x, y) in line {
                let on = a.1 + (x - a.0) / (b.0 - a.0) * (b.1 - a.1);
                assert!(
                    x >= a.0 - 1.0 && x <= b.0 + 1.0 && (y - on).abs() <= 1.5,
                    "{stem}: ({x}, {y}) is off the line from {a:?} to {b:?}"
                );
            }
            let bfs = hex(style::BFS_COLOR);
            assert!(
                !(shapes.iter()).any(|s| s.is_line() && s.colour == bfs),
                "{stem}: a line through BFS's stopped runs"
            );
            let caption = &figures.iter().find(|f| f.stem == stem).unwrap().caption;
            for says in [
                "median of the solved runs at each length",
                "Stopped by a limit: astar+manhattan 2 of 4, bfs 3 of 3 runs.",
                "its line is at the median of those it solved",
            ] {
                assert!(caption.contains(says), "{stem}: {caption}");
            }
        }
    }

    /// A third series on a point two others mark gets a ring further out than the second's,
    /// so that neither ring hides the other; a series repeating its own point is counted once;
    /// a marker set beside a point (shifted) is another place.
    #[test]
    fn each_further_series_on_a_point_gets_a_wider_ring() {
        new_figure();
        let (p, q) = (((1.0, 2.0), 0), ((3.0, 4.0), 0));
        assert_eq!(mark(&[p, p]), [(p, 0), (p, 0)]);
        assert_eq!(mark(&[p, q]), [(p, 1), (q, 0)]);
        assert_eq!(mark(&[p, q]), [(p, 2), (q, 1)]);
        let beside = (p.0, 6);
        assert_eq!(mark(&[beside]), [(beside, 0)]);
        new_figure();
        assert_eq!(mark(&[p]), [(p, 0)]);
        // Drawn: three heuristics with equal counts on every instance (the optimization path's
        // IDA* peaks showed this before their markers were set side by side): rings of two
        // sizes on the nodes-per-instance line, in the second and third heuristic's colours.
        let runs = (["manhattan", "linear-conflict", "pdb-663"].iter())
            .flat_map(|h| {
                (1..=3).map(move |id| RunRecord {
                    instance_set: "s".into(),
                    instance_id: id.to_string(),
                    heuristic: h.to_string(),
                    status: RunStatus::Solved,
                    generated: Some(1000 * id),
                    ..RunRecord::default()
                })
            })
            .collect();
        let (_tmp, dir, figures) = plotted(runs, vec![]);
        let svg = std::fs::read_to_string(dir.join("s-nodes-per-instance.svg")).unwrap();
        let colours: BTreeSet<String> = rings(&svg).into_iter().collect();
        let expected = ["linear-conflict", "pdb-663"].map(|h| hex(style::color_of(h)));
        assert_eq!(colours, BTreeSet::from(expected));
        let caption = &figures[0].caption;
        assert!(caption.contains(RING_NOTE.text), "{caption}");
    }

    /// An outside solver that reproduces IDA* with Manhattan distance count for count (listed
    /// first in the results): in the nodes-per-instance, iterations and nodes-by-length plots
    /// Manhattan's solid line is drawn whole, and the solver's line after it, in dashes and dots
    /// covering well under all of it, so that both are seen; the caption says so.
    #[test]
    fn an_outside_solver_equal_to_a_builtin_leaves_its_line_in_sight() {
        use crate::results::record::AlgorithmColumn;
        let run = |algorithm: AlgorithmColumn, heuristic: &str, id: u32| RunRecord {
            instance_set: "s".into(),
            instance_id: id.to_string(),
            algorithm,
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            length: Some(10 * id),
            optimal_length: Some(10 * id),
            generated: Some(1000 * 10u64.pow(id)),
            peak_stored: Some(u64::from(10 * id) + 1),
            ..RunRecord::default()
        };
        let (outside, ida, bfs) = (
            AlgorithmColumn(None),
            AlgorithmColumn(Some(Algorithm::Ida)),
            AlgorithmColumn(Some(Algorithm::Bfs)),
        );
        let mut runs = Vec::new();
        let mut iterations = Vec::new();
        for (algorithm, heuristic) in [(outside, "myida"), (ida, "manhattan"), (bfs, "")] {
            runs.extend((1..=3).map(|id| run(algorithm, heuristic, id)));
            if heuristic.is_empty() {
                continue;
            }
            iterations.extend((1..=3).map(|i| IterationRecord {
                instance_set: "s".into(),
                instance_id: "3".into(),
                algorithm,
                heuristic: heuristic.into(),
                iteration: i,
                bound: 20 + 2 * i,
                generated: 10u64.pow(i),
                ..IterationRecord::default()
            }));
        }
        let (_tmp, dir, figures) = plotted(runs, iterations);
        let (blue, black) = (hex(style::color_of("manhattan")), hex(style::BFS_COLOR));
        for stem in [
            "s-nodes-per-instance",
            "s-iterations-3",
            "optimization-path-nodes-by-length",
        ] {
            let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
            let lines: Vec<(usize, Shape)> = (shapes(&svg).into_iter().enumerate())
                .filter(|(_, s)| s.is_line() && s.colour != black)
                .collect();
            let length = |s: &Shape| -> f64 {
                (s.points.windows(2))
                    .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
                    .sum()
            };
            let manhattan: Vec<&(usize, Shape)> =
                lines.iter().filter(|(_, s)| s.colour == blue).collect();
            let solver: Vec<&(usize, Shape)> =
                lines.iter().filter(|(_, s)| s.colour != blue).collect();
            assert!(
                manhattan.len() == 1 && manhattan[0].1.points.len() == 3,
                "{stem}: manhattan's line is not drawn whole: {manhattan:?}"
            );
            let (at, whole) = (manhattan[0].0, length(&manhattan[0].1));
            assert!(
                solver.len() > 6,
                "{stem}: the solver's line is solid: {solver:?}"
            );
            assert!(solver
                .iter()
                .all(|(i, s)| *i > at && s.colour == solver[0].1.colour));
            let dots = solver.iter().filter(|(_, s)| length(s) <= 2.5).count();
            let covered: f64 = (solver.iter().map(|(_, s)| length(s)))
                .filter(|&d| d > 2.5)
                .sum();
            assert!(
                dots > 0 && covered < 0.75 * whole,
                "{stem}: {dots} dots, dashes {covered:.0} px of {whole:.0}"
            );
            let caption = &figures.iter().find(|f| f.stem == stem).unwrap().caption;
            assert!(caption.contains("dash-dotted"), "{stem}: {caption}");
        }
    }

    /// One mark means one thing: in seconds against nodes (solved runs only) A*'s points are
    /// half filled, a filled polygon left of its outline's centre, and no marker is hollow
    /// only, as a run stopped by a limit is in the other figures; the caption says so.
    #[test]
    fn a_half_filled_marker_is_astar_and_a_hollow_one_a_stopped_run() {
        let run = |algorithm: Algorithm, heuristic: &str, id: u32, generated: u64| RunRecord {
            instance_set: "s".into(),
            instance_id: id.to_string(),
            algorithm: algorithm.into(),
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            generated: Some(generated),
            seconds: generated as f64 * 1e-7,
            ..RunRecord::default()
        };
        let mut runs = Vec::new();
        for id in 1..=3 {
            let n = 1000 * 10u64.pow(id);
            runs.push(run(Algorithm::Bfs, "", id, n * 50));
            runs.push(run(Algorithm::Astar, "manhattan", id, n));
            runs.push(run(Algorithm::Ida, "manhattan", id, n * 3));
        }
        let (_tmp, dir, figures) = plotted(runs, vec![]);
        let svg = std::fs::read_to_string(dir.join("s-seconds-vs-nodes.svg")).unwrap();
        let marks: Vec<Shape> = shapes(&svg).into_iter().filter(Shape::is_marker).collect();
        let blue = hex(style::color_of("manhattan"));
        let outlines: Vec<&Shape> = marks.iter().filter(|m| !m.filled).collect();
        assert_eq!(outlines.len(), 3, "{marks:?}");
        for outline in outlines {
            let (cx, cy) = outline.centre();
            let half = marks.iter().find(|m| {
                let (x0, x1) = (m.points.iter())
                    .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
                m.kind == "polygon"
                    && m.colour == blue
                    && (x1 - cx).abs() <= 0.5
                    && cx - x0 >= 3.0
                    && (m.centre().1 - cy).abs() <= 1.0
            });
            assert!(
                outline.kind == "circle" && outline.colour == blue && half.is_some(),
                "{outline:?} is hollow only"
            );
        }
        let caption = &(figures.iter())
            .find(|f| f.kind == PlotKind::SecondsVsNodes)
            .unwrap()
            .caption;
        assert!(caption.contains("A*'s points are half filled"), "{caption}");
    }

    /// The peak-stored plot of the student's lab at lengths 57 and 59: A*+Manhattan stopped at
    /// 10,354,688 states, just under BFS's 12,517,376 and just over A*+linear-conflict's
    /// 10,289,152; IDA*'s three heuristics all at length + 1. Every marker stays in sight: no two
    /// that differ (shape, colour, filled or hollow) have their centres within a marker's
    /// radius, none needs a ring, and the caption says why they stand side by side.
    #[test]
    fn markers_that_would_cover_one_another_stand_side_by_side() {
        use RunStatus::{MemoryLimit as Stopped, Solved};
        let run =
            |algorithm: Algorithm, heuristic: &str, length: u32, status, peak: u64| RunRecord {
                instance_set: "s".into(),
                instance_id: length.to_string(),
                algorithm: algorithm.into(),
                heuristic: heuristic.into(),
                status,
                length: (status == Solved).then_some(length),
                optimal_length: Some(length),
                generated: Some(peak * 3),
                peak_stored: Some(peak),
                ..RunRecord::default()
            };
        let mut runs = Vec::new();
        for (length, manhattan, conflict, pdb) in [
            (30, (Solved, 12_000), (Solved, 4_000), 900),
            (56, (Solved, 9_000_000), (Solved, 1_500_000), 60_000),
            (57, (Stopped, 10_354_688), (Solved, 2_300_000), 150_000),
            (59, (Stopped, 10_354_688), (Stopped, 10_289_152), 1_700_000),
        ] {
            runs.push(run(Algorithm::Bfs, "", length, Stopped, 12_517_376));
            runs.push(run(
                Algorithm::Astar,
                "manhattan",
                length,
                manhattan.0,
                manhattan.1,
            ));
            runs.push(run(
                Algorithm::Astar,
                "linear-conflict",
                length,
                conflict.0,
                conflict.1,
            ));
            runs.push(run(Algorithm::Astar, "pdb-663", length, Solved, pdb));
            for h in ["manhattan", "linear-conflict", "pdb-663"] {
                runs.push(run(
                    Algorithm::Ida,
                    h,
                    length,
                    Solved,
                    u64::from(length) + 1,
                ));
            }
        }
        let (_tmp, dir, figures) = plotted(runs, vec![]);
        let svg = std::fs::read_to_string(dir.join("optimization-path-peak-stored.svg")).unwrap();
        let marks: Vec<Shape> = shapes(&svg).into_iter().filter(Shape::is_marker).collect();
        assert!(marks.len() >= 4 * 7, "{} markers", marks.len());
        for (i, a) in marks.iter().enumerate() {
            for b in &marks[..i] {
                if (&a.kind, &a.colour, a.filled) == (&b.kind, &b.colour, b.filled) {
                    continue;
                }
                let ((ax, ay), (bx, by)) = (a.centre(), b.centre());
                assert!((ax - bx).hypot(ay - by) >= 4.0, "{a:?} covers {b:?}");
            }
        }
        let caption = &(figures.iter())
            .find(|f| f.stem == "optimization-path-peak-stored")
            .unwrap()
            .caption;
        assert!(
            caption.contains("side by side") && !caption.contains(RING_NOTE.text),
            "{caption}"
        );
    }

    /// The stroke colour of each ring of an SVG plot: a closed outline (a marker's shape drawn
    /// as a path whose last point is its first).
    fn rings(svg: &str) -> Vec<String> {
        (svg.split("<polyline").skip(1))
            .map(|c| &c[..c.find("/>").unwrap()])
            .filter(|c| {
                let at = c.find("points=\"").unwrap() + 8;
                let points: Vec<&str> = c[at..at + c[at..].find('"').unwrap()]
                    .split_whitespace()
                    .collect();
                points.len() > 2 && points.first() == points.last()
            })
            .filter_map(|c| {
                let at = c.find("stroke=\"")? + 8;
                Some(c[at..at + 7].to_string())
            })
            .collect()
    }

    /// The 24-puzzle's later-work figure: every published series and ours drawn, each in a
    /// colour of its own, ours on exactly as many instances as it solved; no figure for a set
    /// that is not Korf & Felner's.
    #[test]
    fn the_later_work_figure_sets_ours_beside_every_published_column() {
        let run = |set: &str, id: &str, status, generated| RunRecord {
            instance_set: set.into(),
            instance_id: id.into(),
            heuristic: "pdb-6666r".into(),
            status,
            generated: Some(generated),
            ..RunRecord::default()
        };
        let runs = vec![
            run("korf50-24", "38", RunStatus::Solved, 38_173_507),
            run("korf50-24", "40", RunStatus::Solved, 65_099_578),
            run("korf50-24", "7", RunStatus::TimeLimit, 5),
            run("other", "1", RunStatus::Solved, 1000),
        ];
        let (_tmp, dir, figures) = plotted(runs, vec![]);
        let stem = published_stem("korf50-24", LATER_WORK);
        assert!(figures
            .iter()
            .any(|f| f.stem == stem && f.kind == PlotKind::Published));
        assert!(!figures
            .iter()
            .any(|f| f.stem == published_stem("other", LATER_WORK)));
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        let labels = texts(&svg);
        for (name, _) in style::PUBLISHED_SERIES {
            assert!(
                labels.iter().any(|t| t.starts_with(name)),
                "{name} not in the legend: {labels:?}"
            );
        }
        assert!(
            labels.iter().any(|t| t == "pdb-6666r (ours, 2 solved)"),
            "{labels:?}"
        );
        let got = markers(&svg);
        let ours = hex(style::color_of("pdb-6666r"));
        assert!(
            got.contains(&("polygon".to_string(), ours.clone())),
            "{got:?}"
        );
        // Ours: its legend sample, and on its 2 solved instances (counts equal to Korf &
        // Felner's) a ring around their marker, not a dot over it; each published line: 50
        // points (and clausecker's columns may lack a few).
        let count = |c: &str| svg.matches(&format!("fill=\"{c}\"")).count();
        assert_eq!(count(&ours), 1, "ours drawn on its solved instances only");
        // A ring in our marker's shape: a closed outline in our colour.
        let rings = rings(&svg).iter().filter(|c| **c == ours).count();
        assert_eq!(rings, 2, "a ring on each instance where ours equals theirs");
        assert!(count(&hex(style::color_of("korf-felner-2002"))) >= 50);
    }

    /// A box: x0, y0, x1, y1.
    type Box4 = (f64, f64, f64, f64);

    /// What [`no_legend_covers_a_data_mark`] reads from an SVG plot.
    #[derive(Debug, Default)]
    struct Drawn {
        /// The legend box (the white rect after the background).
        legend: Option<Box4>,
        /// Every data point drawn before it: circle centres and the vertices of polylines.
        marks: Vec<(f64, f64)>,
        /// The plotting area: the extent of the mesh's grid lines.
        plotting: Option<Box4>,
        /// Where each text drawn before the legend is anchored.
        texts: Vec<(f64, f64)>,
    }

    fn drawn(svg: &str) -> Drawn {
        let mut out = Drawn::default();
        let grow = |b: Option<Box4>, (x, y): (f64, f64)| {
            Some(b.map_or((x, y, x, y), |(x0, y0, x1, y1)| {
                (x0.min(x), y0.min(y), x1.max(x), y1.max(y))
            }))
        };
        for part in svg.split('<').skip(1) {
            let tag = &part[..part.find('>').unwrap_or(part.len())];
            let num = |name| number_attr(tag, name).unwrap();
            if tag.starts_with("rect ") && tag.contains("fill=\"#FFFFFF\"") {
                let (x, y) = (num("x"), num("y"));
                if x > 0.0 || y > 0.0 {
                    out.legend = Some((x, y, x + num("width"), y + num("height")));
                    return out;
                }
            } else if tag.starts_with("circle ") {
                out.marks.push((num("cx"), num("cy")));
            } else if tag.starts_with("line ") {
                out.plotting = grow(out.plotting, (num("x1"), num("y1")));
                out.plotting = grow(out.plotting, (num("x2"), num("y2")));
            } else if tag.starts_with("text ") {
                out.texts.push((num("x"), num("y")));
            } else if let Some(points) = tag
                .strip_prefix("polyline ")
                .and_then(|t| t.split("points=\"").nth(1))
            {
                for p in points.split('"').next().unwrap().split_whitespace() {
                    let (x, y) = p.split_once(',').unwrap();
                    out.marks.push((x.parse().unwrap(), y.parse().unwrap()));
                }
            }
        }
        out
    }

    /// No legend covers data and none takes the data's room: in every plot of a lab-shaped set
    /// (BFS, A* and IDA* over three heuristics, points at every length, long rate labels in the
    /// seconds-vs-nodes legend) the plotting area keeps at least 70 % of the figure's width (the
    /// box plot, whose y-axis labels are the methods' names, 60 %) and half its height, the legend
    /// box lies inside the figure, clear of the plotting area, of
    /// every data point and line vertex and of every text drawn before it (axis descriptions,
    /// tick labels), and the plots that name series have a legend at all.
    #[test]
    fn no_legend_covers_a_data_mark() {
        let run = |algorithm: Algorithm, heuristic: &str, id: usize, generated: u64| RunRecord {
            instance_set: "s".into(),
            instance_id: id.to_string(),
            algorithm: algorithm.into(),
            heuristic: heuristic.into(),
            status: RunStatus::Solved,
            length: Some(10 + 5 * id as u32),
            optimal_length: Some(10 + 5 * id as u32),
            generated: Some(generated),
            peak_stored: Some(generated / 2),
            seconds: generated as f64 * 1e-7,
            ..RunRecord::default()
        };
        let mut runs = Vec::new();
        for id in 0..8 {
            let n = 10u64.pow(1 + id as u32 / 2) * (id as u64 + 1);
            runs.push(run(Algorithm::Bfs, "", id, n * 50));
            for (k, h) in ["manhattan", "linear-conflict", "pdb-663"]
                .iter()
                .enumerate()
            {
                runs.push(run(Algorithm::Astar, h, id, n * 10 / (k as u64 + 1)));
                runs.push(run(Algorithm::Ida, h, id, n * 20 / (k as u64 + 1)));
            }
        }
        let (_tmp, dir, _) = plotted(runs, vec![]);
        let mut checked = 0;
        for (path, svg, w, h) in svg_files(&dir) {
            let name = path.display();
            let d = drawn(&svg);
            let (px0, py0, px1, py1) = d.plotting.unwrap_or_else(|| panic!("{name}: no mesh"));
            // The box plot's y-axis labels are the methods' names (it has no legend).
            let share = if d.legend.is_some() { 0.7 } else { 0.6 };
            assert!(
                px1 - px0 >= share * w && py1 - py0 >= 0.5 * h,
                "{name}: plotting area {:.0} x {:.0} px of a {w} x {h} figure",
                px1 - px0,
                py1 - py0
            );
            let Some((x0, y0, x1, y1)) = d.legend else {
                assert!(
                    path.to_string_lossy().contains("distribution"),
                    "{name}: no legend"
                );
                continue;
            };
            let under = |(x, y): (f64, f64)| {
                x >= x0 - 4.0 && x <= x1 + 4.0 && y >= y0 - 4.0 && y <= y1 + 4.0
            };
            assert!(
                x0 >= 0.0 && y0 >= 0.0 && x1 <= w && y1 <= h,
                "{name}: legend {:?} outside the figure",
                (x0, y0, x1, y1)
            );
            assert!(
                y0 > py1 || x0 > px1,
                "{name}: legend {:?} on the plotting area",
                (x0, y0, x1, y1)
            );
            assert!(d.marks.len() > 5, "{name}: {} marks", d.marks.len());
            for &p in d.marks.iter().chain(&d.texts) {
                assert!(
                    !under(p),
                    "{name}: {p:?} under the legend {:?}",
                    (x0, y0, x1, y1)
                );
            }
            checked += 1;
        }
        assert!(checked >= 3, "{checked} plots with a legend");
    }
}
