//! Plots as PDF, for LaTeX documents: the SVG that plotters drew, converted in-process by
//! `usvg` + `svg2pdf` with the bundled DejaVu Sans, so no system tool or font is needed. The
//! text stays text (embedded, subset font), so the PDF is searchable and sharp at any size.

use std::sync::{Arc, OnceLock};

use svg2pdf::usvg::{fontdb, Options, Tree};
use svg2pdf::{ConversionOptions, PageOptions};

use super::style::FONT_BYTES;

/// The font database with only the bundled font, answering for every generic family.
fn fonts() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(FONT_BYTES.to_vec());
        let family = "DejaVu Sans";
        db.set_sans_serif_family(family);
        db.set_serif_family(family);
        db.set_monospace_family(family);
        db.set_cursive_family(family);
        db.set_fantasy_family(family);
        Arc::new(db)
    })
    .clone()
}

/// Converts an SVG document to a one-page PDF of the same size (1 px = 1/72 in... scaled by
/// `PageOptions`' 72 dpi, so 1 SVG unit = 1 pt).
pub fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, String> {
    let options = Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..Options::default()
    };
    let tree = Tree::from_str(svg, &options).map_err(|e| format!("reading the SVG: {e}"))?;
    svg2pdf::to_pdf(&tree, ConversionOptions::default(), PageOptions::default())
        .map_err(|e| format!("converting to PDF: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_text_and_shapes() {
        let svg = r##"<svg width="200" height="100" viewBox="0 0 200 100" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="200" height="100" fill="#FFFFFF"/>
<line x1="10" y1="90" x2="190" y2="10" stroke="#1F77B4" stroke-width="2"/>
<text x="20" y="30" font-family="sans-serif" font-size="16">nodes &amp; seconds</text>
</svg>"##;
        let pdf = svg_to_pdf(svg).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        // The font is embedded (text stays text) and the page is 200 x 100 pt.
        let raw = String::from_utf8_lossy(&pdf);
        assert!(raw.contains("/FontFile2"), "no embedded font");
        assert!(raw.contains("/MediaBox [0 0 200 100]"), "page size");
    }

    #[test]
    fn bad_svg_is_an_error() {
        assert!(svg_to_pdf("<svg").is_err());
    }
}
