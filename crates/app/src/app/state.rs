//! The application: a game, who plays it, and what the player is doing, changed only by [`Action`]s.
//!
//! `App::update` is the whole behaviour: it takes one action and returns the effects the outside world must
//! carry out (start, stop or hurry the engine, wake the app later, save or file the game, list the saved games,
//! quit). Nothing here touches a terminal, a thread or a file, so tests drive it directly.
//!
//! The app is a router over parts. A part owns its fields, which nothing else can touch, and is asked and told
//! through its methods: the view of the table the game is played at ([`TableView`]), the analysis panel, the review of a game, the problem
//! trainer, the clocks, pondering, the pace of a game between engines, the overlay slot, the input box, the picker, the cursor, the position being
//! set up and the new-game dialog (each a module of `app`, below this one). The app holds what they share: the
//! game in play, who plays it, what the player is doing (`mode`), the status line and the settings.
//!
//! This module holds the app's fields, its views, the order in which an action is offered to the parts (the
//! overlay on top, the table, setting up, replaying, the trainer, then the game), and the parts' hooks after every
//! action ([`AFTER_ACTION`]). The modules below it wire the parts in, one each (`analysis`, `review`,
//! `training`, `clocks`, `pondering`, `at_table`, `overlays`, `setting_up`, `lists`, `typing`, `hints`), and
//! say what the game itself does (`play`, `offers`, `timing`, `commands`, `copying`, `openings`, `messages`).
//! They use the app's fields; the app uses them only by calling their methods.

mod analysis;
mod at_table;
mod clocks;
pub(super) mod commands;
mod copying;
pub(super) mod hints;
mod lists;
mod messages;
pub(super) mod offers;
mod openings;
mod overlays;
mod play;
mod pondering;
mod review;
mod setting_up;
mod settings;
mod timing;
mod training;
pub(super) mod typing;

use std::path::PathBuf;

use tui_input::Input;

use super::action::{Action, Effect, EngineNews, Keep, Thinking};
use super::analysis::Analysis;
use super::animation::Animation;
use super::ballot::OpeningChoice;
use super::burst::Burst;
use super::dialog::NewGameDialog;
use super::in_play::InPlay;
use super::input_box::InputBox;
use super::library::{GameList, Replay};
use super::mode::{Focus, Mode};
use super::overlay::{Help, Overlay, OverlaySlot, Question, ResumeOffer};
use super::picking::Picker;
use super::preferences::Preferences;
use super::review::Review;
use super::setup::Setup;
use super::table::TableView;
use crate::engine::Players;
use crate::game::AnyGame;
use crate::rules::{AnyPosition, GameType, Geometry, Move, Square};
use crate::store::{Filed, GAME_ID_TAG, GameEntry, NAME_TAG, SavedGame};
use hints::Hint;

/// The application state.
#[derive(Clone, Debug)]
pub struct App {
    /// The game in play, with its picker, cursor, searches, pace, animation and clocks.
    play: InPlay,
    players: Players,
    mode: Mode,
    flipped: bool,
    status: String,
    /// What is open over the game: the resume offer, a question, the dialog, a list, the help.
    overlay: OverlaySlot,
    focus: Focus,
    /// The input box.
    input: InputBox,
    /// The game from a file being replayed, when the game on show is one.
    replay: Option<Replay>,
    preferences: Preferences,
    /// Whether the player holds the engine.
    paused: bool,
    /// The screen's width and height, once the front end has said (until then the game is taken to fit).
    screen: Option<(u16, u16)>,
    /// The saved-games file the game in play (or offered for resuming) came from: finishing or leaving the
    /// game updates that file instead of filing a second copy.
    saved_file: Option<PathBuf>,
    /// The table the game is played at, when it is played at one (on a server).
    table: Option<TableView>,
    /// The last move the engine suggested, shown while its position is in play.
    hint: Option<Hint>,
    /// The analysis panel.
    analysis: Analysis,
    /// The analysis of the whole game, while it runs and once it is done.
    review: Option<Review>,
    /// The ballot the game started from (3-move or 11-man), played again by a rematch.
    ballot: Option<OpeningChoice>,
    /// Varies the ballots drawn at random (the session's seed).
    seed: u64,
    /// Ballots drawn so far.
    draws: u64,
    /// The problem trainer, when it is open over the game.
    trainer: Option<Box<super::trainer::Trainer>>,
    /// Whether the action being carried out changed the game: [`App::update`] then asks for it to be kept as it
    /// stands at the end.
    game_changed: bool,
}

