//! Axis ranges and tick labels: log axes that span whole decades, ticked at powers of ten and
//! labelled `10⁶` rather than `1000000.0`.

use plotters::coord::combinators::{BindKeyPoints, IntoLogRange, LogCoord, WithKeyPoints};

/// The superscript digits, `⁰` to `⁹`.
const SUPERSCRIPT_DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
/// The superscript minus.
const SUPERSCRIPT_MINUS: char = '⁻';

/// A tick label for a value on a log axis, every tick of an axis in one notation (never `1000`
/// beside `1e4`): a power of ten as `10⁶` (`10⁰` for 1, `10⁻²`), any other value as `2.5×10⁷`.
/// The superscripts are characters, not markup, so that the SVG, the PNG and the PDF (and the
/// LaTeX report, which includes the PDF) render them alike: the bundled DejaVu Sans has them.
pub fn log_label(v: f64) -> String {
    if !v.is_finite() || v <= 0.0 {
        return format!("{v}");
    }
    let exp = v.log10().floor() as i32;
    let mantissa = v / 10f64.powi(exp);
    // Round to 2 decimals, carrying 9.999 style rounding into the exponent.
    let mantissa = (mantissa * 100.0).round() / 100.0;
    let (mantissa, exp) = if mantissa >= 10.0 {
        (1.0, exp + 1)
    } else {
        (mantissa, exp)
    };
    let power = format!("10{}", superscript(exp));
    if mantissa == 1.0 {
        power
    } else {
        format!("{}×{power}", trim_zeros(&format!("{mantissa:.2}")))
    }
}

/// `n` in superscript characters: `-12` → `⁻¹²`.
fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => SUPERSCRIPT_DIGITS[d as usize],
            None => SUPERSCRIPT_MINUS,
        })
        .collect()
}

