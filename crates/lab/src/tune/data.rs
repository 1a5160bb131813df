//! Positions labelled with game results: made by self-play (under any of the compiled rule sets), read from PDN
//! (English), written to and read from a file of one `FEN;result` line each, or `FEN;result;search` where the
//! self-play search's own view is kept too.

use std::fmt::Write as _;
use std::sync::Arc;

use thiserror::Error;

use crate::match_openings::{deck_under, random_openings};
use crowned_engine::egdb::Egdb;
use crowned_engine::{
    AnySituation, Engine, EngineConfig, Level, Limits, Rng, Situation, builtin_openings,
};
use crowned_game::{AnyGame, Game};
use crowned_rules::{
    Color, English, GameType, Playable, Position, RuleSet, Variant, parse_fen, to_fen,
};

/// A game still going after this many plies is scored a draw.
const MAX_PLIES: usize = 300;
/// In the first plies of a self-play game, the chance in a hundred of a random move, so that games differ.
const RANDOM_PERCENT: u64 = 10;
/// Plies at the start of a game in which random moves may be played.
const RANDOM_PLIES: usize = 20;

/// A position under the rules `R` and the result of its game for Black (the side whose score PDN writes first):
/// 1 a win, 0.5 a draw, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample<R: RuleSet = English> {
    /// The position.
    pub position: Position<R>,
    /// Black's score in the game it came from.
    pub result: f32,
    /// Black's expected share of the points by the search that chose the move played from this position
    /// ([`crowned_engine::Score::expectation`]), 0 to 1; `None` for a random move or a master game. Training can
    /// blend it into the target: a game's result says little about a position many moves before the decision,
    /// and a deep search says more.
    pub search: Option<f32>,
}

