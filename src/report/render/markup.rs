//! What the three renderings share: a format's inline markup, from which its text and table
//! cells follow (a module below the renderers, which `render` calls).

use crate::report::model::{Cell, Inline, Text};

/// A format's inline markup, from which its text and table cells follow.
pub(super) struct Markup {
    pub(super) escape: fn(&str) -> String,
    pub(super) code: fn(&str) -> String,
    pub(super) strong: fn(&str) -> String,
    /// A link to the section with this id, around this text.
    pub(super) link: fn(&str, &str) -> String,
}

impl Markup {
    pub(super) fn text(&self, t: &Text) -> String {
        t.0.iter()
            .map(|i| match i {
                Inline::Plain(s) => (self.escape)(s),
                Inline::Code(s) => (self.code)(s),
                Inline::Strong(s) => (self.strong)(s),
                Inline::Ref { id, text } => (self.link)(id, text),
            })
            .collect()
    }

    pub(super) fn cell(&self, c: &Cell) -> String {
        match c {
            Cell::Rich(t) => self.text(t),
            c if c.is_code() => (self.code)(&c.display()),
            c => (self.escape)(&c.display()),
        }
    }
}