/// [`log_label`] in the form plotters' tick formatters take.
pub(crate) fn log_tick(v: &f64) -> String {
    log_label(*v)
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A log-axis range covering `[min, max]` of the positive values, widened to whole decades, with
/// its tick positions (powers of ten; every second or third one on wide ranges).
#[derive(Debug, Clone, PartialEq)]
pub struct LogAxis {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
}

impl LogAxis {
    /// `None` when there is no positive finite value.
    pub fn covering(values: impl IntoIterator<Item = f64>) -> Option<LogAxis> {
        let (mut min, mut max) = (f64::INFINITY, 0.0f64);
        for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
            min = min.min(v);
            max = max.max(v);
        }
        if max <= 0.0 {
            return None;
        }
        // A little room so that points do not sit on the frame.
        let mut lo_exp = (min / 1.2).log10().floor() as i32;
        let mut hi_exp = (max * 1.2).log10().ceil() as i32;
        if hi_exp <= lo_exp {
            hi_exp = lo_exp + 1;
        }
        if hi_exp - lo_exp < 2 {
            // Too narrow to read: give it some room below.
            lo_exp -= 1;
        }
        let step = ((hi_exp - lo_exp) as f64 / 10.0).ceil().max(1.0) as i32;
        let ticks = (lo_exp..=hi_exp)
            .filter(|e| (e - lo_exp) % step == 0)
            .map(|e| 10f64.powi(e))
            .collect();
        Some(LogAxis {
            lo: 10f64.powi(lo_exp),
            hi: 10f64.powi(hi_exp),
            ticks,
        })
    }

    /// One axis for both coordinates of `points` (a square log-log plot with its diagonal).
    pub fn square(points: &[(f64, f64)]) -> Option<LogAxis> {
        LogAxis::covering(points.iter().flat_map(|&(x, y)| [x, y]))
    }

    /// The plotters coordinate: log scale over `[lo, hi]`, ticked at `ticks`.
    pub(crate) fn coord(&self) -> WithKeyPoints<LogCoord<f64>> {
        (self.lo..self.hi)
            .log_scale()
            .with_key_points(self.ticks.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value a [`log_label`] stands for; `None` for any other text.
    fn log_label_value(label: &str) -> Option<f64> {
        let (mantissa, power) = match label.split_once('×') {
            Some((m, p)) => (m.parse::<f64>().ok()?, p),
            None => (1.0, label),
        };
        let digits = power.strip_prefix("10")?;
        let (sign, digits) = match digits.strip_prefix(SUPERSCRIPT_MINUS) {
            Some(rest) => (-1, rest),
            None => (1, digits),
        };
        if digits.is_empty() {
            return None;
        }
        let mut exp = 0i32;
        for c in digits.chars() {
            let d = SUPERSCRIPT_DIGITS.iter().position(|&s| s == c)?;
            exp = exp.checked_mul(10)?.checked_add(d as i32)?;
        }
        Some(mantissa * 10f64.powi(sign * exp))
    }

    #[test]
    fn labels_are_short() {
        assert_eq!(log_label(1e6), "10⁶");
        assert_eq!(log_label(1_000_000.0), "10⁶");
        assert_eq!(log_label(1e10), "10¹⁰");
        assert_eq!(log_label(2e7), "2×10⁷");
        assert_eq!(log_label(2.5e7), "2.5×10⁷");
        assert_eq!(log_label(1e-4), "10⁻⁴");
        assert_eq!(log_label(100.0), "10²");
        assert_eq!(log_label(1.0), "10⁰");
        assert_eq!(log_label(0.01), "10⁻²");
        assert_eq!(log_label(999.999_999_999_9), "10³");
    }

    /// Every tick of an axis is in one notation, `10` and a superscript exponent, from 1 up
    /// past a billion (the labels were `1000` beside `1e4` on one axis), and reads back as its
    /// value.
    #[test]
    fn every_tick_of_an_axis_has_one_notation() {
        let axis = LogAxis::covering([1.0, 5e9]).unwrap();
        assert!(axis.ticks.len() >= 5, "{:?}", axis.ticks);
        for &t in &axis.ticks {
            let label = log_label(t);
            let exponent = label
                .strip_prefix("10")
                .unwrap_or_else(|| panic!("{label}"));
            assert!(
                !exponent.is_empty()
                    && exponent
                        .chars()
                        .all(|c| SUPERSCRIPT_DIGITS.contains(&c) || c == SUPERSCRIPT_MINUS),
                "{label}"
            );
            assert_eq!(log_label_value(&label), Some(t), "{label}");
        }
        assert_eq!(log_label_value("2.5×10⁻³"), Some(2.5e-3));
        for not_a_label in ["1000", "1e4", "10", "10x", "×10²"] {
            assert_eq!(log_label_value(not_a_label), None, "{not_a_label}");
        }
    }

    /// The bundled font, which draws the PNG and the PDF, has a glyph for every character a
    /// label can hold (a missing one would draw an empty box).
    #[test]
    fn the_bundled_font_draws_every_label_character() {
        use ab_glyph::Font as _;
        let font = ab_glyph::FontRef::try_from_slice(super::super::style::FONT_BYTES).unwrap();
        for c in SUPERSCRIPT_DIGITS
            .into_iter()
            .chain([SUPERSCRIPT_MINUS, '×', '.', '0', '1', '9'])
        {
            assert_ne!(font.glyph_id(c).0, 0, "no glyph for {c:?}");
        }
    }

    #[test]
    fn log_axis_spans_decades() {
        let a = LogAxis::covering([150.0, 3.2e9]).unwrap();
        assert_eq!(LogAxis::covering([100.0, 1e4]).unwrap().lo, 10.0);
        assert_eq!((a.lo, a.hi), (100.0, 1e10));
        assert_eq!(a.ticks.len(), 9);
        let a = LogAxis::covering([5.0, 7.0]).unwrap();
        assert_eq!((a.lo, a.hi), (0.1, 10.0));
        let a = LogAxis::covering([1e-6, 1e10]).unwrap();
        assert_eq!(a.ticks.first(), Some(&a.lo));
        assert!(a.ticks.len() <= 11);
        assert!(LogAxis::covering([0.0, f64::NAN]).is_none());
    }
}
