//! What the records keep of a tournament: how it was set up, who entered, every pairing with its result and
//! game, and the byes. The director writes each change as it happens ([`EventChange`]), so that a restarted
//! server picks an event up where it stood and a finished one's table can be shown later.

use super::RecordsError;
use crate::serve::event_rules::{Entrant, GameResult, Pairing};
pub use crate::serve::event_rules::{EventKind, Stage};
use crate::serve::ids::{Fingerprint, GameId, TableCode};

/// The tournaments' records: each change written as it happens, so that a restarted or taken-over event goes on
/// where it stood.
pub trait EventRecords {
    /// Records a new tournament, waiting to start. A code already taken is an error of the database.
    fn create_event(&mut self, spec: &EventSpec) -> Result<(), RecordsError>;

    /// Records one change to the tournament `code` as it happens (an entry, a pairing, a result...).
    fn change_event(&mut self, code: &TableCode, change: &EventChange) -> Result<(), RecordsError>;

    /// The tournament `code` as kept: how it was set up, its entrants, pairings, results and byes.
    fn event(&mut self, code: &TableCode) -> Result<Option<EventRecord>, RecordsError>;

    /// Every tournament kept, with where it stands, by start time.
    fn events(&mut self) -> Result<Vec<(EventSpec, Stage)>, RecordsError>;

    /// The PDN of a tournament's finished games, in the order they were paired.
    fn event_games(&mut self, code: &TableCode) -> Result<Vec<String>, RecordsError>;

    /// The pairings of the tournament `code` whose result is not kept but whose game has ended: each one's round,
    /// board and the game's result as PDN writes it (`1-0`). What an event taken over or restarted learns of the
    /// games that ended where it did not hear of them.
    fn event_games_ended(
        &mut self,
        code: &TableCode,
    ) -> Result<Vec<(u32, u32, String)>, RecordsError>;
}

/// How an event was set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSpec {
    /// The code it is joined by (`ssh ... tournament CODE`).
    pub code: TableCode,
    /// Its name.
    pub name: String,
    /// Arena or Swiss.
    pub kind: EventKind,
    /// The variant's name.
    pub variant: String,
    /// The time control as written (`3+2`).
    pub clock: String,
    /// Whether its games change ratings.
    pub rated: bool,
    /// Whether it is listed in the lobby for anyone (else joined by its code only).
    pub open: bool,
    /// When it starts, in seconds since the Unix epoch.
    pub starts: i64,
    /// An arena's length in seconds (0 for a Swiss event).
    pub seconds: u32,
    /// A Swiss event's number of rounds (0 for an arena).
    pub rounds: u32,
    /// Who created it (`None`: the operator's schedule).
    pub created_by: Option<Fingerprint>,
}

/// An entrant as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRecord {
    /// Their number in the event.
    pub entrant: Entrant,
    /// Who.
    pub fingerprint: Fingerprint,
    /// Their name when they entered.
    pub name: String,
    /// Whether they have withdrawn (or were withdrawn after missing a round).
    pub withdrawn: bool,
}

/// A pairing as kept: an arena's games are numbered in the order they were paired (`round` 0, 1, 2... with
/// board 0), a Swiss event's by round (from 1) and board (from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRecord {
    /// The round (Swiss) or the game's number (arena).
    pub round: u32,
    /// The board in the round.
    pub board: u32,
    /// Who plays whom.
    pub pairing: Pairing,
    /// The result, once known.
    pub result: Option<GameResult>,
    /// The game in the records, once it started.
    pub game: Option<GameId>,
}

/// An event as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRecord {
    /// How it was set up.
    pub spec: EventSpec,
    /// Where it stands.
    pub stage: Stage,
    /// Its entrants, by number.
    pub entries: Vec<EntryRecord>,
    /// Its pairings, in order.
    pub pairings: Vec<PairingRecord>,
    /// Its byes: (round, entrant).
    pub byes: Vec<(u32, Entrant)>,
}

/// One change to an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventChange<'a> {
    /// Someone entered (again: a withdrawn entrant back is [`EventChange::Withdrawn`] with `false`).
    Entered {
        /// Their number.
        entrant: Entrant,
        /// Who.
        fingerprint: &'a Fingerprint,
        /// Their name.
        name: &'a str,
    },
    /// An entrant withdrew, or came back.
    Withdrawn {
        /// Who.
        entrant: Entrant,
        /// Withdrawn (true) or back (false).
        withdrawn: bool,
    },
    /// A pairing was made.
    Paired(&'a PairingRecord),
    /// The game of a pairing started.
    Started {
        /// The pairing's round.
        round: u32,
        /// Its board.
        board: u32,
        /// The game.
        game: GameId,
    },
    /// A pairing's game ended.
    Result {
        /// The pairing's round.
        round: u32,
        /// Its board.
        board: u32,
        /// How it ended.
        result: GameResult,
    },
    /// A bye.
    Bye {
        /// The round.
        round: u32,
        /// Who.
        entrant: Entrant,
    },
    /// The event moved on.
    Stage(Stage),
}

