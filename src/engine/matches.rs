//! Engine against engine: two levels play every opening of a deck with both colours.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::openings::Opening;
use super::{Engine, Level, Limits, Situation};
use crate::game::{DrawReason, Game, Outcome};
use crate::rules::{Color, English, MoveText, Position, Strictness};

/// A game longer than this many plies is adjudicated a draw. The 40-move rule ends real games long before.
pub const MAX_PLIES: usize = 600;

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first player's level.
    pub a: Level,
    /// The second player's level.
    pub b: Level,
    /// Time per move for both.
    pub time: Duration,
    /// The openings, each played twice with colours swapped.
    pub openings: Vec<Opening>,
    /// Stop after this many games (the whole deck twice when `None`).
    pub games: Option<usize>,
    /// Fixes every random choice of the weaker levels.
    pub seed: u64,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// 1-based number of the game in the match.
    pub number: usize,
    /// The opening's name.
    pub opening: String,
    /// The colour the first player had.
    pub a_color: Color,
    /// The game, with its tags.
    pub game: Game,
    /// How it ended.
    pub outcome: Outcome,
}

impl MatchGame {
    /// 1 if the first player won, -1 if it lost, 0 for a draw.
    pub fn a_points(&self) -> i32 {
        match self.outcome.winner() {
            Some(c) if c == self.a_color => 1,
            Some(_) => -1,
            None => 0,
        }
    }
}

/// The tally of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games the first player won.
    pub a_wins: usize,
    /// Games the second player won.
    pub b_wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Whether the match ended before its last game: the stop flag was raised or `on_game` asked to stop. A
    /// game cut short by the stop flag is not counted.
    pub stopped: bool,
}

impl MatchResult {
    /// Games played to the end.
    pub fn games(&self) -> usize {
        self.a_wins + self.b_wins + self.draws
    }
}

/// Plays the match, telling `on_game` about each game as it ends (after it is counted in the result).
///
/// Raising `stop` (from a signal handler or another thread) ends the match promptly: a search in progress stops,
/// the unfinished game is dropped, and the result counts the finished games. `on_game` returning
/// [`ControlFlow::Break`] ends the match after that game, for example when it could not be saved.
pub fn play_match(
    config: &MatchConfig,
    stop: &Arc<AtomicBool>,
    on_game: &mut dyn FnMut(&MatchGame, &MatchResult) -> ControlFlow<()>,
) -> MatchResult {
    let mut result = MatchResult::default();
    let mut engine_a = Engine::with_stop_flag(Arc::clone(stop));
    let mut engine_b = Engine::with_stop_flag(Arc::clone(stop));
    let total = config.games.unwrap_or(config.openings.len() * 2);
    let pairs = config
        .openings
        .iter()
        .flat_map(|o| [(o, Color::Black), (o, Color::White)]);
    for (index, (opening, a_color)) in pairs.take(total).enumerate() {
        let number = index + 1;
        let mut game = start_game(opening);
        engine_a.clear();
        engine_b.clear();
        while game.outcome().is_none() && game.len() < MAX_PLIES {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let side = game.position().side_to_move();
            let (engine, level) = if side == a_color {
                (&mut engine_a, config.a)
            } else {
                (&mut engine_b, config.b)
            };
            let seed = config.seed ^ (number as u64) << 32 ^ game.len() as u64;
            let situation = Situation::of_game(&game);
            let choice = engine.think(
                &situation,
                level,
                &Limits::time(config.time),
                seed,
                &mut |_| {},
            );
            // A search cut short by the stop flag may not have found the best move: the game is dropped.
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(mv) = choice.best else { break };
            if game.play(&mv).is_err() {
                break;
            }
        }
        if stop.load(Ordering::Relaxed) {
            result.stopped = true;
            return result;
        }
        let outcome = game.outcome().unwrap_or(Outcome::Draw {
            reason: DrawReason::Adjudicated,
        });
        if game.outcome().is_none() {
            let _ = game.declare(outcome);
        }
        let (black, white) = if a_color == Color::Black {
            (config.a, config.b)
        } else {
            (config.b, config.a)
        };
        let tags = game.tags_mut();
        tags.set(
            "Event",
            &format!("crowned match: {} against {}", config.a, config.b),
        );
        tags.set("Round", &number.to_string());
        tags.set("Black", &format!("crowned {black}"));
        tags.set("White", &format!("crowned {white}"));
        tags.set("Opening", &opening.name);
        let played = MatchGame {
            number,
            opening: opening.name.clone(),
            a_color,
            game,
            outcome,
        };
        match played.a_points() {
            1 => result.a_wins += 1,
            -1 => result.b_wins += 1,
            _ => result.draws += 1,
        }
        if on_game(&played, &result).is_break() {
            result.stopped = number < total;
            return result;
        }
    }
    result
}

/// A game that starts with the opening's moves (or from its position when it has none).
fn start_game(opening: &Opening) -> Game {
    let mut game: Game = Game::new();
    for text in &opening.moves {
        let found = MoveText::parse(text, Position::<English>::GEOMETRY)
            .and_then(|t| t.find(game.position(), Strictness::Squares));
        match found {
            Ok(mv) if game.play(&mv).is_ok() => {}
            _ => return Game::from_position(opening.position),
        }
    }
    if *game.position() != opening.position {
        return Game::from_position(opening.position);
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin_openings;

    #[test]
    fn a_short_match_between_random_players_adds_up() {
        let config = MatchConfig {
            a: Level::Random,
            b: Level::Random,
            time: Duration::from_millis(5),
            openings: builtin_openings().into_iter().take(2).collect(),
            games: Some(3),
            seed: 1,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut seen = Vec::new();
        let result = play_match(&config, &stop, &mut |g, so_far| {
            seen.push((g.number, g.a_color, g.game.len()));
            assert_eq!(so_far.games(), g.number);
            ControlFlow::Continue(())
        });
        assert_eq!(result.games(), 3);
        assert!(!result.stopped);
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0].1, Color::Black);
        assert_eq!(seen[1].1, Color::White);
        assert!(seen.iter().all(|(_, _, plies)| *plies >= 3));
        // The same seed plays the same games.
        let again = play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(()));
        assert_eq!(again, result);
    }

    #[test]
    fn a_match_stops_when_asked() {
        let config = MatchConfig {
            a: Level::Random,
            b: Level::Random,
            time: Duration::from_millis(5),
            openings: builtin_openings().into_iter().take(2).collect(),
            games: None,
            seed: 1,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let result = play_match(&config, &stop, &mut |_, _| ControlFlow::Break(()));
        assert_eq!(result.games(), 1);
        assert!(result.stopped);
        // A raised flag stops before any game is finished.
        stop.store(true, Ordering::Relaxed);
        let mut calls = 0;
        let result = play_match(&config, &stop, &mut |_, _| {
            calls += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((result.games(), calls), (0, 0));
        assert!(result.stopped);
    }
}
