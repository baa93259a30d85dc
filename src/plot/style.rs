//! Shared look of every plot: the bundled font, sizes, and one colour per heuristic.

use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

/// The font family every text element asks for; it resolves to the bundled DejaVu Sans.
pub(crate) const FONT: &str = "sans-serif";

/// DejaVu Sans (Bitstream Vera licence, see `assets/fonts/DejaVuSans-LICENSE.txt`), bundled so
/// that rendering needs no system font library.
pub(super) static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font with plotters (once per process).
pub(crate) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
            .unwrap_or_else(|_| panic!("the bundled font is a valid TTF"));
    });
}

/// Pixel size of every figure. The sizes below are set for the size a figure is printed at: the
/// LaTeX report sets a plot 0.38 of a 24 cm text height tall (9.1 cm), the HTML page shows it at
/// its own width (45rem), so a pixel is about 0.56 pt on paper and one CSS pixel on screen.
/// (At 1100 x 700 the tick labels were 5 pt on paper.)
pub const SIZE: (u32, u32) = (720, 460);
/// Scatter plots with a diagonal, printed at the same height: 0.55 pt a pixel. Wider than
/// tall: at 500 pixels their titles and axis descriptions (`korf100: manhattan, ours against
/// published nodes`) were cut at both ends.
pub(crate) const SQUARE: (u32, u32) = (680, 470);

/// Font sizes as plotters takes them; its SVG writes 0.806 of each as the pixel size, so on paper
/// the title is about 11 pt, axis descriptions 9.5 pt, tick labels and legends 8.6 pt.
pub(crate) const TITLE_SIZE: u32 = 24;
pub(crate) const AXIS_DESC_SIZE: u32 = 21;
pub(crate) const TICK_SIZE: u32 = 19;
pub(crate) const LEGEND_SIZE: u32 = 19;

pub(crate) fn title_font() -> TextStyle<'static> {
    (FONT, TITLE_SIZE).into_font().into()
}
pub(crate) fn axis_desc_font() -> TextStyle<'static> {
    (FONT, AXIS_DESC_SIZE).into_font().into()
}
pub(crate) fn tick_font() -> TextStyle<'static> {
    (FONT, TICK_SIZE).into_font().into()
}
pub(crate) fn legend_font() -> TextStyle<'static> {
    (FONT, LEGEND_SIZE).into_font().into()
}

/// Tableau's ten colours, distinguishable and colour-blind tolerant.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Colours for names we do not know (a custom partition, an outside solver), none of them a
/// known name's, so that such a series never looks like Manhattan or a PDB drawn beside it.
const OTHER: [RGBColor; 6] = [
    RGBColor(128, 0, 0),
    RGBColor(0, 0, 128),
    RGBColor(0, 128, 128),
    RGBColor(128, 128, 0),
    RGBColor(75, 0, 130),
    RGBColor(199, 21, 133),
];

/// Palette entries of the heuristics and solvers we know, so that each has the same colour in
/// every plot and report whatever else was run (the reflected variant next to its base).
const KNOWN: &[(&str, usize)] = &[
    ("manhattan", 0),
    ("linear-conflict", 1),
    ("pdb-555", 2),
    ("pdb-663", 3),
    ("pdb-78", 4),
    ("pdb-78r", 5),
    ("pdb-663r", 6),
    ("pdb-555r", 8),
    ("walking-distance", 9),
    ("pdb-6666r", 7),
];

/// Published series drawn beside ours (the 24-puzzle's later-work figure): no heuristic of ours
/// bears these names, so they take palette entries of their own here, distinct among themselves
/// and from pdb-6666r's (the only heuristic in that figure).
pub(crate) const PUBLISHED_SERIES: &[(&str, usize)] = &[
    ("korf-felner-2002", 1),
    ("clausecker/6-6-6-6", 0),
    ("clausecker/8-8-8", 2),
    ("clausecker/9-9-6", 3),
    ("clausecker/max", 4),
];

/// Breadth-first search has no heuristic, so no heuristic's colour: black.
pub(crate) const BFS_COLOR: RGBColor = RGBColor(0, 0, 0);

