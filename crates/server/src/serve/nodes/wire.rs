//! What nodes say to each other about tables, as JSON: a person on one node taking a seat at, watching, asking of
//! or leaving a table another node owns, and the table's news for them.
//!
//! Requests and most news cross as the table's own types. A table's state crosses as the moves that changed
//! since the last state on the same link, numbered so that a gap is seen ([`LinkOut`], [`LinkIn`]); the whole
//! state only on joining, after a gap, or when more than moves changed. The whole game crosses as PDN (with its
//! definition, for a defined variant, so any node reads it) and its outcome beside it (PDN keeps a result but
//! not always why). A move crosses as its squares, and whoever takes one checks it against the rules: the
//! owner as it checks any move, the person's node as it plays it on the game it last got.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::app::{SeatView, TableNews, TableRequest, TableState};
use crate::game::pdn::{open_game, parse_games};
use crate::game::{AnyGame, Outcome, Tags};
use crate::rules::{Color, Move};

/// A message between nodes about a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Envelope {
    /// To a table's owner: a person on node `from` takes a seat at table `code`; their news goes to `link` there.
    Sit {
        /// The node the person is connected to.
        from: String,
        /// The person's line on that node.
        link: u64,
        /// The table.
        code: String,
        /// Their key's fingerprint.
        fingerprint: String,
        /// Their display name.
        name: String,
        /// The colour they ask for.
        color: Option<Color>,
        /// Their rating, for a rated game.
        rating: Option<i32>,
        /// Whether that rating is provisional (a node of an earlier version sends none).
        #[serde(default)]
        provisional: bool,
        /// Whether a connection comes back to its seat after its table moved (a node of an earlier version sends
        /// none: a seat taken as any other).
        #[serde(default)]
        returning: bool,
    },
    /// To a table's owner: a person on node `from` watches table `code`.
    Watch {
        /// The node the person is connected to.
        from: String,
        /// The person's line on that node.
        link: u64,
        /// The table.
        code: String,
        /// Their key's fingerprint.
        fingerprint: String,
        /// Their display name.
        name: String,
    },
    /// To a table's owner: a person asks something of table `code`.
    Ask {
        /// The node the person is connected to.
        from: String,
        /// The person's line on that node.
        link: u64,
        /// The table.
        code: String,
        /// What they ask.
        request: TableRequest,
    },
    /// To a table's owner: a person's connection has gone.
    Leave {
        /// The node the person was connected to.
        from: String,
        /// Their line on that node.
        link: u64,
        /// The table.
        code: String,
    },
    /// To a person's node: the answer to their [`Envelope::Sit`], the colour they got or why not.
    Seated {
        /// Their line.
        link: u64,
        /// Their colour, or the table's reason in words.
        result: Result<Color, String>,
    },
    /// To a person's node: the table's news for them.
    Update {
        /// Their line.
        link: u64,
        /// The news. Called `event` on the wire, as nodes of earlier versions call it.
        #[serde(rename = "event")]
        news: WireNews,
    },
    /// To a table's owner: the person on `link` missed a state of the table (news came that follows one they did
    /// not get): the whole state, please.
    Resend {
        /// The node the person is connected to.
        from: String,
        /// Their line on that node.
        link: u64,
    },
    /// To a person's node: the table will send nothing more on this line (it has ended, or its owner let it go).
    Closed {
        /// Their line.
        link: u64,
    },
    /// To an event's owner: a player on node `from` enters the event `event` (or is back); its news for them
    /// goes to `link` there.
    EventEnter {
        /// The node the player is connected to.
        from: String,
        /// The player's line to the event on that node.
        link: u64,
        /// The event's code.
        event: String,
        /// Their key's fingerprint.
        fingerprint: String,
        /// Their display name.
        name: String,
    },
    /// To a player's node: the event has taken them in (`true`), or it does not run there (`false`).
    EventEntered {
        /// Their line.
        link: u64,
        /// Whether they are in.
        entered: bool,
    },
    /// To a player's node: their game in the event is at this table.
    EventBoard {
        /// Their line.
        link: u64,
        /// The table's code.
        code: String,
    },
    /// To an event's owner: a player's connection to the event has gone.
    EventLeave {
        /// The node the player was connected to.
        from: String,
        /// Their line.
        link: u64,
    },
    /// To an event's owner: a player withdraws.
    EventWithdraw {
        /// The event's code.
        event: String,
        /// Their key's fingerprint.
        fingerprint: String,
    },
    /// To an event's owner: one of its games ended on the sending node.
    EventResult {
        /// The event's code.
        event: String,
        /// The pairing's round (Swiss) or number (arena).
        round: u32,
        /// Its board.
        board: u32,
        /// How it ended, as the records write it (`first`, `second`, `draw`).
        result: String,
        /// Whether a player away lost it (or, both away, drew it).
        forfeit: bool,
    },
}

