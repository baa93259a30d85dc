//! Helpers shared by the end-to-end tests: fresh scratch directories, synthetic but realistic
//! results directories, checks that a PNG or SVG file has real content, and (in `bin`) running
//! the binary and reading back what it wrote.

#![allow(dead_code)]

pub mod bin;
pub mod mutate;

use std::fs;
use std::path::{Path, PathBuf};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use tilebench::results::io::write_rows;
use tilebench::results::{
    Growth, IterationRecord, RunRecord, RunStatus, ITERATIONS_FILE, META_FILE, RUNS_FILE,
};
use tilebench::search::Iteration;

/// This test process's own scratch root under cargo's temp dir (`target/tmp`), named by the
/// process id, so two `cargo test` runs at once never share a directory. Nothing a test writes
/// goes anywhere else (the checkout stays untouched).
pub fn process_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("run-{}", std::process::id()))
}

/// A fresh, empty directory for one test under [`process_dir`], in a folder of the test's module
/// (the test thread's name up to its last `::`), so that modules of the one test binary
/// (`tests/it`) may use the same names.
pub fn fresh_dir(name: &str) -> PathBuf {
    let thread = std::thread::current();
    let module = thread
        .name()
        .and_then(|n| n.rsplit_once("::"))
        .map_or(String::new(), |(m, _)| m.replace("::", "/"));
    let dir = process_dir().join(module).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The pattern-database cache of the tests: `$TILEBENCH_TEST_PDB_DIR` when set (point it at a
/// cache of built tables, e.g. `/work/pdb-cache-shared`, to skip the builds), else
/// `target/tmp/pdb-cache`, kept between runs. Never `./pdb-cache` or the caller's
/// `$TILEBENCH_PDB_DIR`. Tables are written under a temporary name and renamed, so test
/// processes sharing it cannot see half a table.
pub fn test_pdb_dir() -> PathBuf {
    match std::env::var_os("TILEBENCH_TEST_PDB_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-cache"),
    }
}

/// Options that load or build tables in [`test_pdb_dir`], without a progress bar.
pub fn test_pdb_options() -> tilebench::pdb::CacheOptions {
    tilebench::pdb::CacheOptions {
        pdb_dir: test_pdb_dir(),
        build_missing: true,
        ..Default::default()
    }
}

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u1, u2) = (uniform(rng).max(1e-12), uniform(rng));
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// (name, node divisor against Manhattan, growth ratio, nodes per second, h0 gain)
const HEURISTICS: &[(&str, f64, f64, f64, u32)] = &[
    ("manhattan", 1.0, 6.0, 1.5e8, 0),
    ("linear-conflict", 8.0, 5.5, 9e7, 2),
    ("pdb-555", 130.0, 4.8, 5e7, 4),
    ("pdb-663", 650.0, 4.5, 4e7, 6),
    ("pdb-78", 3000.0, 4.2, 3e7, 8),
    ("pdb-78r", 11000.0, 3.5, 2e7, 9),
];

