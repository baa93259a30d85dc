//! A plot as the report holds it: drawn into the report's directory, with its SVG text, and
//! the block that shows it. Below every section, so that any of them can place a figure.

use super::model::{Block, Figure, Text};

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

/// A drawn plot as a block of the report.
pub fn figure(f: &DrawnFigure) -> Block {
    Block::Figure(Figure {
        stem: f.stem.clone(),
        title: f.title.clone(),
        caption: Text::plain(&f.caption),
        svg: f.svg.clone(),
    })
}
