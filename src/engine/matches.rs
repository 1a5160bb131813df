//! Engine against engine: two levels play every opening of a deck with both colours.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::match_openings::{MatchOpening, deck_under, random_openings, start_of};
use super::openings::Opening;
use super::{AnySituation, Engine, Level, Limits};
use crate::game::{AnyGame, DrawReason, Outcome};
use crate::rules::{Color, GameType, Playable, RulesVisitor, Variant};

/// A game longer than this many plies is adjudicated a draw. The draw rules end real games long before.
pub const MAX_PLIES: usize = 600;

/// Random openings a match of a variant without a deck plays when it is not told how many games: each is
/// played twice, so this makes a match of a hundred games.
pub const DEFAULT_RANDOM_OPENINGS: usize = 50;

/// Where the games of a match start.
#[derive(Clone, Debug)]
pub enum MatchOpenings {
    /// These openings of English draughts (the 3-move ballot deck by default), in order.
    Deck(Vec<Opening>),
    /// Short random openings under the match's rules, drawn from its seed (see
    /// [`random_openings`](super::match_openings::random_openings)).
    Random,
}

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The rules and board of every game.
    pub game_type: GameType,
    /// The first player's level.
    pub a: Level,
    /// The second player's level.
    pub b: Level,
    /// Time per move for both.
    pub time: Duration,
    /// The openings, each played twice with colours swapped.
    pub openings: MatchOpenings,
    /// Stop after this many games (the whole deck twice, or [`DEFAULT_RANDOM_OPENINGS`] twice, when `None`).
    pub games: Option<usize>,
    /// Fixes the random openings and every random choice of the weaker levels.
    pub seed: u64,
}

impl MatchConfig {
    /// How many games the match plays if it is not stopped.
    pub fn total_games(&self) -> usize {
        match &self.openings {
            MatchOpenings::Deck(deck) => self.games.unwrap_or(usize::MAX).min(deck.len() * 2),
            MatchOpenings::Random => self.games.unwrap_or(DEFAULT_RANDOM_OPENINGS * 2),
        }
    }
}

/// Why a match cannot be played.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum MatchError {
    /// A deck of openings for a game type it does not belong to.
    #[error(
        "the openings deck is English draughts from the standard start; {0} matches start from random openings"
    )]
    DeckDoesNotFit(GameType),
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
    pub game: AnyGame,
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

/// How one player used its time over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeUse {
    /// Moves it searched, with a choice of moves (a forced move is played at once and counted apart).
    pub moves: usize,
    /// Forced moves: the only legal move, played without a search.
    pub forced: usize,
    /// Time it took for them, in all.
    pub total: Duration,
    /// The longest it took for one.
    pub longest: Duration,
}

impl TimeUse {
    fn add(&mut self, took: Duration) {
        self.moves += 1;
        self.total += took;
        self.longest = self.longest.max(took);
    }

    /// The time per move on average (zero before any move).
    pub fn average(&self) -> Duration {
        match u32::try_from(self.moves) {
            Ok(0) | Err(_) => Duration::ZERO,
            Ok(moves) => self.total / moves,
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
    /// How the first and the second player used their time, in the games counted.
    pub time_use: [TimeUse; 2],
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
) -> Result<MatchResult, MatchError> {
    config.game_type.visit(Run {
        config,
        stop,
        on_game,
    })
}

/// [`play_match`] under the rules of the match.
struct Run<'a> {
    config: &'a MatchConfig,
    stop: &'a Arc<AtomicBool>,
    on_game: &'a mut dyn FnMut(&MatchGame, &MatchResult) -> ControlFlow<()>,
}

impl RulesVisitor for Run<'_> {
    type Output = Result<MatchResult, MatchError>;

