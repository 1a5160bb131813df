//! Engine against engine: two players (crowned's levels, or other engines through the Hub protocol) play every
//! opening of a deck with both colours, for a number of games or until a sequential test decides.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use super::contenders::{Contender, MatchError};
use super::hub_client::PonderTally;
use super::match_openings::{deck_openings, openings};
use super::match_seats::Seat;
use super::sprt::{Pairs, Sprt, SprtVerdict};
use crowned_engine::{EngineConfig, Limits, Opening, TimeLeft};
use crowned_game::{AnyGame, DrawReason, Outcome, WinReason};
use crowned_rules::{AnyPosition, Color, GameType, Variant};

/// A game longer than this many plies is adjudicated a draw. The draw rules end real games long before.
pub const MAX_PLIES: usize = 600;

/// Random openings a match of a variant without a deck plays when it is not told how many games: each is
/// played twice, so this makes a match of a hundred games.
pub const DEFAULT_RANDOM_OPENINGS: usize = 50;

/// The most games a match decided by an SPRT plays when it is not told how many: the deck is played again
/// and again until the test decides or this many games are played.
pub const SPRT_MAX_GAMES: usize = 20_000;

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
    /// The first player.
    pub a: Contender,
    /// The second player.
    pub b: Contender,
    /// Time per move for both (when there is no clock).
    pub time: Duration,
    /// A game clock for each side instead: the initial time and the increment, added before each move (as the
    /// Hub protocol counts it). A side whose time runs out loses.
    pub clock: Option<(Duration, Duration)>,
    /// The openings, each played twice with colours swapped.
    pub openings: MatchOpenings,
    /// Stop after this many games (the whole deck twice, or [`DEFAULT_RANDOM_OPENINGS`] twice, when `None`).
    pub games: Option<usize>,
    /// Fixes the random openings and every random choice of the weaker levels.
    pub seed: u64,
    /// Stop when this test decides (the openings are then played again as often as needed, up to `games` or
    /// [`SPRT_MAX_GAMES`]).
    pub sprt: Option<Sprt>,
    /// Which players (the first, the second) think on the opponent's time: external engines only, told `go
    /// ponder` on the reply they expect after each of their moves. Pondering takes a core of its own while
    /// the opponent thinks: on a machine without a free core for it, it takes the opponent's time.
    pub ponder: [bool; 2],
    /// How the program's own players' engines are set up (the databases, the evaluation, the search
    /// parameters; the table and threads as for one game unless told otherwise).
    pub engine: EngineConfig,
}

impl MatchConfig {
    /// How many games the match plays if it is not stopped.
    pub fn total_games(&self) -> usize {
        if self.sprt.is_some() {
            return self.games.unwrap_or(SPRT_MAX_GAMES);
        }
        match &self.openings {
            MatchOpenings::Deck(deck) => self.games.unwrap_or(usize::MAX).min(deck.len() * 2),
            MatchOpenings::Random => self.games.unwrap_or(DEFAULT_RANDOM_OPENINGS * 2),
        }
    }
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
    /// With a clock: the least time it had left after a move.
    pub least_left: Option<Duration>,
    /// With a clock: games it lost on time.
    pub flag_falls: usize,
    /// Its searches on the opponent's time, when it ponders.
    pub ponder: PonderTally,
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// The finished pairs of games (one opening with both colours) by the first player's points.
    pub pairs: Pairs,
    /// What the SPRT decided, if the match had one and it decided.
    pub verdict: Option<SprtVerdict>,
    /// The players' names: a level, or the name an external engine gave.
    pub names: [String; 2],
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
    let game_type = config.game_type;
    let defined = matches!(game_type.variant, Variant::Defined(_));
    if defined
        && [&config.a, &config.b]
            .iter()
            .any(|c| matches!(c, Contender::Hub(_)))
    {
        return Err(MatchError::HubInDefinedVariant(game_type));
    }
    let openings = match &config.openings {
        MatchOpenings::Deck(deck) => {
            deck_openings(deck, game_type).ok_or(MatchError::DeckDoesNotFit(game_type))?
        }
        MatchOpenings::Random => openings(game_type, config.total_games().div_ceil(2), config.seed),
    };
    let start = AnyGame::from_position(AnyPosition::start(game_type));
    let mut starts: Vec<Start> = openings
        .into_iter()
        .map(|o| Start::after(&start, o.name, &o.moves))
        .collect();
    // A board too small for a balanced random opening: its games start from the start itself.
    if starts.is_empty() {
        starts.push(Start::after(&start, String::new(), &[]));
    }
    play_starts(config, &starts, stop, on_game)
}

/// Where the games of one opening start: its name, and the game after its moves.
struct Start {
    name: String,
    game: AnyGame,
}

impl Start {
    /// The opening `name` of `moves` played from `start` (moves found legal in these very positions).
    fn after(start: &AnyGame, name: String, moves: &[crowned_rules::Move]) -> Start {
        let mut game = start.clone();
        for mv in moves {
            let _ = game.play(mv);
        }
        Start { name, game }
    }
}