/// The parts' hooks after every action, in the order they run, each with the part it belongs to: each looks at
/// the state the action left (whichever part took it) and adds the effects that state asks for. The order
/// matters: the trainer's answer to a move is a move the clocks and the engine must see; the engine goes first
/// to the game's own search, then the review, then the analysis panel, then a ponder search; and the game is
/// kept last, as all of them left it.
const AFTER_ACTION: [fn(&mut App, &mut Vec<Effect>); 5] = [
    App::trainer_after_action, // the trainer (state/training.rs)
    App::sync_clock,           // the clocks (state/clocks.rs)
    App::share_engine,         // the review and the analysis panel (state/analysis.rs)
    App::sync_ponder,          // the ponder search (state/pondering.rs)
    App::keep_after_action,    // the game's keeping (here)
];

/// What a key pressed on a screen too small to show the game is told.
const TOO_SMALL: &str = "the window is too small to play in: enlarge it to go on";

impl App {
    /// A new game of English draughts from the standard start with these players. Returns the app and the
    /// effects to start with (the engine thinks at once if it has the first move).
    pub fn new(players: Players) -> (App, Vec<Effect>) {
        App::with_game(AnyGame::default(), players)
    }

    /// Goes on with `game` (a new game of any variant, a set-up position, a game read from a file) with these
    /// players.
    pub fn with_game(game: AnyGame, players: Players) -> (App, Vec<Effect>) {
        let mut app = App::fresh(game, players, Preferences::default());
        let effects = app.after_change();
        // Opening a game is not a change to save: the file it came from, or the autosave, stays as it is.
        app.game_changed = false;
        (app, effects)
    }

    fn fresh(game: AnyGame, players: Players, preferences: Preferences) -> App {
        // White is at the bottom of the diagram unless the orientation chosen puts Black there.
        let flipped = preferences.orientation.black_at_bottom(players);
        let mut play = InPlay::new(game, flipped, preferences.clock);
        play.follow_move_limit(preferences.move_limit);
        App {
            play,
            players,
            mode: Mode::Play,
            flipped,
            status: String::new(),
            overlay: OverlaySlot::default(),
            trainer: None,
            focus: Focus::Board,
            input: InputBox::default(),
            replay: None,
            preferences,
            paused: false,
            screen: None,
            saved_file: None,
            table: None,
            hint: None,
            analysis: Analysis::default(),
            review: None,
            ballot: None,
            seed: 0,
            draws: 0,
            game_changed: false,
        }
    }

    /// An app that opens on a list of games (the games of a file) to choose from; `players` play a game
    /// continued from one of them.
    pub fn choosing(list: GameList, players: Players) -> App {
        let mut app = App::fresh(AnyGame::default(), players, Preferences::default());
        app.show_games(list);
        app
    }

    /// An app replaying `entry` (a game read from a file) from its start; `players` play it if it is continued.
    pub fn replaying(entry: GameEntry, players: Players) -> App {
        let mut app = App::fresh(AnyGame::default(), players, Preferences::default());
        app.open_replay(entry);
        app
    }

    /// A new game with `players` that first offers to resume `game` (an unfinished game saved earlier, with its
    /// own players). Nothing starts, the engine included, until the player answers.
    pub fn offering_resume(players: Players, game: AnyGame, saved_players: Players) -> App {
        App::offering_resume_over(
            AnyGame::default(),
            players,
            SavedGame {
                game,
                players: saved_players,
                file: None,
                clock: None,
            },
        )
    }

    /// [`App::offering_resume`] over `new`, the new game played if the player declines (of any variant), for
    /// a game `saved` with its players and clocks; it goes back into the saved-games file it came from, if it
    /// came from one.
    pub fn offering_resume_over(new: AnyGame, players: Players, saved: SavedGame) -> App {
        let mut app = App::fresh(new, players, Preferences::default());
        app.overlay.offer_resume(ResumeOffer {
            game: saved.game,
            players: saved.players,
            clock: saved.clock,
        });
        app.saved_file = saved.file;
        app.status = app.resume_question();
        app
    }

