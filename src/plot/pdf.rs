//! Plots as PDF, for LaTeX documents: the SVG that plotters drew, turned into PDF operators by a
//! small converter for exactly what plotters' SVG backend writes (`rect`, `line`, `polyline`,
//! `polygon`, `circle` and `text`, with `opacity`, and `rotate` on text). A general SVG renderer
//! (usvg + svg2pdf) did the same with about 90 more crates to build; plots need none of SVG's
//! generality. Text stays text: the bundled DejaVu Sans glyphs, outlined by `ab_glyph` (which
//! plotters uses already), form a Type 3 font with a ToUnicode map, so the PDF needs no system
//! font, is searchable, and is sharp at any size.

use std::collections::HashMap;
use std::fmt::Write as _;

use ab_glyph::{Font as _, FontRef, GlyphId, OutlineCurve};

use super::style::FONT_BYTES;

/// Converts an SVG document written by plotters to a one-page PDF of the same size
/// (1 SVG unit = 1 pt).
pub(crate) fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, String> {
    let font = FontRef::try_from_slice(FONT_BYTES).map_err(|e| format!("the bundled font: {e}"))?;
    let elements = parse(svg)?;
    let root = elements
        .first()
        .filter(|e| e.name == "svg")
        .ok_or("reading the SVG: no <svg> element first")?;
    let (width, height) = (root.num("width")?, root.num("height")?);
    let mut page = Page::new(&font, height);
    for e in &elements[1..] {
        page.draw(e)?;
    }
    Ok(page.finish(width, height))
}

/// One element: its name, attributes and (for `text`) its content, entities decoded.
struct Element {
    name: String,
    attributes: Vec<(String, String)>,
    text: String,
}

