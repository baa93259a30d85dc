//! The report as a reader gets it: `report.html` rendered by a real browser (headless Chromium)
//! and `report.tex` compiled by a real pdflatex. These need Chromium, TeX Live (latexmk,
//! pdflatex) and poppler-utils (pdftotext, pdfinfo), so they are `#[ignore]`d in a plain
//! `cargo test`; `.ci/run` installs the tools and runs them with `--include-ignored`, and there a
//! missing tool fails the test rather than skipping it. Cost: a few seconds each.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::bin::{arg, ok};
use common::fresh_dir;
use tilebench::report::model::{Block, Cell, Column, Report, Rounding, Section, Table, Text};
use tilebench::report::render::{self, Format};

const NEEDS: &str = "needs chromium and TeX Live";

/// Every character that is markup in one of the three formats.
const NASTY: &str = "&<>\"_%$#{}\\~^";

fn fixture() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/small")
}

/// Runs a tool, failing with a clear message when it is not installed. TeX's log lines are
/// not wrapped (`max_print_line`): a file name broken at column 79 would not be found in it.
fn tool(name: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(name)
        .args(args)
        .env("max_print_line", "100000")
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{name} could not be run ({e}): this test {NEEDS}"))
}

/// The Chromium binary (Debian names it `chromium`).
fn chromium() -> &'static str {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if Command::new(name).arg("--version").output().is_ok() {
            return name;
        }
    }
    panic!("no chromium on PATH: this test {NEEDS}");
}

/// Headless Chromium with a fresh profile, no network, console messages on stderr.
fn headless(page: &Path, extra: &[&str], scratch: &Path) -> Output {
    let profile = scratch.join(format!(
        "profile-{}",
        page.file_stem().unwrap().to_string_lossy()
    ));
    let _ = fs::remove_dir_all(&profile);
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let mut args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-background-networking".into(),
        "--disable-extensions".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        "--no-default-browser-check".into(),
        "--hide-scrollbars".into(),
        // Any attempt to reach the network fails (and shows as a console error).
        "--host-resolver-rules=MAP * ~NOTFOUND".into(),
        format!("--user-data-dir={}", profile.display()),
        "--enable-logging=stderr".into(),
        "--v=0".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(url);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = tool(chromium(), &args, scratch);
    assert!(o.status.success(), "chromium failed: {}", text(&o.stderr));
    o
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Console messages and failed loads in Chromium's log.
fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| {
            l.contains("CONSOLE")
                || l.contains("Uncaught")
                || l.contains("Failed to load resource")
                || l.contains("net::ERR_")
        })
        .collect()
}

