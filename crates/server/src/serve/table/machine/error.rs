//! Why a table (or the list of tables) refuses what someone asked: each refusal is told to the asker alone, in
//! the words below, which are what the player reads on their screen.

use std::time::Duration;

use thiserror::Error;

use crate::app::{OfferKind, clock_text};
use crate::game::{GameError, Outcome};
use crate::rules::Color;
use crate::serve::TableCode;

/// A request the table (or the list of tables) refused, and why; its text is what the asker is shown.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    /// Someone who only watches asked what only a player may.
    #[error("you are watching this game")]
    Watching,
    /// A move (or a resignation) before the second player sat down.
    #[error("the game starts when the opponent sits down")]
    NoOpponentYet,
    /// A move or a request after the game ended, with how it ended.
    #[error("the game is over: {0}")]
    OverAs(Outcome),
    /// A request after the game ended.
    #[error("the game is over")]
    Over,
    /// An answer to an offer the end of the game made void.
    #[error("the game is over: {} offered during it ended with it", .0.words())]
    OfferEnded(OfferKind),
    /// A seat asked for in a game that has ended.
    #[error("the game is over; you may watch it")]
    OverMayWatch,
    /// A move out of turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// A move while the clocks wait for a player to come back.
    #[error("the clocks start when both players are here")]
    ClocksWaiting,
    /// A move the rules do not allow.
    #[error("{0}")]
    Illegal(#[from] GameError),
    /// The mover's time ran out before their move arrived.
    #[error("your time ran out")]
    TimeRanOut,
    /// An offer with nobody in the other seat.
    #[error("there is nobody to ask yet")]
    NobodyToAsk,
    /// A takeback asked with no move of one's own to take back.
    #[error("you have no move to take back")]
    NoMoveToTakeBack,
    /// A pause asked while the clocks are not running.
    #[error("the clocks are not running")]
    ClocksNotRunning,
    /// Starting the clocks again when they have not been stopped.
    #[error("the clocks are not stopped")]
    ClocksNotStopped,
    /// An answer to an offer nobody made.
    #[error("there is nothing to answer")]
    NothingToAnswer,
    /// Resigning without a game in progress of one's own.
    #[error("there is no game of yours to resign")]
    NothingToResign,
    /// A claim with nobody in the other seat.
    #[error("there is nobody to claim against")]
    NobodyToClaimAgainst,
    /// A claim against an opponent who is at the table (their name).
    #[error("{0} is here")]
    OpponentHere(String),
    /// A claim before the opponent's grace period is over: their name and the time left.
    #[error("{name} may still come back ({} left)", clock_text(*.left))]
    MayComeBack {
        /// The opponent's name.
        name: String,
        /// The time they still have to come back.
        left: Duration,
    },
    /// Too many chat lines in a short time.
    #[error("slow down: a few lines at a time")]
    SlowDown,
    /// A rematch offered before the game ended.
    #[error("a rematch is for after the game")]
    RematchTooSoon,
    /// A rematch offered at a tournament's board: the event pairs the next game.
    #[error("a tournament's game has no rematch: the event pairs your next game")]
    RematchInEvent,
    /// A rematch with nobody to play it.
    #[error("there is nobody to play")]
    NobodyToPlay,
    /// A rematch offered to an opponent who has gone (their name).
    #[error("{0} has left the table")]
    OpponentLeft(String),
    /// The rematch offered is off: the other player has gone (their name).
    #[error("{0} has left the table: no rematch")]
    RematchOff(String),
    /// A rematch agreed at a table that is not linked to the server's list of tables.
    #[error("this table cannot open another")]
    CannotOpenAnother,
    /// Every game code is taken.
    #[error("the server has no free game codes just now; try again soon")]
    NoFreeCodes,
    /// A seat asked for by colour, and that colour's seat is taken.
    #[error("{} is taken", .0.word())]
    SeatTaken(Color),
    /// A seat asked for at a game whose seats are both taken.
    #[error("the game has two players already; you may watch it")]
    Full,
    /// No game has this code (the code, as asked).
    #[error("there is no game {0} on this server (it may have ended)")]
    NoGame(TableCode),
    /// A player with as many games in progress as one may have (how many).
    #[error(
        "you have {0} games in progress, the most one player may have: finish one (or resign) first"
    )]
    TooManyGames(usize),
    /// The refusal of a table another node owns, in its words.
    #[error("{0}")]
    Elsewhere(String),
    /// One of the player and someone at the table has blocked the other (the text says so, with their name).
    #[error("{0}")]
    Blocked(String),
    /// A connection coming back to its seat after its table moved finds the player seated from a newer one.
    #[error("your game is played from another connection")]
    SeatedElsewhere,
    /// The node that owns the table did not answer in time.
    #[error("the game's server did not answer in time; try again")]
    NoAnswer,
}

impl TableError {
    /// The refusal of the table `code` that another node owns, from its words: the refusals a connection acts on
    /// (rather than shows) are known again by their words (a table that stopped as the seat was asked, to be
    /// looked for where it runs next; a newer connection seated), and the others kept as words.
    pub fn from_elsewhere(words: String, code: Option<&TableCode>) -> TableError {
        if words == TableError::SeatedElsewhere.to_string() {
            return TableError::SeatedElsewhere;
        }
        if let Some(code) = code
            && words == TableError::NoGame(code.clone()).to_string()
        {
            return TableError::NoGame(code.clone());
        }
        TableError::Elsewhere(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_read_as_the_players_have_always_read_them() {
        let away = TableError::MayComeBack {
            name: "ann".into(),
            left: Duration::from_secs(75),
        };
        assert_eq!(away.to_string(), "ann may still come back (1:15 left)");
        assert_eq!(
            TableError::OfferEnded(OfferKind::Draw).to_string(),
            format!(
                "the game is over: {} offered during it ended with it",
                OfferKind::Draw.words()
            )
        );
        assert_eq!(
            TableError::SeatTaken(Color::White).to_string(),
            "white is taken"
        );
        assert_eq!(
            TableError::NoGame("K7QX".into()).to_string(),
            "there is no game K7QX on this server (it may have ended)"
        );
    }
}
