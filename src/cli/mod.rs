//! One file per subcommand: its arguments and the calls into the library.

pub mod collect;
pub mod compare;
pub mod gen;
pub mod pdb;
pub mod plan;
pub mod plot;
pub mod predict;
pub mod progress;
pub mod regress;
pub mod report;
pub mod run;
pub mod slurm;
pub mod solve;