/// Share of pixels that are not (near) white, and how many distinct colours there are.
fn ink(png_path: &Path) -> (u32, u32, f64, usize) {
    let decoder = png::Decoder::new(fs::File::open(png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let mut inked = 0usize;
    let mut colours = std::collections::HashSet::new();
    let pixels = buf[..info.buffer_size()].chunks(channels);
    let total = (info.width * info.height) as usize;
    for p in pixels {
        let (r, g, b) = (p[0], p[1 % channels], p[2 % channels]);
        if r < 235 || g < 235 || b < 235 {
            inked += 1;
        }
        colours.insert((r, g, b));
    }
    (
        info.width,
        info.height,
        inked as f64 / total as f64,
        colours.len(),
    )
}

/// `tilebench report` of the fixture in all three formats; returns the output directory.
fn report_of_fixture(name: &str) -> PathBuf {
    let out = fresh_dir(name);
    ok(&[
        "report",
        fixture(),
        "--out",
        arg(&out),
        "--format",
        "md,html,tex",
        "--per-instance",
    ]);
    out
}

#[test]
#[ignore = "needs chromium and TeX Live"]
fn html_report_renders_in_chromium_without_console_errors() {
    let scratch = fresh_dir("render-html-scratch");

    // The check for console errors must be able to fail: a page that logs one is caught.
    let canary = scratch.join("canary.html");
    fs::write(
        &canary,
        "<!DOCTYPE html><title>c</title><script>console.error('canary-error')</script>",
    )
    .unwrap();
    let o = headless(&canary, &["--dump-dom"], &scratch);
    let log = text(&o.stderr);
    assert!(
        console_errors(&log)
            .iter()
            .any(|l| l.contains("canary-error")),
        "console messages are not visible in Chromium's log, so the check below would pass \
         blindly:\n{log}"
    );

    let out = report_of_fixture("render-html");
    let page = out.join("report.html");
    let html = fs::read_to_string(&page).unwrap();
    for forbidden in ["<script", "<link", "@import", "src=", "url("] {
        assert!(!html.contains(forbidden), "report.html has {forbidden}");
    }

    // The DOM as the browser parsed it: every table, plot and collapsed section is there.
    let o = headless(&page, &["--dump-dom"], &scratch);
    let dom = text(&o.stdout);
    let errors = console_errors(&text(&o.stderr)).join("\n");
    assert!(errors.is_empty(), "console errors:\n{errors}");
    assert_eq!(
        dom.matches("<svg").count(),
        html.matches("<svg").count(),
        "every inline plot parsed"
    );
    assert!(dom.matches("<svg").count() >= 7, "the fixture has 7 plots");
    assert!(dom.contains("<details>"), "per-instance table collapsed");
    // Numbers of the summary table (hand-computed in tests/report_fixture.rs).
    for n in ["11.000", "550", "316", "0.3333", "22.00 (2)", "1.250 (2)"] {
        assert!(dom.contains(&format!(">{n}<")), "summary cell {n} missing");
    }

    // Desktop and phone widths: something is drawn, not a blank page.
    for (name, size) in [("desktop", "1280,1600"), ("phone", "390,844")] {
        let png = scratch.join(format!("{name}.png"));
        let shot = format!("--screenshot={}", png.display());
        let window = format!("--window-size={size}");
        let o = headless(&page, &[&shot, &window], &scratch);
        let errors = console_errors(&text(&o.stderr)).join("\n");
        assert!(errors.is_empty(), "console errors:\n{errors}");
        let (w, _, inked, colours) = ink(&png);
        assert_eq!(
            w.to_string(),
            size.split(',').next().unwrap(),
            "{name} width"
        );
        assert!(
            inked > 0.02 && colours > 20,
            "{name} screenshot looks blank: {:.1} % inked, {colours} colours",
            inked * 100.0
        );
    }
}

/// `Pages:` of `pdfinfo`.
fn pages(pdf: &Path) -> usize {
    let o = tool("pdfinfo", &[arg(pdf)], pdf.parent().unwrap());
    let info = text(&o.stdout);
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no page count in pdfinfo output:\n{info}"))
}

/// How far a line may run into the margin (pt) before the check fails: a few points are
/// invisible; a command or path set in one piece overruns by tens.
const MAX_OVERFULL_PT: f64 = 3.0;

/// The widths (pt) of the `Overfull \hbox (…pt too wide)` lines of a LaTeX log.
fn overfull(log: &str) -> Vec<f64> {
    log.lines()
        .filter_map(|l| l.strip_prefix("Overfull \\hbox ("))
        .filter_map(|l| l.split_once("pt too wide"))
        .filter_map(|(w, _)| w.parse().ok())
        .collect()
}

/// Compiles `report.tex` in `dir` with latexmk + pdflatex and returns the PDF's text; fails on
/// errors, undefined references, missing characters and lines over the margin.
fn compile(dir: &Path) -> String {
    let log = latexmk(dir);
    let wide: Vec<f64> = overfull(&log)
        .into_iter()
        .filter(|w| *w > MAX_OVERFULL_PT)
        .collect();
    assert!(
        wide.is_empty(),
        "{}: lines over the margin by {wide:?} pt:\n{}",
        dir.display(),
        log.lines()
            .filter(|l| l.starts_with("Overfull"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Every plot of the .tex is in the PDF: pdfTeX logs each included file as `<name.pdf>`.
    let tex = fs::read_to_string(dir.join("report.tex")).unwrap();
    let wanted: std::collections::BTreeSet<&str> = tex
        .split("\\includegraphics")
        .skip(1)
        .filter_map(|rest| rest.split_once('{').and_then(|(_, r)| r.split_once('}')))
        .map(|(name, _)| name)
        .collect();
    let missing: Vec<&&str> = wanted
        .iter()
        .filter(|name| !log.contains(&format!("<{name}")))
        .collect();
    assert!(
        missing.is_empty(),
        "{}: figures of report.tex not in the PDF: {missing:?}",
        dir.display()
    );
    let o = tool("pdftotext", &["-layout", "report.pdf", "-"], dir);
    text(&o.stdout)
}

/// Runs latexmk on `report.tex` in `dir`, failing on errors; returns the log.
fn latexmk(dir: &Path) -> String {
    let o = tool(
        "latexmk",
        &[
            "-pdf",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "report.tex",
        ],
        dir,
    );
    let log = fs::read_to_string(dir.join("report.log")).unwrap_or_default();
    assert!(
        o.status.success(),
        "pdflatex failed:\n{}\n{}",
        text(&o.stdout),
        log.lines()
            .filter(|l| l.starts_with('!'))
            .collect::<Vec<_>>()
            .join("\n")
    );
    for bad in ["undefined", "Missing character"] {
        let lines: Vec<&str> = log
            .lines()
            .filter(|l| l.contains(bad) && l.contains("Warning") || l.starts_with(bad))
            .collect();
        assert!(lines.is_empty(), "report.log: {}", lines.join("\n"));
    }
    log
}

/// Copies a directory tree (the report, its tables and plots).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            fs::copy(e.path(), dest).unwrap();
        }
    }
}

#[test]
#[ignore = "needs chromium and TeX Live"]
fn committed_reports_compile_within_the_margins() {
    // The check must be able to fail: a command with no place to break overruns the margin.
    let canary = fresh_dir("render-overfull-canary");
    let mut s = Section::new(1, "Canary");
    s.push(Text::plain("A long command: ").code("x".repeat(150)));
    let report = Report {
        title: "Canary".into(),
        intro: vec![],
        sections: vec![s],
    };
    render::write(&report, &canary, &[Format::Latex]).unwrap();
    let wide = overfull(&latexmk(&canary));
    assert!(
        wide.iter().any(|w| *w > MAX_OVERFULL_PT),
        "an unbreakable line was not caught: {wide:?}"
    );

    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut compiled = 0;
    // optimization-path: the lab's report (three algorithms, many sets and plots).
    for name in ["korf100", "kre", "korf50-24", "optimization-path"] {
        let dir = fresh_dir(&format!("render-committed-{name}"));
        copy_tree(&reports.join(name), &dir);
        let pdf_text = compile(&dir);
        assert!(pdf_text.contains("Regenerate"), "{name}");
        compiled += 1;
    }
    assert_eq!(compiled, 4);
}

#[test]
#[ignore = "needs chromium and TeX Live"]
fn latex_report_compiles_and_holds_the_summary_numbers() {
    let out = report_of_fixture("render-tex");
    // Each table is also a fragment to \input (its first part when split by columns).
    for t in ["summary-tiny", "setup", "per-instance-tiny"] {
        let whole = out.join("tables").join(format!("{t}.tex"));
        let f = if whole.exists() {
            whole
        } else {
            out.join("tables").join(format!("{t}-1.tex"))
        };
        let body = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(body.contains("\\begin{tabular}") && body.contains("\\bottomrule"));
    }
    let figures = fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "pdf")
        })
        .count();
    assert_eq!(figures, 7, "one PDF per plot");

    let pdf_text = compile(&out);
    // 7 plots of at most 0.38 of a page, at least two to a page, plus title, tables and
    // definitions; more than 12 pages would mean floats stranded one per page.
    let n = pages(&out.join("report.pdf"));
    assert!((5..=12).contains(&n), "{n} pages");
    // Every figure of summary.csv's rounded rows is in the PDF as the report prints it.
    let csv = fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut checked = 0;
    for line in lines {
        let row: Vec<&str> = line.split(',').collect();
        for col in [
            "mean_h0",
            "mean_generated",
            "geomean_generated",
            "mean_seconds",
        ] {
            let i = header.iter().position(|h| *h == col).unwrap();
            if !row[i].is_empty() {
                assert!(
                    pdf_text.contains(row[i]),
                    "{col} = {} of {} not in the PDF:\n{pdf_text}",
                    row[i],
                    row[1]
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 8);
    for heading in ["Summary: tiny", "Definitions", "Plots"] {
        assert!(pdf_text.contains(heading), "{heading}");
    }
}

#[test]
#[ignore = "needs chromium and TeX Live"]
fn nasty_strings_survive_pdflatex_and_chromium() {
    let out = fresh_dir("render-nasty");
    let mut s = Section::new(1, format!("Section {NASTY}"));
    s.push(
        Text::plain(format!("Plain {NASTY} then "))
            .code(NASTY)
            .p(" and ")
            .strong(NASTY),
    );
    let mut t = Table::new(
        "nasty",
        Text::plain(format!("Caption {NASTY}")),
        vec![Column::text(NASTY), Column::number("n", Some("%"))],
    );
    t.row(vec![
        Cell::text(NASTY),
        Cell::num(12345.678, Rounding::Integer),
    ]);
    t.row(vec![Cell::Code(NASTY.into()), Cell::Empty]);
    s.push(t);
    s.push(Block::List(vec![Text::plain(format!(
        "item {NASTY} -- '' ``"
    ))]));
    let report = Report {
        title: format!("Title {NASTY}"),
        intro: vec![Block::Paragraph(Text::plain("Intro."))],
        sections: vec![s],
    };
    render::write(&report, &out, &Format::ALL).unwrap();

    // LaTeX: compiles, and each nasty string reads back verbatim from the PDF.
    let pdf_text = compile(&out);
    let found = pdf_text.matches(NASTY).count();
    // Title, heading, plain, code, bold, caption, header, two cells.
    assert!(found >= 9, "{found} verbatim copies in:\n{pdf_text}");
    assert!(pdf_text.contains("12,346") && pdf_text.contains("item"));
    assert!(pdf_text.contains("item &"), "{pdf_text}");
    assert!(pdf_text.contains("^ --"), "dashes kept apart:\n{pdf_text}");

    // HTML: the browser reads the strings as text, not markup.
    let scratch = fresh_dir("render-nasty-scratch");
    let o = headless(&out.join("report.html"), &["--dump-dom"], &scratch);
    let dom = text(&o.stdout);
    let escaped = "&amp;&lt;&gt;\"_%$#{}\\~^";
    assert!(dom.matches(escaped).count() >= 9, "{dom}");
    assert_eq!(dom.matches("<table").count(), 1);
    assert_eq!(dom.matches("<td").count(), 4);
}