/// A table's news for one person as it crosses. The table's state crosses whole the first time on a link, after
/// a gap, and when more than its moves changed; otherwise as the moves that changed: the plies kept of the game
/// the link last got and the moves played after them (a move, or a takeback and a move). Each state on a link
/// is numbered, so that a node that missed one knows and asks for the whole state again
/// ([`Envelope::Resend`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireNews {
    /// The whole table.
    State {
        /// The state's number on its link.
        seq: u64,
        /// The table.
        state: WireState,
    },
    /// The table after moves, from the state numbered `seq - 1`.
    Moves {
        /// The state's number on its link.
        seq: u64,
        /// How many plies of the game before are kept.
        keep: usize,
        /// The moves played after them.
        moves: Vec<Move>,
        /// How the game ended, if it has.
        outcome: Option<Outcome>,
        /// The rest of the table as it is now.
        table: WireTable,
    },
    /// Anything else a table tells, as it tells it.
    News {
        /// What it tells.
        event: TableNews,
    },
}

/// A [`TableState`] as it crosses whole: its game as PDN.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireState {
    /// The game's record.
    pub pdn: String,
    /// How it ended, if it has.
    pub outcome: Option<Outcome>,
    /// The game's own tags, in order (the PDN adds its result and game type to them).
    pub tags: Vec<(String, String)>,
    /// The rest of the table.
    pub table: WireTable,
}

/// What a [`TableState`] holds besides its game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireTable {
    /// Black's and White's seats.
    pub seats: [Option<SeatView>; 2],
    /// Each side's time left.
    pub clocks: Option<[Duration; 2]>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// The time left for a first move (a node of an earlier version sends none).
    #[serde(default)]
    pub first_move_left: Option<Duration>,
    /// People watching.
    pub watchers: usize,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether the clocks are stopped by agreement.
    pub paused: bool,
    /// Whether the owner cannot write its records just now.
    pub unrecorded: bool,
}

/// Why a message from another node cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WireError {
    /// Not a message at all.
    #[error("a node's message is not understood: {0}")]
    Unreadable(String),
    /// A move sent as played that the game it follows does not allow.
    #[error("a move from another node is not legal in the game it follows")]
    IllegalMove,
    /// Moves that follow a state this node did not get (one was lost on the way): the whole state is asked
    /// for again.
    #[error("news from another node follows a state this node did not get")]
    Gap,
    /// A game record that does not read back.
    #[error("a game from another node does not read back: {0}")]
    BadGame(String),
}

impl Envelope {
    /// The message as text.
    pub fn to_text(&self) -> String {
        // Serialising these types cannot fail: every key is a string and every value plain data.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a message.
    pub fn from_text(text: &str) -> Result<Envelope, WireError> {
        serde_json::from_str(text).map_err(|e| WireError::Unreadable(e.to_string()))
    }
}

/// The sending side of one link: what the node at its other end last got.
#[derive(Default)]
pub struct LinkOut {
    seq: u64,
    sent: Option<Arc<TableState>>,
}

impl LinkOut {
    /// `event` as it crosses to the node at the other end, as moves when they are all that changed since the
    /// last state sent.
    pub fn wire(&mut self, event: &TableNews) -> WireNews {
        let TableNews::State(state) = event else {
            return WireNews::News {
                event: event.clone(),
            };
        };
        self.seq += 1;
        let seq = self.seq;
        let before = self.sent.replace(Arc::clone(state));
        match before.and_then(|before| moves_since(&before.game, &state.game)) {
            Some((keep, moves)) => WireNews::Moves {
                seq,
                keep,
                moves,
                outcome: state.game.outcome(),
                table: table_to_wire(state),
            },
            None => WireNews::State {
                seq,
                state: state_to_wire(state),
            },
        }
    }

    /// The last state sent, whole again, for a node that missed one; `None` before the first.
    pub fn resend(&mut self) -> Option<WireNews> {
        let state = self.sent.clone()?;
        self.seq += 1;
        Some(WireNews::State {
            seq: self.seq,
            state: state_to_wire(&state),
        })
    }