/// Synthetic runs shaped like a Korf-100 experiment: Manhattan from about 3e5 to 6e9 nodes,
/// down to tens of nodes for the strongest PDB, geometric iterations with noise; `unsolved`
/// Manhattan runs end at the time limit. Deterministic for a seed.
pub fn synthetic_results(dir: &Path, set: &str, instances: usize, unsolved: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut runs = Vec::new();
    let mut iterations = Vec::new();
    for i in 1..=instances {
        let id = i.to_string();
        let manhattan = 10f64.powf(5.5 + 4.3 * uniform(&mut rng));
        let h0_base = 30 + (rng.next_u32() % 16);
        for (h_index, &(name, divisor, r_mean, rate, gain)) in HEURISTICS.iter().enumerate() {
            let target = (manhattan / divisor * 10f64.powf(0.25 * normal(&mut rng))).max(20.0);
            let r = (r_mean * (1.0 + 0.15 * normal(&mut rng))).max(1.5);
            let k = 2 + (target.log10() as usize).min(6) + (rng.next_u32() % 2) as usize;
            let last_fraction = 0.05 + 0.9 * uniform(&mut rng);
            let mut shape: Vec<f64> = (0..k - 1).map(|j| r.powi(j as i32)).collect();
            shape.push(last_fraction * r * shape[k - 2]);
            let scale = target / shape.iter().sum::<f64>();
            let h0 = h0_base + gain;
            let its: Vec<Iteration> = shape
                .iter()
                .enumerate()
                .map(|(j, s)| {
                    let generated = (s * scale).round().max(1.0) as u64;
                    Iteration {
                        bound: h0 + 2 * j as u32,
                        expanded: generated / 2,
                        generated,
                        seconds: generated as f64 / rate,
                    }
                })
                .collect();
            let generated: u64 = its.iter().map(|i| i.generated).sum();
            let seconds = generated as f64 / rate * 10f64.powf(0.05 * normal(&mut rng)) + 2e-5;
            let growth = Growth::of(&its);
            let solved = !(h_index == 0 && i > instances - unsolved);
            for (j, it) in its.iter().enumerate() {
                iterations.push(IterationRecord {
                    instance_set: set.into(),
                    instance_id: id.clone(),
                    heuristic: name.into(),
                    iteration: j as u32 + 1,
                    bound: it.bound,
                    expanded: it.expanded,
                    generated: it.generated,
                    seconds: it.seconds,
                    ..IterationRecord::default()
                });
            }
            let length = h0_base + 16;
            runs.push(RunRecord {
                instance_set: set.into(),
                instance_id: id.clone(),
                heuristic: name.into(),
                status: if solved {
                    RunStatus::Solved
                } else {
                    RunStatus::TimeLimit
                },
                length: solved.then_some(length),
                optimal_length: Some(length),
                h0: Some(h0),
                iterations: its.len() as u32,
                expanded: Some(its.iter().map(|i| i.expanded).sum()),
                generated: Some(generated),
                last_iteration_generated: Some(its.last().unwrap().generated),
                seconds,
                nodes_per_second: Some(generated as f64 / seconds),
                growth_ratio: growth.ratio,
                overhead_measured: growth.overhead_measured,
                overhead_predicted: growth.overhead_predicted,
                moves: String::new(),
                verified: solved,
                threads: 2,
                search_threads: 1,
                ..RunRecord::default()
            });
        }
    }
    write_rows(&dir.join(RUNS_FILE), &runs).unwrap();
    write_rows(&dir.join(ITERATIONS_FILE), &iterations).unwrap();
    fs::write(dir.join(META_FILE), SYNTHETIC_META).unwrap();
}

/// Asserts that `path` is a PNG of the given size whose pixels are not all alike.
pub fn assert_png(path: &Path, size: (u32, u32)) {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{}: PNG signature",
        path.display()
    );
    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), size, "{}", path.display());
    let pixels = &buf[..info.buffer_size()];
    let stride = info.color_type.samples();
    let white = pixels
        .chunks(stride)
        .filter(|p| p.iter().all(|&c| c == 255))
        .count();
    let total = pixels.len() / stride;
    // A drawn chart: mostly white background, but a real share of ink (axes, text, data).
    assert!(white < total * 99 / 100, "{}: almost blank", path.display());
    assert!(white > total / 3, "{}: no background", path.display());
}

/// Asserts that `path` is an SVG document containing `text` and at least `min_elements`
/// drawing elements.
pub fn assert_svg(path: &Path, text: &str, min_elements: usize) {
    let svg = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(svg.trim_start().starts_with("<svg"), "{}", path.display());
    assert!(svg.trim_end().ends_with("</svg>"), "{}", path.display());
    assert_eq!(
        svg.matches('<').count(),
        svg.matches('>').count(),
        "{}: unbalanced tags",
        path.display()
    );
    assert!(svg.contains(text), "{}: lacks {text:?}", path.display());
    let elements = [
        "<line",
        "<polyline",
        "<circle",
        "<rect",
        "<text",
        "<path",
        "<polygon",
    ]
    .iter()
    .map(|t| svg.matches(t).count())
    .sum::<usize>();
    assert!(
        elements >= min_elements,
        "{}: only {elements} elements",
        path.display()
    );
}

/// The `meta.json` of the synthetic results: the current schema, with made-up values.
pub const SYNTHETIC_META: &str = r#"{
  "schema_version": 2,
  "command_line": ["tilebench", "synthetic test data"],
  "tilebench_version": "0.1.0",
  "git_commit": null,
  "git_dirty": null,
  "rustc_version": "rustc 1.85.0",
  "machine": {"cpu_model": null, "cores": 2, "memory_bytes": 8589934592, "os": "linux",
              "hostname": null},
  "started": "2026-01-01T00:00:00Z",
  "finished": "2026-01-01T00:01:00Z",
  "state": "complete",
  "threads": 2,
  "instance_sets": [],
  "heuristics": [],
  "limits": {"node_limit": null, "time_limit_seconds": 60.0},
  "pairs": 0,
  "pairs_done_before": 0,
  "previous_sessions": []
}
"#;
/// The value of attribute `name` in one SVG element's text.
fn attr(element: &str, name: &str) -> Option<f64> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = element[start..].find('"')?;
    element[start..start + len].parse().ok()
}

