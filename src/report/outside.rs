//! The report's section on outside solvers: each solver's command, its verdicts, and per
//! instance its length and reported node counts beside the built-in search's under the same
//! heuristic.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::format::{fixed, int, NONE};
use crate::analysis::outside::{compare_solvers, InstanceComparison, SolverComparison};
use crate::results::{Results, RunStatus};

/// `## Outside solvers`, when the results have any.
pub(super) fn section(md: &mut String, results: &Results) {
    let solvers = compare_solvers(results);
    if solvers.is_empty() {
        return;
    }
    let _ = writeln!(md, "## Outside solvers\n");
    let _ = writeln!(
        md,
        "Programs run through the solver protocol (`docs/solver-protocol.md`) on the same \
         instances. Each answer was replayed with tilebench's board code; times are wall \
         seconds of the whole process (start-up included); node counts are the ones the solver \
         reported. The built-in columns are tilebench's IDA* under the heuristic the solver \
         implements; *iterations agree* means every iteration's bound, generated and expanded \
         counts are equal.\n"
    );
    for s in &solvers {
        solver(md, s);
    }
}

fn solver(md: &mut String, s: &SolverComparison) {
    let _ = writeln!(md, "### {}\n", s.solver);
    if let Some(c) = &s.command {
        let _ = writeln!(md, "Command: `{c}`.\n");
    }
    let mut by_status: BTreeMap<RunStatus, usize> = BTreeMap::new();
    for i in &s.instances {
        *by_status.entry(i.status).or_default() += 1;
    }
    let statuses: Vec<String> = by_status
        .iter()
        .map(|(st, n)| format!("{n} {}", st.as_str()))
        .collect();
    let _ = writeln!(
        md,
        "{} instances: {}.",
        s.instances.len(),
        statuses.join(", ")
    );
    match &s.heuristic {
        Some(h) => {
            let (lengths, l_of) = s.count(InstanceComparison::length_agrees);
            let (totals, t_of) = s.count(InstanceComparison::totals_agree);
            let (its, i_of) = s.count(|i| i.iterations_agree);
            let _ = writeln!(
                md,
                "Beside the built-in search with {h}: lengths agree on {lengths} of {l_of}, \
                 node totals on {totals} of {t_of}, iterations on {its} of {i_of}.\n"
            );
        }
        None => {
            let _ = writeln!(
                md,
                "No built-in heuristic was named for it (`--solver {}:HEURISTIC=…`), so its \
                 counts stand alone.\n",
                s.solver
            );
        }
    }
    let _ = writeln!(
        md,
        "| instance | status | length | built-in length | generated | built-in generated | \
         expanded | built-in expanded | iterations agree | seconds |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|---|---:|");
    let num = |v: Option<u64>| v.map_or(NONE.to_string(), |v| int(v as f64));
    for i in &s.instances {
        let (bl, bg, be) = match i.builtin {
            Some((l, g, e)) => (l.map(u64::from), Some(g), Some(e)),
            None => (None, None, None),
        };
        let agree = match i.iterations_agree {
            Some(true) => "yes",
            Some(false) => "**no**",
            None => NONE,
        };
        let _ = writeln!(
            md,
            "| {} #{} | {} | {} | {} | {} | {} | {} | {} | {agree} | {} |",
            i.instance_set,
            i.instance_id,
            i.status.as_str(),
            num(i.length.map(u64::from)),
            num(bl),
            int(i.generated as f64),
            num(bg),
            int(i.expanded as f64),
            num(be),
            fixed(i.seconds, 3),
        );
    }
    md.push('\n');
}
