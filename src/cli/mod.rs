//! One file per subcommand: its arguments and the calls into the library.

pub mod gen;
pub mod pdb;
pub mod run;
pub mod solve;