/// The filled markers of an SVG plot (the data points plotters draws: circles, and polygons for
/// the other shapes, at the mean of their corners), grouped by fill colour: (x, y) in pixels.
pub fn svg_points(svg: &str) -> std::collections::BTreeMap<String, Vec<(f64, f64)>> {
    let mut points: std::collections::BTreeMap<String, Vec<(f64, f64)>> = Default::default();
    // The legend's samples come after its white box (the first white rect not at the origin,
    // which is the background): only what is drawn before it is data.
    let data = svg
        .match_indices("<rect ")
        .find(|(at, _)| {
            let tag = &svg[*at..*at + svg[*at..].find('>').unwrap()];
            tag.contains("fill=\"#FFFFFF\"") && !tag.contains("x=\"0\" y=\"0\"")
        })
        .map_or(svg, |(at, _)| &svg[..at]);
    fn fill(element: &str) -> Option<&str> {
        element.split("fill=\"").nth(1)?.split('"').next()
    }
    for element in data.split("<circle").skip(1) {
        let element = &element[..element.find('>').unwrap()];
        let (x, y) = (attr(element, "cx").unwrap(), attr(element, "cy").unwrap());
        points
            .entry(fill(element).unwrap().to_string())
            .or_default()
            .push((x, y));
    }
    for element in data.split("<polygon").skip(1) {
        let element = &element[..element.find('>').unwrap()];
        let corners: Vec<(f64, f64)> = (element.split("points=\"").nth(1).unwrap())
            .split('"')
            .next()
            .unwrap()
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let n = corners.len() as f64;
        let centre = corners
            .iter()
            .fold((0.0, 0.0), |c, p| (c.0 + p.0 / n, c.1 + p.1 / n));
        points
            .entry(fill(element).unwrap().to_string())
            .or_default()
            .push(centre);
    }
    points
}

/// The value a log-axis label (`tilebench::plot::log_label`: `2.5×10⁻³`) stands for; `None`
/// for any other text.
fn log_label_value(label: &str) -> Option<f64> {
    let (mantissa, power) = match label.split_once('×') {
        Some((m, p)) => (m.parse::<f64>().ok()?, p),
        None => (1.0, label),
    };
    let digits = power.strip_prefix("10")?;
    let (sign, digits) = match digits.strip_prefix('⁻') {
        Some(rest) => (-1, rest),
        None => (1, digits),
    };
    if digits.is_empty() {
        return None;
    }
    let mut exp = 0i32;
    for c in digits.chars() {
        let d = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']
            .iter()
            .position(|&s| s == c)?;
        exp = exp.checked_mul(10)?.checked_add(d as i32)?;
    }
    Some(mantissa * 10f64.powi(sign * exp))
}

/// The numeric tick labels of the y axis (right-aligned text left of the plot): (pixel y,
/// value), top to bottom.
pub fn svg_y_ticks(svg: &str) -> Vec<(f64, f64)> {
    let mut ticks = Vec::new();
    for element in svg.split("<text").skip(1) {
        let (open, rest) = element.split_once('>').unwrap();
        let label = rest.split("</text>").next().unwrap().trim();
        if open.contains("text-anchor=\"end\"") {
            let value = label.parse::<f64>().ok().or_else(|| log_label_value(label));
            if let Some(value) = value {
                ticks.push((attr(open, "y").unwrap(), value));
            }
        }
    }
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    ticks
}

/// The value at pixel `y` on a log-scale y axis with these ticks (interpolated between the first
/// and last tick).
pub fn log_axis_value(ticks: &[(f64, f64)], y: f64) -> f64 {
    let ((y0, v0), (y1, v1)) = (ticks[0], ticks[ticks.len() - 1]);
    let t = (y - y0) / (y1 - y0);
    10f64.powf(v0.log10() + t * (v1.log10() - v0.log10()))
}

/// IDA* with `h` (built by name, or from a value with [`Prepared::of`]) within `limits`, on one
/// thread, through the one entry point [`tilebench::search::solve`].
pub fn ida(
    h: &tilebench::heuristic::Prepared,
    board: &tilebench::board::Board,
    goal: &tilebench::board::Goal,
    limits: &tilebench::search::Limits,
) -> tilebench::search::SearchResult {
    let options = tilebench::search::SearchOptions {
        limits: limits.clone(),
        ..Default::default()
    };
    tilebench::search::solve(Some(h), board, goal, &options)
        .expect("the board and the goal have one size")
        .result
}
