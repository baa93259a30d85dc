//! One file per subcommand: its arguments and the calls into the library.

pub mod collect;
pub mod compare;
pub mod gen;
pub mod pdb;
pub mod plot;
pub mod progress;
pub mod report;
pub mod run;
pub mod slurm;
pub mod solve;

use std::error::Error;
use std::time::Duration;

/// A time limit from the command line: a positive number of seconds.
pub fn time_limit(seconds: Option<f64>) -> Result<Option<Duration>, Box<dyn Error>> {
    match seconds {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            Err(format!("--time-limit must be a positive number of seconds, not {s}").into())
        }
        s => Ok(s.map(Duration::from_secs_f64)),
    }
}
