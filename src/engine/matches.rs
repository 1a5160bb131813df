//! Engine against engine: two levels play every opening of a deck with both colours.

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
}

/// Plays the match, telling `on_game` about each game as it ends.
pub fn play_match(config: &MatchConfig, on_game: &mut dyn FnMut(&MatchGame)) -> MatchResult {
    let mut result = MatchResult::default();
    let mut engine_a = Engine::new();
    let mut engine_b = Engine::new();
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
            let Some(mv) = choice.best else { break };
            if game.play(&mv).is_err() {
                break;
            }
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
        on_game(&played);
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
        let mut seen = Vec::new();
        let result = play_match(&config, &mut |g| {
            seen.push((g.number, g.a_color, g.game.len()))
        });
        assert_eq!(result.a_wins + result.b_wins + result.draws, 3);
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0].1, Color::Black);
        assert_eq!(seen[1].1, Color::White);
        assert!(seen.iter().all(|(_, _, plies)| *plies >= 3));
        // The same seed plays the same games.
        let again = play_match(&config, &mut |_| {});
        assert_eq!(again, result);
    }
}