/// The match from its openings, each played with both colours, whatever the rules.
fn play_starts(
    config: &MatchConfig,
    openings: &[Start],
    stop: &Arc<AtomicBool>,
    on_game: &mut dyn FnMut(&MatchGame, &MatchResult) -> ControlFlow<()>,
) -> Result<MatchResult, MatchError> {
    let total = config.total_games();
    let mut seats = [
        Seat::new(&config.a, config.game_type, &config.engine, stop)?,
        Seat::new(&config.b, config.game_type, &config.engine, stop)?,
    ];
    let mut result = MatchResult {
        names: [seats[0].name(), seats[1].name()],
        ..MatchResult::default()
    };
    let pairs = openings
        .iter()
        .flat_map(|o| [(o, Color::Black), (o, Color::White)]);
    // A test plays the openings again until it decides; a plain match plays them once.
    let schedule: Box<dyn Iterator<Item = _>> = match config.sprt {
        Some(_) => Box::new(pairs.cycle().take(total)),
        None => Box::new(pairs.take(total)),
    };
    let mut first_of_pair = 0;
    for (index, (opening, a_color)) in schedule.enumerate() {
        let number = index + 1;
        let mut time_use = result.time_use;
        let Some(mut game) = play_game(
            config,
            &opening.game,
            a_color,
            number,
            &mut seats,
            stop,
            &mut time_use,
        )?
        else {
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
        tag(
            &mut game,
            config,
            &result.names,
            a_color,
            number,
            &opening.name,
        );
        let played = MatchGame {
            number,
            opening: opening.name.clone(),
            a_color,
            game,
            outcome,
        };
        let half_points = (played.a_points() + 1) as usize;
        match played.a_points() {
            1 => result.a_wins += 1,
            -1 => result.b_wins += 1,
            _ => result.draws += 1,
        }
        // Games come in pairs, the second with the colours swapped.
        if number % 2 == 0 {
            result.pairs.add(first_of_pair + half_points);
            result.verdict = config.sprt.and_then(|t| t.verdict(&result.pairs));
        } else {
            first_of_pair = half_points;
        }
        if on_game(&played, &result).is_break() {
            result.stopped = number < total;
            return Ok(result);
        }
        if result.verdict.is_some() {
            return Ok(result);
        }
    }
    Ok(result)
}

/// One game from the opening's `start`, the first player (`seats[0]`) with `a_color`; `None` if the stop flag
/// ended it.
fn play_game(
    config: &MatchConfig,
    start: &AnyGame,
    a_color: Color,
    number: usize,
    seats: &mut [Seat; 2],
    stop: &AtomicBool,
    time_use: &mut [TimeUse; 2],
) -> Result<Option<AnyGame>, MatchError> {
    let mut game = start.clone();
    for seat in seats.iter_mut() {
        seat.new_game()?;
    }
    let mut left = [config.clock.map_or(Duration::ZERO, |(initial, _)| initial); 2];
    while game.outcome().is_none() && game.len() < MAX_PLIES {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let side = game.position().side_to_move();
        let player = usize::from(side != a_color);
        let seed = config.seed ^ (number as u64) << 32 ^ game.len() as u64;
        let forced = game.legal_moves().len() == 1;
        if let Some((_, increment)) = config.clock {
            left[player] += increment;
        }
        let limits = limits_for(config, left[player]);
        let asked = Instant::now();
        let choice = seats[player].choose(&game, &limits, seed, stop)?;
        let took = asked.elapsed();
        time_use[player].ponder = seats[player].ponder_tally();
        match forced {
            true => time_use[player].forced += 1,
            false => time_use[player].add(took),
        }
        if config.clock.is_some() {
            let Some(now_left) = left[player].checked_sub(took) else {
                time_use[player].flag_falls += 1;
                let _ = game.declare(Outcome::Win {
                    winner: side.opponent(),
                    reason: WinReason::Time,
                });
                break;
            };
            left[player] = now_left;
            let least = time_use[player].least_left.get_or_insert(now_left);
            *least = (*least).min(now_left);
        }
        // A search cut short by the stop flag may not have found the best move: the game is dropped.
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let Some(mv) = choice else { break };
        if game.play(&mv).is_err() {
            break;
        }
        if config.ponder[player] && game.outcome().is_none() {
            // The time this player will have for its next move, the increment it will get included.
            let next = left[player] + config.clock.map_or(Duration::ZERO, |(_, inc)| inc);
            seats[player].ponder(&game, &limits_for(config, next))?;
        }
    }
    Ok((!stop.load(Ordering::Relaxed)).then_some(game))
}

/// The limits of a move for a player with `left` on its clock (the increment already added), or the match's
/// time per move when there is no clock.
fn limits_for(config: &MatchConfig, left: Duration) -> Limits {
    match config.clock {
        Some((_, increment)) => Limits {
            clock: Some(TimeLeft {
                remaining: left,
                increment,
                moves_to_go: None,
            }),
            ..Limits::default()
        },
        None => Limits::time(config.time),
    }
}

/// A player as the event's name says it: a level by its name, another engine by the name it gave.
fn label(contender: &Contender, name: &str) -> String {
    match contender {
        Contender::Level(level) => level.to_string(),
        Contender::Hub(_) => name.to_string(),
    }
}

/// The tags of a match game: event, round, players and opening (the game type is written with the game).
fn tag(
    game: &mut AnyGame,
    config: &MatchConfig,
    names: &[String; 2],
    a_color: Color,
    number: usize,
    opening: &str,
) {
    let (black, white) = if a_color == Color::Black {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    let rules = match config.game_type.variant {
        Variant::English if config.game_type.is_standard() => String::new(),
        _ => format!(" ({})", config.game_type),
    };
    let tags = game.tags_mut();
    tags.set(
        "Event",
        &format!(
            "crowned match{rules}: {} against {}",
            label(&config.a, &names[0]),
            label(&config.b, &names[1])
        ),
    );
    tags.set("Round", &number.to_string());
    tags.set("Black", black);
    tags.set("White", white);
    tags.set("Opening", opening);
}

#[cfg(test)]
#[path = "matches_tests.rs"]
mod tests;
