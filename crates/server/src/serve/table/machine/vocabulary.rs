//! What a table is set up with, takes and gives: its settings ([`TableConfig`]) and what it starts from
//! ([`TableSetup`]), the inputs it handles one at a time ([`Input`]) and the effects it returns ([`TableEffect`]).
//! Plain data, known to the machine, its driver, the nodes and the tests alike.

use std::time::Duration;

use super::error::TableError;
use super::event_game::{EventGame, GameEnded};
use crate::app::{TableNews, TableRequest, TableState};
use crate::game::{AnyGame, TimeControl};
use crate::rules::{Color, GameType};
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::recorder::{CommitError, Job, RecordKey};

/// How a table's game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableConfig {
    /// The rules and board.
    pub game_type: GameType,
    /// The time control, if the game has clocks.
    pub clock: Option<TimeControl>,
    /// How long a player who drops keeps their seat before the opponent may claim the game.
    pub grace: Duration,
    /// Whether the game changes the players' ratings.
    pub rated: bool,
    /// Whether the game is left out of the lobby's list (joined by its code only).
    pub private: bool,
}

/// The table as it stands, after a change.
pub type Snapshot = TableState;

/// What a table tells the people in it.
pub type Update = TableNews;

/// A game from the records, resumed after the server restarted: its players are away until they come back, and
/// its clocks wait for both.
#[derive(Clone, Debug)]
pub struct Resumed {
    /// The game so far.
    pub game: AnyGame,
    /// Black's and White's players.
    pub seats: [Identity; 2],
    /// Each side's time left when the game was last recorded, when it has clocks.
    pub clocks: Option<[Duration; 2]>,
    /// Black's and White's ratings in the variant, each with whether it is provisional, when the game is rated
    /// and they could be read.
    pub ratings: [Option<(i32, bool)>; 2],
    /// The code it was joined by, kept when it is free.
    pub code: Option<TableCode>,
    /// The table's key for it in the records (the recorder has been told its number).
    pub record: RecordKey,
}

/// The players of a rematch, seated in its table before their connections arrive.
#[derive(Clone, Debug)]
pub struct Rematch {
    /// Black's and White's players, with the ratings they were shown with.
    pub seats: [(Identity, Option<i32>); 2],
}

/// One connection of a person to the table, as the driver numbers them: a player's, or a watcher's. A person
/// may have more than one (a watcher on two screens; a player who came back before the old connection was
/// found gone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Conn(pub u64);

/// What a table is told.
#[derive(Debug)]
pub enum Input {
    /// Take a seat (a colour, or the first free one), or take back one's own seat: answered by
    /// [`TableEffect::Seated`].
    Sit {
        /// Who.
        who: Identity,
        /// The colour wanted, if any.
        color: Option<Color>,
        /// Their rating in the variant, shown to the others in a rated game.
        rating: Option<i32>,
        /// Whether that rating is provisional (shown `1512?`).
        provisional: bool,
        /// Whether a connection that held the seat comes back to it after its table moved to another node: it
        /// sits again only while the seat is away, not taking it from a newer connection seated meanwhile.
        returning: bool,
        /// The connection they sit from.
        conn: Conn,
    },
    /// Watch from `conn`; `greeting`, if any, is the first thing they are told (a tournament's leaders).
    Watch {
        /// Who.
        who: Identity,
        /// Their connection.
        conn: Conn,
        /// Told to them before the table's state.
        greeting: Option<Update>,
    },
    /// A player (or watcher) asks something: a move, an offer or its answer, resigning, a chat line, a claim.
    Ask {
        /// Who.
        who: Fingerprint,
        /// What.
        request: TableRequest,
    },
    /// A connection of `who` has gone (`None`: one the table no longer holds): its player is away (their seat
    /// kept for the grace period), or it stops watching.
    Leave {
        /// Who.
        who: Fingerprint,
        /// Which connection.
        conn: Option<Conn>,
    },
    /// The driver found a connection closed while sending to it: a watcher there is forgotten, quietly.
    Gone(Conn),
    /// The records' answer to the last [`TableEffect::Commit`].
    Committed(Result<(), CommitError>),
    /// The driver's answer to [`TableEffect::OpenRematch`]: the new table's code, or why there is none.
    RematchOpened(Result<TableCode, TableError>),
    /// The driver's answer to [`TableEffect::ReadRatings`]: Black's and White's ratings after the game.
    Ratings([i32; 2]),
    /// Whether the records are written now changed: everyone here is shown it.
    Records {
        /// Whether they are.
        writing: bool,
    },
    /// The server is stopping: the clocks as they stand go to the records.
    NoteClocks,
    /// The time asked for by [`Table::next_wake`](super::Table::next_wake) has come.
    Wake,
}

