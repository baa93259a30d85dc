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

/// The colour of the i-th heuristic (in the results' order), the same in every plot.
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Grey for reference lines (diagonals).
pub const REFERENCE_LINE: RGBColor = RGBColor(90, 90, 90);