    /// Links the game in play, or the one offered for resuming, to the saved-games file it came from, which is
    /// then updated as the game goes on instead of a second copy being filed.
    pub fn link_saved_file(&mut self, file: Option<PathBuf>) {
        self.saved_file = file;
    }

    /// The game on show was filed (`:save`, or its end): later saves of it go to the same file, and it keeps
    /// the identity and name it was filed under. A record being replayed is one too once saved: saved again, it
    /// updates its copy.
    fn filed(&mut self, filed: Filed) {
        self.saved_file = Some(filed.path);
        let tags = self.play.tags_mut();
        tags.set(GAME_ID_TAG, &filed.id);
        if let Some(name) = &filed.name {
            tags.set(NAME_TAG, name);
        }
    }

    /// The saved-games file the game in play came from, if it did.
    pub fn saved_file(&self) -> Option<&std::path::Path> {
        self.saved_file.as_deref()
    }

    /// What is open over the game, on top: the first to be asked about every key, click and action, and the
    /// last thing drawn. The help, when it is open over something else, holds it ([`Help::covers`]).
    pub fn overlay(&self) -> Option<&Overlay> {
        self.overlay.top()
    }

    /// The game offered for resuming, with its players.
    pub fn resume_offer(&self) -> Option<(&AnyGame, Players)> {
        match self.overlay.panel()? {
            Overlay::Resume(offer) => Some((&offer.game, offer.players)),
            _ => None,
        }
    }

    /// Varies what is drawn at random from game to game (the ballots of new games): the session's seed.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The settings the app follows.
    pub fn preferences(&self) -> &Preferences {
        &self.preferences
    }

    /// Follows these settings from now on: the keys at once, the orientation and the move limit in the current
    /// game and every game after it. Meant for the start, before the first move; the end of a game already over
    /// is not looked at again.
    pub fn set_preferences(&mut self, preferences: Preferences) {
        // A table's game follows the table's rules.
        if self.table.is_none() {
            self.play.follow_move_limit(preferences.move_limit);
        }
        self.flipped = preferences.orientation.black_at_bottom(self.players);
        self.play.fit_cursor(self.board(), self.flipped);
        if preferences.pace.is_none() {
            self.play.pace_mut().stop_waiting();
        }
        self.play.clocks_mut().set_new_games(preferences.clock);
        // A game not begun takes the clocks of the settings; with clocks, they set the pace of a game between
        // engines.
        if self.play.game().is_empty() && self.table.is_none() && self.replay.is_none() {
            self.play.clocks_mut().fresh();
            if self.play.clocks().in_game() {
                self.play.pace_mut().stop_waiting();
            }
        }
        self.preferences = preferences;
    }

    /// The game.
    pub fn game(&self) -> &AnyGame {
        self.play.game()
    }

    /// The variant and board of the game (or of the position being set up).
    pub fn game_type(&self) -> GameType {
        match &self.mode {
            Mode::Setup(setup) => setup.game_type(),
            _ => self.play.game().game_type(),
        }
    }

    /// The board on show.
    pub fn board(&self) -> Geometry {
        match &self.mode {
            Mode::Setup(setup) => setup.position().geometry(),
            _ => self.play.game().geometry(),
        }
    }

    /// Keeps the cursor on the board on show: after a change of board it starts again where a new game puts it.
    fn fit_cursor(&mut self) {
        self.play.fit_cursor(self.board(), self.flipped);
    }

    /// The screen as the front end last said it is ([`Action::Resized`]), once it has.
    pub fn screen(&self) -> Option<ratatui::layout::Rect> {
        self.screen
            .map(|(width, height)| ratatui::layout::Rect::new(0, 0, width, height))
    }

    /// Whether the game fits on the screen as the front end last said it is.
    pub fn fits(&self) -> bool {
        self.screen()
            .is_none_or(|screen| super::layout::ScreenLayout::new(screen, self.board()).is_some())
    }

    /// Who plays each side.
    pub fn players(&self) -> Players {
        self.players
    }

    /// What the player is doing.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The move picker of the live position.
    pub fn picker(&self) -> &Picker {
        self.play.picker()
    }

