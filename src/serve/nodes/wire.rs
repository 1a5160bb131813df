//! What nodes say to each other about rooms, as JSON: a person on one node taking a seat at, watching, asking of
//! or leaving a room another node owns, and the room's news for them.
//!
//! The game crosses as PDN (with its definition, for a defined variant, so any node reads it) and its outcome
//! beside it (PDN keeps a result but not always why); a move crosses as its squares, which the owner checks
//! against the rules as it checks any move.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::app::{OfferKind, SeatView, TableEvent, TableRequest, TableState};
use crate::game::pdn::{open_game, parse_games};
use crate::game::{AnyGame, Outcome, Tags};
use crate::rules::{Color, MAX_PATH, Move, Square};

/// A message between nodes about a room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Envelope {
    /// To a room's owner: a person on node `from` takes a seat at room `code`; their news goes to `link` there.
    Sit {
        /// The node the person is connected to.
        from: String,
        /// The person's line on that node.
        link: u64,
        /// The room.
        code: String,
        /// Their key's fingerprint.
        fingerprint: String,
        /// Their display name.
        name: String,
        /// The colour they ask for.
        color: Option<Color>,
        /// Their rating, for a rated game.
        rating: Option<i32>,
    },
    /// To a room's owner: a person on node `from` watches room `code`.
    Watch {
        /// The node the person is connected to.
        from: String,
        /// The person's line on that node.
        link: u64,
        /// The room.
        code: String,
        /// Their key's fingerprint.
        fingerprint: String,
        /// Their display name.
        name: String,
    },
    /// To a room's owner: a person asks something of room `code`.
    Ask {
        /// The node the person is connected to.
        from: String,
        /// The person's line on that node.
        link: u64,
        /// The room.
        code: String,
        /// What they ask.
        request: WireRequest,
    },
    /// To a room's owner: a person's connection has gone.
    Leave {
        /// The node the person was connected to.
        from: String,
        /// Their line on that node.
        link: u64,
        /// The room.
        code: String,
    },
    /// To a person's node: the answer to their [`Envelope::Sit`], the colour they got or why not.
    Seated {
        /// Their line.
        link: u64,
        /// Their colour, or the room's reason in words.
        result: Result<Color, String>,
    },
    /// To a person's node: the room's news for them.
    Update {
        /// Their line.
        link: u64,
        /// The news.
        event: WireEvent,
    },
    /// To a person's node: the room will send nothing more on this line (it has ended, or its owner let it go).
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

/// A [`TableRequest`] as it crosses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireRequest {
    /// Play a move, given by its squares.
    Play {
        /// The square it starts from, by index.
        from: u8,
        /// Each square it lands on, in order, by index.
        path: Vec<u8>,
        /// The squares it takes, as a set of index bits in hexadecimal.
        captured: String,
        /// Whether it crowns.
        crowns: bool,
    },
    /// An offer.
    Offer {
        /// Of what.
        offer: OfferKind,
    },
    /// An answer to the opponent's offer.
    Answer {
        /// Which offer.
        offer: OfferKind,
        /// Yes or no.
        accept: bool,
    },
    /// Resign.
    Resign,
    /// A chat line.
    Chat {
        /// What is said.
        text: String,
    },
    /// Claim the game from an opponent away too long.
    Claim,
    /// Call the game a draw when the opponent is away too long.
    ClaimDraw,
    /// Start the clocks again after a pause.
    Resume,
}

/// A [`TableEvent`] as it crosses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireEvent {
    /// The table after a change.
    State(WireState),
    /// The clocks as they run.
    Clocks {
        /// Black's and White's time left.
        clocks: [Duration; 2],
    },
    /// The opponent offers something.
    Offer {
        /// What.
        offer: OfferKind,
    },
    /// An offer was declined.
    Declined {
        /// Which.
        offer: OfferKind,
    },
    /// A request was refused.
    Refused {
        /// Why.
        reason: String,
    },
    /// A move was refused.
    MoveRefused {
        /// Why.
        reason: String,
    },
    /// A rematch was agreed, at this code.
    Rematch {
        /// The new table's code.
        code: String,
    },
    /// The player took their seat again from another connection.
    TakenOver,
    /// A chat line.
    Chat {
        /// Who said it.
        from: String,
        /// What.
        text: String,
    },
}

/// A [`TableState`] as it crosses: its game as PDN.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireState {
    /// The game's record.
    pub pdn: String,
    /// How it ended, if it has.
    pub outcome: Option<Outcome>,
    /// The game's own tags, in order (the PDN adds its result and game type to them).
    pub tags: Vec<(String, String)>,
    /// Black's and White's seats.
    pub seats: [Option<SeatView>; 2],
    /// Each side's time left.
    pub clocks: Option<[Duration; 2]>,
    /// Whose clock runs.
    pub running: Option<Color>,
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
    /// A move whose squares cannot be a move.
    #[error("a move from another node is malformed")]
    BadMove,
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

