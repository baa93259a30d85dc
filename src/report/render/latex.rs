//! `report.tex` and its table fragments: a document that pdflatex compiles with the article
//! class, `booktabs`, `graphicx` and `longtable` only, tables and plots set where they stand
//! (no floats to pile up), the plots included as PDF (`<stem>.pdf`, drawn beside
//! it), and each table also as `tables/<id>.tex` (a `tabular`, no float) that a student can
//! `\input` into their own document.
//!
//! Every piece of text goes through [`escape`], which covers LaTeX's special characters and the
//! few non-ASCII symbols the report uses; other characters outside Latin-1 become `?` rather
//! than stopping pdflatex.

use std::fmt::Write;

use super::markup::{typeset, Blocks, Markup};
use crate::report::model::{Align, Block, Cell, Column, Figure, Report, Section, Table};

/// The folder of table fragments, beside `report.tex`.
pub const TABLES_DIR: &str = "tables";

/// Rows per part of a long table, so that each part fits on a page.
pub const ROWS_PER_PART: usize = 40;

const PREAMBLE: &str = r"% The plots are PDF 1.7: accept them without a warning (pdfTeX's default is 1.5), and
% several of them on one page (each carries a page group) too.
\ifdefined\pdfminorversion\pdfminorversion=7\fi
\ifdefined\pdfsuppresswarningpagegroup\pdfsuppresswarningpagegroup=1\fi
\documentclass[a4paper,10pt]{article}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{longtable}
% A4 with 2.5 cm margins, without the geometry package.
\setlength{\textwidth}{16cm}
\setlength{\oddsidemargin}{-0.04cm}
\setlength{\evensidemargin}{-0.04cm}
\setlength{\textheight}{24cm}
\setlength{\topmargin}{-1.5cm}
% Tables and plots are set where they stand, not as floats: none is lost or carried far from
% its section however many there are (a float-less figure or table, as the float package's [H]).
\makeatletter
\newenvironment{inplace}[1]{\par\medskip\noindent\begin{minipage}{\linewidth}%
\def\@captype{#1}\centering}{\end{minipage}\par\medskip}
% A section starts on a new page when less than #1 of this page is left, rather than leave its
% heading and first lines alone at the foot of the page (its table moved to the next).
\newcommand{\needspace}[1]{\par\penalty-100\begingroup\setlength{\dimen@}{#1}%
\dimen@ii\pagegoal\advance\dimen@ii-\pagetotal
\ifdim\dimen@>\dimen@ii\ifdim\dimen@ii>\z@\vfil\fi\break\fi\endgroup}
\makeatother
\setlength{\parindent}{0pt}
% Monospace has no stretchable space: let lines of code stretch rather than overrun the margin.
\setlength{\emergencystretch}{3em}
\setlength{\parskip}{0.5\baselineskip}
";

/// The whole document.
pub fn render(report: &Report) -> String {
    let mut tex = String::from(PREAMBLE);
    // Ragged-right: a justified line holding a long path or command is stretched into gaps
    // wider than words.
    let _ = writeln!(tex, "\\begin{{document}}\n\\raggedright\n");
    let _ = writeln!(
        tex,
        "\\begin{{center}}{{\\LARGE\\bfseries {}\\par}}\\end{{center}}\n",
        prose(&report.title)
    );
    BLOCKS.body(&mut tex, report);
    tex.push_str("\\end{document}\n");
    tex
}

/// Every table fragment: (file stem under [`TABLES_DIR`], content). A long table is split into
/// parts `<id>-1`, `<id>-2`, ... of at most [`ROWS_PER_PART`] rows.
pub fn fragments(report: &Report) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for s in &report.sections {
        for b in &s.blocks {
            if let Block::Table(t) = b {
                out.extend(parts(t));
            }
        }
    }
    out
}

/// The fragments of one table: split by columns when it is wider than the line (each part
/// repeats the key columns), then into parts of at most [`ROWS_PER_PART`] rows. Never shrunk.
fn parts(t: &Table) -> Vec<(String, String)> {
    let chunks: Vec<&[Vec<Cell>]> = if t.rows.len() > ROWS_PER_PART {
        t.rows.chunks(ROWS_PER_PART).collect()
    } else {
        vec![&t.rows[..]]
    };
    let groups = column_groups(t);
    let n = chunks.len() * groups.len();
    let mut out = Vec::new();
    for rows in chunks {
        for cols in &groups {
            let id = if n > 1 {
                format!("{}-{}", t.id, out.len() + 1)
            } else {
                t.id.clone()
            };
            out.push((id, tabular(t, rows, cols)));
        }
    }
    out
}

/// The usable line width in points (16 cm).
const LINE_PT: f64 = 455.0;
/// The width of a character in the tables' \small type, in points: the typewriter font's
/// 4.73 pt (0.525 em of 9 pt), wider than the roman digits (4.5 pt) and most letters. A larger
/// figure split tables that fit into three parts of four columns (the lab report's summaries).
const CHAR_PT: f64 = 4.75;
/// The space between two columns in points (2 × \tabcolsep).
const GAP_PT: f64 = 12.0;

/// The estimated width of each column in points: its widest cell or header line.
fn column_widths(t: &Table) -> Vec<f64> {
    t.columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if paragraph_column(t, &t.rows, i) {
                return LINE_PT * 0.6 + GAP_PT;
            }
            let header = header_lines(c, false)
                .iter()
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0);
            let cells = t
                .rows
                .iter()
                .map(|r| r[i].display().chars().count())
                .max()
                .unwrap_or(0);
            header.max(cells) as f64 * CHAR_PT + GAP_PT
        })
        .collect()
}