    fn visit<R: Playable>(self) -> Self::Output {
        let Run {
            config,
            stop,
            on_game,
        } = self;
        let total = config.total_games();
        let openings: Vec<MatchOpening<R>> = match &config.openings {
            MatchOpenings::Deck(deck) => deck_under(deck, config.game_type)
                .ok_or(MatchError::DeckDoesNotFit(config.game_type))?,
            MatchOpenings::Random => {
                random_openings(config.game_type, total.div_ceil(2), config.seed)
            }
        };
        let mut result = MatchResult::default();
        let mut engines = [
            Engine::with_stop_flag(Arc::clone(stop)),
            Engine::with_stop_flag(Arc::clone(stop)),
        ];
        let pairs = openings
            .iter()
            .flat_map(|o| [(o, Color::Black), (o, Color::White)]);
        for (index, (opening, a_color)) in pairs.take(total).enumerate() {
            let number = index + 1;
            let mut time_use = result.time_use;
            let Some(mut game) = play_game(
                config,
                opening,
                a_color,
                number,
                &mut engines,
                stop,
                &mut time_use,
            ) else {
                result.stopped = true;
                return Ok(result);
            };
            result.time_use = time_use;
            let outcome = game.outcome().unwrap_or(Outcome::Draw {
                reason: DrawReason::Adjudicated,
            });
            if game.outcome().is_none() {
                let _ = game.declare(outcome);
            }
            tag(&mut game, config, a_color, number, &opening.name);
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
                return Ok(result);
            }
        }
        Ok(result)
    }
}

/// One game from `opening`, the first player (`engines[0]`) with `a_color`; `None` if the stop flag ended it.
///
/// The game is kept as an [`AnyGame`] (what the match reports); each search passes to the engine's code for
/// `R` once per move, which costs nothing beside the search.
fn play_game<R: Playable>(
    config: &MatchConfig,
    opening: &MatchOpening<R>,
    a_color: Color,
    number: usize,
    engines: &mut [Engine; 2],
    stop: &AtomicBool,
    time_use: &mut [TimeUse; 2],
) -> Option<AnyGame> {
    let mut game = AnyGame::from_position(R::wrap(start_of::<R>(config.game_type)));
    for mv in &opening.moves {
        // The opening's moves were found legal in these very positions.
        let _ = game.play(mv);
    }
    for engine in engines.iter_mut() {
        engine.clear();
    }
    while game.outcome().is_none() && game.len() < MAX_PLIES {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.position().side_to_move();
        let player = usize::from(side != a_color);
        let level = [config.a, config.b][player];
        let seed = config.seed ^ (number as u64) << 32 ^ game.len() as u64;
        let forced = game.position().legal_moves().len() == 1;
        let asked = Instant::now();
        let choice = engines[player].think_situation(
            &AnySituation::of_game(&game),
            level,
            &Limits::time(config.time),
            seed,
            &mut |_| {},
        );
        match forced {
            true => time_use[player].forced += 1,
            false => time_use[player].add(asked.elapsed()),
        }
        // A search cut short by the stop flag may not have found the best move: the game is dropped.
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let Some(mv) = choice.best else { break };
        if game.play(&mv).is_err() {
            break;
        }
    }
    (!stop.load(Ordering::Relaxed)).then_some(game)
}

