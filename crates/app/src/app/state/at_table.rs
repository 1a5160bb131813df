//! Playing at a table elsewhere (on a server): the player's moves are shown at once and sent, the table's
//! states are followed, and what means something else between people at a table is turned into requests to it:
//! undo asks the opponent for a takeback, a draw offer goes to the opponent, resigning is sent. A new game,
//! setting up, loading or taking the engine's moves belong to games played here and are refused.

use std::sync::Arc;
use std::time::Duration;

use super::App;
use crate::app::action::{Action, Effect, ReplayAction, SetupAction};
use crate::app::mode::Mode;
use crate::app::overlay::Question;
use crate::app::preferences::Preferences;
use crate::app::table::{
    ConductRequest, Following, NODE_SILENT, OfferKind, TAKEN_OVER, TableNews, TableRequest,
    TableState, TableView, clock_text,
};
use crate::config::Context;
use crate::engine::{Player, Players};
use crate::game::AnyGame;
use crate::rules::{Color, GameType};

/// Why a game at a table gives no hints: its players are people, and the engine must not play for one of them.
const NO_HINTS_AT_TABLES: &str = "no hints in a game between people";

impl App {
    /// An app at `table` (on a server) for a game of `game_type`, seated or watching: the player moves
    /// their side; the other side's moves, and everything else about the game, come from the table as
    /// [`Action::Table`].
    pub fn at_table(table: TableView, game_type: GameType) -> App {
        let players = match table.seat() {
            Some(Color::Black) => Players {
                black: Player::Human,
                white: Player::Remote,
            },
            Some(Color::White) => Players {
                black: Player::Remote,
                white: Player::Human,
            },
            None => Players {
                black: Player::Remote,
                white: Player::Remote,
            },
        };
        let mut app = App::fresh(AnyGame::new(game_type), players, Preferences::default());
        app.table = Some(table);
        app.status = app.mode_message();
        app
    }

    /// The table the game is played at, when it is played at one.
    pub fn table(&self) -> Option<&TableView> {
        self.table.as_ref()
    }

    /// What a table takes before the game: its own news, and the actions that mean something else at a table.
    /// `None` when the action goes on as usual (or there is no table).
    pub(super) fn table_action(&mut self, action: &Action) -> Option<Vec<Effect>> {
        self.table.as_ref()?;
        let refusal = match action {
            Action::Table(event) => return Some(self.table_event(event.clone())),
            Action::Undo => return Some(self.ask_takeback()),
            Action::Redo => "a move taken back at a table stays taken back".to_string(),
            Action::Rematch => return Some(self.offer_rematch()),
            Action::NewGame
            | Action::Setup(SetupAction::Open)
            | Action::Load
            | Action::Replay(ReplayAction::Continue) => self.leave_first(),
            Action::Pause => return Some(self.pause_or_resume()),
            Action::MoveNow => "no engine plays at this table".to_string(),
            Action::Hint => NO_HINTS_AT_TABLES.to_string(),
            Action::Save => Self::kept_on_server(),
            _ => return None,
        };
        self.status = refusal;
        Some(Vec::new())
    }

    /// The typed commands that mean something else at a table: `None` for those that go on as usual.
    pub(super) fn table_command(
        &mut self,
        name: &str,
        rest: Option<&str>,
    ) -> Option<Result<Vec<Effect>, String>> {
        self.table.as_ref()?;
        Some(match name {
            "undo" => Ok(self.ask_takeback()),
            "redo" => Err("a move taken back at a table stays taken back".into()),
            "hint" => Err(NO_HINTS_AT_TABLES.into()),
            "rematch" => Ok(self.offer_rematch()),
            "new" | "setup" | "load" | "continue" | "ballot" => Err(self.leave_first()),
            "fen" if rest.is_some_and(|r| !r.is_empty()) => Err(self.leave_first()),
            "pause" => Ok(self.pause_or_resume()),
            "move" | "level" => Err("no engine plays at this table".into()),
            "save" => Err(Self::kept_on_server()),
            _ => return None,
        })
    }

