//! The report as data: sections of paragraphs, lists, tables with typed cells and units, and
//! figures with captions. It is built once from the analysis of a results directory; Markdown,
//! HTML and LaTeX are renderings of it ([`super::render`]), so the three formats cannot say
//! different things.
//!
//! Text is kept as typed pieces ([`Inline`]), never as pre-escaped markup: each renderer escapes
//! for its own format.

use super::format::{fixed, int, sig, NONE};

/// A whole report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub title: String,
    /// Paragraphs before the first section (what this is, how to regenerate it).
    pub intro: Vec<Block>,
    pub sections: Vec<Section>,
}

/// A titled part of the report; `level` 1 is a top-level section, 2 a subsection, and so on.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub title: String,
    /// Anchor and label: letters, digits and `-` only (see [`anchor`]).
    pub id: String,
    pub level: u8,
    pub blocks: Vec<Block>,
}

impl Section {
    /// A section with its anchor derived from the title.
    pub fn new(level: u8, title: impl Into<String>) -> Section {
        let title = title.into();
        Section {
            id: anchor(&title),
            title,
            level,
            blocks: Vec::new(),
        }
    }

    /// Appends a block (builder style).
    pub fn push(&mut self, block: impl Into<Block>) -> &mut Self {
        self.blocks.push(block.into());
        self
    }
}

/// One piece of a section's body.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Paragraph(Text),
    /// A bulleted list.
    List(Vec<Text>),
    Table(Table),
    Figure(Figure),
}

impl From<Text> for Block {
    fn from(t: Text) -> Block {
        Block::Paragraph(t)
    }
}
impl From<Table> for Block {
    fn from(t: Table) -> Block {
        Block::Table(t)
    }
}
impl From<Figure> for Block {
    fn from(f: Figure) -> Block {
        Block::Figure(f)
    }
}

/// A run of inline pieces.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Text(pub Vec<Inline>);

/// An inline piece of text.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    Plain(String),
    /// A file name, column name or command: monospace.
    Code(String),
    Strong(String),
    /// A link to a section of the same report, by [`Section::id`].
    Ref {
        id: String,
        text: String,
    },
}

impl Text {
    /// Plain text.
    pub fn plain(s: impl Into<String>) -> Text {
        Text(vec![Inline::Plain(s.into())])
    }
    /// Text with code spans marked by backticks: ``Text::ticked("Σ `generated` / n")``.
    pub fn ticked(s: impl AsRef<str>) -> Text {
        Text::default().tick(s)
    }
    /// Appends text with code spans marked by backticks (for literals: a value that may hold a
    /// backtick goes through [`Text::code`]).
    pub fn tick(mut self, s: impl AsRef<str>) -> Text {
        for (i, part) in s.as_ref().split('`').enumerate() {
            if !part.is_empty() {
                self = if i % 2 == 1 {
                    self.code(part)
                } else {
                    self.p(part)
                };
            }
        }
        self
    }
    /// Appends plain text.
    pub fn p(mut self, s: impl Into<String>) -> Text {
        self.0.push(Inline::Plain(s.into()));
        self
    }
    /// Appends monospace text.
    pub fn code(mut self, s: impl Into<String>) -> Text {
        self.0.push(Inline::Code(s.into()));
        self
    }
    /// Appends bold text.
    pub fn strong(mut self, s: impl Into<String>) -> Text {
        self.0.push(Inline::Strong(s.into()));
        self
    }
    /// Appends a link to the section with anchor `id`.
    pub fn link(mut self, id: impl Into<String>, text: impl Into<String>) -> Text {
        self.0.push(Inline::Ref {
            id: id.into(),
            text: text.into(),
        });
        self
    }
    /// The text without markup (for alt texts and tests).
    pub(crate) fn to_plain(&self) -> String {
        self.0
            .iter()
            .map(|i| match i {
                Inline::Plain(s) | Inline::Code(s) | Inline::Strong(s) => s.as_str(),
                Inline::Ref { text, .. } => text.as_str(),
            })
            .collect()
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::plain(s)
    }
}
impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::plain(s)
    }
}

