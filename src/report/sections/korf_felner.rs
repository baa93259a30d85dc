//! "Beside Korf & Felner (2002)": our means over the Korf 100 set beside their table, only like
//! with like, and the reduction factors beside theirs.

use std::collections::BTreeSet;

use crate::analysis::published::{
    hmy_1985_linear_conflict_h0, setting_of, PublishedRow, HMY_1985_SOURCE, KORF100_SET,
    KORF100_SIZE, KORF_1985_MANHATTAN_MEAN, KORF_FELNER_2002, KORF_FELNER_2002_SOURCE,
    KORF_FELNER_GROUPING_NOTE, REFLECTED_663_NOTE,
};
use crate::analysis::Summary;
use crate::report::model::{Block, Cell, Column, Rounding, Section, Table, Text};
use crate::report::summary_csv::rounding;
use crate::results::{Results, RunStatus};
use crate::search::Algorithm;

/// Ids of the solved runs of one heuristic on a set.
fn solved_ids<'a>(results: &'a Results, set: &str, heuristic: &str) -> BTreeSet<&'a str> {
    results
        .runs
        .iter()
        .filter(|r| {
            r.instance_set == set && r.heuristic == heuristic && r.status == RunStatus::Solved
        })
        .map(|r| r.instance_id.as_str())
        .collect()
}

pub(crate) fn korf_felner(results: &Results, rows: &[&Summary]) -> Section {
    let mut s = Section::new(2, "Beside Korf & Felner (2002)");
    s.push(Text::plain(format!("Source: {KORF_FELNER_2002_SOURCE}")));
    let all: BTreeSet<String> = (1..=KORF100_SIZE).map(|i| i.to_string()).collect();
    let mut table = Table::new(
        "korf-felner-2002",
        Text::plain(format!(
            "Our means over all {KORF100_SIZE} instances beside Korf & Felner's (difference = ours \
             − published; ratio = ours / published). Their seconds are on 2002 hardware: not a speed comparison."
        )),
        vec![
            Column::text("ours"),
            Column::text("published as"),
            Column::text("our setting"),
            Column::number("mean h0: ours", None),
            Column::number("published", None).in_group("mean h0"),
            Column::number("difference", None).in_group("mean h0"),
            Column::number("mean nodes: ours", None),
            Column::number("published", None).in_group("mean nodes"),
            Column::number("ratio", None).in_group("mean nodes"),
            Column::number("mean seconds: ours", Some("s")),
            Column::number("published", Some("s")).in_group("mean seconds"),
        ],
    );
    let mut not_comparable = Vec::new();
    let mut notes = Vec::new();
    let mut shown = BTreeSet::new();
    // (ours, published as, our mean nodes, their mean nodes) of every row shown.
    let mut means: Vec<(&str, &str, Option<f64>, f64)> = Vec::new();
    for p in KORF_FELNER_2002 {
        let mut ours: Vec<&str> = vec![p.heuristic];
        // The reflected 6-6-3 is set beside 6-6-3: our grouping is not theirs, and the
        // reflection is what brings h(start) nearest theirs.
        if p.heuristic == "pdb-663" {
            ours.push("pdb-663r");
        }
        for h in ours {
            let Some(summary) = rows.iter().find(|s| s.heuristic == h) else {
                continue;
            };
            let solved = solved_ids(results, KORF100_SET, h);
            let complete = all.iter().all(|id| solved.contains(id.as_str()));
            if !complete {
                not_comparable.push(format!(
                    "{h}: not comparable: {} of {KORF100_SIZE} instances",
                    solved.len()
                ));
                continue;
            }
            let ratio = |o: Option<f64>, p: f64| {
                Cell::opt(o.filter(|_| p > 0.0).map(|o| o / p), rounding::RATIO)
            };
            shown.insert(h);
            means.push((h, p.label, summary.mean_generated, p.mean_nodes));
            table.row(vec![
                Cell::Code(h.to_string()),
                Cell::text(p.label),
                Cell::text(setting_of(h)),
                Cell::opt(summary.mean_h0, rounding::H0),
                Cell::num(p.mean_h0, rounding::H0),
                // h(start) is deterministic: its real digits, not a ratio rounded to 1.00.
                Cell::opt(summary.mean_h0.map(|o| o - p.mean_h0), rounding::H0),
                Cell::opt(summary.mean_generated, rounding::NODES),
                Cell::num(p.mean_nodes, rounding::NODES),
                ratio(summary.mean_generated, p.mean_nodes),
                Cell::opt(summary.mean_seconds, rounding::SECONDS),
                Cell::num(p.mean_seconds, Rounding::Decimals(3)),
            ]);
        }
    }
    let run_any = KORF_FELNER_2002
        .iter()
        .any(|p| rows.iter().any(|s| s.heuristic == p.heuristic));
    if table.rows.is_empty() {
        let k = rows
            .iter()
            .map(|s| solved_ids(results, KORF100_SET, &s.heuristic).len())
            .max()
            .unwrap_or(0);
        s.push(Text::plain(format!(
            "Not comparable: {k} of {KORF100_SIZE} instances. Korf & Felner give averages \
                 over all {KORF100_SIZE} instances, and a mean over a subset is a mean of other \
                 instances; only per-instance comparisons are shown."
        )));
        if !run_any {
            s.push(Text::plain(
                "None of the heuristics in Korf & Felner's table was run.",
            ));
        }
        if let Some(lc) = linear_conflict_h0(results) {
            s.push(lc);
        }
        return s;
    }
    s.push(table);
    if let Some(factors) = reduction_factors(&means) {
        s.push(factors);
    }
    if !not_comparable.is_empty() {
        s.push(Text::plain(format!(
            "Left out, since their averages are over all {KORF100_SIZE} instances: {}.",
            not_comparable.join("; ")
        )));
    }
    if shown.contains("manhattan") {
        notes.push(Text::plain(format!(
            "Manhattan: the two published sources disagree. Korf & Felner's mean, 401,189,630 \
             nodes, is {:.3} times the mean of Korf's (1985) per-instance counts \
             (instances/korf100.txt), {}; our counts are compared instance by instance with \
             the 1985 ones below.",
            401_189_630.0 / KORF_1985_MANHATTAN_MEAN,
            crate::report::format::int(KORF_1985_MANHATTAN_MEAN)
        )));
    }
    if shown
        .iter()
        .any(|h| h.starts_with("pdb-555") || h.starts_with("pdb-663"))
    {
        notes.push(Text::plain(KORF_FELNER_GROUPING_NOTE));
    }
    if shown.contains("pdb-663r") {
        notes.push(Text::plain(REFLECTED_663_NOTE));
    }
    if shown.iter().any(|h| h.starts_with("pdb-78")) {
        notes.push(Text::plain(
            "7-8: our groups are Korf & Felner's ({1,…,7} and {8,…,15}), so means should agree \
             up to the order in which operators are tried, which changes the last iteration's \
             count.",
        ));
    }
    notes.extend(h0_note(&shown));
    notes.extend(linear_conflict_h0(results));
    if !notes.is_empty() {
        s.push(Block::List(notes));
    }
    s
}

