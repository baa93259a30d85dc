//! The report's sections, one file each: every one a pure function of the stored results (and
//! of the figures already drawn) returning its part of the [`crate::report::model::Report`].
//! [`crate::report::build`] puts them in order.

pub mod definitions;
pub mod korf_felner;
pub mod optimization_path;
pub mod outside;
pub mod per_instance;
pub mod plots;
pub mod prediction;
pub mod published;
pub mod setup;
pub mod summary;
