//! The check `crowned bench arena` makes of an arena's records once its server has stopped: every game of the
//! event is kept once with its `[Event]` and `[Round]` tags, replays, and has the players and the result of its
//! pairing and of what the players saw; and the event's table (as the server restores it from its pairings)
//! is the arena's scoring of those games, streak bonuses included, computed again here from the games alone.

use std::collections::{BTreeMap, HashMap};

use thiserror::Error;

use super::load_arena::SeenGame;
use crate::game::pdn::{check_games, open_game, parse_games};
use crate::serve::event_rules::arena::{ArenaPlayer, rank};
use crate::serve::event_rules::director::Director;
use crate::serve::event_rules::{Colour, Entrant, GameResult, PlayerScore};
use crate::serve::records::{EventKind, EventRecord, Stage};

/// What the records of an arena hold that disagrees with its games or its players.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ArenaCheckError {
    /// The event is not an arena.
    #[error("the event is not an arena")]
    NotArena,
    /// The event has not finished.
    #[error("the event is {0:?}, not finished")]
    NotFinished(Stage),
    /// Two entrants have one name, so games cannot be told apart by their players' names.
    #[error("two entrants are called {0}")]
    SameName(String),
    /// A pairing has no result or no game.
    #[error("pairing {0} has no {1}")]
    Unfinished(u32, &'static str),
    /// A game of the event does not read, or has no such tag.
    #[error("a game of the event has no readable {0} tag: {1}")]
    Tag(&'static str, String),
    /// A game carries another event's name.
    #[error("game {round} is tagged [Event {found:?}], not {expected:?}")]
    OtherEvent {
        /// Its round.
        round: u32,
        /// Its tag.
        found: String,
        /// The event's name.
        expected: String,
    },
    /// A game does not replay, or its rules' end is not its result.
    #[error("game {0} does not replay to its result: {1}")]
    Replay(u32, String),
    /// Two games have one round.
    #[error("{0} is recorded twice")]
    Twice(String),
    /// A pairing has no game, or a game no pairing.
    #[error("{0}")]
    Unmatched(String),
    /// A game's players or result is not its pairing's.
    #[error("game {round}: {what}")]
    NotThePairing {
        /// Its round.
        round: u32,
        /// What differs.
        what: String,
    },
    /// A game the players finished is not in the records as they saw it.
    #[error("table {code}: {what}")]
    NotAsSeen {
        /// The game's table.
        code: String,
        /// What differs.
        what: String,
    },
    /// The table does not score the games as the arena's rules do.
    #[error("{name}: the table says {table}, the games say {games}")]
    Table {
        /// Whose line.
        name: String,
        /// What the table says (points and W-D-L).
        table: String,
        /// What the games make of it.
        games: String,
    },
}

/// What the check found, when it found nothing wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaChecked {
    /// Games of the event in the records.
    pub games: usize,
    /// Players in its table.
    pub entrants: usize,
    /// Wins, draws among the games.
    pub decisive: usize,
    /// Draws.
    pub draws: usize,
    /// Points the streaks added to the table (beyond 2 a win and 1 a draw).
    pub streak_bonus: u32,
    /// The games the players finished, all found as they saw them.
    pub seen: usize,
    /// The moves (plies) of the event's games, as they replay from the records.
    pub moves: usize,
    /// The table the games make, best first: each line `NAME POINTS W-D-L`.
    pub table: Vec<String>,
}

/// One game of the event as its PDN says.
struct Kept {
    round: u32,
    table: String,
    black: String,
    white: String,
    result: String,
    /// Its moves (plies).
    plies: usize,
}

/// Checks the arena `record` against its games `pdns` (each game's PDN, as the records give them) and the games
/// its players finished, `seen` (each seen by each of its two players).
pub fn check_arena(
    record: &EventRecord,
    pdns: &[String],
    seen: &[SeenGame],
) -> Result<ArenaChecked, ArenaCheckError> {
    check_record(record)?;
    let kept = KeptGames::read(record, pdns)?;
    let mut checked = ArenaChecked {
        games: kept.by_round.len(),
        entrants: record.entries.len(),
        moves: kept.by_round.values().map(|kept| kept.plies).sum(),
        ..ArenaChecked::default()
    };
    let mut scored = score_games(record, &kept, &mut checked)?;
    check_table(record, &scored, &mut checked)?;
    scored.sort_by(rank);
    checked.table = scored
        .iter()
        .map(|p| {
            format!(
                "{} {} {}-{}-{}",
                name_of(record, p.entrant),
                p.points,
                p.won,
                p.drawn,
                p.lost
            )
        })
        .collect();
    check_seen(&kept, seen, &mut checked)?;
    Ok(checked)
}

