//! `crowned show`: print a position, its FEN and its legal moves, for scripts and for a look without the
//! full-screen game.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use crowned::rules::{
    Playable, Position, PositionVisitor, RuleSet, SquareStyle, to_fen, write_move,
};

use super::BoardOptions;

/// `crowned show`: the position of the command line, under its rules.
pub fn run(board: &BoardOptions) -> Result<ExitCode> {
    board.position()?.visit(Show)?;
    Ok(ExitCode::SUCCESS)
}

/// `crowned show` under the rules of the position.
struct Show;

impl PositionVisitor for Show {
    type Output = Result<()>;
    fn visit<R: Playable>(self, position: &Position<R>) -> Result<()> {
        show(position)
    }

    fn defined(self, board: &crowned::rules::defined::DefinedBoard) -> Result<()> {
        let mut out = io::stdout().lock();
        write!(out, "{board}")?;
        writeln!(out, "FEN {}", crowned::rules::defined::to_fen(board))?;
        let texts: Vec<String> = board
            .legal_moves()
            .iter()
            .map(|m| board.write_move(m))
            .collect();
        if texts.is_empty() {
            writeln!(out, "{} has no legal move.", board.side_to_move())?;
        } else {
            writeln!(out, "Legal moves: {}", texts.join(" "))?;
        }
        Ok(())
    }
}

/// Prints the position, its FEN and its legal moves.
pub fn show<R: RuleSet>(position: &Position<R>) -> Result<()> {
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
    Ok(())
}
