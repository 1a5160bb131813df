//! `crowned show`: print a position, its FEN and its legal moves, for scripts and for a look without the
//! full-screen game.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use crowned::rules::{GamePosition, SquareStyle};

use super::BoardOptions;

/// `crowned show`: the position of the command line, under its rules.
pub fn run(board: &BoardOptions) -> Result<ExitCode> {
    show(&board.position()?)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the position, its FEN and its legal moves, under any rules.
pub fn show<P: GamePosition + std::fmt::Display>(position: &P) -> Result<()> {
    let mut out = io::stdout().lock();
    // A defined board's diagram ends its own last line; a built-in one's does not.
    writeln!(out, "{}", position.to_string().trim_end())?;
    writeln!(out, "FEN {}", position.to_fen())?;
    let moves = position.legal_moves();
    if moves.is_empty() {
        let side = position.side_to_move();
        let verdict = if position.winner_without_moves() == side {
            "wins"
        } else {
            "loses"
        };
        writeln!(out, "{side} has no legal move and {verdict}.")?;
    } else {
        let texts: Vec<String> = moves
            .iter()
            .map(|m| position.write_move(m, SquareStyle::Numbers))
            .collect();
        writeln!(out, "Legal moves: {}", texts.join(" "))?;
    }
    Ok(())
}
