//! The block that shows a drawn plot. Below every section, so that any of them can place a
//! figure.

use super::model::{Block, Figure, Text};

/// A drawn plot as a block of the report.
pub fn figure(f: &crate::plot::Figure) -> Block {
    Block::Figure(Figure {
        stem: f.stem.clone(),
        title: f.title.clone(),
        caption: Text::ticked(&f.caption),
        svg: f.svg.clone(),
    })
}