    fn leave_first(&self) -> String {
        format!(
            "this game is played at a table: {} leaves it first",
            self.key(Context::Board, "quit", ":quit")
        )
    }

    fn kept_on_server() -> String {
        "games at a table are kept on the server: `ssh HOST games` prints yours as PDN".into()
    }

    /// The player's seat at the table, or why they cannot act as a player.
    pub(super) fn seated(&self) -> Result<Color, String> {
        let table = self.table.as_ref().ok_or("there is no table")?;
        let seat = table.seat().ok_or("you are watching this game")?;
        if let Some(outcome) = self.play.game().outcome() {
            return Err(format!("{outcome} already"));
        }
        Ok(seat)
    }

    /// Undo at a table: the opponent is asked to let the player take back their last move.
    fn ask_takeback(&mut self) -> Vec<Effect> {
        match self.seated() {
            Ok(_) => {
                self.status = "you ask to take back your last move: waiting for the answer".into();
                vec![Effect::Table(TableRequest::Offer(OfferKind::Takeback))]
            }
            Err(why) => {
                self.status = why;
                Vec::new()
            }
        }
    }

    /// `:draw` at a table: the offer goes to the opponent.
    pub(super) fn offer_draw_at_table(&mut self) -> Vec<Effect> {
        match self.seated() {
            Ok(_) => {
                self.status = "you offer a draw: waiting for the answer".into();
                vec![Effect::Table(TableRequest::Offer(OfferKind::Draw))]
            }
            Err(why) => {
                self.status = why;
                Vec::new()
            }
        }
    }

    /// The rematch key (or `:rematch`) at a table once the game is over: the opponent is asked for another
    /// game, colours swapped, same clock.
    fn offer_rematch(&mut self) -> Vec<Effect> {
        let seat = self.table.as_ref().and_then(TableView::seat);
        let in_event = self.table.as_ref().is_some_and(TableView::in_event);
        let refusal = match (seat, self.play.game().outcome()) {
            (None, _) => "you are watching this game",
            (Some(_), _) if in_event => {
                "a tournament's game has no rematch: the event pairs the next one"
            }
            (Some(_), None) => "a rematch is for after the game",
            (Some(_), Some(_)) => {
                self.status =
                    "you offer a rematch, colours swapped, same clock: waiting for the answer"
                        .into();
                return vec![Effect::Table(TableRequest::Offer(OfferKind::Rematch))];
            }
        };
        self.status = refusal.into();
        Vec::new()
    }

    /// `:pause` (or its key) at a table: asks the opponent to stop the clocks, or starts them again after an
    /// agreed pause.
    fn pause_or_resume(&mut self) -> Vec<Effect> {
        if let Err(why) = self.seated() {
            self.status = why;
            return Vec::new();
        }
        match self.table.as_ref().and_then(TableView::state) {
            Some(state) if state.paused => {
                self.status = "you start the clocks again".into();
                vec![Effect::Table(TableRequest::Resume)]
            }
            Some(state) if state.clocks.is_some() => {
                self.status = "you ask to stop the clocks: waiting for the answer".into();
                vec![Effect::Table(TableRequest::Offer(OfferKind::Pause))]
            }
            _ => {
                self.status = "this game has no clocks to stop".into();
                Vec::new()
            }
        }
    }

    /// `:say TEXT`: a line to the table (players hear players; watchers hear everyone).
    pub(super) fn say(&mut self, text: Option<&str>) -> Result<Vec<Effect>, String> {
        if self.table.is_none() {
            return Err("chat is for games at a table, on a server".into());
        }
        match text.map(str::trim).filter(|t| !t.is_empty()) {
            Some(text) => Ok(vec![Effect::Table(TableRequest::Chat(text.to_string()))]),
            None => Err("say what? :say and the line".into()),
        }
    }