/// The columns of each part of a table wider than the line: the key columns, then the
/// others in order, in as few parts as fit the line, and of those the split whose widest part
/// is narrowest (so that no part is a lone column or two left over); all columns in one part
/// when the table fits.
fn column_groups(t: &Table) -> Vec<Vec<usize>> {
    let greedy = greedy_column_groups(t);
    let k = greedy.len();
    if k <= 1 {
        return greedy;
    }
    let widths = column_widths(t);
    let keys = key_columns(t);
    let split = |can_start: &[bool]| -> Vec<Vec<usize>> {
        balanced(&widths[keys..], k, can_start)
            .into_iter()
            .map(|g| (0..keys).chain(g.into_iter().map(|i| i + keys)).collect())
            .collect()
    };
    let fits = |g: &Vec<usize>| {
        g.len() == keys + 1 || g.iter().map(|&i| widths[i]).sum::<f64>() <= LINE_PT
    };
    // A part starts where a column group does ("mean nodes: ours" keeps its "published" and
    // "ratio") when such a split fits; else anywhere. The narrowest widest part is never wider
    // than the greedy split's, which fits (or holds a single column too wide for any line).
    let at_groups: Vec<bool> = (t.columns[keys..].iter())
        .map(|c| c.group.is_none())
        .collect();
    let anywhere = vec![true; at_groups.len()];
    [split(&at_groups), split(&anywhere)]
        .into_iter()
        .find(|groups| !groups.is_empty() && groups.iter().all(fits))
        .unwrap_or(greedy)
}

/// Splits `widths` (in order) into `k` non-empty runs, each starting at an index whose
/// `can_start` is true (the first always may), whose widest sum is the smallest possible (the
/// linear partition problem, by dynamic programming: tables have few columns). Empty when no
/// such split exists.
fn balanced(widths: &[f64], k: usize, can_start: &[bool]) -> Vec<Vec<usize>> {
    let m = widths.len();
    let k = k.clamp(1, m.max(1));
    let prefix: Vec<f64> = std::iter::once(0.0)
        .chain(widths.iter().scan(0.0, |acc, w| {
            *acc += w;
            Some(*acc)
        }))
        .collect();
    // best[j][i]: the smallest widest sum of the first i widths in j runs; cut[j][i]: where the
    // last of those runs starts.
    let mut best = vec![vec![f64::INFINITY; m + 1]; k + 1];
    let mut cut = vec![vec![0usize; m + 1]; k + 1];
    best[0][0] = 0.0;
    for j in 1..=k {
        for i in j..=m {
            for s in (j - 1)..i {
                if s > 0 && !can_start.get(s).copied().unwrap_or(true) {
                    continue;
                }
                let worst = best[j - 1][s].max(prefix[i] - prefix[s]);
                if worst < best[j][i] {
                    best[j][i] = worst;
                    cut[j][i] = s;
                }
            }
        }
    }
    if best[k][m].is_infinite() {
        return Vec::new();
    }
    let mut groups = Vec::new();
    let mut i = m;
    for j in (1..=k).rev() {
        let s = cut[j][i];
        groups.push((s..i).collect());
        i = s;
    }
    groups.reverse();
    groups
}

/// The key columns of `t`: at least one, and at least one column left to split.
fn key_columns(t: &Table) -> usize {
    t.keys.clamp(1, t.columns.len().saturating_sub(1).max(1))
}

