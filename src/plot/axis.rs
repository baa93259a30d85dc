//! Axis ranges and tick labels: log axes that span whole decades, ticked at powers of ten and
//! labelled `1e6` rather than `1000000.0`.

use plotters::coord::combinators::{BindKeyPoints, IntoLogRange, LogCoord, WithKeyPoints};

/// A tick label for a value on a log axis: plain decimals from 0.01 to 1000, otherwise
/// `<mantissa>e<exponent>` with the mantissa dropped when it is 1 (`1e6`, `2.5e-4`).
pub fn log_label(v: f64) -> String {
    if !v.is_finite() || v <= 0.0 {
        return format!("{v}");
    }
    let exp = v.log10().floor() as i32;
    // Guard against 999.9999 style rounding.
    let (mantissa, exp) = {
        let m = v / 10f64.powi(exp);
        if (m - 10.0).abs() < 1e-9 {
            (1.0, exp + 1)
        } else {
            (m, exp)
        }
    };
    let mantissa = (mantissa * 100.0).round() / 100.0;
    if (-2..=3).contains(&exp) {
        let plain = mantissa * 10f64.powi(exp);
        let decimals = (-exp).max(0) as usize + if mantissa.fract() == 0.0 { 0 } else { 2 };
        let s = format!("{plain:.decimals$}");
        return trim_zeros(&s);
    }
    if (mantissa - 1.0).abs() < 1e-9 {
        format!("1e{exp}")
    } else {
        format!("{}e{exp}", trim_zeros(&format!("{mantissa:.2}")))
    }
}

/// [`log_label`] in the form plotters' tick formatters take.
pub fn log_tick(v: &f64) -> String {
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
    pub fn coord(&self) -> WithKeyPoints<LogCoord<f64>> {
        (self.lo..self.hi)
            .log_scale()
            .with_key_points(self.ticks.clone())
    }
}

/// A label for a nodes-per-second rate or a big count in prose: `1.52e8`.
pub fn short_sci(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let exp = v.abs().log10().floor() as i32;
    if (0..4).contains(&exp) {
        return trim_zeros(&format!("{v:.2}"));
    }
    let m = v / 10f64.powi(exp);
    format!("{}e{exp}", trim_zeros(&format!("{m:.2}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_short() {
        assert_eq!(log_label(1e6), "1e6");
        assert_eq!(log_label(1_000_000.0), "1e6");
        assert_eq!(log_label(1e10), "1e10");
        assert_eq!(log_label(2e7), "2e7");
        assert_eq!(log_label(2.5e7), "2.5e7");
        assert_eq!(log_label(1e-4), "1e-4");
        assert_eq!(log_label(100.0), "100");
        assert_eq!(log_label(1.0), "1");
        assert_eq!(log_label(0.01), "0.01");
        assert_eq!(log_label(999.999_999_999_9), "1000");
        assert_eq!(short_sci(1.523e8), "1.52e8");
        assert_eq!(short_sci(12.0), "12");
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
