//! Renderings of a [`Report`]: Markdown, self-contained HTML and LaTeX. Each is a pure function
//! of the model that does its own escaping; [`write()`] puts the chosen ones on disk.

pub mod html;
pub mod latex;
pub mod markdown;
mod markup;
pub mod text;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::model::Report;
use crate::results::io::atomic_write;

/// An output format of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// `report.md`, with the plots as PNG.
    Markdown,
    /// `report.html`: one file, plots inlined as SVG, no script, no network.
    Html,
    /// `report.tex` (pdflatex: article, booktabs, graphicx), `tables/*.tex`, plots as PDF.
    Latex,
}

impl Format {
    /// Every format, in the order they are written.
    pub const ALL: [Format; 3] = [Format::Markdown, Format::Html, Format::Latex];
    /// What `--format` gives when it is not set.
    pub const DEFAULT: [Format; 2] = [Format::Markdown, Format::Html];

    /// The report's file name in this format.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Markdown => "report.md",
            Format::Html => "report.html",
            Format::Latex => "report.tex",
        }
    }

    /// Parses a comma-separated list such as `md,html,tex`, keeping the first of repeats.
    pub(crate) fn parse_list(s: &str) -> Result<Vec<Format>, UnknownFormat> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let f: Format = part.parse()?;
            if !out.contains(&f) {
                out.push(f);
            }
        }
        if out.is_empty() {
            return Err(UnknownFormat(s.to_string()));
        }
        Ok(out)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Latex => "tex",
        })
    }
}

/// A `--format` value that is not one of `md`, `html`, `tex`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown report format '{0}': expected a comma-separated list of md, html, tex")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        match s.to_ascii_lowercase().as_str() {
            "md" | "markdown" => Ok(Format::Markdown),
            "html" | "htm" => Ok(Format::Html),
            "tex" | "latex" => Ok(Format::Latex),
            _ => Err(UnknownFormat(s.to_string())),
        }
    }
}

/// Writes `report` in each of `formats` into `out_dir` (which holds the plots already); for
/// LaTeX also `tables/<id>.tex`, one fragment per table. Returns the files written.
pub fn write(
    report: &Report,
    out_dir: &Path,
    formats: &[Format],
) -> Result<Vec<PathBuf>, std::io::Error> {
    let mut written = Vec::new();
    for &format in formats {
        let path = out_dir.join(format.file_name());
        let text = match format {
            Format::Markdown => markdown::render(report),
            Format::Html => html::render(report),
            Format::Latex => {
                let tables = out_dir.join(latex::TABLES_DIR);
                std::fs::create_dir_all(&tables)?;
                let mut fragments = Vec::new();
                for (id, fragment) in latex::fragments(report) {
                    let p = tables.join(format!("{id}.tex"));
                    atomic_write(&p, fragment.as_bytes())?;
                    fragments.push(p);
                }
                remove_other_fragments(&tables, &fragments)?;
                written.extend(fragments);
                latex::render(report)
            }
        };
        atomic_write(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// Removes the `.tex` fragments in `tables` other than `kept`: a table the report no longer
/// shows (a section gone, a table split differently) would otherwise stay in the folder the
/// user hands in or commits, written by an older report.
fn remove_other_fragments(tables: &Path, kept: &[PathBuf]) -> Result<(), std::io::Error> {
    for entry in std::fs::read_dir(tables)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "tex") && !kept.contains(&path) {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The LaTeX tables folder holds the fragments of the report just written, and nothing it
    /// did not write but other files.
    #[test]
    fn a_table_no_longer_shown_leaves_the_tables_folder() {
        use crate::report::model::{Column, Section, Table, Text};
        let report = |ids: &[&str]| {
            let mut s = Section::new(1, "s");
            for id in ids {
                s.push(Table::new(*id, Text::plain("c"), vec![Column::text("a")]));
            }
            Report {
                title: "t".into(),
                intro: vec![],
                sections: vec![s],
            }
        };
        let dir = std::env::temp_dir().join(format!("tilebench-fragments-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(latex::TABLES_DIR)).unwrap();
        std::fs::write(dir.join(latex::TABLES_DIR).join("notes.txt"), "mine").unwrap();
        write(&report(&["kept", "dropped"]), &dir, &[Format::Latex]).unwrap();
        write(&report(&["kept"]), &dir, &[Format::Latex]).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.join(latex::TABLES_DIR))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["kept.tex", "notes.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn formats_parse() {
        assert_eq!(
            Format::parse_list("md, html,tex,md").unwrap(),
            vec![Format::Markdown, Format::Html, Format::Latex]
        );
        assert_eq!(
            Format::parse_list("pdf").unwrap_err().to_string(),
            "unknown report format 'pdf': expected a comma-separated list of md, html, tex"
        );
        assert!(Format::parse_list(",").is_err());
    }
}
