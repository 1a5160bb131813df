//! `crowned` with no command, until the full-screen game exists: print the position and its moves.

use std::io::{self, Write};

use anyhow::Result;
use crowned::rules::{Position, SquareStyle, to_fen, write_move};

/// Until the full-screen game exists: print the position and its legal moves.
pub fn show(position: &Position) -> Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{position}")?;
    writeln!(out, "FEN {}", to_fen(position))?;
    let moves = position.legal_moves();
    if moves.is_empty() {
        writeln!(
            out,
            "{} has no legal move and loses.",
            position.side_to_move()
        )?;
    } else {
        let texts: Vec<String> = moves
            .iter()
            .map(|m| write_move(position, m, SquareStyle::Numbers))
            .collect();
        writeln!(out, "Legal moves: {}", texts.join(" "))?;
    }
    writeln!(
        out,
        "(The full-screen game is not built yet; this prints the position. See `crowned --help`.)"
    )?;
    Ok(())
}