impl Element {
    fn get(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn num(&self, key: &str) -> Result<f64, String> {
        let v = self.get(key).unwrap_or("0");
        v.trim_end_matches("px").parse().map_err(|_| {
            format!(
                "reading the SVG: <{} {key}=\"{v}\">: not a number",
                self.name
            )
        })
    }

    /// A colour attribute: `None` for `none` (or absent, where SVG's default is none).
    fn color(&self, key: &str, default: Option<[f64; 3]>) -> Result<Option<[f64; 3]>, String> {
        match self.get(key) {
            None => Ok(default),
            Some("none") => Ok(None),
            Some(v) => parse_color(v).map(Some).ok_or_else(|| {
                format!(
                    "reading the SVG: <{} {key}=\"{v}\">: not a colour",
                    self.name
                )
            }),
        }
    }
}

/// `#RRGGBB`, `#RGB` or `rgb(r,g,b)` as fractions.
fn parse_color(v: &str) -> Option<[f64; 3]> {
    let channel = |s: &str| u8::from_str_radix(s, 16).ok().map(|c| f64::from(c) / 255.0);
    if let Some(hex) = v.strip_prefix('#') {
        return match hex.len() {
            6 => Some([
                channel(&hex[0..2])?,
                channel(&hex[2..4])?,
                channel(&hex[4..6])?,
            ]),
            3 => {
                let d = |i: usize| channel(&hex[i..=i].repeat(2));
                Some([d(0)?, d(1)?, d(2)?])
            }
            _ => None,
        };
    }
    let inner = v.strip_prefix("rgb(")?.strip_suffix(')')?;
    let c: Vec<f64> = inner
        .split(',')
        .map(|s| s.trim().parse::<f64>().map(|x| x / 255.0))
        .collect::<Result<_, _>>()
        .ok()?;
    (c.len() == 3).then(|| [c[0], c[1], c[2]])
}

/// The elements of `svg` in document order, with runs of white space in text as one space and
/// none at the ends (SVG's default white-space handling).
fn parse(svg: &str) -> Result<Vec<Element>, String> {
    let doc = roxmltree::Document::parse(svg).map_err(|e| format!("reading the SVG: {e}"))?;
    let element = |e: roxmltree::Node| Element {
        name: e.tag_name().name().to_string(),
        attributes: e
            .attributes()
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect(),
        text: e
            .text()
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    };
    Ok(doc
        .descendants()
        .filter(|e| e.is_element())
        .map(element)
        .collect())
}

/// A number for a content stream: at most three decimals, no trailing zeros.
fn n(x: f64) -> String {
    let s = format!("{:.3}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// Numbers for a content stream, separated by spaces.
fn ns(xs: &[f64]) -> String {
    xs.iter().map(|&x| n(x)).collect::<Vec<_>>().join(" ")
}

/// The page being drawn: its content stream, the glyphs its text uses (as Type 3 fonts of up to
/// 256 codes each) and the opacities (graphics states) it needs.
struct Page<'f> {
    font: &'f FontRef<'f>,
    units_per_em: f64,
    content: String,
    /// Per font, its glyphs in code order with the character each stands for.
    fonts: Vec<Vec<(GlyphId, char)>>,
    codes: HashMap<GlyphId, (usize, u8)>,
    alphas: Vec<String>,
}

impl<'f> Page<'f> {
    fn new(font: &'f FontRef<'f>, height: f64) -> Self {
        Page {
            font,
            units_per_em: f64::from(font.units_per_em().unwrap_or(1000.0)),
            // SVG's y axis points down: flip the page once, un-flip text where it is set.
            content: format!("1 0 0 -1 0 {} cm\n", n(height)),
            fonts: Vec::new(),
            codes: HashMap::new(),
            alphas: Vec::new(),
        }
    }

    /// Sets fill and stroke colours, line width and opacity; returns the painting operator.
    fn paint(
        &mut self,
        e: &Element,
        fill: Option<[f64; 3]>,
        stroke: Option<[f64; 3]>,
    ) -> Result<&'static str, String> {
        let c = &mut self.content;
        let opacity = e.get("opacity").unwrap_or("1");
        if opacity != "1" {
            let alpha: f64 = e.num("opacity")?;
            let key = n(alpha);
            let i = match self.alphas.iter().position(|a| *a == key) {
                Some(i) => i,
                None => {
                    self.alphas.push(key);
                    self.alphas.len() - 1
                }
            };
            let _ = writeln!(c, "/A{i} gs");
        }
        if let Some([r, g, b]) = fill {
            let _ = writeln!(c, "{} {} {} rg", n(r), n(g), n(b));
        }
        if let Some([r, g, b]) = stroke {
            let w = if e.get("stroke-width").is_some() {
                e.num("stroke-width")?
            } else {
                1.0
            };
            let _ = writeln!(c, "{} {} {} RG {} w", n(r), n(g), n(b), n(w));
        }
        Ok(match (fill.is_some(), stroke.is_some()) {
            (true, true) => "B",
            (true, false) => "f",
            (false, true) => "S",
            (false, false) => "n",
        })
    }

    fn draw(&mut self, e: &Element) -> Result<(), String> {
        const BLACK: Option<[f64; 3]> = Some([0.0, 0.0, 0.0]);
        self.content.push_str("q\n");
        match e.name.as_str() {
            "rect" => {
                let op = self.paint(e, e.color("fill", BLACK)?, e.color("stroke", None)?)?;
                let (x, y, w, h) = (e.num("x")?, e.num("y")?, e.num("width")?, e.num("height")?);
                let _ = writeln!(self.content, "{} {} {} {} re {op}", n(x), n(y), n(w), n(h));
            }
            "line" => {
                let op = self.paint(e, None, e.color("stroke", None)?)?;
                let from = ns(&[e.num("x1")?, e.num("y1")?]);
                let to = ns(&[e.num("x2")?, e.num("y2")?]);
                let _ = writeln!(self.content, "{from} m {to} l {op}");
            }
            "polyline" | "polygon" => {
                let closed = e.name == "polygon";
                let op = self.paint(e, e.color("fill", BLACK)?, e.color("stroke", None)?)?;
                for (i, &(x, y)) in points(e)?.iter().enumerate() {
                    let verb = if i == 0 { "m" } else { "l" };
                    let _ = write!(self.content, "{} {verb} ", ns(&[x, y]));
                }
                let _ = writeln!(self.content, "{}{op}", if closed { "h " } else { "" });
            }
            "circle" => {
                let op = self.paint(e, e.color("fill", BLACK)?, e.color("stroke", None)?)?;
                let (cx, cy, r) = (e.num("cx")?, e.num("cy")?, e.num("r")?);
                let c = &mut self.content;
                let _ = write!(c, "{} m ", ns(&[cx + r, cy]));
                // Four cubic arcs, each the last turned a quarter (n() writes the −0s as 0);
                // k places the control points of a quarter circle.
                let k = 0.552_284_75 * r;
                let mut arc = [(r, k), (k, r), (0.0, r)];
                for _ in 0..4 {
                    let xy: Vec<f64> = arc.iter().flat_map(|&(x, y)| [cx + x, cy + y]).collect();
                    let _ = write!(c, "{} c ", ns(&xy));
                    arc = arc.map(|(x, y)| (-y, x));
                }
                let _ = writeln!(c, "h {op}");
            }
            "text" => self.text(e)?,
            // Groups and anything else plotters does not write carry nothing to draw.
            _ => {}
        }
        self.content.push_str("Q\n");
        Ok(())
    }

    fn text(&mut self, e: &Element) -> Result<(), String> {
        if e.text.is_empty() {
            return Ok(());
        }
        self.paint(e, e.color("fill", Some([0.0; 3]))?, None)?;
        let size = e.num("font-size")?;
        let (mut x, mut y) = (e.num("x")?, e.num("y")?);
        if let Some(t) = e.get("transform") {
            let _ = writeln!(self.content, "{} cm", rotation(t)?);
        }
        // dy in em or ex (an ex is half an em, as usvg and browsers without font metrics take it).
        if let Some(dy) = e.get("dy") {
            let em = |s: &str, per: f64| s.parse::<f64>().ok().map(|v| v * per * size);
            y += dy
                .strip_suffix("em")
                .and_then(|v| em(v, 1.0))
                .or_else(|| dy.strip_suffix("ex").and_then(|v| em(v, 0.5)))
                .or_else(|| dy.parse().ok())
                .ok_or_else(|| format!("reading the SVG: <text dy=\"{dy}\">: not a length"))?;
        }
        let glyphs: Vec<(GlyphId, char)> =
            e.text.chars().map(|c| (self.font.glyph_id(c), c)).collect();
        let advance: f64 = glyphs
            .iter()
            .map(|(g, _)| f64::from(self.font.h_advance_unscaled(*g)))
            .sum::<f64>()
            * size
            / self.units_per_em;
        x -= match e.get("text-anchor") {
            Some("middle") => advance / 2.0,
            Some("end") => advance,
            _ => 0.0,
        };
        let _ = write!(self.content, "BT 1 0 0 -1 {} {} Tm ", n(x), n(y));
        let mut current = None;
        for (glyph, c) in glyphs {
            let (font, code) = self.code(glyph, c);
            if current != Some(font) {
                if current.is_some() {
                    self.content.push_str("> Tj ");
                }
                let _ = write!(self.content, "/F{font} {} Tf <", n(size));
                current = Some(font);
            }
            let _ = write!(self.content, "{code:02X}");
        }
        self.content.push_str("> Tj ET\n");
        Ok(())
    }

    /// The (font, code) of a glyph, given one on first use.
    fn code(&mut self, glyph: GlyphId, c: char) -> (usize, u8) {
        if let Some(&fc) = self.codes.get(&glyph) {
            return fc;
        }
        if self.fonts.last().is_none_or(|f| f.len() == 256) {
            self.fonts.push(Vec::new());
        }
        let font = self.fonts.len() - 1;
        let code = self.fonts[font].len() as u8;
        self.fonts[font].push((glyph, c));
        self.codes.insert(glyph, (font, code));
        (font, code)
    }

    /// The PDF file: catalog, page, content, then per font its dictionary, glyph procedures and
    /// ToUnicode map.
    fn finish(self, width: f64, height: f64) -> Vec<u8> {
        let mut objects: Vec<Vec<u8>> = Vec::new();
        let stream = |dict: &str, data: &[u8]| {
            let mut o = format!("<< {dict}/Length {} >>\nstream\n", data.len()).into_bytes();
            o.extend_from_slice(data);
            o.extend_from_slice(b"\nendstream");
            o
        };
        // Objects 1–4: catalog, pages, page, content; fonts from 5 on.
        let mut font_refs = String::new();
        let mut font_objects = Vec::new();
        let mut next = 5;
        for (i, glyphs) in self.fonts.iter().enumerate() {
            let font_id = next;
            let tounicode_id = next + 1;
            let first_proc = next + 2;
            next += 2 + glyphs.len();
            let _ = write!(font_refs, "/F{i} {font_id} 0 R ");
            let mut procs = String::new();
            let mut widths = String::new();
            let mut differences = String::new();
            let mut bodies = Vec::new();
            let mut cmap = String::new();
            for (code, (glyph, c)) in glyphs.iter().enumerate() {
                let _ = write!(procs, "/g{code} {} 0 R ", first_proc + code);
                let advance = self.font.h_advance_unscaled(*glyph);
                let _ = write!(widths, "{} ", n(f64::from(advance)));
                let _ = write!(differences, "/g{code} ");
                bodies.push(stream(
                    "",
                    glyph_procedure(self.font, *glyph, advance).as_bytes(),
                ));
                let _ = writeln!(cmap, "<{code:02X}> <{}>", utf16_hex(*c));
            }
            let scale = 1.0 / self.units_per_em;
            font_objects.push(
                format!(
                    "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 0 0] /FontMatrix [{s} 0 0 {s} 0 0] \
                     /CharProcs << {procs}>> /Encoding << /Type /Encoding /Differences [0 {differences}] >> \
                     /FirstChar 0 /LastChar {} /Widths [{widths}] /Resources << >> /ToUnicode {tounicode_id} 0 R >>",
                    glyphs.len() - 1,
                    s = scale,
                )
                .into_bytes(),
            );
            let cmap = format!(
                "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
                 /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
                 /CMapName /Adobe-Identity-UCS def /CMapType 2 def\n\
                 1 begincodespacerange <00> <FF> endcodespacerange\n\
                 {} beginbfchar\n{cmap}endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end",
                glyphs.len()
            );
            font_objects.push(stream("", cmap.as_bytes()));
            font_objects.extend(bodies);
        }
        let alphas: String = self
            .alphas
            .iter()
            .enumerate()
            .map(|(i, a)| format!("/A{i} << /ca {a} /CA {a} >> "))
            .collect();
        objects.push(b"<< /Type /Catalog /Pages 2 0 R >>".to_vec());
        objects.push(b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec());
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << /Font << {font_refs}>> \
                 /ExtGState << {alphas}>> >> /Contents 4 0 R >>",
                n(width),
                n(height)
            )
            .into_bytes(),
        );
        objects.push(stream("", self.content.as_bytes()));
        objects.extend(font_objects);

