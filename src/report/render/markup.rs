//! What the renderings share: the walk through a report, and a format's inline markup, from
//! which its text and table cells follow (a module below the renderers, which `render` calls).

use crate::report::model::{Block, Cell, Figure, Inline, Report, Section, Table, Text};

/// How a format sets each part of a report, so that the walk through it ([`Blocks::body`]) is
/// written once for every format.
pub(super) struct Blocks {
    /// The inline markup of paragraphs and list items.
    pub(super) markup: Markup,
    /// A section's heading (its blocks follow).
    pub(super) heading: fn(&mut String, &Section),
    /// What goes before and after a paragraph's text.
    pub(super) paragraph: [&'static str; 2],
    /// What goes before a list, before and after each item, and after the list.
    pub(super) list: [&'static str; 4],
    pub(super) table: fn(&mut String, &Table),
    pub(super) figure: fn(&mut String, &Figure),
}

impl Blocks {
    /// The report's introduction and sections: everything between a format's title and its end.
    pub(super) fn body(&self, out: &mut String, report: &Report) {
        for b in &report.intro {
            self.block(out, b);
        }
        for s in &report.sections {
            (self.heading)(out, s);
            for b in &s.blocks {
                self.block(out, b);
            }
        }
    }

    fn block(&self, out: &mut String, b: &Block) {
        match b {
            Block::Paragraph(t) => {
                let [open, close] = self.paragraph;
                out.push_str(&format!("{open}{}{close}", self.markup.text(t)));
            }
            Block::List(items) => {
                let [start, open, close, end] = self.list;
                out.push_str(start);
                for i in items {
                    out.push_str(&format!("{open}{}{close}", self.markup.text(i)));
                }
                out.push_str(end);
            }
            Block::Table(t) => (self.table)(out, t),
            Block::Figure(f) => (self.figure)(out, f),
        }
    }
}

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

/// Running text as a typesetter would set it: "quotes" as opening and closing quotes, and a
/// one-letter name with a short index (N_i, Σ_C, N_12, N_(k−1)) with the index set below; the
/// rest through `escape` (code spans never come here: a quote or an underscore there is the
/// character itself). Only quotes in pairs are typeset; a lone one (5" or a test's odd
/// string) stays the character.
pub(super) fn typeset(
    s: &str,
    escape: fn(&str) -> String,
    quotes: [&str; 2],
    index: fn(&str) -> String,
) -> String {
    let chars: Vec<char> = s.chars().collect();
    let paired = chars.iter().filter(|&&c| c == '"').count() % 2 == 0;
    let mut out = String::new();
    let mut plain = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let word_start = |j: usize| j == 0 || !chars[j - 1].is_alphanumeric();
        // An index is one or two letters or digits, or a short bracketed term: N_i, N_(k−1).
        let after = &chars[i + 1..];
        let index_len = match after.first() {
            Some('(') => after
                .iter()
                .take(8)
                .take_while(|c| !c.is_whitespace())
                .position(|&c| c == ')')
                .map_or(0, |close| close + 1),
            _ => match after
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric())
                .count()
            {
                n @ 1..=2 => n,
                _ => 0,
            },
        };
        let set = match c {
            '"' if paired && prev.is_none_or(|p| p.is_whitespace() || "([{/".contains(p)) => {
                Some((quotes[0].to_string(), 1))
            }
            '"' if paired => Some((quotes[1].to_string(), 1)),
            '_' if prev.is_some_and(char::is_alphabetic) && word_start(i - 1) && index_len > 0 => {
                let term: String = after[..index_len].iter().collect();
                let inner = term.strip_prefix('(').and_then(|x| x.strip_suffix(')'));
                Some((index(inner.unwrap_or(&term)), 1 + index_len))
            }
            _ => None,
        };
        match set {
            Some((markup, used)) => {
                out.push_str(&escape(&plain));
                plain.clear();
                out.push_str(&markup);
                i += used;
            }
            None => {
                plain.push(c);
                i += 1;
            }
        }
    }
    out.push_str(&escape(&plain));
    out
}
