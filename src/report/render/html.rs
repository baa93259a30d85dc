//! `report.html`: one self-contained page. The plots are inlined SVG, the CSS is embedded, and
//! there is no script and no reference to anything outside the file, so it can be mailed, opened
//! offline and printed. Narrow screens scroll wide tables sideways instead of shrinking them;
//! long tables (one row per instance) are collapsed in `<details>`.

use std::fmt::Write;

use super::markup::{typeset, Blocks, Markup};
use crate::report::model::{Align, Figure, Report, Section, Table};

/// The embedded style sheet: readable on a phone, sensible on paper.
const CSS: &str = "\
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;line-height:1.5;\
color:#1a1a1a;background:#fff;max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid #ccc}\
h3{font-size:1.1rem;margin-top:1.5rem}h4{font-size:1rem}
code{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9em;background:#f3f3f3;\
padding:0 .2em;border-radius:3px;overflow-wrap:break-word}.nw{white-space:nowrap}
.table{overflow-x:auto;margin:.5rem 0 1.2rem}
table{border-collapse:collapse;font-size:.9rem;font-variant-numeric:tabular-nums}
.caption{margin:.5rem 0 .2rem;font-size:.9rem}
th,td{padding:.25rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}
thead th{border-bottom:2px solid #555;text-align:left}
th.r,td.r{text-align:right}td.r,td.c{white-space:nowrap}
tbody td:first-child{white-space:nowrap}
tbody tr:nth-child(even){background:#fafafa}
details{margin:.5rem 0 1.2rem}summary{cursor:pointer;font-weight:600}
figure{margin:1.5rem 0}figure svg{display:block;width:100%;height:auto;max-width:45rem}
figcaption{font-size:.9rem;color:#333}
@media (max-width:40rem){body{padding:.5rem}table{font-size:.8rem}th,td{padding:.2rem .35rem}}
@media print{body{max-width:none;padding:0;font-size:10pt}a{color:inherit;text-decoration:none}\
figure,table{break-inside:avoid}h2,h3,.caption{break-after:avoid}details::details-content{content-visibility:visible;display:block}\
.table{overflow:visible}}
";

/// The report as one HTML page.
pub fn render(report: &Report) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n<main>",
        escape(&report.title)
    );
    let _ = writeln!(h, "<h1>{}</h1>", escape(&report.title));
    BLOCKS.body(&mut h, report);
    h.push_str("</main>\n</body>\n</html>\n");
    h
}

const BLOCKS: Blocks = Blocks {
    markup: MARKUP,
    heading,
    paragraph: ["<p>", "</p>\n"],
    list: ["<ul>\n", "<li>", "</li>\n", "</ul>\n"],
    table,
    figure,
};

fn heading(h: &mut String, s: &Section) {
    let level = s.level.clamp(1, 5) + 1;
    let _ = writeln!(
        h,
        "<h{level} id=\"{}\">{}</h{level}>",
        escape(&s.id),
        escape(&s.title)
    );
}

fn table(h: &mut String, t: &Table) {
    if t.collapsed {
        let _ = writeln!(
            h,
            "<details>\n<summary>{} ({} rows)</summary>",
            MARKUP.text(&t.caption),
            t.rows.len()
        );
    }
    // The caption stands above the scrolling box, not inside it: a table wider than the screen
    // scrolled its caption's end out of sight too.
    if t.collapsed {
        let _ = writeln!(h, "<div class=\"table\">\n<table id=\"{}\">", escape(&t.id));
    } else {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"{id}-caption\">{}</p>\n<div class=\"table\">\n\
             <table id=\"{id}\" aria-labelledby=\"{id}-caption\">",
            MARKUP.text(&t.caption),
            id = escape(&t.id)
        );
    }
    h.push_str("<thead><tr>");
    for c in &t.columns {
        let _ = write!(
            h,
            "<th scope=\"col\"{}>{}</th>",
            class(c.align),
            escape(&c.label())
        );
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        h.push_str("<tr>");
        for (c, col) in row.iter().zip(&t.columns) {
            let class = match (col.align, c.is_code()) {
                (Align::Right, _) => " class=\"r\"",
                // A name in code (a heuristic) is not broken across lines.
                (Align::Left, true) => " class=\"c\"",
                (Align::Left, false) => "",
            };
            let _ = write!(h, "<td{class}>{}</td>", MARKUP.cell(c));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody>\n</table>\n</div>\n");
    if t.collapsed {
        h.push_str("</details>\n");
    }
}

fn class(a: Align) -> &'static str {
    match a {
        Align::Left => "",
        Align::Right => " class=\"r\"",
    }
}

/// Code longer than this may break after a `/` or `,` (paths, lists of files).
const LONG_CODE: usize = 30;

/// A `<code>` span. Code wraps at its spaces, never inside an option such as `--seed`
/// (`overflow-wrap:break-word`, and a part with a hyphen kept whole, as browsers break after
/// hyphens); a long word (a path, a comma-separated list of files) may also break after each `/`
/// and `,`, so that a table cell holding it can be narrower than the word.
fn code(s: &str) -> String {
    let mut out = String::from("<code>");
    for (i, word) in s.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let parts: Vec<&str> = if word.chars().count() > LONG_CODE {
            word.split_inclusive(['/', ',']).collect()
        } else {
            vec![word]
        };
        for (j, part) in parts.iter().enumerate() {
            if j > 0 {
                out.push_str("<wbr>");
            }
            if part.contains('-') {
                let _ = write!(out, "<span class=\"nw\">{}</span>", escape(part));
            } else {
                out.push_str(&escape(part));
            }
        }
    }
    out.push_str("</code>");
    out
}