/// The record is a finished arena's, its players' names tell them apart, and every pairing has its game and
/// its result.
fn check_record(record: &EventRecord) -> Result<(), ArenaCheckError> {
    if record.spec.kind != EventKind::Arena {
        return Err(ArenaCheckError::NotArena);
    }
    if record.stage != Stage::Finished {
        return Err(ArenaCheckError::NotFinished(record.stage));
    }
    let mut entrant_of = HashMap::new();
    for e in &record.entries {
        if entrant_of.insert(e.name.as_str(), e.entrant).is_some() {
            return Err(ArenaCheckError::SameName(e.name.clone()));
        }
    }
    for p in &record.pairings {
        if p.result.is_none() {
            return Err(ArenaCheckError::Unfinished(p.round, "result"));
        }
        if p.game.is_none() {
            return Err(ArenaCheckError::Unfinished(p.round, "game"));
        }
    }
    Ok(())
}

/// The name of an entrant of the record, `?` for one it does not hold.
fn name_of(record: &EventRecord, entrant: Entrant) -> &str {
    record
        .entries
        .iter()
        .find(|e| e.entrant == entrant)
        .map_or("?", |e| e.name.as_str())
}

/// The event's games as their PDNs say, one a pairing.
struct KeptGames {
    /// The games by round (an arena's `[Round]` is the game's number in the event, from 1).
    by_round: BTreeMap<u32, Kept>,
    /// The rounds played at each table: a table's code is free again once its game is over, so one code may
    /// name several games of the event.
    tables: HashMap<String, Vec<u32>>,
}

impl KeptGames {
    fn read(record: &EventRecord, pdns: &[String]) -> Result<KeptGames, ArenaCheckError> {
        let mut by_round: BTreeMap<u32, Kept> = BTreeMap::new();
        let mut tables: HashMap<String, Vec<u32>> = HashMap::new();
        for pdn in pdns {
            let kept = read_game(pdn, &record.spec.name)?;
            tables
                .entry(kept.table.clone())
                .or_default()
                .push(kept.round);
            let round = kept.round;
            if by_round.insert(round, kept).is_some() {
                return Err(ArenaCheckError::Twice(format!("round {round}")));
            }
        }
        if by_round.len() != record.pairings.len() {
            return Err(ArenaCheckError::Unmatched(format!(
                "{} games kept for {} pairings",
                by_round.len(),
                record.pairings.len()
            )));
        }
        Ok(KeptGames { by_round, tables })
    }
}

/// The arena's scoring of the games alone, in the order they were paired, each game checked to be its
/// pairing's, with its result.
fn score_games(
    record: &EventRecord,
    kept: &KeptGames,
    checked: &mut ArenaChecked,
) -> Result<Vec<ArenaPlayer>, ArenaCheckError> {
    let mut scored: Vec<ArenaPlayer> = record
        .entries
        .iter()
        .map(|e| ArenaPlayer::new(e.entrant))
        .collect();
    for p in &record.pairings {
        let game = kept.by_round.get(&(p.round + 1)).ok_or_else(|| {
            ArenaCheckError::Unmatched(format!("pairing {} has no game", p.round))
        })?;
        let (first, second) = (
            name_of(record, p.pairing.first),
            name_of(record, p.pairing.second),
        );
        if (game.black.as_str(), game.white.as_str()) != (first, second) {
            return Err(ArenaCheckError::NotThePairing {
                round: game.round,
                what: format!(
                    "{} - {} played, {first} - {second} paired",
                    game.black, game.white
                ),
            });
        }
        let result = match game.result.as_str() {
            "1-0" => GameResult::FirstWins,
            "0-1" => GameResult::SecondWins,
            "1/2-1/2" => GameResult::Draw,
            other => {
                return Err(ArenaCheckError::Replay(
                    game.round,
                    format!("a result of {other:?}"),
                ));
            }
        };
        if p.result != Some(result) {
            return Err(ArenaCheckError::NotThePairing {
                round: game.round,
                what: format!("{} played, {:?} paired", game.result, p.result),
            });
        }
        match result {
            GameResult::Draw => checked.draws += 1,
            _ => checked.decisive += 1,
        }
        for (who, opponent, colour) in [
            (p.pairing.first, p.pairing.second, Colour::First),
            (p.pairing.second, p.pairing.first, Colour::Second),
        ] {
            let score = match (result, colour) {
                (GameResult::Draw, _) => PlayerScore::Draw,
                (GameResult::FirstWins, Colour::First)
                | (GameResult::SecondWins, Colour::Second) => PlayerScore::Win,
                _ => PlayerScore::Loss,
            };
            let player = scored
                .iter_mut()
                .find(|s| s.entrant == who)
                .ok_or_else(|| {
                    ArenaCheckError::Unmatched(format!("entrant {who} is not in the event"))
                })?;
            player.record(opponent, colour, score);
        }
    }
    Ok(scored)
}

