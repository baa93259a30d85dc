//! Number formatting for the report's tables: thousands separators for counts, a fixed number
//! of significant digits for everything else, and an em dash when there is no value.

/// The placeholder for a figure that has no value (no solved run, no reference, ...).
pub(crate) const NONE: &str = "—";

/// An integer with thousands separators: `401,189,630`.
pub(crate) fn int(v: f64) -> String {
    if !v.is_finite() {
        return NONE.to_string();
    }
    let rounded = v.round();
    let digits = format!("{:.0}", rounded.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if rounded < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// `digits` significant digits, with thousands separators from 1000 up: `0.0001234`, `8.123`,
/// `1,235`.
pub(crate) fn sig(v: f64, digits: i32) -> String {
    if !v.is_finite() {
        return NONE.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let mut magnitude = v.abs().log10().floor() as i32;
    let decimals = |m: i32| (digits - 1 - m).max(0) as usize;
    // Rounding may carry into the next power of ten: 0.99999954 to 6 digits is 1.00000, not
    // 1.000000.
    let d = decimals(magnitude);
    if format!("{:.d$}", v.abs()).parse::<f64>().unwrap_or(0.0) >= 10f64.powi(magnitude + 1) {
        magnitude += 1;
    }
    if magnitude >= digits - 1 {
        return int(v);
    }
    let d = decimals(magnitude);
    format!("{v:.d$}")
}

/// A median of counts: a count (`11`, `2,335`), or one halfway between two (`5.5`, `2,335.5`),
/// never a decimal a count cannot have (`11.0`).
pub(crate) fn median_count(v: f64) -> String {
    if !v.is_finite() || v < 0.0 {
        return int(v);
    }
    let tenths = ((v.fract() * 10.0).round() as u32).min(9);
    match tenths {
        0 => int(v.trunc()),
        t => format!("{}.{t}", int(v.trunc())),
    }
}

/// A fixed number of decimals: `36.942`.
pub fn fixed(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$}")
    } else {
        NONE.to_string()
    }
}

/// Applies `f` or gives the placeholder.
pub fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map(f).unwrap_or_else(|| NONE.to_string())
}

/// `n` and a noun with a regular plural: "1 pair", "2 pairs".
pub(crate) fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_counts_have_no_decimal_a_count_cannot_have() {
        assert_eq!(median_count(11.0), "11");
        assert_eq!(median_count(5.5), "5.5");
        assert_eq!(median_count(2335.5), "2,335.5");
        assert_eq!(median_count(14_999_156.0), "14,999,156");
        assert_eq!(median_count(f64::NAN), NONE);
    }

    #[test]
    fn formats() {
        assert_eq!(int(401_189_630.0), "401,189,630");
        assert_eq!(int(999.0), "999");
        assert_eq!(int(1000.4), "1,000");
        assert_eq!(int(-1234.0), "-1,234");
        assert_eq!(sig(0.000_123_44, 4), "0.0001234");
        assert_eq!(sig(8.12345, 4), "8.123");
        assert_eq!(sig(1234.6, 4), "1,235");
        assert_eq!(sig(0.0, 4), "0");
        // Rounding up to the next power of ten keeps the number of significant digits.
        assert_eq!(sig(0.999_999_54, 6), "1.00000");
        assert_eq!(sig(0.999_999_54, 7), "0.9999995");
        assert_eq!(sig(-9.9996, 4), "-10.00");
        assert_eq!(sig(999.96, 4), "1,000");
        assert_eq!(fixed(36.9424, 3), "36.942");
        assert_eq!(opt(None, |v| fixed(v, 1)), NONE);
        assert_eq!(
            (count(1, "pair"), count(2, "thread")),
            ("1 pair".into(), "2 threads".into())
        );
    }
}