/// The key columns, then as many of the others as fit, part after part.
fn greedy_column_groups(t: &Table) -> Vec<Vec<usize>> {
    let widths = column_widths(t);
    let n = widths.len();
    let keys = key_columns(t);
    if n <= keys + 1 || widths.iter().sum::<f64>() <= LINE_PT {
        return vec![(0..n).collect()];
    }
    let key_width: f64 = widths[..keys].iter().sum();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = (0..keys).collect();
    let mut used = key_width;
    for (i, &w) in widths.iter().enumerate().skip(keys) {
        if current.len() > keys && used + w > LINE_PT {
            groups.push(std::mem::replace(&mut current, (0..keys).collect()));
            used = key_width;
        }
        current.push(i);
        used += w;
    }
    groups.push(current);
    groups
}

/// Whether column `i` holds text long enough to wrap in a paragraph column.
fn paragraph_column(t: &Table, rows: &[Vec<Cell>], i: usize) -> bool {
    t.columns[i].align == Align::Left
        && rows
            .iter()
            .any(|r| r[i].display().chars().count() > LONG_TEXT)
}

fn tabular(t: &Table, rows: &[Vec<Cell>], cols: &[usize]) -> String {
    let mut tex = String::new();
    let _ = writeln!(
        tex,
        "% {} (written by tilebench; needs \\usepackage{{booktabs}})",
        t.caption.to_plain().replace(['\n', '\r'], " ")
    );
    let (spec, head, body) = table_parts(t, rows, cols);
    let _ = writeln!(tex, "\\begin{{tabular}}{{{spec}}}\n\\toprule");
    let _ = writeln!(tex, "{head}\\midrule");
    tex.push_str(&body);
    tex.push_str("\\bottomrule\n\\end{tabular}\n");
    tex
}

/// The column spec, the header row and the body rows of columns `cols` of a table.
fn table_parts(t: &Table, rows: &[Vec<Cell>], cols: &[usize]) -> (String, String, String) {
    // A text column with long values wraps in a paragraph column instead of widening the table.
    let spec: String = cols
        .iter()
        .map(|&i| match t.columns[i].align {
            Align::Left if paragraph_column(t, rows, i) => "p{0.6\\linewidth}",
            Align::Left => "l",
            Align::Right => "r",
        })
        .collect();
    let headers: Vec<String> = cols
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let starts_part = k > 0 && cols[k - 1] + 1 != i;
            let column = match &t.columns[i].group {
                Some(g) if starts_part => Column {
                    header: format!("{g}: {}", t.columns[i].header),
                    ..t.columns[i].clone()
                },
                _ => t.columns[i].clone(),
            };
            header(&column, paragraph_column(t, rows, i))
        })
        .collect();
    let head = format!("{} \\\\\n", headers.join(" & "));
    // `\raggedright` redefines `\\` inside its cell: rows with a ragged cell end with
    // `\tabularnewline`, which it leaves alone.
    let ragged_cols = cols.iter().any(|&i| paragraph_column(t, rows, i));
    let end = if ragged_cols {
        "\\tabularnewline"
    } else {
        "\\\\"
    };
    let mut body = String::new();
    for row in rows {
        let cells: Vec<String> = cols
            .iter()
            .map(|&i| {
                if paragraph_column(t, rows, i) {
                    ragged(&MARKUP.cell(&row[i]))
                } else {
                    MARKUP.cell(&row[i])
                }
            })
            .collect();
        let _ = writeln!(body, "{} {end}", cells.join(" & "));
    }
    (spec, head, body)
}

/// A paragraph cell set ragged-right: justified, a line of a few long words (paths, commands)
/// is stretched into wide gaps. No `\par` at its end: that adds an empty line to the row.
fn ragged(content: &str) -> String {
    format!("\\raggedright {content}")
}

/// Text cells longer than this (in characters) make their column a paragraph column.
const LONG_TEXT: usize = 60;

/// Header lines are at most this long (in characters), so that wide tables need less shrinking.
const HEADER_LINE: usize = 14;

/// A column header, broken into short lines (the unit on a line of its own) in a nested
/// `tabular` aligned like the column; a paragraph column's header keeps its words on one line
/// (the column is wide).
fn header(c: &Column, wide: bool) -> String {
    let lines = header_lines(c, wide);
    if lines.len() <= 1 {
        return prose(&c.label());
    }
    let align = match c.align {
        Align::Left => 'l',
        Align::Right => 'r',
    };
    let body: Vec<String> = lines.iter().map(|l| prose(l)).collect();
    format!(
        r"\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}{}\end{{tabular}}",
        body.join(r"\\")
    )
}