        // The comment's bytes above 127 mark the file as binary; they are UTF-8 ("âãÏÓ"), so the
        // whole file is, and reads as text in tests.
        let mut pdf = "%PDF-1.4\n%âãÏÓ\n".as_bytes().to_vec();
        let mut offsets = Vec::with_capacity(objects.len());
        for (i, body) in objects.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            pdf.extend_from_slice(body);
            pdf.extend_from_slice(b"\nendobj\n");
        }
        let xref = pdf.len();
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
        for o in offsets {
            let _ = writeln!(table, "{o:010} 00000 n ");
        }
        let _ = write!(
            table,
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        );
        pdf.extend_from_slice(table.as_bytes());
        pdf
    }
}

/// A character as ToUnicode writes it: its UTF-16 code units in hex.
fn utf16_hex(c: char) -> String {
    let mut units = [0u16; 2];
    c.encode_utf16(&mut units)
        .iter()
        .map(|u| format!("{u:04X}"))
        .collect()
}

/// A Type 3 glyph procedure: its advance (`d0`: the colour comes from the text) and its outline
/// filled with the non-zero rule, in font units.
fn glyph_procedure(font: &FontRef<'_>, glyph: GlyphId, advance: f32) -> String {
    let mut s = format!("{} 0 d0\n", n(f64::from(advance)));
    let Some(outline) = font.outline(glyph) else {
        return s;
    };
    let p = |q: ab_glyph::Point| format!("{} {}", n(f64::from(q.x)), n(f64::from(q.y)));
    let mut at: Option<ab_glyph::Point> = None;
    for curve in &outline.curves {
        let (start, end) = match curve {
            OutlineCurve::Line(a, b) => (*a, *b),
            OutlineCurve::Quad(a, _, c) => (*a, *c),
            OutlineCurve::Cubic(a, _, _, d) => (*a, *d),
        };
        if at != Some(start) {
            if at.is_some() {
                s.push_str("h\n");
            }
            let _ = writeln!(s, "{} m", p(start));
        }
        match curve {
            OutlineCurve::Line(_, b) => {
                let _ = writeln!(s, "{} l", p(*b));
            }
            OutlineCurve::Quad(a, b, c) => {
                // The cubic of the same curve: control points two thirds of the way to b.
                let third = |from: ab_glyph::Point| {
                    ab_glyph::point(
                        from.x + (b.x - from.x) * 2.0 / 3.0,
                        from.y + (b.y - from.y) * 2.0 / 3.0,
                    )
                };
                let _ = writeln!(s, "{} {} {} c", p(third(*a)), p(third(*c)), p(*c));
            }
            OutlineCurve::Cubic(_, b, c, d) => {
                let _ = writeln!(s, "{} {} {} c", p(*b), p(*c), p(*d));
            }
        }
        at = Some(end);
    }
    if at.is_some() {
        s.push_str("h f\n");
    }
    s
}