/// A samples file that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {reason}")]
pub struct SampleError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// The quiet positions of a finished game (no capture to make: a capture's score is the search's business, not
/// the evaluation's), labelled with its result; nothing for a game without one.
///
/// `searched[ply]`, where there is one, is Black's expectation by the search that chose the move at that ply.
fn samples_of<R: RuleSet>(
    game: &Game<R>,
    result: Option<Color>,
    finished: bool,
    searched: &[Option<f32>],
    out: &mut Vec<Sample<R>>,
) {
    if !finished {
        return;
    }
    let label = match result {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    for ply in 0..=game.len() {
        let Some(position) = game.position_at(ply).copied() else {
            continue;
        };
        if !position.must_capture() && !position.legal_moves().is_empty() {
            out.push(Sample {
                position,
                result: label,
                search: searched.get(ply).copied().flatten(),
            });
        }
    }
}

/// Self-play games under the rules `R` on the board of `game_type`: each starts from an opening chosen by the
/// seed (a 3-move ballot in English draughts, balanced random plies elsewhere), the full search plays both sides
/// to `depth` plies (with an occasional random move early on, so that games differ), and its quiet positions
/// are labelled with the result. Games are shared among `threads`; the samples are the same for the same seed
/// whatever the number of threads. The search probes `egdb` if there are databases. `progress` hears the
/// number of games finished.
pub fn self_play<R: Playable>(
    game_type: GameType,
    games: usize,
    depth: u32,
    seed: u64,
    threads: usize,
    egdb: Option<Arc<Egdb>>,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Sample<R>> {
    let threads = threads.clamp(1, 64);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut per_game: Vec<(usize, Vec<Sample<R>>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                let egdb = egdb.clone();
                scope.spawn(move || {
                    let mut engine = Engine::with_config(
                        EngineConfig::default()
                            .with_table_megabytes(8)
                            .with_egdb(egdb),
                    );
                    let mut out = Vec::new();
                    for g in (t..games).step_by(threads) {
                        out.push((
                            g,
                            one_game::<R>(
                                &mut engine,
                                game_type,
                                depth,
                                seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                            ),
                        ));
                        let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        progress(finished);
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    per_game.sort_by_key(|(g, _)| *g);
    per_game.into_iter().flat_map(|(_, s)| s).collect()
}

fn one_game<R: Playable>(
    engine: &mut Engine,
    game_type: GameType,
    depth: u32,
    seed: u64,
) -> Vec<Sample<R>> {
    let mut rng = Rng::new(seed);
    let mut game: Game<R> = Game::new();
    // The ballot where the rules play it, balanced random plies elsewhere (equal men, no capture pending).
    let opening = match deck_under::<R>(&builtin_openings(), game_type) {
        Some(deck) if !deck.is_empty() => deck[rng.below(deck.len())].moves.clone(),
        _ => random_openings::<R>(game_type, 1, rng.below(u32::MAX as usize) as u64)
            .into_iter()
            .next()
            .map(|opening| opening.moves)
            .unwrap_or_default(),
    };
    for mv in &opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    engine.clear();
    // Black's expectation by the search at each ply of the game (the opening's plies were not searched).
    let mut searched: Vec<Option<f32>> = vec![None; game.len()];
    while game.outcome().is_none() && game.len() < MAX_PLIES {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let random = game.len() < RANDOM_PLIES && rng.below(100) < RANDOM_PERCENT as usize;
        let mut expectation = None;
        let mv = if random {
            moves[rng.below(moves.len())]
        } else {
            let result = engine.think(
                &AnySituation::from(Situation::in_game(&game)),
                Level::Max,
                &Limits::depth(depth),
                0,
                &mut |_| {},
            );
            let for_black = match game.position().side_to_move() {
                Color::Black => result.score,
                Color::White => result.score.flipped(),
            };
            // Kept to the three decimals the file holds, so that what is written reads back the same.
            expectation = Some((for_black.expectation() * 1000.0).round() as f32 / 1000.0);
            match result.best {
                Some(mv) => mv,
                None => break,
            }
        };
        if game.play(&mv).is_err() {
            break;
        }
        searched.push(expectation);
    }
    let winner = game.outcome().and_then(|o| o.winner());
    let mut out = Vec::new();
    // A game cut off at the limit counts as a draw.
    samples_of(&game, winner, true, &searched, &mut out);
    out
}

/// The quiet positions of every finished English game in a PDN text, labelled with its result.
pub fn from_pdn(text: &str) -> Vec<Sample> {
    let mut out = Vec::new();
    let english = GameType::standard(Variant::English);
    for parsed in crowned_game::pdn::parse_games(text) {
        let Ok(game_text) = parsed else { continue };
        let (game, error): (AnyGame, _) = crowned_game::pdn::open_game(&game_text, Some(english));
        if error.is_some() || game.game_type() != english {
            continue;
        }
        let Some(outcome) = game.final_outcome() else {
            continue;
        };
        let mut english_game: Game<English> = Game::new();
        let mut replayed = true;
        for ply in 0..game.len() {
            let Some(mv) = game.moves().get(ply) else {
                break;
            };
            if english_game.play(mv).is_err() {
                replayed = false;
                break;
            }
        }
        if replayed && !game.is_set_up() {
            samples_of(&english_game, outcome.winner(), true, &[], &mut out);
        }
    }
    out
}

/// The samples as text: one `FEN;result` line each, `FEN;result;search` for a sample with the search's
/// expectation (written to three decimals).
pub fn write_samples<R: RuleSet>(samples: &[Sample<R>]) -> String {
    let mut text = String::with_capacity(samples.len() * 54);
    for s in samples {
        let _ = write!(text, "{};{}", to_fen(&s.position), s.result);
        if let Some(search) = s.search {
            let _ = write!(text, ";{search:.3}");
        }
        text.push('\n');
    }
    text
}

/// Reads what [`write_samples`] wrote (the search's expectation to the three decimals it was written with);
/// blank lines are skipped, anything else wrong is refused with its line.
pub fn read_samples<R: RuleSet>(text: &str) -> Result<Vec<Sample<R>>, SampleError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let error = |reason: String| SampleError {
            line: i + 1,
            reason,
        };
        let mut fields = line.split(';');
        let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
            return Err(error("expected FEN;result or FEN;result;search".into()));
        };
        let search = match fields.next() {
            None => None,
            Some(text) => Some(
                text.trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|e| (0.0..=1.0).contains(e))
                    .ok_or_else(|| {
                        error(format!(
                            "the search's expectation is from 0 to 1, not {text:?}"
                        ))
                    })?,
            ),
        };
        if fields.next().is_some() {
            return Err(error("expected FEN;result or FEN;result;search".into()));
        }
        let position = parse_fen(fen).map_err(|e| error(e.to_string()))?;
        let result: f32 = result
            .trim()
            .parse()
            .ok()
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .ok_or_else(|| error(format!("the result is 0, 0.5 or 1, not {result:?}")))?;
        out.push(Sample {
            position,
            result,
            search,
        });
    }
    Ok(out)
}

/// English self-play without databases or progress, for the tests of what is made of its samples.
#[cfg(test)]
pub(super) fn english(games: usize, depth: u32, seed: u64, threads: usize) -> Vec<Sample> {
    let english = GameType::standard(Variant::English);
    self_play::<English>(english, games, depth, seed, threads, None, &|_| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::International;

    #[test]
    fn self_play_under_other_rules_starts_from_balanced_openings_and_reads_back() {
        let international = GameType::standard(Variant::International);
        let play = |seed, threads| {
            self_play::<International>(international, 2, 2, seed, threads, None, &|_| {})
        };
        let samples = play(5, 1);
        assert_eq!(samples, play(5, 2), "the same seed, whatever the threads");
        assert_ne!(samples, play(6, 1));
        assert!(samples.len() > 40, "{}", samples.len());
        assert!(samples.iter().all(|s| !s.position.must_capture()));
        // Each game's positions begin at the start; the two games went different ways from it.
        let start = Position::<International>::start();
        let firsts: Vec<usize> = (0..samples.len())
            .filter(|&i| samples[i].position == start)
            .collect();
        assert_eq!(firsts.len(), 2, "{firsts:?}");
        assert_ne!(samples[1].position, samples[firsts[1] + 1].position);
        let text = write_samples(&samples);
        assert!(text.starts_with('W') || text.starts_with('B'), "{text}");
        assert_eq!(read_samples::<International>(&text), Ok(samples));
        assert!(
            read_samples::<English>(&text).is_err(),
            "10x10 squares are not English ones"
        );
    }

    #[test]
    fn self_play_is_reproducible_and_labelled() {
        let one = english(3, 2, 7, 1);
        let two = english(3, 2, 7, 2);
        assert_eq!(
            one, two,
            "the same seed gives the same samples whatever the threads"
        );
        assert!(one.len() > 30, "{}", one.len());
        assert!(one.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
        assert!(one.iter().all(|s| !s.position.must_capture()));
        assert_ne!(english(3, 2, 8, 1), one);
    }

    #[test]
    fn self_play_keeps_the_search_view_of_searched_positions() {
        let samples = english(4, 4, 3, 1);
        let searched = samples.iter().filter(|s| s.search.is_some()).count();
        // Most positions come from a searched move; the opening's and the random moves' do not.
        assert!(
            searched * 10 > samples.len() * 7,
            "{searched} of {}",
            samples.len()
        );
        assert!(searched < samples.len());
        assert!(
            samples
                .iter()
                .filter_map(|s| s.search)
                .all(|e| (0.0..=1.0).contains(&e))
        );
        // Black's point of view: in a game Black won, the last searched view favours Black.
        for game in samples.chunk_by(|a, b| a.result == b.result) {
            if let Some(last) = game.iter().rev().find_map(|s| s.search)
                && game[0].result != 0.5
            {
                assert_eq!(
                    last > 0.5,
                    game[0].result == 1.0,
                    "{last} in a game scored {}",
                    game[0].result
                );
            }
        }
    }

    #[test]
    fn samples_are_written_and_read_back() {
        let samples = english(1, 2, 1, 1);
        assert!(samples.iter().any(|s| s.search.is_some()));
        let text = write_samples(&samples);
        assert_eq!(read_samples::<English>(&text), Ok(samples));
        let old = read_samples::<English>("B:W21-32:B1-12;1\nB:W21-32:B1-12;0.5;0.25\n")
            .map(|s| s.iter().map(|s| s.search).collect::<Vec<_>>());
        assert_eq!(old, Ok(vec![None, Some(0.25)]));
        for (bad, line) in [
            ("B:W21-32:B1-12;1\nnonsense", 2),
            ("B:W21-32:B1-12;2", 1),
            ("B:W21-32:B1-12", 1),
            ("\n\nX:Wzz;1", 3),
            ("B:W21-32:B1-12;1;1.5", 1),
            ("B:W21-32:B1-12;1;x", 1),
            ("B:W21-32:B1-12;1;0.5;0.5", 1),
            ("B:W21-32:B1-12;1;", 1),
        ] {
            assert_eq!(
                read_samples::<English>(bad).map_err(|e| e.line),
                Err(line),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn master_games_are_read_with_their_results() {
        let pdn = "[Result \"1-0\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n[Result \"*\"]\n1. 11-15 *\n\n\
                   [Result \"0-1\"]\n1. 11-15 99-98 0-1\n";
        let samples = from_pdn(pdn);
        // Only the first game: the second is unfinished, the third does not replay.
        assert_eq!(samples.len(), 5);
        assert!(samples.iter().all(|s| s.result == 1.0));
    }
}
