//! The `tilebench` binary: the command line lives in the library ([`tilebench::cli`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    tilebench::cli::main()
}
