//! "Per instance: SET": every run of a set, one row per instance (collapsed in HTML).

use crate::report::model::{self, Cell, Column, Section, Table, Text};
use crate::report::summary_csv::rounding;
use crate::results::{Results, RunStatus, RUNS_FILE};

/// One row per instance of `set`: its length, and each heuristic's nodes and seconds.
pub(crate) fn per_instance(results: &Results, set: &str, heuristics: &[&str]) -> Section {
    let mut s = Section::new(2, format!("Per instance: {set}"));
    let mut columns = vec![
        Column::text("instance"),
        Column::number("length", Some("moves")),
    ];
    for h in heuristics {
        columns.push(Column::number(format!("{h} nodes"), None));
        columns.push(Column::number(format!("{h} seconds"), Some("s")));
    }
    let mut t = Table::new(
        format!("per-instance-{}", model::user_anchor(set)),
        Text::plain(format!(
            "Every run on {set}: nodes generated and seconds per heuristic (a status in place \
             of the nodes when the run did not solve)."
        )),
        columns,
    );
    let mut ids: Vec<&str> = Vec::new();
    for r in results.runs.iter().filter(|r| r.instance_set == set) {
        if !ids.contains(&r.instance_id.as_str()) {
            ids.push(&r.instance_id);
        }
    }
    let mut not_run = false;
    for id in ids {
        let runs: Vec<_> = results
            .runs
            .iter()
            .filter(|r| r.instance_set == set && r.instance_id == id)
            .collect();
        let length = runs
            .iter()
            .find(|r| r.status == RunStatus::Solved)
            .and_then(|r| r.length);
        let mut row = vec![
            Cell::text(id),
            length.map_or(Cell::Empty, |l| Cell::Count(u64::from(l))),
        ];
        for h in heuristics {
            match runs.iter().find(|r| r.heuristic == *h) {
                Some(r) if r.status == RunStatus::Solved => {
                    row.push(Cell::count(r.generated));
                    row.push(Cell::num(r.seconds, rounding::SECONDS));
                }
                Some(r) => {
                    row.push(Cell::text(r.status.to_string()));
                    row.push(Cell::num(r.seconds, rounding::SECONDS));
                }
                // No row: not "—", which reads as a value missing from a run.
                None => {
                    not_run = true;
                    row.push(Cell::text("not run"));
                    row.push(Cell::Empty);
                }
            }
        }
        t.row(row);
    }
    if not_run {
        t.caption = t
            .caption
            .p(" \"not run\": the run has no row in ")
            .code(RUNS_FILE)
            .p(".");
    }
    t.collapsed = true;
    s.push(t);
    s
}
