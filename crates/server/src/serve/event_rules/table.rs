//! An event as text: its table and each round's pairings, what `ssh ... tournament CODE` prints and what players
//! and watchers are shown.

use std::fmt::Write;

use super::director::Director;
use super::standings::{show_half, show_quarter};
use super::{Entrant, GameResult};
use crate::serve::records::{EventKind, Stage};

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

/// An arena's length as it was set, in the largest units that say it exactly: `45 s`, `1 min 15 s`, `30 min`,
/// `1 h 30 min`, `2 h`.
pub fn length_text(seconds: u32) -> String {
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let parts: Vec<String> = [(hours, "h"), (minutes, "min"), (seconds, "s")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}"))
        .collect();
    match parts.is_empty() {
        true => "0 s".to_string(),
        false => parts.join(" "),
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
        EventKind::Arena => format!("arena of {}", length_text(spec.seconds)),
        EventKind::Swiss => format!("Swiss of {} rounds", spec.rounds),
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
        EventKind::Swiss => {
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
        EventKind::Arena => {
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

#[cfg(test)]
mod tests {
    use super::length_text;

    #[test]
    fn an_arena_s_length_is_shown_as_it_was_set() {
        let shown: Vec<String> = [45, 60, 75, 1_800, 3_600, 5_400, 3_661, 0]
            .into_iter()
            .map(length_text)
            .collect();
        assert_eq!(
            shown,
            [
                "45 s",
                "1 min",
                "1 min 15 s",
                "30 min",
                "1 h",
                "1 h 30 min",
                "1 h 1 min 1 s",
                "0 s"
            ]
        );
    }
}
