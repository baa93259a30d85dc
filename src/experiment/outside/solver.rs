//! An outside solver as an experiment names it: `--solver NAME[:HEURISTIC]=COMMAND`.

use std::fmt;

use crate::heuristic::HeuristicName;
use crate::results::spec::split_solver;
use crate::results::{Method, BUILTIN_SOLVER};
use crate::search::Algorithm;

use super::process::SolverCommand;
use super::OutsideError;

/// An outside solver of an experiment: its NAME (the `solver` and `heuristic` columns of its
/// rows), its command, and the built-in method it implements, whose lengths and node counts the
/// report sets beside its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideSolver {
    pub name: String,
    pub command: SolverCommand,
    pub compared: Option<Compared>,
}

/// The built-in method an outside solver is set beside, named as the results name their series
/// ([`Method::label`]): a heuristic for IDA* with it, `astar+HEURISTIC`, or `bfs`; so an outside
/// A* or breadth-first search is compared with the built-in one, not only an IDA*.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compared {
    pub algorithm: Algorithm,
    /// `None` for breadth-first search.
    pub heuristic: Option<HeuristicName>,
}

impl Compared {
    /// Parses a method's label; the heuristic must be a known one, and present exactly when
    /// the algorithm takes one.
    pub fn parse(label: &str) -> Result<Compared, String> {
        let Method::Builtin {
            algorithm,
            heuristic,
        } = Method::from_label(label)
        else {
            return Err(format!("'{label}' is not a built-in method"));
        };
        let heuristic = heuristic
            .map(|h| h.parse::<HeuristicName>().map_err(|e| e.to_string()))
            .transpose()?;
        match (algorithm.uses_heuristic(), &heuristic) {
            (true, None) => Err(format!(
                "{algorithm} needs a heuristic: {} (bfs alone takes none)",
                match algorithm {
                    Algorithm::Ida => "a heuristic's name, for IDA* with it".to_string(),
                    a => format!("{a}+HEURISTIC, e.g. {a}+manhattan"),
                }
            )),
            (false, Some(_)) => Err(format!(
                "{algorithm} takes no heuristic: write '{algorithm}' alone"
            )),
            _ => Ok(Compared {
                algorithm,
                heuristic,
            }),
        }
    }

    /// The method as the results key its rows.
    pub fn method(&self) -> Method {
        let h = self
            .heuristic
            .as_ref()
            .map_or(String::new(), |h| h.to_string());
        Method::builtin(self.algorithm, &h)
    }
}

impl fmt::Display for Compared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.method().label())
    }
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
        let compared = heuristic
            .map(|h| Compared::parse(h).map_err(|e| bad(&e)))
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
            compared,
        })
    }

    /// The spec it was parsed from, normalised (parses back to the same solver).
    pub fn spec(&self) -> String {
        match &self.compared {
            Some(m) => format!("{}:{}={}", self.name, m, self.command.text()),
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
        assert_eq!(
            s.compared.as_ref().map(Compared::method),
            Some(Method::ida("manhattan"))
        );
        assert_eq!(s.command.words(), ["python3", "my solver.py", "--fast"]);
        assert_eq!(OutsideSolver::parse(&s.spec()).unwrap(), s);
        let plain = OutsideSolver::parse("mine=./solver a=b").unwrap();
        assert_eq!((plain.name.as_str(), plain.compared), ("mine", None));
        assert_eq!(plain.command.words(), ["./solver", "a=b"]);
        for bad in [
            "no-command",
            "=cmd",
            "has space=cmd",
            "manhattan=cmd",
            "tilebench=cmd",
            "x:nonsense=cmd",
            "x:astar=cmd",
            "x:ida=cmd",
            "x:bfs+manhattan=cmd",
            "x:astar+nonsense=cmd",
            "x=",
            "x='unclosed",
        ] {
            assert!(OutsideSolver::parse(bad).is_err(), "{bad}");
        }
    }

    /// A solver is set beside any built-in method by the label its rows have: an outside
    /// breadth-first search beside `bfs` (it used to be refused as an unknown heuristic), an
    /// outside A* beside `astar+H`; the spec round-trips.
    #[test]
    fn a_solver_is_set_beside_a_builtin_method_by_its_label() {
        for (spec, method) in [
            (
                "mybfs:bfs=python3 bfs8.py",
                Method::builtin(Algorithm::Bfs, ""),
            ),
            (
                "a:astar+linear-conflict=./a",
                Method::builtin(Algorithm::Astar, "linear-conflict"),
            ),
            ("i:ida+manhattan=./i", Method::ida("manhattan")),
        ] {
            let s = OutsideSolver::parse(spec).unwrap();
            assert_eq!(
                s.compared.as_ref().map(Compared::method),
                Some(method),
                "{spec}"
            );
            assert_eq!(OutsideSolver::parse(&s.spec()).unwrap(), s, "{spec}");
        }
        let e = OutsideSolver::parse("x:astar=cmd").unwrap_err().to_string();
        assert!(
            e.contains("astar needs a heuristic: astar+HEURISTIC"),
            "{e}"
        );
        let e = OutsideSolver::parse("x:bfs+manhattan=cmd")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bfs takes no heuristic"), "{e}");
        let e = OutsideSolver::parse("x:astar+nonsense=cmd")
            .unwrap_err()
            .to_string();
        assert!(e.contains("nonsense"), "{e}");
    }
}
