//! One file per subcommand: its arguments and the calls into the library.

pub mod compare;
pub mod solve;
