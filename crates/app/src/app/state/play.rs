//! The play core: the game's own actions (the cursor, picking and typing moves, the engine's turns and answers,
//! undo and redo, browsing the game, flipping, quitting) and starting or leaving a game.

use super::App;
use crate::app::action::{Action, BrowseAction, Effect, EngineNews, Purpose, SetupAction};
use crate::app::ballot::OpeningChoice;
use crate::app::cursor::CursorStep;
use crate::app::dialog::NewGameDialog;
use crate::app::mode::{Focus, Mode};
use crate::app::picking::Pick;
use crate::engine::{AnySituation, Player, Players};
use crate::game::AnyGame;
use crate::rules::{Move, Square};

impl App {
    /// What the game does with an action no overlay, setup or replay took.
    pub(super) fn game_action(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Up | Action::Down | Action::Left | Action::Right => {
                if self.focus == Focus::History {
                    let back = matches!(action, Action::Up | Action::Left);
                    return self.dispatch(if back {
                        Action::Browse(BrowseAction::Back)
                    } else {
                        Action::Browse(BrowseAction::Forward)
                    });
                }
                self.move_cursor(&action);
                Vec::new()
            }
            Action::PickAtCursor => self.pick(self.play.cursor().square()),
            Action::PickSquare(square) => self.pick(square),
            Action::Cancel => self.cancel(),
            Action::Submit(_)
            | Action::SubmitInput
            | Action::Edit(_)
            | Action::Paste(_)
            | Action::StartTyping
            | Action::ToggleHistoryFocus => self.typing_action(action),
            Action::NewGame => {
                self.overlay.open_dialog(
                    NewGameDialog::new(self.game_type(), self.players)
                        .with_clock(self.play.clocks().new_games()),
                );
                Vec::new()
            }
            Action::Rematch => self.start_new(self.players.swapped()),
            Action::MoveNow => self.move_now(),
            Action::Hint => self.ask_hint(None),
            Action::Undo => self.take_back(),
            Action::Redo => self.step_forward(),
            Action::Flip => {
                self.flipped = !self.flipped;
                self.play.fit_cursor(self.board(), self.flipped);
                Vec::new()
            }
            Action::Browse(step) => self.browse_action(step),
            Action::Engine(news) => self.engine_news(news),
            Action::Answer(_) => Vec::new(),
            Action::Pause => self.toggle_pause(),
            Action::Save => self.run_command("save"),
            // The table's news, with no table to hear it.
            Action::Resized { .. } | Action::Timer(_) | Action::Table(_) => Vec::new(),
            Action::AnalyseGame => self.start_review(),
            Action::ToggleAnalysis => self.toggle_analysis(),
            Action::ToggleCaptureEffect => self.toggle_capture_effect(),
            Action::Problems => self.open_problems(),
            // An answer for a trainer no longer open.
            Action::Proved { .. } => Vec::new(),
            Action::Quit => self.quit(),
            Action::Interrupt => self.quit_now(),
            Action::Notice(text) => {
                self.status = text;
                Vec::new()
            }
            Action::Setup(SetupAction::Open) => self.open_setup(self.players),
            Action::Load => vec![Effect::ListSaved],
            Action::ShowGames(list) => {
                self.show_games(*list);
                Vec::new()
            }
            // Taken before any part of the app is offered an action: it concerns the game in any mode.
            Action::Filed(_) => Vec::new(),
            Action::Replay(_) => {
                self.status =
                    "that works when replaying a game (:load, or crowned FILE.pdn)".into();
                Vec::new()
            }
            // A list's keys with no list open; the lobby's, with no lobby.
            Action::List(_)
            | Action::Lobby(_)
            | Action::Event(_)
            | Action::SettingsKey(_)
            | Action::OpenSettings
            | Action::ShowSettings { .. }
            | Action::SettingAnswered { .. } => Vec::new(),
            // Editing a position needs the setup to be open; answers to a question that is not being asked; the
            // help's own actions, which the overlay takes before the game.
            // A file's letter is taken before the parts of the app are offered anything.
            Action::FileLetter { .. }
            | Action::Setup(_)
            | Action::AcceptResume
            | Action::DeclineResume
            | Action::Help(_) => Vec::new(),
        }
    }

    /// Browsing the game on show: a move back or on, to the start, back to the live position, or to a move the
    /// review marked.
    fn browse_action(&mut self, step: BrowseAction) -> Vec<Effect> {
        match step {
            BrowseAction::Back => self.browse(|ply, _| ply.saturating_sub(1)),
            BrowseAction::Forward => self.browse(|ply, live| (ply + 1).min(live)),
            BrowseAction::First => self.browse(|_, _| 0),
            BrowseAction::Last => {
                self.leave_browsing();
                Vec::new()
            }
            BrowseAction::ToMark(forward) => self.jump_to_mark(forward),
        }
    }

    /// What the engine says of a search: how far it has gone, the move it chose, its judgement of a position.
    fn engine_news(&mut self, news: EngineNews) -> Vec<Effect> {
        match news {
            EngineNews::Progress {
                search,
                depth,
                score,
                pv,
            } => {
                self.play.note_progress(search, depth, score);
                self.note_line(search, &pv);
                self.review_progress(search, depth, score, &pv);
                self.analysis_report(search, depth, score, pv)
            }
            EngineNews::Moved { search, mv } => self.engine_moved(search, mv),
            EngineNews::Evaluated { search, score } if self.is_review_search(search) => {
                self.review_answer(search, score);
                Vec::new()
            }
            EngineNews::Evaluated { search, score } => self.draw_offer_judged(search, score),
            // Taken as a move or a judgement before the parts of the app see it.
            EngineNews::Done { .. } => Vec::new(),
        }
    }

    /// Starts a new game of the same variant and board from its start with `players`; an unfinished game is
    /// archived first.
    pub(super) fn start_new(&mut self, players: Players) -> Vec<Effect> {
        // A game from a ballot is played again from the same ballot (a rematch plays it with the colours swapped).
        let opening = self.ballot.unwrap_or(OpeningChoice::Standard);
        self.start_with_opening(self.game_type(), players, opening)
    }

    /// Starts `game` with `players`; an unfinished game is archived first.
    pub(super) fn start_game(&mut self, game: AnyGame, players: Players) -> Vec<Effect> {
        let mut effects = self.leave_game();
        effects.extend(self.restart(game, players));
        effects
    }

    /// Stops the engine and keeps the game being left when it is the player's own and unfinished (a game being
    /// replayed belongs to its file).
    pub(super) fn leave_game(&mut self) -> Vec<Effect> {
        let mut effects = self.stop_thinking();
        if self.replay.is_none()
            && !self.play.game().is_empty()
            && self.play.game().final_outcome().is_none()
        {
            effects.push(Effect::Archive {
                game: Box::new(self.play.game().clone()),
                players: self.players,
                file: self.saved_file.clone(),
                clock: self.clock_state(),
            });
        }
        effects
    }

    /// Replaces the game and players, everything else starting afresh, and starts the game going.
    pub(super) fn restart(&mut self, game: AnyGame, players: Players) -> Vec<Effect> {
        self.reset(game, players);
        self.after_change()
    }

    /// Replaces the game and players, everything else starting afresh but the preferences and the search
    /// numbers: they go on rising, so that an answer from the old game is never taken for one in this game.
    pub(super) fn reset(&mut self, game: AnyGame, players: Players) {
        let mut fresh = App::fresh(game, players, std::mem::take(&mut self.preferences));
        fresh.play.carry_over(&self.play);
        fresh.screen = self.screen;
        (fresh.seed, fresh.draws) = (self.seed, self.draws);
        fresh.analysis = self.analysis.kept();
        *self = fresh;
    }

    /// Esc on the game: leaves typing, browsing or the move list, or drops the selection and the hint. A help open over
    /// nothing closes too (the keys close it themselves; a cancel sent otherwise must not leave it behind).
    fn cancel(&mut self) -> Vec<Effect> {
        self.overlay.close_help();
        if self.focus == Focus::Input {
            self.input.clear();
            self.focus = Focus::Board;
            self.status = self.mode_message();
        } else if matches!(self.mode, Mode::Browsing { .. }) {
            self.focus = Focus::Board;
            self.leave_browsing();
        } else if self.focus == Focus::History {
            self.focus = Focus::Board;
            self.status = self.mode_message();
        } else {
            self.play.drop_selection();
            // The hint goes too, and the search for one.
            self.hint = None;
            self.status = self.mode_message();
            if self.finding_hint() {
                return self.stop_thinking();
            }
        }
        Vec::new()
    }

    /// Hurries the engine: a move held for the pace is shown now, a search under way answers with its best.
    pub(super) fn move_now(&mut self) -> Vec<Effect> {
        if self.play.pace().is_holding() {
            // A game between engines waiting for its pace: the move is shown now.
            return self.show_held_move();
        }
        match self.play.thinking() {
            Some(thinking) => {
                self.status = match thinking.purpose {
                    Purpose::Hint => "the best move found so far:".into(),
                    _ => "the engine moves now".into(),
                };
                vec![Effect::MoveNow]
            }
            None => {
                self.status = "the engine is not thinking".into();
                Vec::new()
            }
        }
    }

    /// Moves the board cursor one square the way `action` (an arrow) says, as the board is turned.
    pub(super) fn move_cursor(&mut self, action: &Action) {
        let step = match action {
            Action::Up => CursorStep::Up,
            Action::Down => CursorStep::Down,
            Action::Left => CursorStep::Left,
            _ => CursorStep::Right,
        };
        self.play.step_cursor(step, self.board(), self.flipped);
    }

    /// Puts the cursor on `square`.
    pub(super) fn put_cursor(&mut self, square: Square) {
        if self.play.cursor().square() == square {
            // Picking the square under the cursor keeps the diagonal it came along.
            return;
        }
        self.play.put_cursor(square, self.board(), self.flipped);
    }

    /// Puts the cursor where the player is likely to want it: on the selected piece, or on the middle one of the
    /// pieces that can move, when a human is to move and the cursor is not already on one of them.
    pub(super) fn place_cursor(&mut self) {
        if !self.humans_turn() {
            return;
        }
        let movable = self.play.picker().movable();
        let target = self.play.picker().selected().or_else(|| {
            let on_movable = self.cursor_square().is_some_and(|s| movable.contains(&s));
            (!on_movable)
                .then(|| movable.get(movable.len() / 2).copied())
                .flatten()
        });
        if let Some(square) = target {
            self.put_cursor(square);
        }
    }

    /// Whether the person at the keyboard is to move (at a table, once both seats are taken).
    pub(super) fn humans_turn(&self) -> bool {
        self.players.of(self.play.game().position().side_to_move()) == Player::Human
            && self.table.as_ref().is_none_or(|t| t.full())
    }

    /// Picks `square` for the move being made: selects a piece, goes on with a capture, or completes the move.
    pub(super) fn pick(&mut self, square: Square) -> Vec<Effect> {
        self.put_cursor(square);
        match self.mode {
            // Setting up handles its own picks; this is only reached through a stale path.
            Mode::Over(_) | Mode::Setup(_) => {
                self.status = self.mode_message();
                return Vec::new();
            }
            Mode::Browsing { .. } => {
                self.status = self.browsing_refusal();
                return Vec::new();
            }
            Mode::Play => {}
        }
        if !self.humans_turn() {
            self.status = self.engine_refusal();
            return Vec::new();
        }
        let position = self.play.game().position();
        // The jumps of a capture picked one by one have been seen: the animation shows the rest.
        let seen = self.play.picker().taken_so_far(&position).len();
        match self.play.pick(square) {
            Ok(Pick::Complete(mv)) => self.play_shown_from(mv, seen),
            Ok(Pick::Selected(s)) => {
                self.status = format!("{} selected", position.square_name(s));
                Vec::new()
            }
            Ok(Pick::Continues { at }) => {
                self.status = format!("the capture goes on from {}", position.square_name(at));
                Vec::new()
            }
            Ok(Pick::Dropped) => {
                self.status = self.mode_message();
                Vec::new()
            }
            Err(e) => {
                self.status = e.to_string();
                Vec::new()
            }
        }
    }

    /// Plays `mv` and shows it stepping along its whole path.
    pub(super) fn play(&mut self, mv: Move) -> Vec<Effect> {
        self.play_shown_from(mv, 0)
    }

    /// Plays `mv`, and shows it stepping along its path from its landing number `seen`.
    fn play_shown_from(&mut self, mv: Move, seen: usize) -> Vec<Effect> {
        let before = self.play.game().position();
        let players_own = self.players.of(before.side_to_move()) == Player::Human;
        if let Some(effects) = self.flag_before_move() {
            // Too late: the time ran out before the move came.
            return effects;
        }
        match self.play.play_move(&mv) {
            Ok(()) => {
                let mut effects = Vec::new();
                if players_own {
                    self.send_move(&mut effects);
                }
                effects.extend(self.after_change());
                effects.extend(self.animate(before, mv, seen));
                effects
            }
            Err(e) => {
                self.status = e.to_string();
                Vec::new()
            }
        }
    }

    /// After the game changed (the moves to pick are the new position's already: the game changes only
    /// through [`InPlay`](crate::app::in_play::InPlay), which keeps them in step): the cursor, the game's end if
    /// it came, the engine's turn if it is one.
    pub(super) fn after_change(&mut self) -> Vec<Effect> {
        self.place_cursor();
        self.game_changed = true;
        let mut effects = Vec::new();
        if self.finding_hint() {
            // The hint was for the position before: nobody needs it now.
            effects.extend(self.stop_thinking());
        }
        match self.play.game().outcome() {
            Some(outcome) => {
                self.mode = Mode::Over(outcome);
                self.status = self.mode_message();
            }
            None => {
                self.mode = Mode::Play;
                self.status = self.mode_message();
                effects.extend(self.start_pace());
                effects.extend(self.next_turn());
            }
        }
        effects
    }

    /// Starts the engine when it is to move (unless the player holds it).
    pub(super) fn next_turn(&mut self) -> Vec<Effect> {
        let side = self.play.game().position().side_to_move();
        if self.paused {
            return Vec::new();
        }
        match self.players.of(side) {
            Player::Human | Player::Remote => Vec::new(),
            Player::Engine(level) => {
                if let Some(effects) = self.ponder_hit(level, side) {
                    return effects;
                }
                let search = self.play.begin_search(Purpose::Move);
                vec![Effect::Think {
                    search,
                    situation: AnySituation::of_game(self.play.game()),
                    level,
                    limits: self.move_limits(level, side),
                }]
            }
        }
    }

    /// Asks again for the engine's move, with the settings now in force (their time to think, their clocks),
    /// when one was asked for: for a front end that gives the settings after opening the game, and drops the
    /// search first asked for without starting it.
    pub fn renew_engine_turn(&mut self) -> Vec<Effect> {
        match self.play.thinking() {
            Some(thinking) if thinking.purpose == Purpose::Move => {
                self.play.stop_waiting();
                self.next_turn()
            }
            _ => Vec::new(),
        }
    }

    /// Stops waiting for the engine: a move held for the pace is dropped, and a search under way is stopped (its
    /// answer will be stale).
    pub(super) fn stop_thinking(&mut self) -> Vec<Effect> {
        self.play.pace_mut().drop_held();
        match self.play.stop_waiting() {
            Some(_) => vec![Effect::StopThinking],
            None => Vec::new(),
        }
    }

    /// The engine answered search `search`: its move is played, held for the pace, or ignored when stale.
    fn engine_moved(&mut self, search: u64, mv: Option<Move>) -> Vec<Effect> {
        if self.ponder_answered(search) {
            return Vec::new();
        }
        if self
            .play
            .thinking()
            .is_some_and(|t| t.search == search && t.purpose == Purpose::Hint)
        {
            self.hint_found(mv);
            return Vec::new();
        }
        let wanted = self
            .play
            .thinking()
            .filter(|t| t.search == search && t.purpose == Purpose::Move);
        if wanted.is_none() || self.play.pace().is_holding() {
            // An answer to a search that was stopped (by an undo, say): the game has moved on.
            return Vec::new();
        }
        if self.play.pace_mut().hold(mv) {
            // A game between engines: the move is shown when the pace says.
            return Vec::new();
        }
        let effects = self.deliver(mv);
        self.expect_reply(search, mv);
        effects
    }

    /// Plays the engine's move (or, with none, lets the game end).
    pub(super) fn deliver(&mut self, mv: Option<Move>) -> Vec<Effect> {
        self.play.stop_waiting();
        self.play.pace_mut().drop_held();
        let browsing = self.mode;
        let effects = match mv {
            Some(mv) => self.play(mv),
            None => self.after_change(),
        };
        // Someone looking back through the game stays where they are; the move shows in the history.
        if let (Mode::Browsing { .. }, Mode::Play) = (browsing, self.mode) {
            self.mode = browsing;
            self.status = self.mode_message();
        }
        effects
    }

    /// Undo: a declared ending (a resignation, an agreed draw), or one move, or against the engine, back to the
    /// human's previous turn. With nothing to take back nothing changes: a search under way goes on.
    pub(super) fn take_back(&mut self) -> Vec<Effect> {
        if self.play.withdraw_ending() {
            let mut effects = self.stop_thinking();
            effects.extend(self.after_change());
            if matches!(self.mode, Mode::Play) {
                self.status = format!("taken back: {}", self.mode_message());
            }
            return effects;
        }
        if self.play.game().ply() == 0 {
            self.status = "nothing to undo".into();
            return Vec::new();
        }
        let mut effects = self.stop_thinking();
        self.play.undo_move();
        while !self.humans_turn() && self.has_human() && self.play.undo_move() {}
        effects.extend(self.after_change());
        effects
    }

    /// Redo: one move, or against the engine, on to the human's next turn. With nothing to replay nothing
    /// changes: a search under way goes on.
    pub(super) fn step_forward(&mut self) -> Vec<Effect> {
        if self.play.game().ply() == self.play.game().len() {
            self.status = "nothing to redo".into();
            return Vec::new();
        }
        let mut effects = self.stop_thinking();
        self.play.redo_move();
        while !self.humans_turn() && self.has_human() && self.play.redo_move() {}
        effects.extend(self.after_change());
        effects
    }

    /// Whether a person plays either side.
    pub(super) fn has_human(&self) -> bool {
        self.players.black == Player::Human || self.players.white == Player::Human
    }

    /// Shows the position `step` gives from the one on show and the live ply; at the live ply browsing ends.
    fn browse(&mut self, step: impl Fn(usize, usize) -> usize) -> Vec<Effect> {
        let live = self.play.game().ply();
        let from = match self.mode {
            Mode::Browsing { ply } => ply,
            _ => live,
        };
        let ply = step(from, live);
        if ply == live {
            self.leave_browsing();
        } else {
            self.mode = Mode::Browsing { ply };
            self.status = self.mode_message();
        }
        Vec::new()
    }

    /// Back to the live position, if browsing.
    pub(super) fn leave_browsing(&mut self) {
        if matches!(self.mode, Mode::Browsing { .. }) {
            self.mode = match self.play.game().outcome() {
                Some(outcome) => Mode::Over(outcome),
                None => Mode::Play,
            };
            self.status = self.mode_message();
        }
    }
}