    /// The position on show: the live one, or the one being browsed.
    pub fn shown_position(&self) -> AnyPosition {
        match &self.mode {
            Mode::Browsing { ply } => self
                .play
                .game()
                .position_at(*ply)
                .unwrap_or_else(|| self.play.game().position()),
            Mode::Setup(setup) => *setup.position(),
            _ => self.play.live_picture(),
        }
    }

    /// The moves being shown stepping along their path, if any.
    pub fn animation(&self) -> Option<&Animation> {
        self.play.animation()
    }

    /// The capture effect's bursts on show (empty when there are none).
    pub fn burst(&self) -> &Burst {
        self.play.burst()
    }

    /// The position being set up, when setting up.
    pub fn setup(&self) -> Option<&Setup> {
        match &self.mode {
            Mode::Setup(setup) => Some(setup),
            _ => None,
        }
    }

    /// The square under the cursor (always a playable square).
    pub fn cursor_square(&self) -> Option<Square> {
        Some(self.play.cursor().square())
    }

    /// Cursor row and column on the diagram (row 0 at the top when not flipped).
    pub fn cursor(&self) -> (u32, u32) {
        self.board().row_col(self.play.cursor().square())
    }

    /// Whether the board is turned round (Black at the bottom).
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// The status line.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Whether the engine is thinking.
    pub fn is_thinking(&self) -> bool {
        self.play.thinking().is_some()
    }

    /// What the engine has reported of the search under way.
    pub fn thinking(&self) -> Option<Thinking> {
        self.play.thinking()
    }

    /// Which pane has the keys.
    pub fn focus(&self) -> Focus {
        self.focus
    }

    /// The input box.
    pub fn input(&self) -> &Input {
        self.input.input()
    }

    /// Whether the input box holds refused text while the board has the keys (typing replaces it, Backspace
    /// edits it, any other key lets it go).
    pub fn input_held(&self) -> bool {
        self.input.is_held()
    }

    /// The new-game dialog, when it is open (the help may be over it).
    pub fn dialog(&self) -> Option<&NewGameDialog> {
        match self.overlay.panel()? {
            Overlay::Dialog(dialog) => Some(dialog),
            _ => None,
        }
    }

    /// The list of games on screen, if one is open (the help may be over it).
    pub fn game_list(&self) -> Option<&GameList> {
        match self.overlay.panel()? {
            Overlay::List(list) => Some(list),
            _ => None,
        }
    }