    /// `:mute`: the table's chat is not shown until `:mute` again.
    pub(super) fn mute(&mut self) -> Result<Vec<Effect>, String> {
        let table = self
            .table
            .as_mut()
            .ok_or("muting is for a table's chat, on a server")?;
        self.status = match table.toggle_mute() {
            true => "the table's chat is muted: :mute again to hear it".into(),
            false => "the table's chat is heard again".into(),
        };
        Ok(Vec::new())
    }

    /// `:block`: the opponent is blocked (the server keeps it): no more chat or offers from them, and they are
    /// never seated with this player again.
    pub(super) fn block(&mut self) -> Result<Vec<Effect>, String> {
        self.opponent_at_table("blocking")?;
        Ok(vec![Effect::Conduct(ConductRequest::Block)])
    }

    /// `:report TEXT`: the opponent is reported to the server's operator with a line saying why.
    pub(super) fn report(&mut self, text: Option<&str>) -> Result<Vec<Effect>, String> {
        self.opponent_at_table("reporting")?;
        match text.map(str::trim).filter(|t| !t.is_empty()) {
            Some(text) => Ok(vec![Effect::Conduct(ConductRequest::Report(
                text.to_string(),
            ))]),
            None => Err("say why: :report and a line for the operator".into()),
        }
    }

    /// That the player sits at a table with an opponent, or why `what` needs one.
    fn opponent_at_table(&self, what: &str) -> Result<(), String> {
        let table = self
            .table
            .as_ref()
            .ok_or_else(|| format!("{what} is for the opponent at a table, on a server"))?;
        let seat = table
            .seat()
            .ok_or_else(|| format!("{what} is for players: you are watching this game"))?;
        match table.seat_view(seat.opponent()) {
            Some(_) => Ok(()),
            None => Err(format!("{what} needs an opponent: nobody has sat down yet")),
        }
    }

    /// `:claim`: the win, or with `draw` a draw, when the opponent has been away past the grace period.
    pub(super) fn claim(&mut self, rest: Option<&str>) -> Result<Vec<Effect>, String> {
        if self.table.is_none() {
            return Err("claiming is for games at a table, when the opponent has gone".into());
        }
        self.seated()?;
        match rest.map(str::trim).unwrap_or_default() {
            "" | "win" => Ok(vec![Effect::Table(TableRequest::Claim)]),
            "draw" => Ok(vec![Effect::Table(TableRequest::ClaimDraw)]),
            _ => Err("`:claim` claims the win, `:claim draw` calls it a draw".into()),
        }
    }