/// What handling an input comes to, in order.
#[derive(Debug)]
pub enum TableEffect {
    /// An update for one connection.
    Send {
        /// Which.
        to: Conn,
        /// What.
        update: Update,
    },
    /// The answer to [`Input::Sit`].
    Seated(Result<Color, TableError>),
    /// A step's changes for the records, as one commit: answer with [`Input::Committed`]. Until then the table
    /// takes nothing but that answer and [`Input::Wake`].
    Commit(Vec<Job>),
    /// A job for the records that nobody waits for (the clocks between moves, a finished game for the players'
    /// folders).
    Note(Job),
    /// The table's line in the lobby's list changed.
    Listing(Listing),
    /// A rematch was agreed: open a table for it and answer with [`Input::RematchOpened`].
    OpenRematch {
        /// The new table's settings (the same as this one's).
        config: TableConfig,
        /// Its players, colours swapped.
        rematch: Rematch,
    },
    /// The game, one of a tournament's, ended so.
    EventResult(GameEnded),
    /// A rated game's end is in the records: read both players' ratings after it (once everything sent to the
    /// records before is written) and answer with [`Input::Ratings`].
    ReadRatings {
        /// Black's and White's players.
        players: [Fingerprint; 2],
        /// The variant, as ratings name it.
        variant: String,
    },
    /// Another node runs this game now: the table stops at once.
    Stop,
}

/// What a table starts from besides its settings.
#[derive(Default)]
pub struct TableSetup {
    /// The code it is joined by.
    pub code: TableCode,
    /// Whether its games go to the records.
    pub recorded: bool,
    /// Whether the records are written as it opens.
    pub writing: bool,
    /// The game it resumes.
    pub resumed: Option<Resumed>,
    /// The players it is a rematch for.
    pub rematch: Option<Rematch>,
    /// The tournament pairing its game is.
    pub event: Option<EventGame>,
    /// Where the table's time stands among the periods of [`NOTE_CLOCKS_EVERY`](super::NOTE_CLOCKS_EVERY) shared by every table of the
    /// server, so that all of them note their clocks at the same moments (one transaction).
    pub note_phase: Duration,
}

/// A table as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The code it is joined by.
    pub code: TableCode,
    /// How it is played.
    pub config: TableConfig,
    /// The seats: each player's fingerprint and name.
    pub seats: [Option<(Fingerprint, String)>; 2],
    /// Moves played.
    pub plies: usize,
    /// Whether the game has ended.
    pub over: bool,
    /// People watching.
    pub watchers: usize,
    /// Whether it is an event's board (a tournament's game).
    pub board: bool,
}

impl Listing {
    /// Whether someone may sit down: a seat is free and the game is not over.
    pub fn open(&self) -> bool {
        !self.over && self.seats.iter().any(Option::is_none)
    }

    /// Whether `fingerprint` has a seat in a game not over.
    pub fn seats_player(&self, fingerprint: &Fingerprint) -> bool {
        !self.over
            && self
                .seats
                .iter()
                .flatten()
                .any(|(seated, _)| seated == fingerprint)
    }
}
