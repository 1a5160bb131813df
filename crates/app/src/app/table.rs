//! A game played at a table somewhere else (on a server), between people: what the app is told about it
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

/// The app's side of a table, a part of the app: where the player sits, what the table last said, its chat, and
/// the player's move on its way to it. Its fields are its own: the app reads them through the methods below
/// and tells it the table's news.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableView {
    /// The player's colour; `None` for a watcher.
    seat: Option<Color>,
    /// The code others join or watch the game by.
    code: String,
    /// The table as last told.
    state: Option<Arc<TableState>>,
    /// The clocks as last told.
    clocks: Option<[Duration; 2]>,
    /// The chat, oldest first, at most [`CHAT_KEPT`] lines.
    chat: VecDeque<String>,
    /// Whether the player has muted the table's chat (`:mute`): lines that come meanwhile are not shown.
    muted: bool,
    /// Whether the table is a board of a tournament, whose pairings decide the next game (no rematch).
    in_event: bool,
    /// How a friend reaches the server, as the player did (`ssh -t -p 2222 192.0.2.7`), when known.
    reached_by: Option<String>,
    /// The player's move sent to the table and not yet seen in its state.
    sent: Option<Move>,
    /// Whether the status line says that a move of the player's was refused, and they have not moved since: the
    /// table's news about seats and clocks does not replace it, so that the word is read, not flashed.
    refusal_standing: bool,
}

/// How the game on show is brought to the table's ([`TableView::follow`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Following {
    /// They agree: nothing to do (seats or clocks changed, not the game).
    Same,
    /// The table has not seen the move the player just sent yet: the game on show keeps it.
    AwaitingOurs,
    /// The table is this one move ahead: it is shown stepping along its path.
    OneAhead(Move),
    /// Anything else (a takeback, an ending, a game joined part-way, a move refused): the table's game is taken
    /// as it is.
    Replace,
}

impl TableView {
    /// A table the player has just sat down at (or watches, with no seat), before it has said anything.
    pub fn new(seat: Option<Color>, code: impl Into<String>) -> TableView {
        TableView {
            seat,
            code: code.into(),
            state: None,
            clocks: None,
            chat: VecDeque::new(),
            muted: false,
            in_event: false,
            reached_by: None,
            sent: None,
            refusal_standing: false,
        }
    }

    /// Makes the table a board of a tournament (or not): the event pairs the next game, so there is no rematch.
    pub fn set_in_event(&mut self, in_event: bool) {
        self.in_event = in_event;
    }

    /// Says how a friend reaches the server, as the player did (`ssh -t -p 2222 192.0.2.7`).
    pub fn set_reached_by(&mut self, reached_by: Option<String>) {
        self.reached_by = reached_by;
    }

    /// The player's colour; `None` for a watcher.
    pub fn seat(&self) -> Option<Color> {
        self.seat
    }

    /// The code others join or watch the game by.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The table as last told, once it has said anything.
    pub fn state(&self) -> Option<&TableState> {
        self.state.as_deref()
    }

    /// The clocks as last told.
    pub fn clocks(&self) -> Option<[Duration; 2]> {
        self.clocks
    }

    /// The chat, oldest first, at most [`CHAT_KEPT`] lines.
    pub fn chat(&self) -> &VecDeque<String> {
        &self.chat
    }

    /// Whether the player has muted the chat.
    pub fn muted(&self) -> bool {
        self.muted
    }

    /// Whether the player's move was sent to the table and is not yet in the state it told.
    pub fn move_on_its_way(&self) -> bool {
        self.sent.is_some()
    }

    /// Whether the table is a board of a tournament.
    pub fn in_event(&self) -> bool {
        self.in_event
    }

    /// Mutes the chat, or lets it be heard again; whether it is muted now.
    pub(super) fn toggle_mute(&mut self) -> bool {
        self.muted = !self.muted;
        self.muted
    }

    /// A chat line from `from`: kept and returned as shown, unless the chat is muted.
    pub(super) fn chat_line(&mut self, from: &str, text: &str) -> Option<String> {
        if self.muted {
            return None;
        }
        let line = format!("{from}: {text}");
        self.hear(line.clone());
        Some(line)
    }

    /// The clocks as the table tells them between states.
    pub(super) fn set_clocks(&mut self, clocks: [Duration; 2]) {
        self.clocks = Some(clocks);
    }

    /// The table's new state, kept; whether it differs from the last only by the passing of time (a countdown,
    /// the clocks).
    pub(super) fn take_state(&mut self, state: Arc<TableState>) -> bool {
        let ticked_only = self
            .state
            .as_deref()
            .is_some_and(|before| Gist::of(before) == Gist::of(&state));
        self.clocks = state.clocks;
        self.state = Some(state);
        ticked_only
    }

    /// The player's move, sent to the table.
    pub(super) fn sent(&mut self, mv: Move) {
        self.sent = Some(mv);
        self.refusal_standing = false;
    }

    /// Notes that the status line says a move of the player's was refused, until they move again.
    pub(super) fn refusal_said(&mut self) {
        self.refusal_standing = true;
    }

    /// Whether the status line says that a move of the player's was refused and they have not moved since.
    pub fn refusal_standing(&self) -> bool {
        self.refusal_standing
    }