fn figure(h: &mut String, f: &Figure) {
    let _ = writeln!(h, "<figure id=\"fig-{}\">", escape(&f.stem));
    h.push_str(&inline_svg(&f.svg, &f.title));
    let _ = writeln!(
        h,
        "<figcaption><strong>{}.</strong> {}</figcaption>\n</figure>",
        escape(&f.title),
        MARKUP.text(&f.caption)
    );
}

/// The SVG document made fit to inline: no XML prolog, no fixed size (the view box scales it to
/// the page width), and the title as its accessible name.
pub(crate) fn inline_svg(svg: &str, title: &str) -> String {
    let svg = svg.trim_start();
    let svg = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => return String::new(),
    };
    let Some(end) = svg.find('>') else {
        return String::new();
    };
    let (tag, rest) = svg.split_at(end);
    let attr = |name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        let i = tag.find(&key)? + key.len();
        let j = tag[i..].find('"')?;
        Some(tag[i..i + j].to_string())
    };
    let view_box = attr("viewBox").or_else(|| {
        let w = attr("width")?;
        let h = attr("height")?;
        Some(format!("0 0 {w} {h}"))
    });
    // No namespace attribute: the HTML parser puts `<svg>` in the SVG namespace itself.
    let mut out = String::from("<svg role=\"img\"");
    if let Some(vb) = view_box {
        let _ = write!(out, " viewBox=\"{}\"", escape(&vb));
    }
    let _ = write!(out, " aria-label=\"{}\"", escape(title));
    out.push_str(rest);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

const MARKUP: Markup = Markup {
    escape: prose,
    code,
    strong: |s| format!("<strong>{}</strong>", prose(s)),
    link: |id, text| format!("<a href=\"#{}\">{}</a>", escape(id), prose(text)),
};

