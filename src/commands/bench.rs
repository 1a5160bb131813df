//! `crowned bench`: the engine's speed and depth, measured on this machine.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use crowned::engine::{Engine, Level, Limits, Situation, builtin_openings};
use crowned::rules::Position;

/// The depth every benchmark position is searched to.
const BENCH_DEPTH: u32 = 14;

/// The start and every tenth opening of the built-in deck: quiet and sharp positions of the early middle game.
fn positions() -> Vec<Position> {
    let mut list = vec![Position::start()];
    list.extend(builtin_openings().iter().step_by(10).map(|o| o.position));
    list
}

/// Searches every position to a fixed depth with the full search and with the plain minimax of `medium` (as a
/// baseline in the same run), then the start position for `time`.
pub fn bench(time: Duration) -> Result<()> {
    let mut out = io::stdout().lock();
    let positions = positions();
    let (full_nodes, full_time) = measure(&positions, Level::Max, BENCH_DEPTH);
    let (plain_nodes, plain_time) = measure(&positions, Level::Medium, 5);
    let full_rate = full_nodes as f64 / full_time.as_secs_f64().max(1e-9);
    let plain_rate = plain_nodes as f64 / plain_time.as_secs_f64().max(1e-9);
    writeln!(
        out,
        "search: {} positions to depth {BENCH_DEPTH}: {full_nodes} nodes in {:.3} s, {:.2} M nodes/s",
        positions.len(),
        full_time.as_secs_f64(),
        full_rate / 1e6
    )?;
    writeln!(
        out,
        "reference, the plain minimax of medium on the same positions to depth 5: {plain_nodes} nodes in {:.3} \
         s, {:.2} M nodes/s (it visits positions without tables, ordering or pruning)",
        plain_time.as_secs_f64(),
        plain_rate / 1e6,
    )?;
    let mut engine = Engine::new();
    let result = engine.think(
        &Situation::new(Position::start()),
        Level::Max,
        &Limits::time(time),
        0,
        &mut |_| {},
    );
    writeln!(
        out,
        "start position, {:.1} s: depth {} ({} nodes)",
        time.as_secs_f64(),
        result.depth,
        result.nodes
    )?;
    Ok(())
}

fn measure(positions: &[Position], level: Level, depth: u32) -> (u64, Duration) {
    let mut nodes = 0;
    let mut spent = Duration::ZERO;
    let mut engine = Engine::new();
    for pos in positions {
        engine.clear();
        let started = Instant::now();
        let result = engine.think(
            &Situation::new(*pos),
            level,
            &Limits::depth(depth),
            0,
            &mut |_| {},
        );
        spent += started.elapsed();
        nodes += result.nodes;
    }
    (nodes, spent)
}