/// A column header's lines: words joined up to [`HEADER_LINE`] characters (all on one line
/// when `wide`), the unit last.
fn header_lines(c: &Column, wide: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let text = if c.unit_inside() {
        c.label()
    } else {
        c.header.clone()
    };
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if wide || l.len() + 1 + word.len() <= HEADER_LINE => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if let Some(u) = c.unit.as_ref().filter(|_| !c.unit_inside()) {
        lines.push(format!("({u})"));
    }
    lines
}

fn heading(tex: &mut String, s: &Section) {
    let command = match s.level {
        0 | 1 => "section",
        2 => "subsection",
        3 => "subsubsection",
        _ => "paragraph",
    };
    let _ = writeln!(
        tex,
        "\\needspace{{0.25\\textheight}}\n\\{command}{{{}}}\\label{{sec:{}}}\n",
        prose(&s.title),
        s.id
    );
}

const BLOCKS: Blocks = Blocks {
    markup: MARKUP,
    heading,
    paragraph: ["", "\n\n"],
    list: ["\\begin{itemize}\n", "\\item ", "\n", "\\end{itemize}\n\n"],
    table,
    figure,
};

/// Tables of at most this many lines (header and wrapped cells counted) are kept whole on one
/// page: a summary of seven methods broken after its second row reads badly.
const SHORT_TABLE_LINES: usize = 20;

/// The lines a table's body takes, a paragraph cell counting one line per ~55 characters.
fn table_lines(t: &Table) -> usize {
    let per_line = LONG_TEXT - 5;
    let header = t
        .columns
        .iter()
        .map(|c| header_lines(c, false).len())
        .max()
        .unwrap_or(1);
    header
        + t.rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| c.display().chars().count().div_ceil(per_line))
                    .max()
                    .unwrap_or(1)
                    .max(1)
            })
            .sum::<usize>()
}

/// A table in the document, one per group of columns when the table is wider than the line: a
/// short one kept whole where it stands (moved to the next page rather than split), a longer one
/// a `longtable` (it breaks across pages, its header repeated).
fn table(tex: &mut String, t: &Table) {
    let groups = column_groups(t);
    let n = groups.len();
    let short = table_lines(t) <= SHORT_TABLE_LINES;
    for (i, cols) in groups.iter().enumerate() {
        let (caption, id) = if n > 1 {
            (
                format!("{} (part {} of {n})", MARKUP.text(&t.caption), i + 1),
                format!("{}-{}", t.id, i + 1),
            )
        } else {
            (MARKUP.text(&t.caption), t.id.clone())
        };
        let (spec, head, body) = table_parts(t, &t.rows, cols);
        if short {
            let _ = writeln!(
                tex,
                "\\begin{{inplace}}{{table}}\\caption{{{caption}}}\\label{{tab:{id}}}\\par\\smallskip\n\\small\n\
                 \\begin{{tabular}}{{{spec}}}\n\\toprule\n{head}\\midrule\n{body}\\bottomrule\n\
                 \\end{{tabular}}\n\\end{{inplace}}\n"
            );
            continue;
        }
        let _ = writeln!(
            tex,
            "{{\\small\n\\begin{{longtable}}{{{spec}}}\n\\caption{{{caption}}}\\label{{tab:{id}}}\\\\\n\
             \\toprule\n{head}\\midrule\n\\endfirsthead\n\\toprule\n{head}\\midrule\n\\endhead\n\
             {body}\\bottomrule\n\\end{{longtable}}}}\n"
        );
    }
}

/// A plot at most 0.38 of the text height: two of them with captions of five lines share a
/// page (at 0.42, a caption of four lines sent every plot to a page of its own).
fn figure(tex: &mut String, f: &Figure) {
    let _ = writeln!(
        tex,
        "\\begin{{inplace}}{{figure}}\n\
         \\includegraphics[width=\\linewidth,height=0.38\\textheight,keepaspectratio]{{{}.pdf}}\n\
         \\caption{{\\textbf{{{}.}} {}}}\\label{{fig:{}}}\n\\end{{inplace}}\n",
        f.stem,
        prose(&f.title),
        MARKUP.text(&f.caption),
        f.stem
    );
}

const MARKUP: Markup = Markup {
    escape: prose,
    code,
    strong: |s| format!("\\textbf{{{}}}", prose(s)),
    link: |id, text| format!("{} (Section~\\ref{{sec:{id}}})", prose(text)),
};

/// Running text as a typesetter would set it ([`typeset`]): ``quotes'', N\textsubscript{i}.
fn prose(s: &str) -> String {
    typeset(s, escape, ["``", "''"], |i| {
        format!("\\textsubscript{{{}}}", escape(i))
    })
}

