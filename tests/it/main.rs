//! The integration tests, as one test binary (one link of the library instead of one per file).
//! Each module is one area; `common` holds the helpers every module shares (the same file the
//! separate `tests/*.rs` binaries use with `mod common;`).

#[path = "../common/mod.rs"]
mod common;

mod algorithms;
mod checkpoint;
mod cluster;
mod compare_cli;
mod custom_heuristic;
mod fsm_pruning;
mod golden;
mod heuristic_cli;
mod history_plot;
mod input_checks;
mod instances_fuzz;
mod integrity;
mod korf100_manhattan;
mod layers;
mod memory_limit;
mod oracle;
mod outside_solver;
mod parallel;
mod pdb_cache_cli;
mod pdb_cli;
mod pdb_korf;
mod plan_cli;
mod plot_cli;
mod provenance;
mod reference;
mod regress_cli;
mod report_fixture;
mod report_render;
mod results_checks;
mod results_dir;
mod resume_refusals;
mod runner;
mod slurm;
mod slurm_injection;
mod solve_algorithm_cli;
mod solve_cli;
mod solver;
mod walking_distance;
