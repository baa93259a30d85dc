//! Published figures to set our results beside, copied from `data/published-results.md` (the
//! project's copy of the collected published tables, with their sources).

/// The instance set the published figures are for: Korf's 100 random 15-puzzle instances.
pub(crate) const KORF100_SET: &str = "korf100";
/// How many instances Korf's set has; published averages are over all of them.
pub(crate) const KORF100_SIZE: usize = 100;

/// One row of Korf & Felner's (2002) table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PublishedRow {
    /// Our heuristic name for the same heuristic.
    pub heuristic: &'static str,
    /// The heuristic as the paper names it.
    pub label: &'static str,
    pub mean_h0: f64,
    pub mean_nodes: f64,
    /// On 2002 hardware.
    pub mean_seconds: f64,
}

/// Where [`KORF_FELNER_2002`] comes from.
pub(crate) const KORF_FELNER_2002_SOURCE: &str =
    "Korf & Felner (2002), \"Disjoint pattern database heuristics\", \
Artificial Intelligence 134, as reproduced in Felner's heuristic-search course slides \
(copied into data/published-results.md). IDA* on Korf's 100 random 15-puzzle instances; \
nodes are nodes generated, summed over all iterations; seconds on 2002 hardware.";

/// Korf & Felner (2002): averages over Korf's 100 instances.
pub const KORF_FELNER_2002: &[PublishedRow] = &[
    PublishedRow {
        heuristic: "manhattan",
        label: "Manhattan distance",
        mean_h0: 36.942,
        mean_nodes: 401_189_630.0,
        mean_seconds: 53.424,
    },
    PublishedRow {
        heuristic: "pdb-555",
        label: "disjoint additive PDB 5-5-5",
        mean_h0: 41.562,
        mean_nodes: 3_090_405.0,
        mean_seconds: 0.541,
    },
    PublishedRow {
        heuristic: "pdb-663",
        label: "disjoint additive PDB 6-6-3",
        mean_h0: 42.924,
        mean_nodes: 617_555.0,
        mean_seconds: 0.163,
    },
    PublishedRow {
        heuristic: "pdb-78",
        label: "disjoint additive PDB 7-8",
        mean_h0: 44.750,
        mean_nodes: 136_288.0,
        mean_seconds: 0.081,
    },
    PublishedRow {
        heuristic: "pdb-78r",
        label: "7-8, max with the reflected lookup",
        mean_h0: 45.630,
        mean_nodes: 36_710.0,
        mean_seconds: 0.034,
    },
];

/// Why our 5-5-5 and 6-6-3 figures differ from Korf & Felner's (data/published-results.md and
/// the README's pattern database section).
pub(crate) const KORF_FELNER_GROUPING_NOTE: &str =
    "5-5-5 and 6-6-3: Korf & Felner's grouping of the \
tiles is shown only in a figure of the paper, which our sources do not reproduce, so our pdb-555 \
and pdb-663 use other groups (the contiguous regions with the highest mean h(start) among those \
tried). No contiguous grouping tried reaches their mean h(start) of 42.924 for 6-6-3 (ours: \
42.53; groupings in public solvers give 41.29-42.13, and 41.99-42.79 with the reflected lookup), \
so their node counts are not expected.";

/// Said under the table when our pdb-663r row is set beside their 6-6-3.
pub(crate) const REFLECTED_663_NOTE: &str =
    "pdb-663r, our 6-6-3 tables with the reflected lookup, is \
shown beside their 6-6-3: the reflection brings our mean h(start) nearest theirs.";

/// The mean of Korf's (1985) per-instance Manhattan counts (`instances/korf100.txt`, column
/// `korf1985_manhattan_nodes`, the root counted): 35,991,891,875 / 100.
pub(crate) const KORF_1985_MANHATTAN_MEAN: f64 = 359_918_918.75;

