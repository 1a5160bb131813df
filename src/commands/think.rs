//! `crowned think`: let the engine choose a move.

use std::io::{self, Write};

use anyhow::Result;
use crowned::engine::{Engine, Level, Limits, Situation};
use crowned::rules::{Move, Playable, Position, PositionVisitor, SquareStyle, write_move};

/// `crowned think` under the rules of the position: progress on stderr, the decision on stdout, moves in the
/// variant's notation.
pub struct Think<'a> {
    /// The playing level.
    pub level: Level,
    /// When to stop.
    pub limits: &'a Limits,
    /// Fixes the random choices of the weaker levels.
    pub seed: u64,
    /// Threads of a full-strength search.
    pub threads: usize,
}

impl PositionVisitor for Think<'_> {
    type Output = Result<()>;

    fn visit<R: Playable>(self, position: &Position<R>) -> Result<()> {
        let style = R::VARIANT.notation();
        let mut engine = Engine::new();
        engine.set_threads(self.threads);
        let situation = Situation::at(*position);
        let result = engine.think_as(&situation, self.level, self.limits, self.seed, &mut |p| {
            let line = pv_text(position, &p.pv, style);
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
                write_move(position, &mv, style),
                result.score,
                result.depth,
                result.nodes
            )?,
        }
        Ok(())
    }
}

/// Moves of a line in the variant's notation, each written in the position it is played from.
fn pv_text<R: Playable>(start: &Position<R>, pv: &[Move], style: SquareStyle) -> String {
    let mut pos = *start;
    let mut words = Vec::new();
    for mv in pv {
        words.push(write_move(&pos, mv, style));
        pos = pos.play(mv);
    }
    words.join(" ")
}
