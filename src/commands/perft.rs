//! `crowned perft`: count the leaves of the legal-move tree.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::Result;
use crowned::rules::{
    Duplicates, English, Move, Position, SquareStyle, divide, full_route, perft_by_depth,
    write_move,
};

pub fn run_perft(
    position: &Position,
    depth: u32,
    split: bool,
    duplicates: Duplicates,
) -> Result<()> {
    let mut out = io::stdout().lock();
    let started = Instant::now();
    let counts = perft_by_depth(position, depth, duplicates);
    let seconds = started.elapsed().as_secs_f64();
    for (d, nodes) in (1..).zip(&counts) {
        writeln!(out, "perft {d} {nodes}")?;
    }
    out.flush()?;
    let leaves = counts.last().copied().unwrap_or(1);
    eprintln!(
        "{seconds:.3} s, {:.1} M leaves/s at depth {depth} (every depth from one walk of the tree)",
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
    if split {
        let moves = divide(position, depth, duplicates);
        let all: Vec<Move> = moves.iter().map(|(m, _)| *m).collect();
        for (m, count) in &moves {
            writeln!(out, "{} {count}", root_move_text(position, m, &all))?;
        }
    }
    Ok(())
}

/// The shortest text that tells `m` apart from the other listed moves (which may include several routes with
/// the same effect).
fn root_move_text(position: &Position, m: &Move, listed: &[Move]) -> String {
    let clash = listed
        .iter()
        .any(|o| o != m && o.from() == m.from() && o.to() == m.to());
    if clash {
        full_route(m, SquareStyle::Numbers, Position::<English>::GEOMETRY)
    } else {
        write_move(position, m, SquareStyle::Numbers)
    }
}