    /// A move the player made at a table: shown at once (the app has checked it), and sent.
    pub(super) fn send_move(&mut self, effects: &mut Vec<Effect>) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        if let Some(mv) = self
            .play
            .game()
            .moves()
            .get(self.play.game().ply().wrapping_sub(1))
            .cloned()
        {
            table.sent(mv);
            effects.push(Effect::Table(TableRequest::Play(mv)));
        }
    }

    /// The answer to the opponent's offer, sent to the table.
    pub(super) fn answer_offer(&mut self, kind: OfferKind, accept: bool) -> Vec<Effect> {
        self.status = match (kind, accept) {
            (_, true) => format!("you accept {}", kind.words()),
            (_, false) => format!("you decline {}. {}", kind.words(), self.mode_message()),
        };
        vec![Effect::Table(TableRequest::Answer { kind, accept })]
    }

    fn table_event(&mut self, event: TableNews) -> Vec<Effect> {
        if let TableNews::State(state) = event {
            return self.table_state(state);
        }
        let Some(table) = self.table.as_mut() else {
            return Vec::new();
        };
        match event {
            TableNews::State(_) => Vec::new(),
            TableNews::Clocks(clocks) => {
                table.set_clocks(clocks);
                Vec::new()
            }
            TableNews::Offer(kind) => {
                let question = Question::Offered(kind);
                self.overlay.ask(question);
                self.status = question.text_from(table.opponent_name());
                Vec::new()
            }
            TableNews::Declined(kind) => {
                let who = table.opponent_name().unwrap_or("Your opponent").to_string();
                self.status = format!("{who} declines {}. {}", kind.words(), self.mode_message());
                Vec::new()
            }
            TableNews::Rematch(code) => {
                // The front end takes the player to the new table; until then, say where they are going.
                self.status = format!("to the rematch: table {code}…");
                Vec::new()
            }
            TableNews::Refused(why) => {
                self.status = why;
                Vec::new()
            }
            TableNews::TakenOver => {
                // The front end takes this connection to the lobby.
                self.status = TAKEN_OVER.to_string();
                Vec::new()
            }
            TableNews::MoveRefused(why) => {
                // The move the table did not take is put back as the table has the game.
                let effects = match table.refused_sent() {
                    Some(state) => self.replace_game(&state),
                    None => Vec::new(),
                };
                if let Some(table) = self.table.as_mut() {
                    table.refusal_said();
                }
                self.status = why;
                effects
            }
            TableNews::Chat { from, text, .. } => {
                if let Some(line) = table.chat_line(&from, &text) {
                    self.status = line;
                }
                Vec::new()
            }
            TableNews::Told(text) => {
                self.status = text;
                Vec::new()
            }
        }
    }

    /// The table's new state: the game brought to it, and the status line with it. A state that only ticks (a
    /// countdown, the clocks) brings the status line up to date only while it says what the table last said, so
    /// that a chat line or a refusal is not wiped a second later; any other change is told.
    fn table_state(&mut self, state: Arc<TableState>) -> Vec<Effect> {
        let said = self.mode_message();
        let Some(table) = self.table.as_mut() else {
            return Vec::new();
        };
        let ticked_only = table.take_state(state.clone());
        if state.game.outcome().is_some()
            && matches!(self.question(), Some(Question::Offered(kind)) if kind != OfferKind::Rematch)
        {
            // The game ended while an offer waited: there is nothing left to answer.
            self.overlay.close_panel();
        }
        let before = self.status.clone();
        let effects = self.follow(&state);
        // A move played or taken back has said so already; a refusal stands until the player moves again.
        let followed = self.status != before;
        let quiet = matches!(self.mode, Mode::Play) && self.overlay.panel().is_none();
        let refused = self.table.as_ref().is_some_and(TableView::refusal_standing);
        if quiet && !followed && !refused && (self.status == said || !ticked_only) {
            self.status = self.mode_message();
        }
        effects
    }

    /// Brings the game to the table's: nothing when they agree (or the table has not yet seen the move the player
    /// just sent), one move shown stepping along its path when the table is one move ahead, else the table's game.
    fn follow(&mut self, state: &TableState) -> Vec<Effect> {
        let Some(table) = self.table.as_mut() else {
            return Vec::new();
        };
        let mv = match table.follow(self.play.game(), &state.game) {
            // Seats and clocks changed, not the game: the caller brings the status line up to date.
            Following::Same | Following::AwaitingOurs => return Vec::new(),
            Following::Replace => return self.replace_game(state),
            Following::OneAhead(mv) => mv,
        };
        let browsing = self.mode;
        let effects = self.play(mv);
        if self.play.game().outcome() != state.game.outcome() {
            // The table ended the game otherwise (a flag fell as the move came): its word stands.
            return self.replace_game(state);
        }
        // Someone looking back through the game stays where they are; the move shows in the history.
        if let (Mode::Browsing { .. }, Mode::Play) = (browsing, self.mode) {
            self.mode = browsing;
            self.status = self.mode_message();
        }
        effects
    }

    /// Takes the table's game as it is (a takeback, an ending, a game joined part-way).
    fn replace_game(&mut self, state: &TableState) -> Vec<Effect> {
        let browsing = match self.mode {
            Mode::Browsing { ply } if ply < state.game.ply() => Some(ply),
            _ => None,
        };
        self.play.replace_game(state.game.clone());
        if let Some(table) = self.table.as_mut() {
            table.forget_sent();
        }
        let effects = self.after_change();
        if let (Some(ply), Mode::Play) = (browsing, self.mode) {
            self.mode = Mode::Browsing { ply };
            self.status = self.mode_message();
        }
        effects
    }

    /// What the status line says of the turn at a table: whose it is, who is missing, how to go on; and, while
    /// the server cannot write its records, that no move is played until it can.
    pub(super) fn table_turn_message(&self, table: &TableView, turn: String) -> String {
        let Some(state) = table.state() else {
            return format!("{turn}: joining the table…");
        };
        let message = self.table_turn(table, state, turn);
        if state.node_silent {
            format!("{message} · {NODE_SILENT}")
        } else if state.unrecorded {
            format!(
                "{message} · the server cannot save moves right now: a move is played once it is saved, so try again in a moment"
            )
        } else {
            message
        }
    }

    fn table_turn(&self, table: &TableView, state: &TableState, turn: String) -> String {
        let side = self.play.game().position().side_to_move();
        if let Some(missing) = [Color::Black, Color::White]
            .into_iter()
            .find(|c| state.seats[c.index()].is_none())
        {
            // The clock rule is told before the game starts: it holds the moment the opponent sits down.
            let clocks = match state.clocks {
                Some(_) => format!(
                    " · the clocks start after each side's first move, which must come within {} s or the game is aborted",
                    crate::app::FIRST_MOVE_LIMIT.as_secs()
                ),
                None => String::new(),
            };
            return format!(
                "waiting for an opponent to take {missing}: code {} (a friend types `{}`){clocks}",
                table.code(),
                table.join_command()
            );
        }
        for color in [Color::Black, Color::White] {
            if let Some(seat) = &state.seats[color.index()]
                && let Some(left) = seat.away
                && table.seat() != Some(color)
            {
                return away_message(&turn, &seat.name, left, table.seat().is_some());
            }
        }
        if state.paused {
            return format!(
                "{turn}: the clocks are stopped by agreement (a move, or {}, starts them)",
                self.key(Context::Board, "pause", ":pause")
            );
        }
        // A first move is not timed, but has a limit: its time counts down where the clock would.
        let first_move = state.first_move_left.map(|left| {
            format!(
                " · a first move within {} s, or the game is aborted",
                left.as_secs_f64().ceil()
            )
        });
        let first_move = first_move.unwrap_or_default();
        match (table.seat(), &state.seats[side.index()]) {
            (Some(seat), _) if seat == side => format!("{turn}: your move{first_move}"),
            (_, Some(seat)) => format!("{turn}: {} is thinking{first_move}", seat.name),
            _ => turn,
        }
    }

    /// Why the player may not move at a table now.
    pub(super) fn table_refusal(&self, table: &TableView) -> String {
        match table.seat() {
            None => "you are watching this game".into(),
            Some(_) if !table.full() => format!(
                "the game starts when your opponent sits down (code {})",
                table.code()
            ),
            Some(_) => "it is your opponent's turn".into(),
        }
    }
}

/// What the status line says while `name` is away: how long they have left to come back, then (once that is
/// over) what the player who stayed may do, or for a watcher that the game may be claimed.
fn away_message(turn: &str, name: &str, left: Duration, seated: bool) -> String {
    match (left.is_zero(), seated) {
        (false, true) => format!(
            "{turn}: waiting for {name} to reconnect ({} left; then you may claim the game)",
            clock_text(left)
        ),
        (false, false) => format!(
            "{turn}: waiting for {name} to reconnect ({} left to come back)",
            clock_text(left)
        ),
        (true, true) => format!(
            "{turn}: {name} has not come back: :claim wins the game, :claim draw calls it a draw, or wait"
        ),
        (true, false) => {
            format!("{turn}: {name} has not come back; the other player may claim the game or wait")
        }
    }
}