    /// The replay under way, if the game on show is a game being replayed.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref()
    }

    /// The question waiting for an answer, if any (the help may be over it).
    pub fn question(&self) -> Option<Question> {
        match self.overlay.panel()? {
            Overlay::Question(question) => Some(*question),
            _ => None,
        }
    }

    /// Whether the engine's move has been found and waits for the pace of a game between engines.
    pub fn move_waiting(&self) -> bool {
        self.play.pace().is_holding()
    }

    /// Whether the player holds the engine ([`Action::Pause`]).
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the help overlay is open.
    pub fn help_open(&self) -> bool {
        self.overlay.help().is_some()
    }

    /// How far the help is scrolled: lines out of view at the top (the view stops at the last line); 0 when it
    /// is closed.
    pub fn help_scroll(&self) -> usize {
        self.overlay.help().map_or(0, Help::scroll)
    }

    /// Carries out one action; returns what the outside world must do.
    #[must_use = "the effects must be carried out: a dropped effect is a stalled engine or an unsaved game"]
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let mut effects = self.dispatch(action);
        for hook in AFTER_ACTION {
            hook(self, &mut effects);
        }
        effects
    }

    /// The hook after every action of the game's keeping: the game as it stands, kept if the action changed it.
    fn keep_after_action(&mut self, effects: &mut Vec<Effect>) {
        if std::mem::take(&mut self.game_changed) {
            effects.push(Effect::GameChanged(self.keep()));
        }
    }

    /// What the game on show asks to keep: nothing while it has no moves or is a file's game being replayed;
    /// else the game with its players, its file and its clocks, in progress or ended.
    pub fn keep(&self) -> Keep {
        if self.play.game().is_empty() || self.replay.is_some() || self.trainer.is_some() {
            return Keep::Nothing;
        }
        let saved = Box::new(SavedGame {
            game: self.play.game().clone(),
            players: self.players,
            file: self.saved_file.clone(),
            clock: self.clock_state(),
        });
        if self.play.game().outcome().is_some() {
            Keep::Finished(saved)
        } else {
            Keep::InProgress(saved)
        }
    }

    /// A finished search's answer as what it was asked for: a judgement of the position (a draw offer, the
    /// review of a game) or a move (to play, or to suggest).
    fn engine_answer(
        &self,
        search: u64,
        best: Option<Move>,
        score: crate::engine::Score,
    ) -> Action {
        let judged = self.is_review_search(search)
            || self.play.thinking().is_some_and(|t| {
                t.search == search && t.purpose == super::action::Purpose::DrawOffer
            });
        if judged {
            Action::Engine(EngineNews::Evaluated { search, score })
        } else {
            Action::Engine(EngineNews::Moved { search, mv: best })
        }
    }

    /// Carries out `action`: what the app takes itself first ([`App::before_parts`]), then the parts in turn
    /// ([`App::route`]).
    fn dispatch(&mut self, action: Action) -> Vec<Effect> {
        match self.before_parts(action) {
            Ok(action) => self.route(action),
            Err(effects) => effects,
        }
    }

    /// What the app does with an action before any part sees it: a digit after a file's letter, the engine's
    /// answer taken as what was asked, the screen's size, a key while the game is not on show, a timer, a game
    /// filed. The action to route to the parts, or the effects of having taken it here.
    fn before_parts(&mut self, action: Action) -> Result<Action, Vec<Effect>> {
        if action.from_player() {
            // A file's letter waits for one key only: a digit makes it the start of a typed square.
            if let Some(letter) = self.input.take_letter()
                && let Action::Edit(tui_input::InputRequest::InsertChar(digit)) = action
                && digit.is_ascii_digit()
            {
                return Err(self.type_square(letter, digit));
            }
        }
        let action = match action {
            Action::Engine(EngineNews::Done {
                search,
                best,
                score,
            }) => self.engine_answer(search, best, score),
            action => action,
        };
        if let Action::FileLetter { letter, then } = action {
            return Err(self.file_letter(letter, then.map(|then| *then)));
        }
        if self.input.is_held()
            && action.from_player()
            && !matches!(action, Action::Edit(_) | Action::Paste(_))
            && !action.is_help()
        {
            // Refused text is let go by the first key that is not typing: that key means what it always means.
            self.clear_input();
        }
        if let Action::Resized { width, height } = action {
            let fitted = self.fits();
            self.screen = Some((width, height));
            if self.fits() && !fitted && self.status == TOO_SMALL {
                self.status = self.mode_message();
            }
            return Err(Vec::new());
        }
        // The answer to the quit question is taken unseen: the question is on the enlarge screen.
        let answers_quit = matches!(action, Action::Answer(_) | Action::Cancel)
            && matches!(self.question(), Some(Question::Quit { .. }));
        if !self.fits()
            && action.from_player()
            && !matches!(action, Action::Quit | Action::Interrupt)
            && !action.is_help()
            && !answers_quit
        {
            // The game is not on show: nothing may change it unseen.
            self.status = TOO_SMALL.into();
            return Err(Vec::new());
        }
        if action.from_player() && !action.is_help() {
            // Any key shows the game as it stands at once, bursts ended.
            self.play.end_showing();
        }
        if let Action::Timer(timer) = action {
            return Err(self.timer(timer));
        }
        if let Action::Filed(filed) = action {
            self.filed(filed);
            return Err(Vec::new());
        }
        Ok(action)
    }

    /// Offers `action` to the parts of the app, first to last: each takes it or passes it on, and the game takes
    /// what none of them did.
    fn route(&mut self, action: Action) -> Vec<Effect> {
        let action = match self.overlay_action(action) {
            Ok(effects) => return effects,
            Err(passed_on) => passed_on,
        };
        if let Some(effects) = self.table_action(&action) {
            return effects;
        }
        // Setting up comes before replaying: it may have been opened from a replay.
        if let Mode::Setup(setup) = self.mode
            && let Some(effects) = self.setup_action(setup, &action)
        {
            return effects;
        }
        if self.replay.is_some()
            && let Some(effects) = self.replay_action(&action)
        {
            return effects;
        }
        if let Some(effects) = self.training_action(&action) {
            return effects;
        }
        self.game_action(action)
    }
}
