//! An event as text: its table and each round's pairings, what `ssh ... tournament CODE` prints and what players
//! and watchers are shown.

use std::fmt::Write;

use super::director::Director;
use super::standings::{show_half, show_quarter};
use super::{Entrant, GameResult};
use crate::serve::records::{Kind, Stage};

/// The longest name shown in a table (longer ones are cut: a line stays within a terminal).
const NAME: usize = 16;

fn name(director: &Director, entrant: Entrant) -> String {
    director
        .name(entrant)
        .unwrap_or("?")
        .chars()
        .take(NAME)
        .collect()
}

fn result_text(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::FirstWins) => "1-0",
        Some(GameResult::SecondWins) => "0-1",
        Some(GameResult::Draw) => "½-½",
        None => "...",
    }
}

/// The event's heading, table and pairings, one line each, ending with a newline.
pub fn render(director: &Director) -> String {
    let spec = director.spec();
    let mut out = String::new();
    let stage = match director.stage() {
        Stage::Waiting => "not started",
        Stage::Running => "under way",
        Stage::Finished => "finished",
    };
    let kind = match spec.kind {
        Kind::Arena => format!("arena of {} min", spec.seconds.div_ceil(60)),
        Kind::Swiss => format!("Swiss of {} rounds", spec.rounds),
    };
    let _ = writeln!(
        out,
        "{} ({}): {kind}, {} {}, {}, {stage}",
        spec.name,
        spec.code,
        spec.variant,
        spec.clock,
        if spec.rated { "rated" } else { "casual" }
    );
    match spec.kind {
        Kind::Swiss => {
            let _ = writeln!(
                out,
                "{:>3}  {:<NAME$} {:>5} {:>6} {:>6}",
                "#", "name", "pts", "Buch", "SB"
            );
            for (place, line) in director.swiss_table().iter().enumerate() {
                let _ = writeln!(
                    out,
                    "{:>3}  {:<NAME$} {:>5} {:>6} {:>6}",
                    place + 1,
                    name(director, line.entrant),
                    show_half(line.points),
                    show_half(line.buchholz),
                    show_quarter(line.sonneborn_berger)
                );
            }
            for (i, round) in director.rounds().iter().enumerate() {
                let _ = writeln!(out, "Round {}", i + 1);
                for (board, b) in round.boards.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "{:>3}. {:<NAME$} {:^5} {}",
                        board + 1,
                        name(director, b.pairing.first),
                        result_text(b.result),
                        name(director, b.pairing.second)
                    );
                }
                if let Some(bye) = round.bye {
                    let _ = writeln!(out, "     {:<NAME$} bye", name(director, bye));
                }
            }
        }
        Kind::Arena => {
            let _ = writeln!(
                out,
                "{:>3}  {:<NAME$} {:>5} {:>7}",
                "#", "name", "pts", "W-D-L"
            );
            for (place, p) in director.arena_table().iter().enumerate() {
                let fire = if p.on_fire() { " (on fire)" } else { "" };
                let _ = writeln!(
                    out,
                    "{:>3}  {:<NAME$} {:>5} {:>7}{fire}",
                    place + 1,
                    name(director, p.entrant),
                    p.points,
                    format!("{}-{}-{}", p.won, p.drawn, p.lost)
                );
            }
            let playing: Vec<_> = director
                .pairings()
                .iter()
                .filter(|p| p.result.is_none())
                .collect();
            if !playing.is_empty() {
                let _ = writeln!(out, "Playing");
                for p in playing {
                    let _ = writeln!(
                        out,
                        "     {:<NAME$} - {}",
                        name(director, p.pairing.first),
                        name(director, p.pairing.second)
                    );
                }
            }
        }
    }
    out
}
