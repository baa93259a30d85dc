//! Plain text for a terminal (what `compare` prints): the report without any markup. Markdown's
//! backslash escapes, anchors, backticks and asterisks are for a `.md` file; on a terminal they
//! are noise (`\*`, `\_`, `` \` ``) that a reader must decode. Tables are set in aligned columns,
//! emphasis as `*word*`.

use std::fmt::Write;

use super::markup::{Blocks, Markup};
use crate::report::model::{Align, Figure, Report, Table};

/// The report as plain text.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    heading(&mut out, &report.title, '=');
    BLOCKS.body(&mut out, report);
    out
}

fn heading(out: &mut String, title: &str, rule: char) {
    let title = flat(title);
    let width = title.chars().count();
    let _ = writeln!(out, "{title}\n{}\n", rule.to_string().repeat(width));
}

const BLOCKS: Blocks = Blocks {
    markup: PLAIN,
    heading: |out, s| heading(out, &s.title, if s.level <= 1 { '-' } else { '~' }),
    paragraph: ["", "\n\n"],
    list: ["", "- ", "\n", "\n"],
    table,
    figure,
};

/// Columns padded to their widest cell (numbers to the right), two spaces between them.
fn table(out: &mut String, t: &Table) {
    let _ = writeln!(out, "{}\n", PLAIN.text(&t.caption));
    let header: Vec<String> = t.columns.iter().map(|c| flat(&c.label())).collect();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|c| PLAIN.cell(c)).collect())
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .zip(&t.columns)
            .map(|((c, &w), col)| match col.align {
                Align::Left => format!("{c:<w$}"),
                Align::Right => format!("{c:>w$}"),
            })
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let _ = writeln!(out, "{}", line(&header));
    let rules: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    let _ = writeln!(out, "{}", rules.join("  "));
    for r in &rows {
        let _ = writeln!(out, "{}", line(r));
    }
    out.push('\n');
}

fn figure(out: &mut String, f: &Figure) {
    let _ = writeln!(
        out,
        "{}: {} ({}.png)\n",
        flat(&f.title),
        PLAIN.text(&f.caption),
        f.stem
    );
}

/// Text on one line: a value cannot break a table row or a list item.
fn flat(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Emphasis as plain text has it, `*FAIL*`: it marks what fails a comparison, and is no escape.
const PLAIN: Markup = Markup {
    escape: flat,
    code: flat,
    strong: |s| format!("*{}*", flat(s)),
    link: |_, text| flat(text),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{Cell, Column, Rounding, Section, Text};

    /// What the Markdown file escapes is printed as it is, and a table's columns line up.
    #[test]
    fn no_markup_and_aligned_columns() {
        let mut s = Section::new(1, "Runs");
        s.push(
            Text::plain("base: ")
                .code("results/a_b")
                .p(" ")
                .strong("PASS")
                .p(": 2 * 3 | x_y"),
        );
        let mut t = Table::new(
            "t",
            Text::plain("The runs."),
            vec![
                Column::text("heuristic"),
                Column::number("seconds", Some("s")),
            ],
        );
        t.row(vec![
            Cell::Code("max(pdb_a|b)".into()),
            Cell::num(1.5, Rounding::Decimals(1)),
        ]);
        t.row(vec![
            Cell::Code("manhattan".into()),
            Cell::num(12.25, Rounding::Decimals(2)),
        ]);
        s.push(t);
        let report = Report {
            title: "tilebench compare".into(),
            intro: vec![],
            sections: vec![s],
        };
        let text = render(&report);
        assert!(!text.contains('\\'), "{text}");
        assert!(!text.contains('`') && !text.contains("**"), "{text}");
        assert!(!text.contains("<a id"), "{text}");
        assert!(
            text.contains("base: results/a_b *PASS*: 2 * 3 | x_y"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("heuristic"))
            .unwrap();
        assert_eq!(lines[at], "heuristic     seconds (s)");
        assert_eq!(lines[at + 1], "------------  -----------");
        assert_eq!(lines[at + 2], "max(pdb_a|b)          1.5");
        assert_eq!(lines[at + 3], "manhattan           12.25");
    }
}