/// A result as the records write it.
pub fn result_str(result: GameResult) -> &'static str {
    match result {
        GameResult::FirstWins => "first",
        GameResult::SecondWins => "second",
        GameResult::Draw => "draw",
    }
}

/// A result read as the records write it.
pub fn parse_result(text: &str) -> Option<GameResult> {
    match text {
        "first" => Some(GameResult::FirstWins),
        "second" => Some(GameResult::SecondWins),
        "draw" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The SQL of the tournaments' records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// The columns of an event's setting-up, in the order [`CREATE`] writes them and the reads read them.
    macro_rules! spec_columns {
        () => {
            "code, name, kind, variant, clock, rated, open, starts, seconds, rounds, created_by, stage"
        };
    }

    /// A new event, waiting to start.
    pub(in super::super) const CREATE: &str = concat!(
        "INSERT INTO tournaments (",
        spec_columns!(),
        ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
    );

    /// An entrant, or one entering again.
    pub(in super::super) const ENTER: &str =
        "INSERT INTO tournament_entries (code, entrant, fingerprint, name, withdrawn)
         VALUES ($1, $2, $3, $4, false)
         ON CONFLICT (code, entrant) DO UPDATE SET name = $4, withdrawn = false";

    /// An entrant withdrawn, or back.
    pub(in super::super) const WITHDRAW: &str =
        "UPDATE tournament_entries SET withdrawn = $3 WHERE code = $1 AND entrant = $2";

    /// A pairing.
    pub(in super::super) const PAIR: &str =
        "INSERT INTO tournament_pairings (code, round, board, first, second, result, game)
         VALUES ($1, $2, $3, $4, $5, $6, $7)";

    /// The game a pairing is played in.
    pub(in super::super) const START_GAME: &str =
        "UPDATE tournament_pairings SET game = $4 WHERE code = $1 AND round = $2 AND board = $3";

    /// A pairing's result.
    pub(in super::super) const RESULT: &str =
        "UPDATE tournament_pairings SET result = $4 WHERE code = $1 AND round = $2 AND board = $3";

    /// A round's bye.
    pub(in super::super) const BYE: &str =
        "INSERT INTO tournament_byes (code, round, entrant) VALUES ($1, $2, $3)
         ON CONFLICT (code, round) DO UPDATE SET entrant = $3";

    /// Where an event stands.
    pub(in super::super) const STAGE: &str = "UPDATE tournaments SET stage = $2 WHERE code = $1";

    /// An event by its code.
    pub(in super::super) const READ: &str = concat!(
        "SELECT ",
        spec_columns!(),
        " FROM tournaments WHERE code = $1"
    );

    /// An event's entrants.
    pub(in super::super) const ENTRIES: &str =
        "SELECT entrant, fingerprint, name, withdrawn FROM tournament_entries WHERE code = $1
         ORDER BY entrant";

    /// An event's pairings, in order.
    pub(in super::super) const PAIRINGS: &str =
        "SELECT round, board, first, second, result, game FROM tournament_pairings WHERE code = $1
         ORDER BY round, board";

    /// An event's byes.
    pub(in super::super) const BYES: &str =
        "SELECT round, entrant FROM tournament_byes WHERE code = $1 ORDER BY round";

    /// Every event, by start time.
    pub(in super::super) const LIST: &str = concat!(
        "SELECT ",
        spec_columns!(),
        " FROM tournaments ORDER BY starts, code"
    );

    /// The PDN of an event's finished games, in the order they were paired.
    pub(in super::super) const GAMES: &str =
        "SELECT g.pdn FROM tournament_pairings p JOIN games g ON g.id = p.game
         WHERE p.code = $1 AND g.pdn IS NOT NULL ORDER BY p.round, p.board";

    /// The pairings whose result is not kept and whose game has ended, with the game's result.
    pub(in super::super) const GAMES_ENDED: &str =
        "SELECT p.round, p.board, g.result FROM tournament_pairings p JOIN games g ON g.id = p.game
         WHERE p.code = $1 AND p.result IS NULL AND g.ended IS NOT NULL AND g.result IS NOT NULL
         ORDER BY p.round, p.board";
}

/// An open, unrated arena of ten minutes at 3+2 with the code `code`, starting at `starts` (Unix seconds): an
/// event for the tests of what keeps events.
#[cfg(test)]
pub(crate) fn test_arena(code: &str, starts: i64) -> EventSpec {
    EventSpec {
        code: code.into(),
        name: "Club arena".to_string(),
        kind: EventKind::Arena,
        variant: "english".to_string(),
        clock: "3+2".to_string(),
        rated: false,
        open: true,
        starts,
        seconds: 600,
        rounds: 0,
        created_by: None,
    }
}