/// The colour of a heuristic, solver or method, by its name: a method has its heuristic's colour
/// (`astar+pdb-663` is `pdb-663`'s; [`look_of`] tells the algorithms apart by line and marker),
/// `bfs` black; fixed for the known heuristics; otherwise one of [`OTHER`]: the one
/// [`with_unknown`] chose for the figures being drawn, so that up to six of them differ, or else
/// by a hash of the name (stable across runs and plots).
pub fn color_of(name: &str) -> RGBColor {
    let name = name.strip_prefix("astar+").unwrap_or(name);
    if name == "bfs" {
        return BFS_COLOR;
    }
    if let Some(&(_, i)) = KNOWN
        .iter()
        .chain(PUBLISHED_SERIES)
        .find(|(n, _)| *n == name)
    {
        return PALETTE[i];
    }
    if let Some(c) = UNKNOWN.with(|u| u.borrow().iter().find(|(n, _)| n == name).map(|u| u.1)) {
        return c;
    }
    // FNV-1a: small, and the same on every platform and run.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    OTHER[(hash % OTHER.len() as u64) as usize]
}

thread_local! {
    /// The unknown names of the figures this thread is drawing and their colours ([`with_unknown`]).
    static UNKNOWN: std::cell::RefCell<Vec<(String, RGBColor)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `draw` with the unknown ones of `names` (any order) taking [`OTHER`] colours, so the
/// figures of one report give each its own colour, the same in all of them. In sorted order each
/// takes the colour farthest from those already drawn: the known names' among `names`, the
/// published series' (they may stand beside, as in the 24-puzzle's later-work figure) and the
/// unknown names' before it; so a custom heuristic is never a darker shade of a series beside it
/// when a more distinct colour is free.
pub(crate) fn with_unknown<R>(names: &[&str], draw: impl FnOnce() -> R) -> R {
    let known = |n: &str| n == "bfs" || KNOWN.iter().chain(PUBLISHED_SERIES).any(|k| k.0 == n);
    let names: Vec<&str> = names
        .iter()
        .map(|n| n.strip_prefix("astar+").unwrap_or(n))
        .filter(|n| !n.is_empty())
        .collect();
    let mut drawn: Vec<RGBColor> = names
        .iter()
        .filter(|n| known(n))
        .map(|n| color_of(n))
        .collect();
    drawn.extend(PUBLISHED_SERIES.iter().map(|s| PALETTE[s.1]));
    let mut unknown: Vec<&str> = names.into_iter().filter(|n| !known(n)).collect();
    unknown.sort_unstable();
    unknown.dedup();
    let mut chosen: Vec<(String, RGBColor)> = Vec::new();
    for name in unknown {
        let nearest = |c: &RGBColor| {
            drawn
                .iter()
                .map(|d| distance(c, d))
                .fold(f64::MAX, f64::min)
        };
        let free = OTHER.iter().filter(|c| !chosen.iter().any(|u| u.1 == **c));
        // Once all six are taken, the cycle starts again.
        let color = free
            .max_by(|a, b| nearest(a).total_cmp(&nearest(b)))
            .copied()
            .unwrap_or(OTHER[chosen.len() % OTHER.len()]);
        drawn.push(color);
        chosen.push((name.to_string(), color));
    }
    let before = UNKNOWN.with(|u| std::mem::replace(&mut *u.borrow_mut(), chosen));
    let result = draw();
    UNKNOWN.with(|u| *u.borrow_mut() = before);
    result
}

/// How different two series' colours look: the distance in CIELAB with lightness at half
/// weight, since a line is told from another by its hue more than by how dark it is (navy and
/// steel blue differ mostly in lightness, and read as "two blues").
fn distance(a: &RGBColor, b: &RGBColor) -> f64 {
    let (a, b) = (lab(a), lab(b));
    (((a[0] - b[0]) / 2.0).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// CIELAB (D65) of an sRGB colour.
fn lab(c: &RGBColor) -> [f64; 3] {
    let linear = |u: u8| {
        let u = f64::from(u) / 255.0;
        if u > 0.04045 {
            ((u + 0.055) / 1.055).powf(2.4)
        } else {
            u / 12.92
        }
    };
    let (r, g, b) = (linear(c.0), linear(c.1), linear(c.2));
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    let x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    let y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
    let z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    [116.0 * y - 16.0, 500.0 * (x - y), 200.0 * (y - z)]
}

/// The line of a series: its algorithm's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stroke {
    /// IDA*.
    Solid,
    /// A*.
    Dashed,
    /// Breadth-first search.
    Dotted,
    /// An outside solver, whatever it searches with: dashes and dots, drawn over the built-in
    /// lines, so that a solver that reproduces a built-in search leaves that line in sight
    /// between its dashes (drawn solid, it hid it).
    DashDot,
}

thread_local! {
    /// The outside solvers' names of the figures this thread is drawing ([`Outside`]).
    static OUTSIDE: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// While it lives, the names it was made with are drawn as outside solvers
/// ([`Stroke::DashDot`]): a solver's name (`myida`) does not say that it is one, the results
/// do. Dropped, it gives back the names before.
pub(crate) struct Outside(Vec<String>);

impl Outside {
    pub(crate) fn drawn(names: Vec<String>) -> Outside {
        Outside(OUTSIDE.with(|o| std::mem::replace(&mut *o.borrow_mut(), names)))
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        OUTSIDE.with(|o| *o.borrow_mut() = std::mem::take(&mut self.0));
    }
}

/// Whether `name` is an outside solver's in the figures being drawn.
fn is_outside(name: &str) -> bool {
    OUTSIDE.with(|o| o.borrow().iter().any(|n| n == name))
}

/// The point marker of a series: its heuristic's, so that series stay apart without their
/// colours (in print, or to a colour-blind reader).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    TriangleDown,
    Star,
    Plus,
    Hexagon,
    TriangleLeft,
    TriangleRight,
    /// Breadth-first search's (it has no heuristic).
    Cross,
}

/// The markers of the palette's entries, in its order (Manhattan's circle first).
const MARKERS: [Marker; 10] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Star,
    Marker::Plus,
    Marker::Hexagon,
    Marker::TriangleLeft,
    Marker::TriangleRight,
];

/// The marker of a heuristic, solver or method, by its name: its colour's ([`marker_of_color`]);
/// `bfs` a cross.
fn marker_of(name: &str) -> Marker {
    marker_of_color(color_of(name))
}

/// The marker that goes with a series colour: the palette entry's for the known names, BFS's
/// cross for its black; for the others the marker of the colour's place in [`OTHER`], so that
/// two unknown names of one figure differ in both.
pub(crate) fn marker_of_color(color: RGBColor) -> Marker {
    if color == BFS_COLOR {
        return Marker::Cross;
    }
    match PALETTE.iter().position(|c| *c == color) {
        Some(i) => MARKERS[i],
        None => {
            let i = OTHER.iter().position(|c| *c == color).unwrap_or(0);
            // Not the circle: it is Manhattan's, which an outside solver often stands beside.
            MARKERS[5 + i % 5]
        }
    }
}

/// How every plot draws a series: one colour and marker per heuristic, one line per algorithm,
/// so that `astar+manhattan`, `manhattan` and `bfs` differ in every plot the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Look {
    pub color: RGBColor,
    pub stroke: Stroke,
    pub marker: Marker,
}