    /// Forgets what was sent, after a message that may not have arrived: the next state goes whole.
    pub fn lost(&mut self) {
        self.sent = None;
    }
}

/// The receiving side of one link: the state it last got.
#[derive(Default)]
pub struct LinkIn {
    seq: u64,
    last: Option<Arc<TableState>>,
}

impl LinkIn {
    /// The table's news from what crossed. [`WireError::Gap`] when it follows a state this side did not get:
    /// nothing is shown until the whole state comes again.
    pub fn take(&mut self, event: WireNews) -> Result<TableNews, WireError> {
        let (seq, state) = match event {
            WireNews::News { event } => return Ok(event),
            WireNews::State { seq, state } => (seq, state_from_wire(state)?),
            WireNews::Moves {
                seq,
                keep,
                moves,
                outcome,
                table,
            } => {
                let before = self
                    .last
                    .as_ref()
                    .filter(|_| seq == self.seq + 1)
                    .ok_or(WireError::Gap)?;
                let game = play_since(&before.game, keep, &moves, outcome)?;
                (seq, table_from_wire(game, table))
            }
        };
        let state = Arc::new(state);
        self.seq = seq;
        self.last = Some(Arc::clone(&state));
        Ok(TableNews::State(state))
    }
}

/// How `after` follows from `before` as moves: the plies of `before` it keeps and the moves after them; `None`
/// when more than its moves changed (another game, its tags).
fn moves_since(before: &AnyGame, after: &AnyGame) -> Option<(usize, Vec<Move>)> {
    let same_game = before.game_type() == after.game_type()
        && before.start() == after.start()
        && before.move_limit() == after.move_limit()
        && before.tags() == after.tags();
    if !same_game {
        return None;
    }
    let keep = before
        .moves()
        .iter()
        .zip(after.moves())
        .take_while(|(a, b)| a == b)
        .count();
    Some((keep, after.moves()[keep..].to_vec()))
}

/// The game `before` with its first `keep` plies kept, `moves` played after them, each checked by the rules,
/// and ended as the owner's game ended.
fn play_since(
    before: &AnyGame,
    keep: usize,
    moves: &[Move],
    outcome: Option<Outcome>,
) -> Result<AnyGame, WireError> {
    let mut game = before.clone();
    game.withdraw();
    if !game.go_to(keep) {
        return Err(WireError::Gap);
    }
    game.truncate();
    for mv in moves {
        game.play(mv).map_err(|_| WireError::IllegalMove)?;
    }
    end_as(&mut game, outcome);
    Ok(game)
}

/// Ends `game` as the owner's ended: a result the rules did not reach themselves (a resignation, time, an
/// agreement) is declared.
fn end_as(game: &mut AnyGame, outcome: Option<Outcome>) {
    if let Some(outcome) = outcome
        && game.outcome() != Some(outcome)
    {
        // Refused only when the rules ended the game themselves, and then they say why.
        let _ = game.declare(outcome);
    }
}

fn table_to_wire(state: &TableState) -> WireTable {
    WireTable {
        seats: state.seats.clone(),
        clocks: state.clocks,
        running: state.running,
        first_move_left: state.first_move_left,
        watchers: state.watchers,
        rated: state.rated,
        paused: state.paused,
        unrecorded: state.unrecorded,
    }
}

fn table_from_wire(game: AnyGame, table: WireTable) -> TableState {
    TableState {
        game,
        seats: table.seats,
        clocks: table.clocks,
        running: table.running,
        first_move_left: table.first_move_left,
        watchers: table.watchers,
        rated: table.rated,
        paused: table.paused,
        unrecorded: table.unrecorded,
        // Set by the node the person is on, never sent.
        node_silent: false,
    }
}

fn state_to_wire(state: &TableState) -> WireState {
    WireState {
        pdn: state.game.to_pdn(),
        outcome: state.game.outcome(),
        tags: state
            .game
            .tags()
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect(),
        table: table_to_wire(state),
    }
}

fn state_from_wire(state: WireState) -> Result<TableState, WireError> {
    let game = game_from_wire(&state.pdn, state.outcome, &state.tags)?;
    Ok(table_from_wire(game, state.table))
}

/// Reads a game sent as PDN, ending it as the owner's game ended.
fn game_from_wire(
    pdn: &str,
    outcome: Option<Outcome>,
    tags: &[(String, String)],
) -> Result<AnyGame, WireError> {
    let text = parse_games(pdn)
        .into_iter()
        .next()
        .ok_or_else(|| WireError::BadGame("no game".to_string()))?
        .map_err(|e| WireError::BadGame(e.to_string()))?;
    let (mut game, trouble) = open_game(&text, None);
    if let Some(trouble) = trouble {
        return Err(WireError::BadGame(trouble));
    }
    // The record's result says who won, not always why: the owner's outcome replaces it.
    game.withdraw();
    end_as(&mut game, outcome);
    let mut own = Tags::new();
    for (name, value) in tags {
        own.set(name, value);
    }
    *game.tags_mut() = own;
    Ok(game)
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
