//! A game played at a table somewhere else (a room on a server), between people: what the app is told about it
//! ([`TableNews`]) and what it asks of it ([`TableRequest`]).
//!
//! The table is the authority: the app shows its game, its seats and its clocks, and sends the player's moves,
//! offers and answers. A move the player makes is shown at once and sent; the table's next state confirms it
//! (or, if the table refused it, puts the game back as the table has it).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use crate::game::{AnyGame, TimeControl};
use crate::rules::{Color, Move, Variant};

/// How many chat lines the app keeps to show.
pub const CHAT_KEPT: usize = 50;

/// A new game as asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewTable {
    /// The variant (on its usual board).
    pub variant: Variant,
    /// The time control, if any.
    pub clock: Option<TimeControl>,
    /// The colour wanted; `None` for either, chosen at random.
    pub color: Option<Color>,
    /// Whether it changes ratings.
    pub rated: bool,
    /// Whether it is left out of the lobby's list (joined by its code only). Games are listed unless asked
    /// otherwise, whether opened with `new` or from the lobby's form.
    pub private: bool,
}

impl Default for NewTable {
    fn default() -> NewTable {
        NewTable {
            variant: Variant::English,
            clock: None,
            color: None,
            rated: true,
            private: false,
        }
    }
}

/// The characters of a table's code (`K7QX`): the alphabet leaves out the characters people confuse when
/// reading or hearing them (0 and O, 1, I and L, 2 and Z, 5 and S, 8 and B, U and V): 23 characters, so four of
/// them give 279,841 codes.
pub const CODE_ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTWXY34679";

/// Characters in a table's code.
pub const CODE_LENGTH: usize = 4;

/// A table's code as a player typed it: any case, spaces and dashes ignored (`k7 qx`, `K7-QX`); `None` when it
/// cannot be a code.
pub fn read_table_code(text: &str) -> Option<String> {
    let code: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let valid = code.len() == CODE_LENGTH && code.bytes().all(|b| CODE_ALPHABET.contains(&b));
    valid.then_some(code)
}

/// Something offered to the opponent, who accepts or declines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OfferKind {
    /// A draw.
    Draw,
    /// Taking back the asker's last move.
    Takeback,
    /// Stopping both clocks (a move, or either player's word, starts them again).
    Pause,
    /// After the game: another, colours swapped, same clock, at a new table both players are taken to.
    Rematch,
}

impl OfferKind {
    /// The offer in words: `a draw`, `a takeback`.
    pub fn words(self) -> &'static str {
        match self {
            OfferKind::Draw => "a draw",
            OfferKind::Takeback => "a takeback",
            OfferKind::Pause => "a pause of the clocks",
            OfferKind::Rematch => "a rematch",
        }
    }
}

/// A seat as the people at the table see it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeatView {
    /// The player's display name (already made safe to print).
    pub name: String,
    /// Their rating in this variant, when the game is rated.
    pub rating: Option<i32>,
    /// Whether that rating is provisional (few games against established players yet), shown `1512?` (a node
    /// of an earlier version sends none; written only when true, to keep the nodes' messages short).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
    /// Their rating after the game, once a rated game has ended and its result is in the records (a node of an
    /// earlier version sends none).
    #[serde(default)]
    pub rating_after: Option<i32>,
    /// Whether they are connected; if not, how long they have left to come back.
    pub away: Option<Duration>,
}

impl SeatView {
    /// How the player's rating moved in the game that has just ended, as lichess shows it: `1478 → 1491 (+13)`;
    /// `None` before the ratings after it are known (or when the game is not rated).
    pub fn rating_change(&self) -> Option<String> {
        Some(rating_change_text(self.rating?, self.rating_after?))
    }
}

/// A rating's move in a game, as lichess shows it: `1478 → 1491 (+13)`.
pub fn rating_change_text(before: i32, after: i32) -> String {
    format!("{before} → {after} ({:+})", after - before)
}

/// How long each side of a timed game at a table has for its first move, which its clock does not time: a game
/// in which the side to move has not made it by then is aborted without a result (lichess and lidraughts allow
/// about as long), or, in a tournament, lost.
pub const FIRST_MOVE_LIMIT: Duration = Duration::from_secs(30);