/// Running text as a typesetter would set it ([`typeset`]): “quotes”, N<sub>i</sub>.
fn prose(s: &str) -> String {
    typeset(s, escape, ["“", "”"], |i| {
        format!("<sub>{}</sub>", escape(i))
    })
}

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{Cell, Column, Rounding, Text};

    const NASTY: &str = "&<>\"_%$#{}\\~^'";

    #[test]
    fn escapes_markup() {
        assert_eq!(escape(NASTY), "&amp;&lt;&gt;&quot;_%$#{}\\~^&#39;");
    }

    /// The HTML sets "quotes" and N_i as the PDF does; code keeps the characters.
    #[test]
    fn prose_quotes_and_indices_are_typeset() {
        let t = Text::plain("E(d) = Σ_i N_(k−1), \"ok\" <x_abc>").code("N_i \"q\"");
        assert_eq!(
            MARKUP.text(&t),
            "E(d) = Σ<sub>i</sub> N<sub>k−1</sub>, “ok” &lt;x_abc&gt;\
             <code>N_i &quot;q&quot;</code>"
        );
        assert_eq!(prose("a 5\" board"), escape("a 5\" board"));
    }

    /// A command wraps at its spaces, never inside `--seed` (the CSS's `anywhere` let a table
    /// column shrink below a word and broke options mid-word); a long path breaks after its
    /// slashes and commas only.
    #[test]
    fn code_wraps_at_spaces_and_long_paths_after_slashes() {
        assert!(!CSS.contains("anywhere"), "{CSS}");
        assert!(CSS.contains("overflow-wrap:break-word"));
        assert_eq!(
            code("gen --seed 10 a/b"),
            "<code>gen <span class=\"nw\">--seed</span> 10 a/b</code>",
            "short words get no break opportunity, nor a hyphen"
        );
        assert_eq!(
            code("-i instances/optimization-path/depth10-4x4.txt,x.txt"),
            "<code><span class=\"nw\">-i</span> instances/<wbr><span class=\"nw\">\
             optimization-path/</span><wbr><span class=\"nw\">depth10-4x4.txt,</span><wbr>x.txt</code>"
        );
        assert_eq!(code("<&>"), "<code>&lt;&amp;&gt;</code>");
    }

    /// A wide table scrolls sideways on a narrow screen; its caption stands above the scrolling
    /// box so that it wraps at the page's width, not the table's, and in print stays on the
    /// table's page (a table is never split, so it may move to the next page).
    #[test]
    fn caption_stands_outside_the_scrolling_box() {
        let mut t = Table::new("t", Text::plain("the caption"), vec![Column::text("a")]);
        t.row(vec![Cell::text("x")]);
        let mut h = String::new();
        table(&mut h, &t);
        let caption = h.find("<p class=\"caption\" id=\"t-caption\">the caption</p>");
        let scroll = h.find("<div class=\"table\">");
        assert!(caption.is_some() && caption < scroll, "{h}");
        assert!(h.contains("aria-labelledby=\"t-caption\""));
        assert!(!h.contains("<caption>"));
        let print = &CSS[CSS.find("@media print").expect("a print style")..];
        assert!(print.contains(".caption{break-after:avoid}"), "{print}");
    }

    #[test]
    fn svg_is_inlined_without_fixed_size() {
        let svg = "<?xml version=\"1.0\"?>\n<svg width=\"850\" height=\"800\" \
                   xmlns=\"http://www.w3.org/2000/svg\">\n<rect/></svg>";
        let out = inline_svg(svg, "a & b");
        assert!(
            out.starts_with("<svg role=\"img\" viewBox=\"0 0 850 800\" aria-label=\"a &amp; b\">")
        );
        assert!(!out.contains("width=\"850\""));
        assert!(out.contains("<rect/></svg>"));
    }

    #[test]
    fn page_is_self_contained_and_escaped() {
        let mut s = Section::new(1, format!("title {NASTY}"));
        let mut t = Table::new(
            "t",
            Text::plain(NASTY),
            vec![Column::text(NASTY), Column::number("x", Some("s"))],
        );
        t.row(vec![
            Cell::Code(NASTY.into()),
            Cell::num(2.0, Rounding::Integer),
        ]);
        t.collapsed = true;
        s.push(t);
        s.push(Text::plain(NASTY).code(NASTY).strong(NASTY));
        let report = Report {
            title: NASTY.into(),
            intro: vec![],
            sections: vec![s],
        };
        let html = render(&report);
        // No raw nasty string survives anywhere: every one was escaped.
        assert!(!html.contains(NASTY));
        assert!(html.contains("<details>"));
        assert!(html.contains("<code>&amp;&lt;&gt;&quot;_%$#{}\\~^&#39;</code>"));
        for forbidden in ["<script", "http://", "https://", "<link", "@import", "src="] {
            assert!(!html.contains(forbidden), "{forbidden}");
        }
    }
}