/// The table as the server shows it, restored from the records' pairings, against the games' own scoring.
fn check_table(
    record: &EventRecord,
    scored: &[ArenaPlayer],
    checked: &mut ArenaChecked,
) -> Result<(), ArenaCheckError> {
    let director = Director::restore(record);
    for line in director.arena_table() {
        let ours = scored
            .iter()
            .find(|s| s.entrant == line.entrant)
            .ok_or_else(|| ArenaCheckError::Unmatched(format!("{} has no games", line.entrant)))?;
        let show = |p: &ArenaPlayer| {
            format!(
                "{} points {}-{}-{}{}",
                p.points,
                p.won,
                p.drawn,
                p.lost,
                if p.on_fire() { " on fire" } else { "" }
            )
        };
        if show(line) != show(ours) {
            return Err(ArenaCheckError::Table {
                name: name_of(record, line.entrant).to_string(),
                table: show(line),
                games: show(ours),
            });
        }
        checked.streak_bonus += ours.points - 2 * ours.won - ours.drawn;
    }
    Ok(())
}

/// What the players saw: each game at its table, with this player on their side and the result they saw.
fn check_seen(
    kept: &KeptGames,
    seen: &[SeenGame],
    checked: &mut ArenaChecked,
) -> Result<(), ArenaCheckError> {
    for game in seen {
        let at_table: Vec<&Kept> = kept
            .tables
            .get(&game.code)
            .into_iter()
            .flatten()
            .filter_map(|round| kept.by_round.get(round))
            .collect();
        let as_seen = |kept: &&Kept| {
            let colour_name = if game.black { &kept.black } else { &kept.white };
            colour_name == &game.player && kept.result == game.result
        };
        if !at_table.iter().any(as_seen) {
            let kept: Vec<String> = at_table
                .iter()
                .map(|k| format!("{} - {} {}", k.black, k.white, k.result))
                .collect();
            return Err(ArenaCheckError::NotAsSeen {
                code: game.code.clone(),
                what: format!(
                    "{} saw {} playing {}, the records say {}",
                    game.player,
                    game.result,
                    if game.black { "Black" } else { "White" },
                    match kept.is_empty() {
                        true => "nothing".to_string(),
                        false => kept.join(", "),
                    }
                ),
            });
        }
        checked.seen += 1;
    }
    Ok(())
}

/// One game's tags, checked to be the event's, and checked to replay: a game that ends by the rules (no move
/// left) ends with its result.
fn read_game(pdn: &str, event: &str) -> Result<Kept, ArenaCheckError> {
    let excerpt = || pdn.chars().take(200).collect::<String>();
    let text = match parse_games(pdn).into_iter().next() {
        Some(Ok(text)) => text,
        _ => return Err(ArenaCheckError::Tag("PDN", excerpt())),
    };
    let tag = |name: &'static str| {
        text.tags
            .get(name)
            .map(str::to_string)
            .ok_or_else(|| ArenaCheckError::Tag(name, excerpt()))
    };
    let round: u32 = tag("Round")?
        .parse()
        .map_err(|_| ArenaCheckError::Tag("Round", excerpt()))?;
    let found = tag("Event")?;
    if found != event {
        return Err(ArenaCheckError::OtherEvent {
            round,
            found,
            expected: event.to_string(),
        });
    }
    let table = tag("Site")?
        .strip_prefix("table ")
        .map(str::to_string)
        .ok_or_else(|| ArenaCheckError::Tag("Site", excerpt()))?;
    let result = tag("Result")?;
    if let Some(problem) = check_games(pdn).into_iter().find_map(|c| c.problem) {
        return Err(ArenaCheckError::Replay(round, problem));
    }
    let (game, error) = open_game(&text, None);
    if let Some(error) = error {
        return Err(ArenaCheckError::Replay(round, error));
    }
    if let Some(end) = game.outcome() {
        let token = game.result_token(Some(end));
        if token != result {
            return Err(ArenaCheckError::Replay(
                round,
                format!("it ends {token} by the rules, recorded {result}"),
            ));
        }
    }
    Ok(Kept {
        round,
        table,
        black: tag("Black")?,
        white: tag("White")?,
        result,
        plies: game.moves().len(),
    })
}
