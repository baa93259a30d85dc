//! Node counts an outside solver reports, set beside the built-in search's under the same
//! heuristic: a student sees at once whether their counting matches tilebench's.

use serde::Serialize;

use crate::search::Iteration;

use super::protocol::ReportedIteration;

/// How a solver's reported counts compare with the built-in search's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "counts")]
pub enum CountCheck {
    /// Every iteration's bound, generated and expanded counts are equal.
    Agree,
    /// They differ first at this iteration (1-based; one past the shorter list when only the
    /// number of iterations differs).
    Differ { iteration: usize },
    /// Totals only: both totals equal.
    TotalsAgree,
    /// Totals only, and they differ.
    TotalsDiffer,
    /// The solver reported no counts.
    NotReported,
}

/// Compares per iteration when the solver reported iterations, else the totals.
pub fn compare(
    reported: &[ReportedIteration],
    reported_totals: (Option<u64>, Option<u64>),
    builtin: &[Iteration],
) -> CountCheck {
    if !reported.is_empty() {
        let first = reported
            .iter()
            .zip(builtin)
            .position(|(r, b)| {
                (r.bound, r.generated, r.expanded) != (b.bound, b.generated, b.expanded)
            })
            .or_else(|| {
                (reported.len() != builtin.len()).then_some(reported.len().min(builtin.len()))
            });
        return match first {
            None => CountCheck::Agree,
            Some(i) => CountCheck::Differ { iteration: i + 1 },
        };
    }
    let generated: u64 = builtin.iter().map(|i| i.generated).sum();
    let expanded: u64 = builtin.iter().map(|i| i.expanded).sum();
    match reported_totals {
        (None, None) => CountCheck::NotReported,
        (g, e) if g.is_none_or(|g| g == generated) && e.is_none_or(|e| e == expanded) => {
            CountCheck::TotalsAgree
        }
        _ => CountCheck::TotalsDiffer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(its: &[(u32, u64, u64)]) -> Vec<Iteration> {
        its.iter()
            .map(|&(bound, generated, expanded)| Iteration {
                bound,
                generated,
                expanded,
                seconds: 0.0,
            })
            .collect()
    }

    fn reported(its: &[(u32, u64, u64)]) -> Vec<ReportedIteration> {
        its.iter()
            .map(|&(bound, generated, expanded)| ReportedIteration {
                bound,
                generated,
                expanded,
            })
            .collect()
    }

    #[test]
    fn per_iteration_then_totals() {
        let b = builtin(&[(21, 5, 3), (23, 64, 42)]);
        let none = (None, None);
        assert_eq!(
            compare(&reported(&[(21, 5, 3), (23, 64, 42)]), none, &b),
            CountCheck::Agree
        );
        assert_eq!(
            compare(&reported(&[(21, 5, 3), (23, 65, 42)]), none, &b),
            CountCheck::Differ { iteration: 2 }
        );
        assert_eq!(
            compare(&reported(&[(21, 5, 3)]), none, &b),
            CountCheck::Differ { iteration: 2 }
        );
        assert_eq!(compare(&[], (Some(69), None), &b), CountCheck::TotalsAgree);
        assert_eq!(
            compare(&[], (Some(69), Some(46)), &b),
            CountCheck::TotalsDiffer
        );
        assert_eq!(compare(&[], none, &b), CountCheck::NotReported);
    }
}
