//! An outside solver as an experiment names it: `--solver NAME[:HEURISTIC]=COMMAND`.

use crate::heuristic::HeuristicName;
use crate::results::spec::split_solver;
use crate::results::BUILTIN_SOLVER;

use super::process::SolverCommand;
use super::OutsideError;

/// An outside solver of an experiment: its NAME (the `solver` and `heuristic` columns of its
/// rows), its command, and the built-in heuristic it implements, whose node counts the report
/// sets beside its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideSolver {
    pub name: String,
    pub command: SolverCommand,
    pub heuristic: Option<HeuristicName>,
}

impl OutsideSolver {
    /// Parses `NAME[:HEURISTIC]=COMMAND`. NAME is letters, digits, `-`, `_` and `.`, and is
    /// neither `tilebench` nor a heuristic's or an algorithm's name (rows are told apart by it).
    pub fn parse(spec: &str) -> Result<OutsideSolver, OutsideError> {
        let bad = |reason: &str| OutsideError::BadSolver {
            spec: spec.to_string(),
            reason: reason.to_string(),
        };
        let (name, heuristic, command) = split_solver(spec)
            .ok_or_else(|| bad("expected NAME=COMMAND or NAME:HEURISTIC=COMMAND"))?;
        let heuristic = heuristic
            .map(|h| h.parse::<HeuristicName>().map_err(|e| bad(&e.to_string())))
            .transpose()?;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            return Err(bad(
                "the NAME must be letters, digits, '-', '_' or '.' (it names the solver's rows)",
            ));
        }
        if name == BUILTIN_SOLVER
            || name.parse::<HeuristicName>().is_ok()
            || name.parse::<crate::search::Algorithm>().is_ok()
        {
            return Err(bad(&format!(
                "'{name}' is taken by the built-in search; choose another NAME"
            )));
        }
        Ok(OutsideSolver {
            name: name.to_string(),
            command: SolverCommand::parse(command.trim())?,
            heuristic,
        })
    }

    /// The spec it was parsed from, normalised (parses back to the same solver).
    pub fn spec(&self) -> String {
        match &self.heuristic {
            Some(h) => format!("{}:{}={}", self.name, h, self.command.text()),
            None => format!("{}={}", self.name, self.command.text()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_round_trip() {
        let s = OutsideSolver::parse("py-ida:manhattan=python3 'my solver.py' --fast").unwrap();
        assert_eq!(s.name, "py-ida");
        assert_eq!(s.heuristic, Some(HeuristicName::Manhattan));
        assert_eq!(s.command.words(), ["python3", "my solver.py", "--fast"]);
        assert_eq!(OutsideSolver::parse(&s.spec()).unwrap(), s);
        let plain = OutsideSolver::parse("mine=./solver a=b").unwrap();
        assert_eq!((plain.name.as_str(), plain.heuristic), ("mine", None));
        assert_eq!(plain.command.words(), ["./solver", "a=b"]);
        for bad in [
            "no-command",
            "=cmd",
            "has space=cmd",
            "manhattan=cmd",
            "tilebench=cmd",
            "x:nonsense=cmd",
            "x=",
            "x='unclosed",
        ] {
            assert!(OutsideSolver::parse(bad).is_err(), "{bad}");
        }
    }
}