    /// The table refused the move sent: if one was on its way, it is forgotten, and the game on show goes back
    /// to this state, the table's last.
    pub(super) fn refused_sent(&mut self) -> Option<Arc<TableState>> {
        self.sent.take()?;
        self.state.clone()
    }

    /// Forgets the move sent: the game on show was replaced by the table's (and what was said of a refusal is
    /// past).
    pub(super) fn forget_sent(&mut self) {
        self.sent = None;
        self.refusal_standing = false;
    }

    /// How `ours`, the game on show, is brought to `theirs`, the table's (the move sent, if any, is settled by
    /// it): a move ahead is shown only when the game on show is at its last move (not taken back).
    pub(super) fn follow(&mut self, ours: &AnyGame, theirs: &AnyGame) -> Following {
        let (played, told) = (ours.moves(), theirs.moves());
        if played == told && ours.outcome() == theirs.outcome() {
            self.sent = None;
            return Following::Same;
        }
        let awaiting_ours = self.sent.is_some()
            && theirs.outcome().is_none()
            && told.len() + 1 == played.len()
            && played.starts_with(told);
        if awaiting_ours {
            return Following::AwaitingOurs;
        }
        self.sent = None;
        let one_ahead = ours.outcome().is_none()
            && told.len() == played.len() + 1
            && told.starts_with(played)
            && ours.ply() == played.len();
        match one_ahead {
            true => Following::OneAhead(told[played.len()]),
            false => Following::Replace,
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
    fn hear(&mut self, line: String) {
        if self.chat.len() == CHAT_KEPT {
            self.chat.pop_front();
        }
        self.chat.push_back(line);
    }
}

/// What a table's state says apart from its ticking (the clocks, the time left to come back): two states with
/// the same gist differ only by the passing of time.
#[derive(PartialEq)]
struct Gist<'a> {
    game: &'a AnyGame,
    /// Each seat's name, and whether its player is away, and past their grace.
    seats: [Option<(&'a str, Option<bool>)>; 2],
    running: Option<Color>,
    paused: bool,
    unrecorded: bool,
    node_silent: bool,
}

impl Gist<'_> {
    fn of(state: &TableState) -> Gist<'_> {
        Gist {
            game: &state.game,
            seats: [0, 1].map(|i| {
                state.seats[i]
                    .as_ref()
                    .map(|s| (s.name.as_str(), s.away.map(|left| left.is_zero())))
            }),
            running: state.running,
            paused: state.paused,
            unrecorded: state.unrecorded,
            node_silent: state.node_silent,
        }
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
        let mut table = TableView::new(Some(Color::Black), "K7QX");
        for n in 0..CHAT_KEPT + 5 {
            table.hear(n.to_string());
        }
        assert_eq!(table.chat.len(), CHAT_KEPT);
        assert_eq!(table.chat.front().map(String::as_str), Some("5"));
    }

    fn game_after(moves: &[&str]) -> AnyGame {
        let mut game = AnyGame::default();
        for text in moves {
            game.play_text(text).expect("a legal move");
        }
        game
    }

    #[test]
    fn the_game_on_show_follows_the_table() {
        let mut table = TableView::new(Some(Color::Black), "K7QX");
        let start = game_after(&[]);
        let one = game_after(&["11-15"]);
        let two = game_after(&["11-15", "23-19"]);
        assert_eq!(table.follow(&one, &one), Following::Same);
        // The player's move, shown at once and sent, waits for the table to see it.
        let mv = one.moves()[0];
        table.sent(mv);
        assert_eq!(table.follow(&one, &start), Following::AwaitingOurs);
        assert_eq!(table.follow(&one, &one), Following::Same);
        // Without a move sent, a table a move behind took one back.
        assert_eq!(table.follow(&one, &start), Following::Replace);
        assert_eq!(
            table.follow(&one, &two),
            Following::OneAhead(two.moves()[1])
        );
        // A move ahead of a game browsed back by an undo is the table's game as it is.
        let mut undone = two.clone();
        undone.undo();
        assert_eq!(
            table.follow(&undone, &game_after(&["11-15", "23-19", "8-11"])),
            Following::Replace
        );
    }

    #[test]
    fn a_refused_move_goes_back_to_the_last_state_only_when_one_was_sent() {
        let mut table = TableView::new(Some(Color::Black), "K7QX");
        let state = Arc::new(TableState {
            game: AnyGame::default(),
            seats: [None, None],
            clocks: Some([Duration::from_secs(60); 2]),
            running: None,
            first_move_left: None,
            watchers: 0,
            rated: false,
            paused: false,
            unrecorded: false,
            node_silent: false,
        });
        assert!(!table.take_state(state.clone()));
        assert_eq!(table.clocks(), Some([Duration::from_secs(60); 2]));
        // The same state a second later is only ticking.
        assert!(table.take_state(state.clone()));
        assert_eq!(table.refused_sent(), None);
        table.sent(game_after(&["11-15"]).moves()[0]);
        assert_eq!(table.refused_sent(), Some(state));
        assert_eq!(table.refused_sent(), None);
    }

    #[test]
    fn a_muted_chat_keeps_nothing() {
        let mut table = TableView::new(None, "K7QX");
        assert_eq!(table.chat_line("ann", "hi").as_deref(), Some("ann: hi"));
        assert!(table.toggle_mute());
        assert_eq!(table.chat_line("bob", "hello"), None);
        assert_eq!(table.chat().len(), 1);
    }
}