/// How a column's cells are aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table column: its header, and the unit every number in it is in.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub header: String,
    /// Printed after the header in brackets, such as `s` or `nodes/s`.
    pub unit: Option<String>,
    pub align: Align,
    /// The group a column continues ("mean nodes" for the "published" after "mean nodes:
    /// ours"): a part of a split table that starts at it names the group.
    pub group: Option<String>,
}

impl Column {
    /// A left-aligned column of names.
    pub fn text(header: impl Into<String>) -> Column {
        Column {
            header: header.into(),
            unit: None,
            align: Align::Left,
            group: None,
        }
    }
    /// A right-aligned column of numbers, with an optional unit.
    pub fn number(header: impl Into<String>, unit: Option<&str>) -> Column {
        Column {
            header: header.into(),
            unit: unit.map(str::to_string),
            align: Align::Right,
            group: None,
        }
    }
    /// This column as one of `group`'s.
    pub fn in_group(self, group: &str) -> Column {
        Column {
            group: Some(group.to_string()),
            ..self
        }
    }
    /// The header with its unit: `mean seconds (s)`; a header that ends in a bracket takes the
    /// unit inside it: `seconds (s, 6 solved by all)`, not `seconds (6 solved by all) (s)`.
    pub fn label(&self) -> String {
        match (&self.unit, self.note()) {
            (Some(u), Some((head, note))) => format!("{head} ({u}, {note})"),
            (Some(u), None) => format!("{} ({u})", self.header),
            (None, _) => self.header.clone(),
        }
    }
    /// Whether [`Column::label`] carries the unit inside the header's bracket.
    pub(crate) fn unit_inside(&self) -> bool {
        self.unit.is_some() && self.note().is_some()
    }
    /// The header split before a closing note in brackets ("seconds (6 solved by all)"); a
    /// year ("Korf (1985)") is part of the name, not a note.
    fn note(&self) -> Option<(&str, &str)> {
        let (head, rest) = self.header.rsplit_once(" (")?;
        let note = rest.strip_suffix(')')?;
        (!note.chars().all(|c| c.is_ascii_digit())).then_some((head, note))
    }
}

/// How a number is rounded for display (the unrounded value stays in the cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// Nearest integer, with thousands separators.
    Integer,
    /// A fixed number of decimals.
    Decimals(u8),
    /// A number of significant digits (thousands separators from 1000 up).
    Significant(u8),
}

impl Rounding {
    /// The value as it is printed.
    pub fn apply(self, v: f64) -> String {
        match self {
            Rounding::Integer => int(v),
            Rounding::Decimals(d) => fixed(v, d as usize),
            Rounding::Significant(d) => sig(v, d as i32),
        }
    }

    /// The value as it is printed, without thousands separators (for CSV): the same rounding
    /// (`format!` rounds a half to even, the report's integers a half away from zero); empty
    /// when it is not finite.
    pub fn plain(self, v: f64) -> String {
        if !v.is_finite() {
            return String::new();
        }
        self.apply(v).replace(',', "")
    }

    /// How the rounding is described in the report.
    pub fn describe(self) -> String {
        match self {
            Rounding::Integer => "to the nearest integer".to_string(),
            Rounding::Decimals(d) => format!("to {d} decimals"),
            Rounding::Significant(d) => format!("to {d} significant digits"),
        }
    }
}

/// What a count cell says when the run did not report that count.
pub const NOT_REPORTED: &str = "not reported";

