//! One group's pattern-database table in memory, as the cache, the file format and the lookups
//! share it.

use crate::board::Goal;

use super::values::Values;

/// One group's table: entry `rank::rank(cells)` is the group's cost from that placement.
#[derive(Debug, Clone)]
pub struct Table {
    pub goal: Goal,
    /// The group's tiles, ascending; `cells[i]` in a rank is the cell of `tiles[i]`.
    pub tiles: Vec<u8>,
    /// One byte an entry, or four bits for large tables (see [`super::values`]); on huge pages when
    /// large (see [`super::entries`]).
    pub values: Values,
    pub build_seconds: f64,
}
