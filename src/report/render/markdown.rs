//! `report.md`: GitHub-flavoured Markdown, plots as PNG links (the SVG beside each).

use std::fmt::Write;

use super::markup::{Blocks, Markup};
use crate::report::model::{Align, Figure, Report, Section, Table};

/// The report as Markdown.
pub fn render(report: &Report) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", escape(&report.title));
    BLOCKS.body(&mut md, report);
    md
}

const BLOCKS: Blocks = Blocks {
    markup: MARKUP,
    heading,
    paragraph: ["", "\n\n"],
    list: ["", "- ", "\n", "\n"],
    table,
    figure,
};

fn heading(md: &mut String, s: &Section) {
    let hashes = "#".repeat(usize::from(s.level.clamp(1, 5)) + 1);
    // An explicit anchor, so that links work whatever the host's slug rules are.
    let _ = writeln!(md, "<a id=\"{}\"></a>\n", s.id);
    let _ = writeln!(md, "{hashes} {}\n", escape(&s.title));
}

fn table(md: &mut String, t: &Table) {
    let _ = writeln!(md, "{}\n", MARKUP.text(&t.caption));
    let headers: Vec<String> = t.columns.iter().map(|c| escape(&c.label())).collect();
    let _ = writeln!(md, "| {} |", headers.join(" | "));
    let rules: Vec<&str> = t
        .columns
        .iter()
        .map(|c| match c.align {
            Align::Left => "---",
            Align::Right => "---:",
        })
        .collect();
    let _ = writeln!(md, "|{}|", rules.join("|"));
    for row in &t.rows {
        let cells: Vec<String> = row.iter().map(|c| CELL_MARKUP.cell(c)).collect();
        let _ = writeln!(md, "| {} |", cells.join(" | "));
    }
    md.push('\n');
}

fn figure(md: &mut String, f: &Figure) {
    let _ = writeln!(md, "**{}**\n", escape(&f.title));
    let _ = writeln!(md, "{}\n", MARKUP.text(&f.caption));
    let _ = writeln!(
        md,
        "![{}]({stem}.png)\n\n[SVG]({stem}.svg)\n",
        escape(&f.title),
        stem = f.stem
    );
}

const MARKUP: Markup = Markup {
    escape,
    code,
    strong: |s| format!("**{}**", escape(s)),
    link: |id, text| format!("[{}](#{id})", escape(text)),
};

/// Inside a table row, where GitHub splits cells on `|` even within code: there `\|` stands for
/// it, but only there (in a paragraph or list, a code span would show the backslash).
const CELL_MARKUP: Markup = Markup {
    code: |s| code(&s.replace('|', "\\|")),
    ..MARKUP
};

/// Backslash-escapes the ASCII punctuation that Markdown (and GitHub's math and tables) would
/// read as markup; line breaks become spaces so that a value cannot end a table row.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // `&` starts an entity only before a letter, digit or `#`: `Korf & Felner` stays.
            '&' if !chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == '#') =>
            {
                out.push(c)
            }
            // `#` makes a heading only at the start of a line.
            '#' if !out.is_empty() => out.push(c),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '#' | '&' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// A code span that holds any text: the fence is longer than any run of backticks inside (a
/// table cell's `|` is escaped before: [`CELL_MARKUP`]).
pub fn code(s: &str) -> String {
    let s = s.replace(['\n', '\r'], " ");
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{Cell, Column, Text};

    const NASTY: &str = "&<>\"_%$#{}\\~^";

    #[test]
    fn escapes_every_markup_character() {
        assert_eq!(escape(NASTY), "&\\<\\>\"\\_%\\$#{}\\\\\\~^");
        assert_eq!(escape("a|b\nc"), "a\\|b c");
        assert_eq!(escape("A & B &amp; &#1"), "A & B \\&amp; \\&#1");
        assert_eq!(escape("# x #1"), "\\# x #1");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        // A bar in a code span is itself, but in a table cell it would end the cell.
        assert_eq!(code("a|b"), "`a|b`");
        assert_eq!(MARKUP.text(&Text::plain("x").code("a|b")), "x`a|b`");
        assert_eq!(CELL_MARKUP.cell(&Cell::Code("a|b".into())), "`a\\|b`");
    }

    #[test]
    fn tables_keep_their_shape_with_nasty_cells() {
        let mut t = Table::new(
            "t",
            Text::plain("caption ").code(NASTY),
            vec![Column::text("name"), Column::number("value", Some("s"))],
        );
        t.row(vec![
            Cell::text(format!("{NASTY}|x")),
            Cell::num(1.5, crate::report::model::Rounding::Decimals(1)),
        ]);
        t.row(vec![
            Cell::Code("a|b".into()),
            Cell::num(2.5, crate::report::model::Rounding::Decimals(1)),
        ]);
        let mut md = String::new();
        table(&mut md, &t);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[2], "| name | value (s) |");
        assert_eq!(lines[3], "|---|---:|");
        // Only the two cell separators and the outer bars are unescaped `|`.
        let bars = lines[4]
            .match_indices('|')
            .filter(|(i, _)| *i == 0 || lines[4].as_bytes()[i - 1] != b'\\');
        assert_eq!(bars.count(), 3, "{}", lines[4]);
        assert!(lines[4].ends_with("| 1.5 |"));
        assert_eq!(lines[5], "| `a\\|b` | 2.5 |");
    }
}