/// The tags of a match game: event, round, players and opening (the game type is written with the game).
fn tag(game: &mut AnyGame, config: &MatchConfig, a_color: Color, number: usize, opening: &str) {
    let (black, white) = if a_color == Color::Black {
        (config.a, config.b)
    } else {
        (config.b, config.a)
    };
    let rules = match config.game_type.variant {
        Variant::English if config.game_type.is_standard() => String::new(),
        _ => format!(" ({})", config.game_type),
    };
    let tags = game.tags_mut();
    tags.set(
        "Event",
        &format!("crowned match{rules}: {} against {}", config.a, config.b),
    );
    tags.set("Round", &number.to_string());
    tags.set("Black", &format!("crowned {black}"));
    tags.set("White", &format!("crowned {white}"));
    tags.set("Opening", opening);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin_openings;

    #[test]
    fn a_short_match_between_random_players_adds_up() {
        let config = MatchConfig {
            game_type: GameType::standard(Variant::English),
            a: Level::Random,
            b: Level::Random,
            time: Duration::from_millis(5),
            openings: MatchOpenings::Deck(builtin_openings().into_iter().take(2).collect()),
            games: Some(3),
            seed: 1,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut seen = Vec::new();
        let result = play_match(&config, &stop, &mut |g, so_far| {
            seen.push((g.number, g.a_color, g.game.len()));
            assert_eq!(so_far.games(), g.number);
            ControlFlow::Continue(())
        })
        .expect("the deck is English");
        assert_eq!(result.games(), 3);
        assert!(!result.stopped);
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0].1, Color::Black);
        assert_eq!(seen[1].1, Color::White);
        assert!(seen.iter().all(|(_, _, plies)| *plies >= 3));
        // The same seed plays the same games.
        let again =
            play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(())).expect("plays");
        let tally = |r: &MatchResult| {
            let moves = r.time_use.map(|t| (t.moves, t.forced));
            (r.a_wins, r.b_wins, r.draws, moves)
        };
        assert_eq!(tally(&again), tally(&result));
        // Every move is counted, searched or forced, and no search took longer than the longest.
        let searched: usize = result.time_use.iter().map(|t| t.moves + t.forced).sum();
        let opening_plies: usize = seen.iter().map(|_| 3).sum();
        let played: usize = seen.iter().map(|(_, _, plies)| plies).sum();
        assert_eq!(searched, played - opening_plies);
        for used in result.time_use {
            assert!(used.average() <= used.longest);
        }
    }

    #[test]
    fn a_match_stops_when_asked() {
        let config = MatchConfig {
            game_type: GameType::standard(Variant::English),
            a: Level::Random,
            b: Level::Random,
            time: Duration::from_millis(5),
            openings: MatchOpenings::Deck(builtin_openings().into_iter().take(2).collect()),
            games: None,
            seed: 1,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let result = play_match(&config, &stop, &mut |_, _| ControlFlow::Break(())).expect("plays");
        assert_eq!(result.games(), 1);
        assert!(result.stopped);
        // A raised flag stops before any game is finished.
        stop.store(true, Ordering::Relaxed);
        let mut calls = 0;
        let result = play_match(&config, &stop, &mut |_, _| {
            calls += 1;
            ControlFlow::Continue(())
        })
        .expect("plays");
        assert_eq!((result.games(), calls), (0, 0));
        assert!(result.stopped);
    }

    fn quick(game_type: GameType, openings: MatchOpenings, games: usize) -> MatchConfig {
        MatchConfig {
            game_type,
            a: Level::Easy,
            b: Level::Random,
            time: Duration::from_millis(5),
            openings,
            games: Some(games),
            seed: 3,
        }
    }

    #[test]
    fn every_game_type_plays_a_match_from_random_openings() {
        let mut types: Vec<GameType> = Variant::ALL.into_iter().map(GameType::standard).collect();
        types.push(GameType::new(Variant::English, Some(10), None).expect("valid"));
        let stop = Arc::new(AtomicBool::new(false));
        for game_type in types {
            let config = quick(game_type, MatchOpenings::Random, 2);
            let mut games = Vec::new();
            let result = play_match(&config, &stop, &mut |g, _| {
                games.push(g.clone());
                ControlFlow::Continue(())
            })
            .expect("random openings fit every game type");
            assert_eq!(result.games(), 2, "{game_type}");
            // One opening, once with each colour, kept in the game under the match's rules.
            assert_eq!(games[0].opening, games[1].opening);
            assert_eq!(
                (games[0].a_color, games[1].a_color),
                (Color::Black, Color::White)
            );
            for g in &games {
                assert_eq!(g.game.game_type(), game_type);
                assert_eq!(g.game.final_outcome(), Some(g.outcome));
                assert_eq!(g.game.tags().get("Opening"), Some(g.opening.as_str()));
                let texts = crate::game::pdn::parse_games(&g.game.to_pdn());
                let [Ok(text)] = texts.as_slice() else {
                    panic!("one game expected: {texts:?}");
                };
                // Without a default: the GameType tag alone says the rules.
                let (read, error) = crate::game::pdn::open_game(text, None);
                assert_eq!(error, None);
                assert_eq!(read.game_type(), game_type);
                assert_eq!(read.moves(), g.game.moves());
            }
        }
    }

    #[test]
    fn the_english_deck_is_refused_for_another_game_type() {
        let international = GameType::standard(Variant::International);
        let config = quick(international, MatchOpenings::Deck(builtin_openings()), 2);
        let stop = Arc::new(AtomicBool::new(false));
        let refused = play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(()));
        assert_eq!(refused, Err(MatchError::DeckDoesNotFit(international)));
        assert_eq!(config.total_games(), 2);
        let all = MatchConfig {
            games: None,
            ..config
        };
        assert_eq!(all.total_games(), builtin_openings().len() * 2);
        let random = MatchConfig {
            openings: MatchOpenings::Random,
            ..all
        };
        assert_eq!(random.total_games(), DEFAULT_RANDOM_OPENINGS * 2);
    }
}
