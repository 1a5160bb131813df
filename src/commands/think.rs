//! `crowned think`: let the engine choose a move.

use std::io::{self, Write};

use anyhow::Result;
use crowned::engine::{Engine, Level, Limits, Situation};
use crowned::rules::{Move, Position, SquareStyle, write_move};

/// `crowned think`: progress on stderr, the decision on stdout.
pub fn think(position: &Position, level: Level, limits: &Limits, seed: u64) -> Result<()> {
    let mut engine = Engine::new();
    let situation = Situation::new(*position);
    let result = engine.think(&situation, level, limits, seed, &mut |p| {
        let line = pv_text(position, &p.pv);
        eprintln!(
            "depth {} score {} nodes {} nps {} time {:.3} pv {line}",
            p.depth,
            p.score,
            p.nodes,
            p.nodes_per_second(),
            p.elapsed.as_secs_f64()
        );
    });
    let mut out = io::stdout().lock();
    match result.best {
        None => writeln!(out, "bestmove none")?,
        Some(mv) => writeln!(
            out,
            "bestmove {} score {} depth {} nodes {}",
            write_move(position, &mv, SquareStyle::Numbers),
            result.score,
            result.depth,
            result.nodes
        )?,
    }
    Ok(())
}

/// Moves of a line in standard notation, each written in the position it is played from.
fn pv_text(start: &Position, pv: &[Move]) -> String {
    let mut pos = *start;
    let mut words = Vec::new();
    for mv in pv {
        words.push(write_move(&pos, mv, SquareStyle::Numbers));
        pos = pos.play(mv);
    }
    words.join(" ")
}