/// `rotate(a, cx, cy)` (or `rotate(a)`) as a `cm` matrix.
fn rotation(transform: &str) -> Result<String, String> {
    let bad = || format!("reading the SVG: transform=\"{transform}\": only rotate(…) is drawn");
    let inner = transform
        .trim()
        .strip_prefix("rotate(")
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(bad)?;
    let v: Vec<f64> = inner
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let (a, cx, cy) = match v[..] {
        [a] => (a, 0.0, 0.0),
        [a, cx, cy] => (a, cx, cy),
        _ => return Err(bad()),
    };
    let (sin, cos) = a.to_radians().sin_cos();
    // translate(cx, cy) · rotate(a) · translate(−cx, −cy)
    let e = cx - cos * cx + sin * cy;
    let f = cy - sin * cx - cos * cy;
    Ok(ns(&[cos, sin, -sin, cos, e, f]))
}

/// A `points` attribute: "x,y x,y …" (commas or spaces between numbers).
fn points(e: &Element) -> Result<Vec<(f64, f64)>, String> {
    let raw = e.get("points").unwrap_or("");
    let v: Vec<f64> = raw
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!(
                "reading the SVG: <{} points>: not a list of numbers",
                e.name
            )
        })?;
    if !v.len().is_multiple_of(2) {
        return Err(format!(
            "reading the SVG: <{} points>: an odd count of numbers",
            e.name
        ));
    }
    Ok(v.chunks(2).map(|p| (p[0], p[1])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = r##"<svg width="200" height="100" viewBox="0 0 200 100" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="200" height="100" opacity="1" fill="#FFFFFF" stroke="none"/>
<line opacity="0.1" stroke="#1F77B4" stroke-width="2" x1="10" y1="90" x2="190" y2="10"/>
<polyline fill="none" opacity="1" stroke="#FF0000" stroke-width="1" points="10,10 20,20 30,10 "/>
<polygon opacity="0.2" fill="#00FF00" points="40,40 50,50 60,40 "/>
<circle cx="70" cy="70" r="3" opacity="1" fill="#000000" stroke="none" stroke-width="1"/>
<text x="20" y="30" dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="16" opacity="1" fill="#000000" transform="rotate(270, 20, 30)">
nodes &amp; seconds ×
</text>
</svg>"##;

    #[test]
    fn converts_text_and_shapes() {
        let pdf = svg_to_pdf(SVG).unwrap();
        let raw = String::from_utf8_lossy(&pdf);
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(raw.contains("/MediaBox [0 0 200 100]"), "page size");
        // Text stays text: a Type 3 font whose ToUnicode map names every character set, in order.
        assert!(raw.contains("/Subtype /Type3"));
        let text = "nodes & seconds ×";
        let distinct: Vec<char> = text.chars().fold(Vec::new(), |mut v, c| {
            if !v.contains(&c) {
                v.push(c);
            }
            v
        });
        for (code, c) in distinct.iter().enumerate() {
            let hex = utf16_hex(*c);
            assert!(raw.contains(&format!("<{code:02X}> <{hex}>")), "{c:?}");
        }
        // Every shape is painted: stroke, fill, the circle's four arcs; two opacities.
        assert!(raw.contains("10 90 m 190 10 l S"));
        assert!(raw.contains("10 10 m 20 20 l 30 10 l S"));
        assert!(raw.contains("40 40 m 50 50 l 60 40 l h f"));
        // The circle: four arcs, closed and filled.
        assert_eq!(raw.matches(" c ").count(), 4);
        assert!(raw.contains(" c h f"));
        assert!(
            raw.contains("/A0 << /ca 0.1 /CA 0.1 >>") && raw.contains("/A1 << /ca 0.2 /CA 0.2 >>")
        );
        // rotate(270) about (20, 30): cos 0, sin −1.
        assert!(raw.contains("0 -1 1 0 -10 50 cm"), "{raw}");
    }

    #[test]
    fn the_cross_reference_table_points_at_every_object() {
        let pdf = svg_to_pdf(SVG).unwrap();
        let raw = String::from_utf8(pdf).unwrap();
        let xref = raw.rfind("startxref\n").unwrap();
        let at: usize = raw[xref + 10..].lines().next().unwrap().parse().unwrap();
        assert!(raw[at..].starts_with("xref\n"));
        for (i, line) in raw[at..]
            .lines()
            .skip(3)
            .take_while(|l| l.ends_with(" n "))
            .enumerate()
        {
            let offset: usize = line[..10].parse().unwrap();
            assert!(
                raw[offset..].starts_with(&format!("{} 0 obj\n", i + 1)),
                "object {}",
                i + 1
            );
        }
    }

    #[test]
    fn bad_svg_is_an_error() {
        assert!(svg_to_pdf("<svg").is_err());
        assert!(svg_to_pdf("no svg here").is_err());
        assert!(svg_to_pdf(r#"<svg width="a" height="1"/>"#).is_err());
        let bad_points = r#"<svg width="1" height="1"><polyline points="1,2 3"/></svg>"#;
        assert!(svg_to_pdf(bad_points).unwrap_err().contains("odd count"));
    }

    #[test]
    fn entities_and_white_space_are_read_as_svg_does() {
        let text = "<text x=\"0\" y=\"0\">\n  a &amp; \n b &lt;&#x41;&#66;  </text>";
        let e = parse(&format!("<svg width=\"1\" height=\"1\">{text}</svg>")).unwrap();
        assert_eq!(e[1].text, "a & b <AB");
        assert!(parse("<svg width=\"1\" height=\"1\"><text>a</svg>").is_err());
        assert!(parse("<svg width=\"1 height=\"1\"/>").is_err());
    }
}