/// A typed table cell: the value is kept, and rounded only when rendered.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Code(String),
    /// An exact count.
    Count(u64),
    /// A signed difference of counts.
    Diff(i64),
    Number {
        value: f64,
        rounding: Rounding,
    },
    /// `part / whole`, such as solved / runs.
    Fraction(u64, u64),
    /// A value followed by how many runs it is over: `1.234 (17)`.
    WithCount(Box<Cell>, u64),
    /// Text with inline markup (a setup value naming a file, say).
    Rich(Text),
    /// No value (printed as an em dash).
    Empty,
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }
    pub fn num(value: f64, rounding: Rounding) -> Cell {
        // + 0.0 turns -0.0 into 0.0: `Sum for f64` starts at -0.0, so a total over no runs
        // would print as "-0".
        Cell::Number {
            value: value + 0.0,
            rounding,
        }
    }
    /// A number, or an empty cell for `None`.
    pub fn opt(value: Option<f64>, rounding: Rounding) -> Cell {
        value.map_or(Cell::Empty, |v| Cell::num(v, rounding))
    }
    /// A count, or an empty cell for `None` (a count nobody reported is unknown, not 0).
    pub fn count(value: Option<u64>) -> Cell {
        value.map_or(Cell::Empty, Cell::Count)
    }
    /// A node count of a run, or "not reported" where the run has none (an outside solver that
    /// did not report it): said in words, so that it is read neither as 0 nor as a missing run.
    pub fn reported(value: Option<u64>) -> Cell {
        value.map_or(Cell::text(NOT_REPORTED), Cell::Count)
    }
    /// The cell as it is displayed, the same in every format (before escaping).
    pub fn display(&self) -> String {
        match self {
            Cell::Text(s) | Cell::Code(s) => s.clone(),
            Cell::Count(n) => int(*n as f64),
            Cell::Diff(d) => {
                let s = int(*d as f64);
                if *d > 0 {
                    format!("+{s}")
                } else {
                    s
                }
            }
            Cell::Number { value, rounding } => rounding.apply(*value),
            Cell::Fraction(a, b) => format!("{a} / {b}"),
            Cell::WithCount(c, n) => match **c {
                Cell::Empty => NONE.to_string(),
                _ => format!("{} ({n})", c.display()),
            },
            Cell::Rich(t) => t.to_plain(),
            Cell::Empty => NONE.to_string(),
        }
    }
    /// Whether the cell renders in monospace.
    pub(crate) fn is_code(&self) -> bool {
        matches!(self, Cell::Code(_))
    }
}

/// A table with a caption; `id` names its LaTeX fragment (`tables/<id>.tex`).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub id: String,
    pub caption: Text,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
    /// Long tables (one row per instance): collapsed in HTML, split across pages in LaTeX.
    pub collapsed: bool,
    /// How many leading columns name a row (1: the first), repeated in every part of a table
    /// LaTeX splits by columns.
    pub keys: usize,
}

impl Table {
    pub fn new(id: impl Into<String>, caption: impl Into<Text>, columns: Vec<Column>) -> Table {
        Table {
            id: anchor(&id.into()),
            caption: caption.into(),
            columns,
            rows: Vec::new(),
            collapsed: false,
            keys: 1,
        }
    }
    /// Appends a row; it must have one cell per column.
    pub fn row(&mut self, cells: Vec<Cell>) {
        debug_assert_eq!(cells.len(), self.columns.len(), "table {}", self.id);
        self.rows.push(cells);
    }
}

/// A plot: `<stem>.svg` (inlined in HTML), `<stem>.png` (Markdown) and `<stem>.pdf` (LaTeX) in
/// the report's directory.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub stem: String,
    pub title: String,
    pub caption: Text,
    /// The SVG document, for renderers that inline it.
    pub svg: String,
}

impl Report {
    /// Every heuristic name longer than [`crate::plot::names::MAX_SHOWN`] replaced by its short
    /// name, in every section but `keep` (the Setup, which lists both) and outside the intro
    /// (its command must stay runnable). Anchors and files keep their names.
    pub(crate) fn shorten(&mut self, short: &crate::plot::ShortNames, keep: &str) {
        if short.is_empty() {
            return;
        }
        let text = |t: &mut Text| {
            for inline in &mut t.0 {
                match inline {
                    Inline::Plain(s) | Inline::Code(s) | Inline::Strong(s) => *s = short.apply(s),
                    Inline::Ref { text, .. } => *text = short.apply(text),
                }
            }
        };
        fn cell(c: &mut Cell, short: &crate::plot::ShortNames, text: &dyn Fn(&mut Text)) {
            match c {
                Cell::Text(s) | Cell::Code(s) => *s = short.apply(s),
                Cell::WithCount(inner, _) => cell(inner, short, text),
                Cell::Rich(t) => text(t),
                _ => {}
            }
        }
        for section in self.sections.iter_mut().filter(|s| s.id != keep) {
            section.title = short.apply(&section.title);
            for block in &mut section.blocks {
                match block {
                    Block::Paragraph(t) => text(t),
                    Block::List(items) => items.iter_mut().for_each(text),
                    Block::Table(table) => {
                        text(&mut table.caption);
                        for column in &mut table.columns {
                            column.header = short.apply(&column.header);
                        }
                        for c in table.rows.iter_mut().flatten() {
                            cell(c, short, &text);
                        }
                    }
                    Block::Figure(figure) => {
                        figure.title = short.apply(&figure.title);
                        text(&mut figure.caption);
                    }
                }
            }
        }
    }
}

