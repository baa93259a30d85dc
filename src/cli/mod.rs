//! One file per subcommand: its arguments and the calls into the library.

pub mod plot;
pub mod report;
pub mod solve;