/// Why the mean h(start) columns differ: a published mean with a third decimal is no mean of
/// the 100 start states' whole-number h (a multiple of 0.01). None when nothing of Korf &
/// Felner's is shown.
fn h0_note(shown: &BTreeSet<&str>) -> Option<Text> {
    let rows: Vec<_> = KORF_FELNER_2002
        .iter()
        .filter(|p| shown.contains(p.heuristic))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let (other, whole): (Vec<_>, Vec<_>) = rows.iter().partition(|p| {
        let hundredths = p.mean_h0 * KORF100_SIZE as f64;
        (hundredths - hundredths.round()).abs() > 1e-6
    });
    let list = |ps: &[&&PublishedRow]| {
        ps.iter()
            .map(|p| format!("{} ({})", rounding::H0.apply(p.mean_h0), p.heuristic))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut text = String::from("Mean h(start): ours is the mean over the 100 start states");
    text.push_str(if shown.contains("manhattan") {
        " (for Manhattan, 37.05, the mean of the per-instance values Korf (1985) lists, in \
         instances/korf100.txt)."
    } else {
        "."
    });
    if !other.is_empty() {
        text.push_str(&format!(
            " Korf & Felner's {} cannot be such a mean: a mean of 100 whole numbers is a \
             multiple of 0.01. Their column is over other states (perhaps a larger random \
             sample), so its difference from ours says nothing about the heuristic.",
            list(&other)
        ));
    }
    if !whole.is_empty() {
        text.push_str(&format!(
            " Their {} can be; with the 7-8 groups, which are theirs, the difference in the \
             table (a few moves over the 100 instances) is one we have not explained.",
            list(&whole)
        ));
    }
    Some(Text::plain(text))
}

/// Linear conflict has no published node count we could cite; its h(start) is set beside
/// Hansson, Mayer & Yung's (1985) per instance instead. None without a linear-conflict run on
/// one of the instances they list.
fn linear_conflict_h0(results: &Results) -> Option<Text> {
    let published = hmy_1985_linear_conflict_h0();
    let ours: Vec<(&str, u32, u32)> = results
        .runs
        .iter()
        .filter(|r| {
            // IDA*'s runs only: an A* run of the same board has the same h(start).
            r.instance_set == KORF100_SET
                && r.solver.is_builtin()
                && r.algorithm == Algorithm::Ida
                && r.heuristic == "linear-conflict"
        })
        .filter_map(|r| {
            let (_, theirs) = published.iter().find(|(id, _)| *id == r.instance_id)?;
            Some((r.instance_id.as_str(), r.h0?, *theirs))
        })
        .collect();
    if ours.is_empty() {
        return None;
    }
    let differ: Vec<String> = ours
        .iter()
        .filter(|(_, o, t)| o != t)
        .map(|(id, o, t)| format!("#{id} (ours {o}, theirs {t})"))
        .collect();
    let equal = ours.len() - differ.len();
    let mut text = format!(
        "Linear conflict: we found no published node count for Korf's 100 that we could cite \
         (Korf & Felner's table, as our source reproduces it, has no linear-conflict row). Its h(start) \
         is set beside {HMY_1985_SOURCE} instead: ours equals theirs on {equal} of the {} \
         instances they list that this experiment ran",
        ours.len()
    );
    if differ.is_empty() {
        text.push('.');
    } else {
        text.push_str(&format!("; it differs on {}.", differ.join(", ")));
    }
    Some(Text::plain(text))
}

/// Manhattan's mean nodes over each other heuristic's, ours beside Korf & Felner's (each from
/// its own Manhattan row); none without a Manhattan row or another row.
fn reduction_factors(means: &[(&str, &str, Option<f64>, f64)]) -> Option<Table> {
    let (_, _, ours_manhattan, theirs_manhattan) =
        *means.iter().find(|(h, ..)| *h == "manhattan")?;
    let mut t = Table::new(
        "korf-felner-2002-reduction",
        Text::plain(
            "Reduction factors: mean nodes with Manhattan / mean nodes with the heuristic, ours \
             and Korf & Felner's, each from its own Manhattan row of the table above.",
        ),
        vec![
            Column::text("ours"),
            Column::text("published as"),
            Column::number("reduction vs Manhattan: ours", None),
            Column::number("published", None).in_group("reduction vs Manhattan"),
        ],
    );
    for &(h, label, ours, theirs) in means.iter().filter(|(h, ..)| *h != "manhattan") {
        let factor = |m: Option<f64>, x: Option<f64>| match (m, x) {
            (Some(m), Some(x)) if x > 0.0 => Cell::num(m / x, rounding::FACTOR),
            _ => Cell::Empty,
        };
        t.row(vec![
            Cell::Code(h.to_string()),
            Cell::text(label),
            factor(ours_manhattan, ours),
            factor(Some(theirs_manhattan), Some(theirs)),
        ]);
    }
    (!t.rows.is_empty()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::RunRecord;

    /// Linear conflict's h(start) is set beside Hansson, Mayer & Yung's per instance: equal,
    /// different (named), and not counted where they list no value (#34) or for A*.
    #[test]
    fn linear_conflict_h0_is_set_beside_hmy_1985() {
        let run = |id: &str, algorithm: Algorithm, h0| RunRecord {
            instance_set: KORF100_SET.into(),
            instance_id: id.into(),
            algorithm: algorithm.into(),
            heuristic: "linear-conflict".into(),
            h0: Some(h0),
            ..Default::default()
        };
        let mut results = Results {
            dir: "r".into(),
            runs: vec![
                run("1", Algorithm::Ida, 43),
                run("1", Algorithm::Astar, 43),
                run("34", Algorithm::Ida, 39),
            ],
            iterations: vec![],
            meta: None,
        };
        let said = |r: &Results| linear_conflict_h0(r).map(|t| t.to_plain());
        let text = said(&results).unwrap();
        assert!(
            text.contains("equals theirs on 1 of the 1 instances"),
            "{text}"
        );
        results.runs.push(run("2", Algorithm::Ida, 41));
        let text = said(&results).unwrap();
        assert!(
            text.contains("on 1 of the 2 instances") && text.contains("#2 (ours 41, theirs 43)"),
            "{text}"
        );
        results.runs.retain(|r| r.instance_id == "34");
        assert_eq!(said(&results), None);
    }
    /// The committed lab experiment has 9 instance sets: the setup names them in one row (so
    /// that it fits the first page) and a table of their own gives each one's origin.
    #[test]
    fn reduction_factors_set_ours_beside_theirs() {
        let means = [
            (
                "manhattan",
                "Manhattan distance",
                Some(400.0),
                401_189_630.0,
            ),
            (
                "pdb-663",
                "disjoint additive PDB 6-6-3",
                Some(4.0),
                617_555.0,
            ),
        ];
        let t = reduction_factors(&means).unwrap();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][2], Cell::num(100.0, rounding::FACTOR));
        assert_eq!(
            t.rows[0][3],
            Cell::num(401_189_630.0 / 617_555.0, rounding::FACTOR)
        );
        assert!(reduction_factors(&means[1..]).is_none());
    }

    /// Korf & Felner's mean h(start) with a third decimal is said to be over other states; the
    /// ones that can be means of the 100 are not.
    #[test]
    fn published_h0_that_no_mean_of_100_can_have_is_named() {
        let shown: BTreeSet<&str> = ["manhattan", "pdb-78"].into_iter().collect();
        let note = h0_note(&shown).unwrap().to_plain();
        assert!(
            note.contains("Korf & Felner's 36.942 (manhattan) cannot be"),
            "{note}"
        );
        assert!(note.contains("Their 44.750 (pdb-78) can be"), "{note}");
        assert!(note.contains("37.05"), "{note}");
        let only_78: BTreeSet<&str> = ["pdb-78"].into_iter().collect();
        let note = h0_note(&only_78).unwrap().to_plain();
        assert!(
            !note.contains("cannot") && !note.contains("37.05"),
            "{note}"
        );
        assert!(h0_note(&BTreeSet::new()).is_none());
    }
}