/// A section anchor from a title: lower-case ASCII letters and digits, other runs become `-`.
pub fn anchor(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// The part of a table id made from a user string (a set or solver name): [`anchor`] of it, with
/// a hash of the exact string appended when the anchor changed it, so that `a b`, `a_b` and `A-b`
/// get their own `tables/*.tex` file and LaTeX label.
pub(crate) fn user_anchor(user: &str) -> String {
    let a = anchor(user);
    if a == user {
        a
    } else {
        format!("{a}-{:08x}", crc32fast::hash(user.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_plain() {
        assert_eq!(anchor("Summary: korf100"), "summary-korf100");
        assert_eq!(
            anchor("Beside Korf & Felner (2002)"),
            "beside-korf-felner-2002"
        );
        assert_eq!(anchor("&<>\"_%$#{}\\~^"), "");
    }

    /// `summary.csv` holds the figures as the report prints them: a mean of two runs ending in
    /// .5 was 891,357 in the report and 891356 in the CSV (`format!` rounds a half to even).
    #[test]
    fn csv_figures_are_the_printed_ones_without_separators() {
        let cases = [
            (Rounding::Integer, 891_356.5, "891357"),
            (Rounding::Integer, 82.5, "83"),
            (Rounding::Integer, -2.5, "-3"),
            (Rounding::Significant(4), 1_234_567.0, "1234567"),
            (Rounding::Significant(4), 0.999_999_54, "1.000"),
            (Rounding::Decimals(3), 36.9424, "36.942"),
        ];
        for (rounding, v, csv) in cases {
            assert_eq!(rounding.plain(v), csv, "{v}");
            assert_eq!(rounding.apply(v).replace(',', ""), csv, "{v}");
        }
        assert_eq!(Rounding::Integer.plain(f64::NAN), "");
    }

    #[test]
    fn cells_display_rounded() {
        assert_eq!(Cell::Count(401_189_630).display(), "401,189,630");
        assert_eq!(Cell::Diff(1000).display(), "+1,000");
        assert_eq!(Cell::Diff(-76).display(), "-76");
        assert_eq!(
            Cell::num(0.189_075_455_649_999_95, Rounding::Significant(4)).display(),
            "0.1891"
        );
        assert_eq!(
            Cell::num(36.9424, Rounding::Decimals(3)).display(),
            "36.942"
        );
        assert_eq!(Cell::Fraction(10, 100).display(), "10 / 100");
        assert_eq!(
            Cell::WithCount(Box::new(Cell::num(1.5, Rounding::Decimals(3))), 7).display(),
            "1.500 (7)"
        );
        assert_eq!(Cell::WithCount(Box::new(Cell::Empty), 0).display(), NONE);
        assert_eq!(Cell::opt(None, Rounding::Integer), Cell::Empty);
        // A total over no runs (`Sum for f64` of nothing is -0.0) is 0, not "-0".
        let none: f64 = std::iter::empty::<f64>().sum();
        assert_eq!(Cell::num(none, Rounding::Significant(4)).display(), "0");
    }

    #[test]
    fn column_labels_carry_units() {
        assert_eq!(
            Column::number("mean seconds", Some("s")).label(),
            "mean seconds (s)"
        );
        assert_eq!(Column::text("heuristic").label(), "heuristic");
        assert_eq!(
            Column::number("seconds (6 solved by all)", Some("s")).label(),
            "seconds (s, 6 solved by all)"
        );
        // A citation's year is part of the name.
        let korf = Column::number("Korf (1985)", Some("nodes"));
        assert_eq!(korf.label(), "Korf (1985) (nodes)");
        assert!(!korf.unit_inside());
    }
}