/// The table as it stands, after a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableState {
    /// The game: its moves and, once over, its outcome.
    pub game: AnyGame,
    /// Black's and White's seats, by [`Color::index`].
    pub seats: [Option<SeatView>; 2],
    /// Each side's time left, when the game has clocks, by [`Color::index`].
    pub clocks: Option<[Duration; 2]>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// While the side to move has not made its first move (which is not timed): how long it has left to make it
    /// before the game is aborted (or, in a tournament, lost).
    pub first_move_left: Option<Duration>,
    /// People watching.
    pub watchers: usize,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether the clocks are stopped by the players' agreement.
    pub paused: bool,
    /// Whether the server cannot write its records just now (a full disk, say): a move (or anything else that
    /// changes the game) is refused until it can, and nothing already shown is lost.
    pub unrecorded: bool,
    /// Whether the node that runs the game, another than the one this person is connected to, has stopped
    /// answering (it has died or stalled): the game is paused and a move is refused until that node answers
    /// again or another node takes the game over. Set by the person's own node, never by the room.
    pub node_silent: bool,
}

/// What a table tells the people at it.
///
/// Serialisable for what crosses between server nodes as it is; the table's state crosses in a shape of its
/// own (the game as moves after the first time), so it is never serialised here.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableNews {
    /// The table after a change.
    #[serde(skip)]
    State(Arc<TableState>),
    /// The clocks as they run (a few times a minute would do; the table sends one when a shown second changes).
    Clocks([Duration; 2]),
    /// The opponent offers something.
    Offer(OfferKind),
    /// An offer of this person's was declined.
    Declined(OfferKind),
    /// A request of this person's was refused, and why.
    Refused(String),
    /// This person's move was refused, and why: the game is as the table last said.
    MoveRefused(String),
    /// A rematch was agreed: its table has this code, and the players (and watchers) go there.
    Rematch(String),
    /// The player took their seat again from another connection: this one leaves the table (the last thing it
    /// hears from the room).
    TakenOver,
    /// A chat line, already cleaned.
    Chat {
        /// Who said it.
        from: String,
        /// What.
        text: String,
        /// Who said it, as the server knows them (their key's fingerprint; empty for the table itself), so that
        /// a player who has blocked them does not hear it.
        #[serde(default)]
        by: String,
    },
    /// A word from the server for this person alone (a report kept, a player blocked).
    Told(String),
}

/// What the people at a table are told while the node that runs its game does not answer.
pub const NODE_SILENT: &str = "the server node running this game is not answering: the game is paused until it \
     answers or another node takes it over, in a few seconds";

/// What a connection whose seat was taken again from another connection is told.
pub const TAKEN_OVER: &str = "you are playing this game from another connection";

/// What the player asks of the table (serialisable: it crosses between server nodes as it is).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableRequest {
    /// Play a move.
    Play(Move),
    /// Offer the opponent a draw or ask for a takeback.
    Offer(OfferKind),
    /// Answer the opponent's offer.
    Answer {
        /// Which offer.
        kind: OfferKind,
        /// Yes or no.
        accept: bool,
    },
    /// Resign.
    Resign,
    /// Say something to the table.
    Chat(String),
    /// Claim the game when the opponent has been away longer than the grace period.
    Claim,
    /// Call the game a draw when the opponent has been away longer than the grace period (the player who stays
    /// may prefer it to a win: in a lost position, say).
    ClaimDraw,
    /// Start the clocks again after an agreed pause.
    Resume,
}

/// What a player asks the server about their opponent at a table: kept in the server's records, never the
/// room's business (it does not cross to the room, nor to another node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConductRequest {
    /// Block the opponent: no more chat or offers from them, and never seated with them again.
    Block,
    /// Report the opponent to the server's operator, with this line (kept with the game's code).
    Report(String),
}

/// The app's side of a table: where the player sits and what the table last said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The player's colour; `None` for a watcher.
    pub seat: Option<Color>,
    /// The code others join or watch the game by.
    pub code: String,
    /// The table as last told.
    pub state: Option<Arc<TableState>>,
    /// The clocks as last told.
    pub clocks: Option<[Duration; 2]>,
    /// The chat, oldest first, at most [`CHAT_KEPT`] lines.
    pub chat: VecDeque<String>,
    /// Whether the player has muted the table's chat (`:mute`): lines that come meanwhile are not shown.
    pub muted: bool,
    /// Whether the table is a board of a tournament, whose pairings decide the next game (no rematch).
    pub in_event: bool,
    /// How a friend reaches the server, as the player did (`ssh -t -p 2222 192.0.2.7`), when known.
    pub reached_by: Option<String>,
}