/// The request as it crosses.
pub fn request_to_wire(request: &TableRequest) -> WireRequest {
    match request {
        TableRequest::Play(mv) => WireRequest::Play {
            from: mv.from().index(),
            path: mv.path().iter().map(|square| square.index()).collect(),
            captured: format!("{:x}", mv.captured_set()),
            crowns: mv.crowns(),
        },
        TableRequest::Offer(offer) => WireRequest::Offer { offer: *offer },
        TableRequest::Answer { kind, accept } => WireRequest::Answer {
            offer: *kind,
            accept: *accept,
        },
        TableRequest::Resign => WireRequest::Resign,
        TableRequest::Chat(text) => WireRequest::Chat { text: text.clone() },
        TableRequest::Claim => WireRequest::Claim,
        TableRequest::ClaimDraw => WireRequest::ClaimDraw,
        TableRequest::Resume => WireRequest::Resume,
    }
}

/// The request a node was sent.
pub fn request_from_wire(request: WireRequest) -> Result<TableRequest, WireError> {
    Ok(match request {
        WireRequest::Play {
            from,
            path,
            captured,
            crowns,
        } => {
            let captured = u128::from_str_radix(&captured, 16).map_err(|_| WireError::BadMove)?;
            if path.is_empty()
                || path.len() > MAX_PATH
                || from >= 128
                || path.iter().any(|&s| s >= 128)
            {
                return Err(WireError::BadMove);
            }
            let path: Vec<Square> = path.into_iter().map(Square::from_index).collect();
            TableRequest::Play(Move::capture(
                Square::from_index(from),
                &path,
                captured,
                crowns,
            ))
        }
        WireRequest::Offer { offer } => TableRequest::Offer(offer),
        WireRequest::Answer { offer, accept } => TableRequest::Answer {
            kind: offer,
            accept,
        },
        WireRequest::Resign => TableRequest::Resign,
        WireRequest::Chat { text } => TableRequest::Chat(text),
        WireRequest::Claim => TableRequest::Claim,
        WireRequest::ClaimDraw => TableRequest::ClaimDraw,
        WireRequest::Resume => TableRequest::Resume,
    })
}

/// The event as it crosses.
pub fn event_to_wire(event: &TableEvent) -> WireEvent {
    match event {
        TableEvent::State(state) => WireEvent::State(WireState {
            pdn: state.game.to_pdn(),
            outcome: state.game.outcome(),
            tags: state
                .game
                .tags()
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            seats: state.seats.clone(),
            clocks: state.clocks,
            running: state.running,
            watchers: state.watchers,
            rated: state.rated,
            paused: state.paused,
            unrecorded: state.unrecorded,
        }),
        TableEvent::Clocks(clocks) => WireEvent::Clocks { clocks: *clocks },
        TableEvent::Offer(offer) => WireEvent::Offer { offer: *offer },
        TableEvent::Declined(offer) => WireEvent::Declined { offer: *offer },
        TableEvent::Refused(reason) => WireEvent::Refused {
            reason: reason.clone(),
        },
        TableEvent::MoveRefused(reason) => WireEvent::MoveRefused {
            reason: reason.clone(),
        },
        TableEvent::Rematch(code) => WireEvent::Rematch { code: code.clone() },
        TableEvent::TakenOver => WireEvent::TakenOver,
        TableEvent::Chat { from, text } => WireEvent::Chat {
            from: from.clone(),
            text: text.clone(),
        },
    }
}

/// The event a node was sent.
pub fn event_from_wire(event: WireEvent) -> Result<TableEvent, WireError> {
    Ok(match event {
        WireEvent::State(state) => TableEvent::State(Arc::new(TableState {
            game: game_from_wire(&state.pdn, state.outcome, &state.tags)?,
            seats: state.seats,
            clocks: state.clocks,
            running: state.running,
            watchers: state.watchers,
            rated: state.rated,
            paused: state.paused,
            unrecorded: state.unrecorded,
            // Set by the node the person is on, never sent.
            node_silent: false,
        })),
        WireEvent::Clocks { clocks } => TableEvent::Clocks(clocks),
        WireEvent::Offer { offer } => TableEvent::Offer(offer),
        WireEvent::Declined { offer } => TableEvent::Declined(offer),
        WireEvent::Refused { reason } => TableEvent::Refused(reason),
        WireEvent::MoveRefused { reason } => TableEvent::MoveRefused(reason),
        WireEvent::Rematch { code } => TableEvent::Rematch(code),
        WireEvent::TakenOver => TableEvent::TakenOver,
        WireEvent::Chat { from, text } => TableEvent::Chat { from, text },
    })
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
    if let Some(outcome) = outcome
        && game.outcome() != Some(outcome)
    {
        // Refused only when the rules ended the game themselves, and then they say why.
        let _ = game.declare(outcome);
    }
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