/// Monospace text that may break after `/`, `,`, `_`, `=`, `:` and a single `-` (not inside
/// `--`, nor anywhere in an option's name: `--search-threads` stays whole), so that long
/// commands, paths and partitions wrap at the margin instead of running over it; `\allowbreak`
/// is plain LaTeX and adds no hyphen.
pub fn code(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::from("\\texttt{");
    let mut chunk = String::new();
    let mut option = false;
    for (i, &c) in chars.iter().enumerate() {
        chunk.push(c);
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        if matches!(prev, None | Some(' ')) {
            option = c == '-';
        }
        let breaks = match c {
            '/' | ',' | '_' | '=' | ':' => true,
            '-' => !option && next != Some('-') && !matches!(prev, None | Some(' ' | '-')),
            _ => false,
        };
        if breaks && next.is_some_and(|n| n != ' ') {
            out.push_str(&escape(&chunk));
            out.push_str("\\allowbreak{}");
            chunk.clear();
        }
    }
    out.push_str(&escape(&chunk));
    out.push('}');
    out
}

/// Escapes text for LaTeX (pdflatex, OT1 encoding): the ten special characters, the ASCII
/// characters OT1 prints as something else (`<`, `>`, `|`, `"`), ligature pairs (`--`, `''`),
/// and the non-ASCII symbols the report uses. Latin-1 letters pass through (pdflatex reads
/// UTF-8); anything else becomes `?`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 4);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            '$' => out.push_str("\\$"),
            '&' => out.push_str("\\&"),
            '#' => out.push_str("\\#"),
            '%' => out.push_str("\\%"),
            // OT1 has no text glyph for these (draws `_` as a rule, takes braces from the math
            // font, which \texttt lacks): the typewriter font's ASCII glyph, which also copies
            // and searches as the character itself.
            '\\' | '~' | '^' | '<' | '>' | '|' | '"' | '_' | '{' | '}' => {
                let _ = write!(out, "{{\\ttfamily\\char{}}}", c as u32);
            }
            // Pairs that would become ligatures: quotes, dashes, inverted marks.
            '\'' | '`' | '-' if next == Some(c) => {
                out.push(c);
                out.push_str("{}");
            }
            '?' | '!' if next == Some('`') => {
                out.push(c);
                out.push_str("{}");
            }
            '\n' | '\r' => out.push(' '),
            '—' => out.push_str("\\textemdash{}"),
            '–' => out.push_str("\\textendash{}"),
            '…' => out.push_str("\\ldots{}"),
            '‘' => out.push_str("`{}"),
            '’' => out.push_str("'{}"),
            '“' => out.push_str("``"),
            '”' => out.push_str("''"),
            '×' => out.push_str("$\\times$"),
            '÷' => out.push_str("$\\div$"),
            '±' => out.push_str("$\\pm$"),
            '≤' => out.push_str("$\\le$"),
            '≥' => out.push_str("$\\ge$"),
            '≈' => out.push_str("$\\approx$"),
            '≠' => out.push_str("$\\ne$"),
            '−' => out.push_str("$-$"),
            '·' => out.push_str("$\\cdot$"),
            '→' => out.push_str("$\\rightarrow$"),
            '←' => out.push_str("$\\leftarrow$"),
            '↔' => out.push_str("$\\leftrightarrow$"),
            '∞' => out.push_str("$\\infty$"),
            'Σ' => out.push_str("$\\Sigma$"),
            'σ' => out.push_str("$\\sigma$"),
            'μ' | 'µ' => out.push_str("$\\mu$"),
            '²' => out.push_str("\\textsuperscript{2}"),
            'ᵈ' => out.push_str("\\textsuperscript{d}"),
            '\u{a0}' => out.push('~'),
            c if c.is_ascii() => out.push(c),
            c if ('\u{c0}'..='\u{ff}').contains(&c) => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{Column, Rounding, Text};

    /// The print size the plots' fonts are set for (`plot::style`, and its test
    /// `plots_read_at_print_size_and_show_only_what_they_draw`): 16 cm wide at most, 0.38 of a
    /// 24 cm text height tall.
    #[test]
    fn figures_are_set_at_the_size_the_plots_are_drawn_for() {
        assert!(PREAMBLE.contains("\\setlength{\\textwidth}{16cm}"));
        assert!(PREAMBLE.contains("\\setlength{\\textheight}{24cm}"));
        let mut tex = String::new();
        figure(
            &mut tex,
            &Figure {
                stem: "s-x".into(),
                title: "t".into(),
                caption: Text::plain("c"),
                svg: String::new(),
            },
        );
        assert!(
            tex.contains("[width=\\linewidth,height=0.38\\textheight,keepaspectratio]"),
            "{tex}"
        );
    }

    #[test]
    fn prose_quotes_and_indices_are_typeset() {
        assert_eq!(
            prose("KRE (\"Time complexity\", 2001) \"ok\""),
            "KRE (``Time complexity'', 2001) ``ok''"
        );
        assert_eq!(
            prose("E(d) = Σ_i N_i · P(d − i), N_12"),
            "E(d) = $\\Sigma$\\textsubscript{i} N\\textsubscript{i} $\\cdot$ P(d $-$ i), \
             N\\textsubscript{12}"
        );
        // Names are not indices: the underscore stays the character.
        assert_eq!(prose("x_abc"), escape("x_abc"));
        assert_eq!(prose("ab_c"), escape("ab_c"));
        assert_eq!(prose("a 5\" board"), escape("a 5\" board"));
        assert_eq!(
            prose("r = N_(k−1) / N_(k - 2)"),
            "r = N\\textsubscript{k$-$1} / N{\\ttfamily\\char95}(k - 2)"
        );
        assert_eq!(
            code("\"a_b\""),
            "\\texttt{{\\ttfamily\\char34}a_\\allowbreak{}b{\\ttfamily\\char34}}"
                .replace("a_", "a{\\ttfamily\\char95}")
        );
    }

    #[test]
    fn escapes_specials() {
        assert_eq!(
            escape("&<>\"_%$#{}\\~^"),
            "\\&{\\ttfamily\\char60}{\\ttfamily\\char62}{\\ttfamily\\char34}\
             {\\ttfamily\\char95}\\%\\$\\#{\\ttfamily\\char123}{\\ttfamily\\char125}\
             {\\ttfamily\\char92}\
             {\\ttfamily\\char126}{\\ttfamily\\char94}"
        );
        assert_eq!(escape("a--b ''x''"), "a-{}-b '{}'x'{}'");
        assert_eq!(escape("Σ ≤ 3 — ok"), "$\\Sigma$ $\\le$ 3 \\textemdash{} ok");
        assert_eq!(escape("日本"), "??");
        assert_eq!(escape("café"), "café");
        assert_eq!(
            escape("b² bᵈ"),
            "b\\textsuperscript{2} b\\textsuperscript{d}"
        );
    }

    #[test]
    fn code_breaks_after_separators_not_inside_options() {
        assert_eq!(
            code("tilebench run --out results/a_b -H pdb-663,x"),
            "\\texttt{tilebench run -{}-out results/\\allowbreak{}a{\\ttfamily\\char95}\\allowbreak{}b \
             -H pdb-\\allowbreak{}663,\\allowbreak{}x}"
        );
        assert_eq!(code("a--b"), "\\texttt{a-{}-b}");
        assert_eq!(
            code("--search-threads 2 a-b"),
            "\\texttt{-{}-search-threads 2 a-\\allowbreak{}b}",
            "an option's name stays whole"
        );
        assert_eq!(code("x/"), "\\texttt{x/}");
    }

    #[test]
    fn long_tables_are_split_into_fragments() {
        let mut t = Table::new(
            "per instance",
            Text::plain("c"),
            vec![Column::text("id"), Column::number("n", None)],
        );
        for i in 0..(ROWS_PER_PART + 1) {
            t.row(vec![
                Cell::text(i.to_string()),
                Cell::num(i as f64, Rounding::Integer),
            ]);
        }
        let p = parts(&t);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].0, "per-instance-1");
        assert_eq!(p[1].0, "per-instance-2");
        assert_eq!(p[0].1.matches("\\\\\n").count(), ROWS_PER_PART + 1); // + header
        assert!(p[1]
            .1
            .contains(&format!("{ROWS_PER_PART} & {ROWS_PER_PART} \\\\")));
        let mut tex = String::new();
        table(&mut tex, &t);
        // In the document, one longtable that breaks across pages.
        assert_eq!(tex.matches("\\begin{longtable}").count(), 1);
    }

    /// A short table (a summary of seven methods) is kept whole where it stands, never broken
    /// across a page; one of a page or more is a longtable; a section's heading asks for room.
    #[test]
    fn short_tables_stay_whole_and_headings_keep_their_first_lines() {
        let table_of = |rows: usize, text: &str| {
            let mut t = Table::new(
                "summary",
                Text::plain("c"),
                vec![Column::text("method"), Column::text("note")],
            );
            for i in 0..rows {
                t.row(vec![Cell::text(format!("m{i}")), Cell::text(text)]);
            }
            let mut tex = String::new();
            table(&mut tex, &t);
            tex
        };
        let short = table_of(7, "x");
        assert!(!short.contains("longtable"), "{short}");
        assert_eq!(short.matches("\\begin{inplace}{table}").count(), 1);
        assert!(
            short.contains("\\caption{c}\\label{tab:summary}"),
            "{short}"
        );
        assert!(table_of(SHORT_TABLE_LINES, "x").contains("longtable"));
        // Few rows, but each a paragraph of several lines: a page or more, so it may break.
        assert!(table_of(6, &"word ".repeat(60)).contains("longtable"));

        let mut s = Section::new(1, "Summary");
        s.push(Text::plain("p"));
        let tex = render(&Report {
            title: "t".into(),
            intro: vec![],
            sections: vec![s],
        });
        assert!(
            tex.contains("\\needspace{0.25\\textheight}\n\\section{Summary}"),
            "{tex}"
        );
    }

    /// A table whose rows are named by two columns (an instance and a heuristic, when a report
    /// sets several beside each other) repeats both in every part.
    #[test]
    fn every_part_repeats_the_key_columns() {
        let mut columns = vec![Column::text("instance"), Column::text("heuristic")];
        columns.extend((0..8).map(|i| Column::text(format!("column {i}"))));
        let mut t = Table::new("keyed", Text::plain("c"), columns);
        for r in 0..3 {
            let mut row = vec![Cell::text(r.to_string()), Cell::text("pdb-6666r")];
            row.extend((0..8).map(|_| Cell::text("a cell of some width, 1.23e6")));
            t.row(row);
        }
        t.keys = 2;
        let groups = column_groups(&t);
        assert!(groups.len() > 1, "{groups:?}");
        for g in &groups {
            assert_eq!(g[..2], [0, 1], "{groups:?}");
        }
        let rest: Vec<usize> = groups.iter().flat_map(|g| g[2..].to_vec()).collect();
        assert_eq!(rest, (2..10).collect::<Vec<_>>());
        t.keys = 1;
        assert!(column_groups(&t).iter().skip(1).all(|g| g[1] != 1));
    }

    /// A table wider than the line is split by columns, each part repeating the first column
    /// and fitting the line; nothing is shrunk.
    #[test]
    fn wide_tables_are_split_by_columns_not_shrunk() {
        let mut columns = vec![Column::text("method")];
        columns.extend((0..8).map(|i| Column::text(format!("length {i}"))));
        let mut t = Table::new("wide", Text::plain("c"), columns);
        for r in 0..3 {
            let mut row = vec![Cell::text(format!("astar+linear-conflict {r}"))];
            row.extend((0..8).map(|_| Cell::text("3/3: 1.23e6 st, 4.56e6 nodes")));
            t.row(row);
        }
        let groups = column_groups(&t);
        assert!(groups.len() > 1, "{groups:?}");
        let widths = column_widths(&t);
        for g in &groups {
            assert_eq!(g[0], 0);
            assert!(
                g.iter().map(|&i| widths[i]).sum::<f64>() <= LINE_PT,
                "{g:?}"
            );
        }
        let all: Vec<usize> = groups.iter().flat_map(|g| g[1..].to_vec()).collect();
        assert_eq!(all, (1..9).collect::<Vec<_>>());
        let mut tex = String::new();
        table(&mut tex, &t);
        assert!(tex.contains(&format!("(part {} of {})", groups.len(), groups.len())));
        for (_, fragment) in parts(&t) {
            assert!(!fragment.contains("resizebox") && !fragment.contains("scalebox"));
        }
        assert!(!render(&Report {
            title: "t".into(),
            intro: vec![],
            sections: vec![],
        })
        .contains("resizebox"));
    }

    /// A part that starts inside a group of columns ("mean nodes: ours", "published") names the
    /// group: Korf & Felner's table, split after "mean nodes: ours", printed a bare "published".
    #[test]
    fn a_part_starting_inside_a_group_names_it() {
        let mut columns = vec![Column::text("ours")];
        for g in ["mean h0", "mean nodes", "mean seconds"] {
            columns.push(Column::number(format!("{g}: ours"), None));
            columns.push(Column::number("published", None).in_group(g));
            columns.push(Column::number("ratio", None).in_group(g));
        }
        // Not in a group: printed as it is wherever a part starts.
        columns.push(Column::number("6-6-6-6", None));
        let mut t = Table::new("grouped", Text::plain("c"), columns);
        t.keys = 1;
        t.row(
            std::iter::once(Cell::text("manhattan"))
                .chain((0..10).map(|_| Cell::text("401,189,630.123")))
                .collect(),
        );
        let parts = column_groups(&t);
        assert!(parts.len() > 1, "{parts:?}");
        for i in 1..t.columns.len() {
            let (spec, head, _) = table_parts(&t, &t.rows, &[0, i]);
            assert_eq!(spec, "lr");
            let header = &t.columns[i].header;
            match &t.columns[i].group {
                Some(g) => assert!(head.contains(&format!("{g}:")), "{i}: {head}"),
                None => assert!(head.contains(header.split(':').next().unwrap()), "{head}"),
            }
            if i == 10 {
                assert_eq!(head, "ours & 6-6-6-6 \\\\\n");
            }
        }
    }

    /// The lab report's summary (a method column and nine figures) fits the page in two parts:
    /// a character width of 5.2 pt split it into three of four columns, each a third of the line.
    #[test]
    fn a_summary_splits_in_two_parts() {
        let headers = [
            ("solved / runs", None),
            ("mean h0", Some("moves")),
            ("mean nodes", None),
            ("geometric-mean nodes", None),
            ("mean seconds", Some("s")),
            ("nodes per second", Some("1/s")),
            ("reduction vs manhattan", Some("instances")),
            ("mean overhead measured", Some("runs")),
            ("mean overhead predicted", Some("runs")),
        ];
        let mut columns = vec![Column::text("heuristic")];
        columns.extend(headers.iter().map(|(h, u)| Column::number(*h, *u)));
        let mut t = Table::new("summary", Text::plain("c"), columns);
        let mut row = vec![Cell::Code("astar+linear-conflict".into())];
        row.extend(
            [
                "2 / 2",
                "10.000",
                "2,701,131",
                "2,346",
                "0.000006047",
                "19,239,424",
                "0.008354 (2)",
                "1.155 (2)",
                "1.318 (1)",
            ]
            .map(Cell::text),
        );
        t.row(row);
        assert_eq!(column_groups(&t).len(), 2);
    }

    /// A paragraph column is set ragged-right, its row ended by `\tabularnewline` (the `\\` that
    /// `\raggedright` redefines would not end it), with no `\par` (an empty line in the row).
    #[test]
    fn paragraph_cells_are_ragged_right() {
        let mut t = Table::new(
            "setup",
            Text::plain("c"),
            vec![Column::text("setting"), Column::text("value")],
        );
        t.row(vec![Cell::text("command"), Cell::text("word ".repeat(20))]);
        t.row(vec![Cell::text("pool"), Cell::text("1 thread")]);
        let (spec, head, body) = table_parts(&t, &t.rows, &[0, 1]);
        assert_eq!(spec, "lp{0.6\\linewidth}");
        assert_eq!(
            head, "setting & value \\\\\n",
            "a wide column's header on one line"
        );
        for line in body.lines() {
            assert!(line.contains("& \\raggedright "), "{line}");
            assert!(line.ends_with(" \\tabularnewline"), "{line}");
        }
        assert!(!body.contains("\\par"));
        // Tables without a paragraph column keep `\\`.
        let mut narrow = Table::new("n", Text::plain("c"), vec![Column::text("a")]);
        narrow.row(vec![Cell::text("x")]);
        assert_eq!(table_parts(&narrow, &narrow.rows, &[0]).2, "x \\\\\n");
    }

    /// Nine equal columns of which four fit a part are split 3 + 3 + 3, not 4 + 4 + 1 (a part
    /// of the first column and one other).
    #[test]
    fn wide_tables_are_split_evenly() {
        let mut columns = vec![Column::text("method")];
        columns.extend((0..9).map(|i| Column::text(format!("length {i}"))));
        let mut t = Table::new("wide", Text::plain("c"), columns);
        let mut row = vec![Cell::text("astar+linear-conflict")];
        row.extend((0..9).map(|_| Cell::text("1.23e6, 4.56e6")));
        t.row(row);
        assert_eq!(
            greedy_column_groups(&t)
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>(),
            [5, 5, 2],
            "the case this test is about"
        );
        let sizes: Vec<usize> = column_groups(&t).iter().map(Vec::len).collect();
        assert_eq!(sizes, [4, 4, 4]);
        let anywhere = [true; 4];
        assert_eq!(
            balanced(&[1.0, 1.0, 1.0, 5.0], 2, &anywhere),
            [vec![0, 1, 2], vec![3]]
        );
        // Parts start only where a group does: 0 and 2 here.
        let groups = [true, false, true, false];
        assert_eq!(
            balanced(&[1.0, 1.0, 1.0, 1.0], 2, &groups),
            [vec![0, 1], vec![2, 3]]
        );
        assert_eq!(
            balanced(&[3.0, 1.0, 1.0, 1.0], 2, &groups),
            [vec![0, 1], vec![2, 3]]
        );
        assert!(balanced(&[1.0; 4], 3, &groups).is_empty());
    }
}