impl Table {
    /// A table the player has just sat down at (or watches, with no seat), before it has said anything.
    pub fn new(seat: Option<Color>, code: impl Into<String>) -> Table {
        Table {
            seat,
            code: code.into(),
            state: None,
            clocks: None,
            chat: VecDeque::new(),
            muted: false,
            in_event: false,
            reached_by: None,
        }
    }

    /// The whole command a friend types to join the game: `ssh -t -p 2222 192.0.2.7 join K7QX` (or `join K7QX`
    /// when it is not known how the server was reached).
    pub fn join_command(&self) -> String {
        match &self.reached_by {
            Some(ssh) => format!("{ssh} join {}", self.code),
            None => format!("join {}", self.code),
        }
    }

    /// The opponent's name, for a player seated at a full table.
    pub fn opponent_name(&self) -> Option<&str> {
        let seat = self.seat?;
        self.seat_view(seat.opponent()).map(|s| s.name.as_str())
    }

    /// The seat of `color`, as last told.
    pub fn seat_view(&self, color: Color) -> Option<&SeatView> {
        self.state.as_ref()?.seats[color.index()].as_ref()
    }

    /// Whether both seats are taken.
    pub fn full(&self) -> bool {
        self.state
            .as_ref()
            .is_some_and(|s| s.seats.iter().all(Option::is_some))
    }

    /// Keeps a chat line, dropping the oldest past [`CHAT_KEPT`].
    pub fn hear(&mut self, line: String) {
        if self.chat.len() == CHAT_KEPT {
            self.chat.pop_front();
        }
        self.chat.push_back(line);
    }
}

/// A clock's time as shown: `4:05`, and `1:02:03` past an hour. Seconds are shown whole (a part-second left
/// counts as a second, so that `0:00` means the time is up): the table sends the clocks as each second changes.
pub fn clock_text(left: Duration) -> String {
    let seconds = left.as_millis().div_ceil(1000);
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// Below this a local game's clocks show tenths of a second: the last seconds of a fast game are counted closely.
pub const TENTHS_BELOW: Duration = Duration::from_secs(10);

/// A local game's clock as shown: as [`clock_text`], but with tenths in the last ten seconds (`0:09.4`, a part
/// of a tenth left counting as a tenth).
pub fn clock_text_fine(left: Duration) -> String {
    let tenths = left.as_millis().div_ceil(100);
    match left < TENTHS_BELOW && tenths < 100 {
        true => format!("0:{:02}.{}", tenths / 10, tenths % 10),
        false => clock_text(left),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_ten_seconds_show_tenths() {
        assert_eq!(clock_text_fine(Duration::from_secs(10)), "0:10");
        assert_eq!(clock_text_fine(Duration::from_millis(9_950)), "0:10");
        assert_eq!(clock_text_fine(Duration::from_millis(9_900)), "0:09.9");
        assert_eq!(clock_text_fine(Duration::from_millis(9_401)), "0:09.5");
        assert_eq!(clock_text_fine(Duration::from_millis(50)), "0:00.1");
        assert_eq!(clock_text_fine(Duration::ZERO), "0:00.0");
        assert_eq!(clock_text_fine(Duration::from_secs(300)), "5:00");
    }

    #[test]
    fn clocks_read_as_a_player_expects() {
        assert_eq!(clock_text(Duration::from_secs(300)), "5:00");
        assert_eq!(clock_text(Duration::from_secs(65)), "1:05");
        assert_eq!(clock_text(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(clock_text(Duration::from_millis(9_450)), "0:10");
        assert_eq!(clock_text(Duration::from_millis(1)), "0:01");
        assert_eq!(clock_text(Duration::ZERO), "0:00");
    }

    #[test]
    fn the_chat_keeps_the_newest_lines() {
        let mut table = Table::new(Some(Color::Black), "K7QX");
        for n in 0..CHAT_KEPT + 5 {
            table.hear(n.to_string());
        }
        assert_eq!(table.chat.len(), CHAT_KEPT);
        assert_eq!(table.chat.front().map(String::as_str), Some("5"));
    }
}
