//! Short names for heuristic names too long to show: a max of custom partitions runs to 200
//! characters, which would fill a legend or a table column. Each such name becomes `H1`, `H2`,
//! … in the order the runs first name it, in every figure and table of a report; the report's
//! Setup lists each short name beside its full name. Only what is shown changes: `runs.csv`,
//! `summary.csv` and every other file keep the full names.

/// Names longer than this many characters get a short name.
pub(crate) const MAX_SHOWN: usize = 40;

/// The long names of a results directory with their short names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ShortNames(Vec<(String, String)>);

impl ShortNames {
    /// The labels longer than [`MAX_SHOWN`] among `labels` (the runs' [`label`]s, in the
    /// order of `runs.csv`), named in that order.
    ///
    /// [`label`]: crate::results::RunRecord::label
    pub(crate) fn of(labels: impl IntoIterator<Item = String>) -> ShortNames {
        let mut names: Vec<(String, String)> = Vec::new();
        for label in labels {
            if label.chars().count() > MAX_SHOWN && names.iter().all(|(full, _)| *full != label) {
                let short = format!("H{}", names.len() + 1);
                names.push((label, short));
            }
        }
        // Longest first, so a name inside another (`astar+NAME`) is replaced as part of it.
        names.sort_by_key(|(full, _)| std::cmp::Reverse(full.len()));
        ShortNames(names)
    }

    /// [`ShortNames::of`] the labels of `runs` (a results directory's, in file order).
    pub(crate) fn of_runs(runs: &[crate::results::RunRecord]) -> ShortNames {
        ShortNames::of(runs.iter().map(crate::results::RunRecord::label))
    }

    /// `text` with every long name in it replaced by its short name.
    pub(crate) fn apply(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (full, short) in &self.0 {
            if out.contains(full.as_str()) {
                out = out.replace(full.as_str(), short);
            }
        }
        out
    }

    /// (short, full) pairs in short-name order.
    pub(crate) fn key(&self) -> Vec<(&str, &str)> {
        let mut key: Vec<(&str, &str)> = self
            .0
            .iter()
            .map(|(full, short)| (short.as_str(), full.as_str()))
            .collect();
        key.sort_by_key(|(short, _)| short[1..].parse::<usize>().unwrap_or(0));
        key
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(labels: &[&str]) -> Vec<String> {
        labels.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn only_long_names_are_shortened_in_the_order_of_the_runs() {
        let long_a = format!(
            "max({})",
            ["pdbr:1.2.5.6.7.10.11/3.4.8.9.12.13.14"; 2].join(",")
        );
        let long_b = format!("max(pdb-6666r,{})", "pdbr:12.13.14.18.19.23.24/11.15.16.17");
        let r = results(&["manhattan", &long_b, &long_a, &long_b]);
        let names = ShortNames::of(r);
        assert_eq!(
            names.key(),
            [("H1", long_b.as_str()), ("H2", long_a.as_str())]
        );
        assert_eq!(
            names.apply(&format!("{long_a} (r = 8.4), {long_b}; manhattan")),
            "H2 (r = 8.4), H1; manhattan"
        );
        assert!(ShortNames::of(results(&["manhattan", "pdb-6666r"])).is_empty());
        let forty = "x".repeat(MAX_SHOWN);
        assert!(ShortNames::of(results(&[&forty])).is_empty());
        assert!(!ShortNames::of(results(&[&format!("{forty}y")])).is_empty());
    }
}
