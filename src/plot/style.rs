//! Shared look of every plot: the bundled font, sizes, and one colour per heuristic.

use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

/// The font family every text element asks for; it resolves to the bundled DejaVu Sans.
pub const FONT: &str = "sans-serif";

/// DejaVu Sans (Bitstream Vera licence, see `assets/fonts/DejaVuSans-LICENSE.txt`), bundled so
/// that rendering needs no system font library.
pub(super) static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font with plotters (once per process).
pub fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
            .unwrap_or_else(|_| panic!("the bundled font is a valid TTF"));
    });
}

/// Pixel size of every figure.
pub const SIZE: (u32, u32) = (1100, 700);
/// Square figures (scatter plots with a diagonal).
pub const SQUARE: (u32, u32) = (850, 800);

pub const TITLE_SIZE: u32 = 26;
pub const AXIS_DESC_SIZE: u32 = 19;
pub const TICK_SIZE: u32 = 16;
pub const LEGEND_SIZE: u32 = 16;

pub fn title_font() -> TextStyle<'static> {
    (FONT, TITLE_SIZE).into_font().into()
}
pub fn axis_desc_font() -> TextStyle<'static> {
    (FONT, AXIS_DESC_SIZE).into_font().into()
}
pub fn tick_font() -> TextStyle<'static> {
    (FONT, TICK_SIZE).into_font().into()
}
pub fn legend_font() -> TextStyle<'static> {
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

/// The colour of a heuristic or solver, by its name: fixed for the known ones, otherwise taken
/// from a hash of the name (stable across runs and plots).
pub fn color_of(name: &str) -> RGBColor {
    if let Some(&(_, i)) = KNOWN.iter().find(|(n, _)| *n == name) {
        return PALETTE[i];
    }
    // FNV-1a: small, and the same on every platform and run.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    PALETTE[(hash % PALETTE.len() as u64) as usize]
}

/// The colours of `names` drawn together: the known names keep theirs ([`color_of`]); any other
/// name (methods such as `bfs` or `astar+pdb-663` hash onto the known colours) keeps its own
/// unless a name drawn with it has that colour, and then takes the first palette colour free.
pub fn distinct_colors(names: &[String]) -> Vec<RGBColor> {
    let known = |n: &str| KNOWN.iter().any(|(k, _)| *k == n);
    let mut colors: Vec<Option<RGBColor>> = names
        .iter()
        .map(|n| known(n).then(|| color_of(n)))
        .collect();
    for (i, name) in names.iter().enumerate() {
        if colors[i].is_some() {
            continue;
        }
        let own = color_of(name);
        let taken = |c: &RGBColor| colors.contains(&Some(*c));
        let color = if taken(&own) {
            PALETTE.iter().copied().find(|c| !taken(c)).unwrap_or(own)
        } else {
            own
        };
        colors[i] = Some(color);
    }
    colors
        .into_iter()
        .map(|c| c.unwrap_or(PALETTE[0]))
        .collect()
}

/// Grey for reference lines (diagonals).
pub const REFERENCE_LINE: RGBColor = RGBColor(90, 90, 90);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_follow_names() {
        assert_eq!(color_of("manhattan"), PALETTE[0]);
        assert_eq!(color_of("pdb-663r"), PALETTE[6]);
        assert_eq!(color_of("my-solver"), color_of("my-solver"));
        let known: Vec<usize> = KNOWN.iter().map(|k| k.1).collect();
        let mut unique = known.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), known.len(), "two known names share a colour");
    }

    #[test]
    fn colours_drawn_together_differ() {
        let names: Vec<String> = [
            "bfs",
            "astar+manhattan",
            "astar+linear-conflict",
            "astar+pdb-663",
            "manhattan",
            "linear-conflict",
            "pdb-663",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let colors = distinct_colors(&names);
        for (i, c) in colors.iter().enumerate() {
            assert!(!colors[..i].contains(c), "{} repeats a colour", names[i]);
        }
        assert_eq!(colors[4], color_of("manhattan"));
    }
}