/// The look of a series named by a method (`astar+H`, `bfs`, H for IDA*), or a label starting
/// with one (`manhattan (r = 6.4)`).
pub fn look_of(label: &str) -> Look {
    // A name holds no space but may hold ':' (`pdb:1.2.3/4.5.6`); a label's suffix follows a
    // space (`manhattan (r = 6.4)`, `astar+pdb-663: measured`).
    let first = label.split(char::is_whitespace).next().unwrap_or(label);
    let name = first.strip_suffix(':').unwrap_or(first);
    let stroke = if is_outside(name) {
        Stroke::DashDot
    } else if name.starts_with("astar+") {
        Stroke::Dashed
    } else if name == "bfs" {
        Stroke::Dotted
    } else {
        Stroke::Solid
    };
    Look {
        color: color_of(name),
        stroke,
        marker: marker_of(name),
    }
}

/// Grey for reference lines (diagonals).
pub(crate) const REFERENCE_LINE: RGBColor = RGBColor(90, 90, 90);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_follow_names() {
        assert_eq!(color_of("manhattan"), PALETTE[0]);
        assert_eq!(color_of("pdb-663r"), PALETTE[6]);
        assert_eq!(color_of("my-solver"), color_of("my-solver"));
        for other in [
            "my-solver",
            "max(pdb-78r,pdb:1.2.3.4.5.6/7.8.9.10.11.12/13.14.15)",
        ] {
            assert!(
                !PALETTE.contains(&color_of(other)),
                "{other} looks like a known name"
            );
        }
        let known: Vec<usize> = KNOWN.iter().map(|k| k.1).collect();
        let mut unique = known.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), known.len(), "two known names share a colour");
        // The later-work figure: its series and pdb-6666r all differ.
        let mut drawn: Vec<RGBColor> = PUBLISHED_SERIES.iter().map(|s| color_of(s.0)).collect();
        drawn.push(color_of("pdb-6666r"));
        for (i, c) in drawn.iter().enumerate() {
            assert!(
                !drawn[..i].contains(c),
                "{:?} repeats a colour",
                PUBLISHED_SERIES.get(i)
            );
        }
    }

    /// The lab's seven methods: each looks different, the colour is the heuristic's and the
    /// line and marker the algorithm's.
    #[test]
    fn looks_drawn_together_differ() {
        let names = [
            "bfs",
            "astar+manhattan",
            "astar+linear-conflict",
            "astar+pdb-663",
            "manhattan",
            "linear-conflict",
            "pdb-663",
        ];
        let looks: Vec<Look> = names.iter().map(|n| look_of(n)).collect();
        for (i, l) in looks.iter().enumerate() {
            assert!(!looks[..i].contains(l), "{} repeats a look", names[i]);
        }
        assert_eq!(look_of("astar+manhattan").color, color_of("manhattan"));
        // Without colour (print, a colour-blind reader) the heuristics still differ: by marker.
        let korf100 = [
            "manhattan",
            "linear-conflict",
            "pdb-555",
            "pdb-663",
            "pdb-78",
            "pdb-78r",
        ];
        let markers: Vec<Marker> = korf100
            .iter()
            .chain(["bfs"].iter())
            .map(|n| look_of(n).marker)
            .collect();
        for (i, m) in markers.iter().enumerate() {
            assert!(!markers[..i].contains(m), "{m:?} repeats");
        }
        assert_eq!(look_of("astar+pdb-663").marker, look_of("pdb-663").marker);
        assert_eq!(look_of("manhattan (r = 6.4)"), look_of("manhattan"));
        assert_eq!(look_of("astar+pdb-663: measured"), look_of("astar+pdb-663"));
        // Custom partitions: a look per name (not per "pdbr"), the colour every other plot
        // gives it; two of them in one report differ even where their hashes meet.
        let (a, b) = ("pdbr:1.2.5.6/3.4.7.8", "pdbr:9.10.13.14/11.12.15");
        assert_eq!(look_of(&format!("{a} (r = 4.1)")).color, color_of(a));
        with_unknown(&[b, "manhattan", a, "my-solver"], || {
            assert_eq!(look_of(&format!("{a} (r = 4.1)")).color, color_of(a));
            let colors = [color_of(a), color_of(b), color_of("my-solver")];
            assert!(colors.iter().all(|c| OTHER.contains(c)));
            assert!(colors[0] != colors[1] && colors[1] != colors[2] && colors[0] != colors[2]);
            assert_eq!(color_of("manhattan"), PALETTE[0]);
        });
        assert_ne!(color_of("bfs"), color_of("manhattan"));
        let heuristics: Vec<RGBColor> = names[4..].iter().map(|n| color_of(n)).collect();
        assert!(!heuristics.contains(&BFS_COLOR));
    }

    /// The 24-puzzle's later-work figure draws a max beside the published series: its colour is
    /// the free one farthest from theirs, so not maroon beside clausecker/9-9-6's red.
    #[test]
    fn an_unknown_name_takes_the_colour_farthest_from_those_drawn() {
        let max = "max(pdb-6666r,pdbr:1.2.3/4.5.6)";
        with_unknown(&["pdb-6666r", max], || {
            let mine = color_of(max);
            let red = color_of("clausecker/9-9-6");
            let nearest = |c: &RGBColor| {
                PUBLISHED_SERIES
                    .iter()
                    .map(|s| distance(c, &PALETTE[s.1]))
                    .chain([distance(c, &color_of("pdb-6666r"))])
                    .fold(f64::MAX, f64::min)
            };
            for other in OTHER {
                assert!(nearest(&mine) >= nearest(&other), "{other:?} is farther");
            }
            assert!(distance(&mine, &red) > distance(&OTHER[0], &red));
        });
    }
}