/// The exact setting of one of our heuristics that a published row is compared with: the
/// groups of a pattern database (blank-first goal, as Korf's instances) and whether the
/// reflected lookup is used.
pub(crate) fn setting_of(heuristic: &str) -> String {
    use crate::board::{Goal, Size};
    use crate::pdb::partition::Named;
    let Some(rest) = heuristic.strip_prefix("pdb-") else {
        return match heuristic {
            "manhattan" => "Manhattan distance".to_string(),
            other => other.to_string(),
        };
    };
    let (name, reflected) = match rest.strip_suffix('r') {
        Some(n) => (n, true),
        None => (rest, false),
    };
    let groups = Named::parse(name)
        .filter(|n| {
            n.size()
                == Size {
                    width: 4,
                    height: 4,
                }
        })
        .and_then(|n| n.for_goal(&Goal::blank_first(n.size())).ok())
        .map(|p| {
            p.groups()
                .iter()
                .map(|g| {
                    let tiles: Vec<String> = g.iter().map(u8::to_string).collect();
                    format!("{{{}}}", tiles.join(","))
                })
                .collect::<Vec<_>>()
                .join(" ")
        });
    match groups {
        Some(g) if reflected => format!("groups {g}, max with the reflected lookup"),
        Some(g) => format!("groups {g}, no reflection"),
        None => heuristic.to_string(),
    }
}

/// Where Korf's (1985) per-instance counts come from (see [`super::per_instance`]).
pub(crate) const KORF_1985_SOURCE: &str =
    "Korf (1985), \"Depth-first iterative-deepening: an optimal \
admissible tree search\", Artificial Intelligence 27:97-109, Table 1 (instances/korf100.txt, \
column korf1985_manhattan_nodes, from data/korf100-15puzzle.tsv; also \
data/korf1985-manhattan-nodes.csv). Nodes generated by IDA* + Manhattan, the root counted.";

/// Where [`hmy_1985_linear_conflict_h0`] comes from.
pub(crate) const HMY_1985_SOURCE: &str =
    "Hansson, Mayer & Yung (1985), \"Criticizing solutions to \
relaxed models yields powerful admissible heuristics\", Columbia University technical report \
CUCS-219-85, as transcribed (second-hand) in the public repository italankin/fifteen-solver \
(data/hmy1985-linear-conflict-h0.tsv)";

/// Hansson, Mayer & Yung's (1985) linear-conflict h(start) of 48 of Korf's 100 instances, as
/// (Korf's id, h): the only per-instance published figure for linear conflict we could read, and
/// one independent of our code (no published node count for it was found).
pub fn hmy_1985_linear_conflict_h0() -> Vec<(String, u32)> {
    include_str!("../../data/hmy1985-linear-conflict-h0.tsv")
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let id = f.next()?.to_string();
            Some((id, f.next()?.parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// The stated mean is the mean of the per-instance counts in the instance file.
    #[test]
    fn korf_1985_mean_is_the_mean_of_the_instance_file() {
        let text = include_str!("../../instances/korf100.txt");
        let counts: Vec<f64> = text
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split('\t').nth(3).unwrap().parse().unwrap())
            .collect();
        assert_eq!(counts.len(), 100);
        let mean = counts.iter().sum::<f64>() / 100.0;
        assert_eq!(mean, super::KORF_1985_MANHATTAN_MEAN);
    }

    /// The embedded table reads whole, and every board in it is Korf's board of that id, with
    /// our linear conflict's value: an independent check of the heuristic on the 15-puzzle.
    #[test]
    fn hmy_1985_values_are_our_linear_conflict_on_korfs_boards() {
        use crate::board::{Board, Goal};
        use crate::heuristic::Prepared;
        let published = super::hmy_1985_linear_conflict_h0();
        assert_eq!(published.len(), 48);
        let korf = include_str!("../../instances/korf100.txt");
        let lc = "linear-conflict".parse().unwrap();
        for (id, h) in published {
            let tiles = korf
                .lines()
                .find(|l| l.split('\t').next() == Some(id.as_str()))
                .and_then(|l| l.split('\t').next_back())
                .unwrap();
            let board = Board::parse(tiles, None).unwrap();
            let goal = Goal::blank_first(board.size());
            let prepared = Prepared::new(&lc, &goal, &Default::default()).unwrap();
            assert_eq!(prepared.evaluate(&board), h, "Korf #{id}");
        }
        let listed = include_str!("../../data/hmy1985-linear-conflict-h0.tsv");
        for line in listed
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        {
            let f: Vec<&str> = line.split('\t').collect();
            let theirs = korf.lines().find(|l| l.split('\t').next() == Some(f[0]));
            assert_eq!(theirs.and_then(|l| l.split('\t').next_back()), Some(f[2]));
        }
    }
}
