//! The application: a game, who plays it, and what the player is doing, changed only by [`Action`]s.
//!
//! `App::update` is the whole behaviour: it takes one action and returns the effects the outside world must
//! carry out (start, stop or hurry the engine, wake the app later, save or file the game, list the saved games,
//! quit). Nothing here touches a terminal, a thread or a file, so tests drive it directly.

mod commands;
mod lists;
mod messages;
mod offers;
mod setting_up;
mod timing;
mod typing;

pub use offers::{JUDGING_TIME, Question};
pub use timing::Timer;
pub use typing::INPUT_LIMIT;

use std::path::PathBuf;

use tui_input::{Input, InputRequest};

use super::animation::Animation;
use super::cursor::{Cursor, Step};
use super::dialog::NewGameDialog;
use super::keys::Context;
use super::library::{GameList, ListPurpose, Replay};
use super::picking::{Pick, Picker};
use super::preferences::Preferences;
use super::setup::{Setup, check_position};
use super::{BOARD, PlayedRules};
use crate::engine::{Level, Limits, Score, Situation};
pub use crate::engine::{Player, Players};
use crate::game::{Game, GameError, Outcome};
use crate::rules::{Color, Move, MoveText, Piece, Position, Square, Strictness, parse_fen, to_fen};
use crate::store::GameEntry;

/// Which pane the arrow keys act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The board: arrows move the cursor.
    Board,
    /// The move history: arrows step through the game.
    History,
    /// The input box: keys edit the text.
    Input,
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Choosing the engine's move.
    Move,
    /// Judging the position, to answer the player's draw offer.
    DrawOffer,
}

/// What the engine has reported about the search under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// The number of the search.
    pub search: u64,
    /// What it is for.
    pub purpose: Purpose,
    /// The deepest iteration completed, if any.
    pub depth: Option<u32>,
    /// Its score for the side to move.
    pub score: Option<Score>,
}

/// What the player is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Playing: the side to move picks or types its move (a half-made capture is held by the picker).
    Play,
    /// The game has ended.
    Over(Outcome),
    /// Looking at the position after `ply` moves; the game itself is unchanged.
    Browsing {
        /// Moves shown.
        ply: usize,
    },
    /// Editing a position by hand; the game stays as it was until a new one is started from the position.
    Setup(Setup),
}

/// What the player does to the position being set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupAction {
    /// Start setting up, from the position on show.
    Open,
    /// Put this piece on the cursor's square, or take it off if it is already there.
    Put(Piece),
    /// Empty the cursor's square.
    Remove,
    /// Put the next piece (empty, black man, black king, white man, white king) on the cursor's square.
    Cycle,
    /// Take every piece off.
    Clear,
    /// The standard starting position.
    Standard,
    /// Give the move to the other side.
    SwitchSide,
    /// Change who plays this side.
    CyclePlayer(Color),
    /// Check the position and start a game from it.
    Start,
}

/// Everything the player (or the engine thread) can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move the board cursor one square up the screen.
    Up,
    /// Down the screen.
    Down,
    /// Left on the screen.
    Left,
    /// Right on the screen.
    Right,
    /// Pick the square under the cursor (Space or Enter on the board).
    PickAtCursor,
    /// Pick a square directly (a mouse click).
    PickSquare(Square),
    /// Drop the selection, leave browsing, or dismiss a question (Esc).
    Cancel,
    /// Text entered in the input box: a move (`11-15`) or a command (`:undo`).
    Submit(String),
    /// Edit the input box (typing a digit or `:` on the board starts it).
    Edit(InputRequest),
    /// Text pasted into the terminal: it goes into the input box as if typed, line breaks dropped.
    Paste(String),
    /// Use the text in the input box (Enter while typing).
    SubmitInput,
    /// Start typing in the empty input box (for coordinate moves such as `c3-d4`).
    StartTyping,
    /// Move the focus between the board and the move history.
    ToggleHistoryFocus,
    /// Open or close the help overlay.
    ToggleHelp,
    /// Scroll the help overlay by this many lines.
    ScrollHelp(isize),
    /// Open the new-game dialog.
    NewGame,
    /// Start a new game at once with the colours swapped.
    Rematch,
    /// Ask the engine to play the best move it has found so far.
    MoveNow,
    /// The engine finished an iteration of the search numbered `search`.
    EngineProgress {
        /// The search reporting.
        search: u64,
        /// Depth completed.
        depth: u32,
        /// Score for the side to move.
        score: Score,
    },
    /// Take back a move (a whole turn pair against the engine).
    Undo,
    /// Replay a taken-back move (a whole turn pair against the engine).
    Redo,
    /// Turn the board round.
    Flip,
    /// Show the position one move earlier.
    BrowseBack,
    /// One move later.
    BrowseForward,
    /// The start.
    BrowseFirst,
    /// The live position.
    BrowseLast,
    /// The engine chose a move, in the search numbered `search`.
    EngineMoved {
        /// The number of the search that chose it (stale answers are ignored).
        search: u64,
        /// The move, or `None` if it found none.
        mv: Option<Move>,
    },
    /// Leave the program (asks first while a game is in progress).
    Quit,
    /// Leave the program at once (Ctrl-C, a signal).
    Interrupt,
    /// Go on with the unfinished game offered at start.
    AcceptResume,
    /// Start a new game instead (the unfinished one is archived).
    DeclineResume,
    /// Show a message from the outside world (a file that could not be saved, say) on the status line.
    Notice(String),
    /// Edit the position being set up.
    Setup(SetupAction),
    /// Ask for the list of saved games (`:load`).
    Load,
    /// Show a list of games to choose from (the saved games, the games of a file).
    ShowGames(Box<GameList>),
    /// Move the selection in a list of games by this many entries.
    ListStep(isize),
    /// Start or pause playing the replayed game back on a timer.
    AutoPlay,
    /// Play back faster (`true`) or slower.
    Speed(bool),
    /// A timer asked for with [`Effect::Wake`] is due.
    Timer(Timer),
    /// Continue the replayed game from the move on show as a new game.
    Continue,
    /// The answer to the question asked (yes: resign, accept the draw offer).
    Answer(bool),
    /// Hold the engine (it stops thinking and waits), or let it go on.
    Pause,
    /// Save the game among the saved games (`:save` without a name).
    Save,
    /// The screen changed size: whether the game fits on it. While it does not, the player's actions do
    /// nothing but quit and help (the game is not on show to act on).
    Resized {
        /// Whether the screen is big enough to show the game.
        fits: bool,
    },
    /// The engine judged a position, in the search numbered `search` (asked for with [`Effect::Evaluate`]).
    EngineEvaluated {
        /// The number of the search.
        search: u64,
        /// The score for the side to move.
        score: Score,
    },
}

impl Action {
    /// Whether the player did this (a key, a click, a paste, a command), rather than the engine, a timer or the
    /// outside world.
    pub fn from_player(&self) -> bool {
        !matches!(
            self,
            Action::EngineProgress { .. }
                | Action::EngineMoved { .. }
                | Action::EngineEvaluated { .. }
                | Action::Timer(_)
                | Action::Notice(_)
                | Action::ShowGames(_)
                | Action::Resized { .. }
        )
    }
}

/// What the outside world must do after an action.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Start the engine on this situation at this level; answer with [`Action::EngineMoved`] and this number.
    Think {
        /// The number of this search.
        search: u64,
        /// The position and its history.
        situation: Situation,
        /// The level to play at.
        level: Level,
        /// What the search is given: the level's limits for the thinking time when it was asked for.
        limits: Limits,
    },
    /// Judge this situation quickly (a short full-strength search); answer with [`Action::EngineEvaluated`] and
    /// this number.
    Evaluate {
        /// The number of this search.
        search: u64,
        /// The position and its history.
        situation: Situation,
        /// What the search is given: full strength for the thinking time, but never longer than
        /// [`JUDGING_TIME`](crate::app::JUDGING_TIME).
        limits: Limits,
    },
    /// Stop the running search; its answer will be stale.
    StopThinking,
    /// Stop the running search and let it answer with the best move found so far.
    MoveNow,
    /// The game changed (a move, an undo, a new game): save the game in progress, or file it once it is over.
    GameChanged,
    /// Keep this game among the saved games: it is being left unfinished (a new game, a declined resume).
    Archive {
        /// The game.
        game: Box<Game>,
        /// Who played it.
        players: Players,
        /// The saved-games file it came from, to be updated instead of filing a second copy.
        file: Option<PathBuf>,
    },
    /// Save this game among the saved games under a name the player chose (`:save`), and say where.
    Save {
        /// The game.
        game: Box<Game>,
        /// Who plays it.
        players: Players,
        /// The name typed, if any.
        name: Option<String>,
    },
    /// List the saved games and answer with [`Action::ShowGames`].
    ListSaved,
    /// Send [`Action::Timer`] with this timer after this long, replacing any earlier request for it.
    Wake {
        /// Which timer.
        timer: Timer,
        /// How long from now.
        after: std::time::Duration,
    },
    /// Leave the program.
    Quit,
}

/// The application state.
#[derive(Clone, Debug)]
pub struct App {
    game: Game,
    players: Players,
    mode: Mode,
    picker: Picker,
    /// The board cursor, always on a playable square.
    cursor: Cursor,
    flipped: bool,
    status: String,
    /// The search the app is waiting for.
    thinking: Option<Thinking>,
    searches: u64,
    quit_asked: bool,
    help: bool,
    /// How many lines of the help are scrolled out of view at the top.
    help_scroll: usize,
    focus: Focus,
    input: Input,
    dialog: Option<NewGameDialog>,
    /// An unfinished game found at start, offered for resuming.
    resume: Option<Box<(Game, Players)>>,
    /// A list of games to choose from, when one is open.
    list: Option<Box<GameList>>,
    /// The game from a file being replayed, when the game on show is one.
    replay: Option<Replay>,
    preferences: Preferences,
    /// A yes/no question waiting for the player's answer.
    question: Option<Question>,
    /// Whether the player holds the engine.
    paused: bool,
    /// Whether the screen is big enough to show the game.
    fits: bool,
    /// Moves being shown stepping along their path.
    animation: Option<Animation>,
    /// Whether a game between engines is waiting for its pace timer before it shows the next move.
    pace_wait: bool,
    /// An engine's move that came before the pace timer, shown when it is due.
    held: Option<Move>,
    /// The saved-games file the game in play (or offered for resuming) came from: finishing or leaving the
    /// game updates that file instead of filing a second copy.
    saved_file: Option<PathBuf>,
}

/// What a key pressed on a screen too small to show the game is told.
const TOO_SMALL: &str = "the window is too small to play in: enlarge it to go on";

/// Where the cursor starts before a move places it: a3, square 21 (an index always on the board).
const START_SQUARE: Square = Square::from_index(20);

/// The commands the input box understands, as listed in messages and the help overlay.
pub const COMMANDS: &str = ":new :rematch :undo :redo :flip :resign :draw :move :pause :level L :setup \
     :fen [FEN] :save [name] :load :continue :help :quit";

impl App {
    /// A new game from the standard start with these players. Returns the app and the effects to start with
    /// (the engine thinks at once if it has the first move).
    pub fn new(players: Players) -> (App, Vec<Effect>) {
        App::with_game(Game::new(), players)
    }

    /// Goes on with `game` (a set-up position, a game read from a file) with these players.
    pub fn with_game(game: Game, players: Players) -> (App, Vec<Effect>) {
        let mut app = App::fresh(game, players, Preferences::default());
        let mut effects = app.after_change();
        // Opening a game is not a change to save: the file it came from, or the autosave, stays as it is.
        effects.retain(|e| !matches!(e, Effect::GameChanged));
        (app, effects)
    }

    fn fresh(mut game: Game, players: Players, preferences: Preferences) -> App {
        game.set_move_limit(preferences.move_limit);
        App {
            picker: Picker::new(game.position()),
            game,
            players,
            mode: Mode::Play,
            cursor: Cursor::on(
                START_SQUARE,
                BOARD,
                preferences.orientation.black_at_bottom(players),
            ),
            // White is at the bottom of the diagram unless the orientation chosen puts Black there.
            flipped: preferences.orientation.black_at_bottom(players),
            status: String::new(),
            thinking: None,
            searches: 0,
            quit_asked: false,
            help: false,
            help_scroll: 0,
            focus: Focus::Board,
            input: Input::default(),
            dialog: None,
            resume: None,
            list: None,
            replay: None,
            preferences,
            question: None,
            paused: false,
            fits: true,
            animation: None,
            pace_wait: false,
            held: None,
            saved_file: None,
        }
    }

    /// An app that opens on a list of games (the games of a file) to choose from; `players` play a game
    /// continued from one of them.
    pub fn choosing(list: GameList, players: Players) -> App {
        let mut app = App::fresh(Game::new(), players, Preferences::default());
        app.show_games(list);
        app
    }

    /// An app replaying `entry` (a game read from a file) from its start; `players` play it if it is continued.
    pub fn replaying(entry: GameEntry, players: Players) -> App {
        let mut app = App::fresh(Game::new(), players, Preferences::default());
        app.open_replay(entry);
        app
    }

    /// A new game with `players` that first offers to resume `game` (an unfinished game saved earlier, with its
    /// own players). Nothing starts, the engine included, until the player answers.
    pub fn offering_resume(players: Players, game: Game, saved_players: Players) -> App {
        let mut app = App::fresh(Game::new(), players, Preferences::default());
        app.resume = Some(Box::new((game, saved_players)));
        app.status = app.resume_question();
        app
    }

    /// Links the game in play, or the one offered for resuming, to the saved-games file it came from, which is
    /// then updated as the game goes on instead of a second copy being filed.
    pub fn link_saved_file(&mut self, file: Option<PathBuf>) {
        self.saved_file = file;
    }

    /// The saved-games file the game in play came from, if it did.
    pub fn saved_file(&self) -> Option<&std::path::Path> {
        self.saved_file.as_deref()
    }

    /// The game offered for resuming, with its players.
    pub fn resume_offer(&self) -> Option<(&Game, Players)> {
        self.resume
            .as_deref()
            .map(|(game, players)| (game, *players))
    }

    /// The settings the app follows.
    pub fn preferences(&self) -> &Preferences {
        &self.preferences
    }

    /// Follows these settings from now on: the keys at once, the orientation and the move limit in the current
    /// game and every game after it. Meant for the start, before the first move; the end of a game already over
    /// is not looked at again.
    pub fn set_preferences(&mut self, preferences: Preferences) {
        self.game.set_move_limit(preferences.move_limit);
        self.flipped = preferences.orientation.black_at_bottom(self.players);
        self.cursor = self.cursor.turned(BOARD, self.flipped);
        if preferences.pace.is_none() {
            self.pace_wait = false;
        }
        self.preferences = preferences;
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
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
        &self.picker
    }

    /// The position on show: the live one, or the one being browsed.
    pub fn shown_position(&self) -> &Position {
        match &self.mode {
            Mode::Browsing { ply } => self.game.position_at(*ply).unwrap_or(self.game.position()),
            Mode::Setup(setup) => setup.position(),
            _ => match &self.animation {
                Some(animation) => animation.picture(),
                None => self.game.position(),
            },
        }
    }

    /// The moves being shown stepping along their path, if any.
    pub fn animation(&self) -> Option<&Animation> {
        self.animation.as_ref()
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
        Some(self.cursor.square())
    }

    /// Cursor row and column on the diagram (row 0 at the top when not flipped).
    pub fn cursor(&self) -> (u32, u32) {
        BOARD.row_col(self.cursor.square())
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
        self.thinking.is_some()
    }

    /// What the engine has reported of the search under way.
    pub fn thinking(&self) -> Option<Thinking> {
        self.thinking
    }

    /// Which pane has the keys.
    pub fn focus(&self) -> Focus {
        self.focus
    }

    /// The input box.
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// The new-game dialog, when it is open.
    pub fn dialog(&self) -> Option<&NewGameDialog> {
        self.dialog.as_ref()
    }

    /// The list of games on screen, if one is open.
    pub fn game_list(&self) -> Option<&GameList> {
        self.list.as_deref()
    }

    /// The replay under way, if the game on show is a game being replayed.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref()
    }

    /// The question waiting for an answer, if any.
    pub fn question(&self) -> Option<Question> {
        self.question
    }

    /// Whether the engine's move has been found and waits for the pace of a game between engines.
    pub fn move_waiting(&self) -> bool {
        self.held.is_some()
    }

    /// Whether the player holds the engine ([`Action::Pause`]).
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether quitting waits for the key to be pressed again.
    pub fn quit_asked(&self) -> bool {
        self.quit_asked
    }

    /// Whether the help overlay is open.
    pub fn help_open(&self) -> bool {
        self.help
    }

    /// How far the help is scrolled: lines out of view at the top (the view stops at the last line).
    pub fn help_scroll(&self) -> usize {
        self.help_scroll
    }

    /// Carries out one action; returns what the outside world must do.
    #[must_use = "the effects must be carried out: a dropped effect is a stalled engine or an unsaved game"]
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        if action.from_player() && action != Action::Quit {
            self.quit_asked = false;
        }
        if let Action::Resized { fits } = action {
            if fits && !self.fits && self.status == TOO_SMALL {
                self.status = self.mode_message();
            }
            self.fits = fits;
            return Vec::new();
        }
        if !self.fits
            && action.from_player()
            && !matches!(
                action,
                Action::Quit | Action::Interrupt | Action::ToggleHelp | Action::ScrollHelp(_)
            )
        {
            // The game is not on show: nothing may change it unseen.
            self.status = TOO_SMALL.into();
            return Vec::new();
        }
        if action.from_player() && !matches!(action, Action::ToggleHelp | Action::ScrollHelp(_)) {
            // Any key shows the game as it stands at once.
            self.animation = None;
        }
        if let Action::Timer(timer) = action {
            return self.timer(timer);
        }
        if self.resume.is_some() {
            return self.resume_action(action);
        }
        if self.question.is_some()
            && let Some(effects) = self.question_action(&action)
        {
            return effects;
        }
        if self.dialog.is_some() && self.dialog_takes(&action) {
            return self.dialog_action(action);
        }
        if self.list.is_some() && self.dialog_takes(&action) {
            return self.list_action(action);
        }
        // Setting up comes first: it may have been opened from a replay.
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
        match action {
            Action::Up | Action::Down | Action::Left | Action::Right => {
                if self.focus == Focus::History {
                    let back = matches!(action, Action::Up | Action::Left);
                    return self.update(if back {
                        Action::BrowseBack
                    } else {
                        Action::BrowseForward
                    });
                }
                self.move_cursor(&action);
                Vec::new()
            }
            Action::PickAtCursor => self.pick(self.cursor.square()),
            Action::PickSquare(square) => self.pick(square),
            Action::Cancel => {
                self.cancel();
                Vec::new()
            }
            Action::Submit(text) => {
                self.input = Input::new(text);
                self.submit_input()
            }
            Action::SubmitInput => self.submit_input(),
            Action::Edit(request) => {
                self.edit(request);
                Vec::new()
            }
            Action::Paste(text) => {
                self.paste(&text);
                Vec::new()
            }
            Action::StartTyping => {
                self.focus = Focus::Input;
                Vec::new()
            }
            Action::ToggleHistoryFocus => {
                self.focus = match self.focus {
                    Focus::History => Focus::Board,
                    _ => Focus::History,
                };
                if self.focus == Focus::History {
                    self.status = format!(
                        "history: arrows step through the game, Home/End, {} returns to the board",
                        self.key(Context::Board, "history", "Tab")
                    );
                }
                Vec::new()
            }
            Action::ToggleHelp => {
                self.help = !self.help;
                self.help_scroll = 0;
                Vec::new()
            }
            Action::NewGame => {
                self.dialog = Some(NewGameDialog::new(self.players));
                Vec::new()
            }
            Action::Rematch => self.start_new(self.players.swapped()),
            Action::MoveNow => self.move_now(),
            Action::Undo => self.take_back(),
            Action::Redo => self.step_forward(),
            Action::Flip => {
                self.flipped = !self.flipped;
                self.cursor = self.cursor.turned(BOARD, self.flipped);
                Vec::new()
            }
            Action::BrowseBack => self.browse(|ply, _| ply.saturating_sub(1)),
            Action::BrowseForward => self.browse(|ply, live| (ply + 1).min(live)),
            Action::BrowseFirst => self.browse(|_, _| 0),
            Action::BrowseLast => {
                self.leave_browsing();
                Vec::new()
            }
            Action::EngineEvaluated { search, score } => self.draw_offer_judged(search, score),
            Action::Answer(_) => Vec::new(),
            Action::Pause => self.toggle_pause(),
            Action::Save => self.command("save"),
            Action::Resized { .. } | Action::Timer(_) => Vec::new(),
            Action::EngineProgress {
                search,
                depth,
                score,
            } => {
                if let Some(thinking) = self.thinking.as_mut().filter(|t| t.search == search) {
                    thinking.depth = Some(depth);
                    thinking.score = Some(score);
                }
                Vec::new()
            }
            Action::EngineMoved { search, mv } => self.engine_moved(search, mv),
            Action::Quit => self.quit(),
            Action::Interrupt => {
                let mut effects = self.stop_thinking();
                effects.push(Effect::Quit);
                effects
            }
            Action::Notice(text) => {
                self.status = text;
                Vec::new()
            }
            Action::ScrollHelp(lines) => {
                // Past the last line there is nothing to see (the overlay shows as much as fits).
                let last = super::keys::key_help(&self.preferences.keys).len() + 4;
                self.help_scroll = self.help_scroll.saturating_add_signed(lines).min(last);
                Vec::new()
            }
            Action::Setup(SetupAction::Open) => self.open_setup(self.players),
            Action::Load => vec![Effect::ListSaved],
            Action::ShowGames(list) => {
                self.show_games(*list);
                Vec::new()
            }
            Action::AutoPlay | Action::Speed(_) | Action::Continue => {
                self.status =
                    "that works when replaying a game (:load, or crowned FILE.pdn)".into();
                Vec::new()
            }
            // A list's keys with no list open.
            Action::ListStep(_) => Vec::new(),
            // Editing a position needs the setup to be open; answers to a question that is not being asked.
            Action::Setup(_) | Action::AcceptResume | Action::DeclineResume => Vec::new(),
        }
    }

    /// While the resume question is open only its answers, Ctrl-C and notices count.
    fn resume_action(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::AcceptResume => {
                let Some(offer) = self.resume.take() else {
                    return Vec::new();
                };
                let (game, players) = *offer;
                let file = self.saved_file.take();
                let mut effects = self.restart(game, players);
                self.saved_file = file;
                // The game is as it was saved: nothing to save again.
                effects.retain(|e| !matches!(e, Effect::GameChanged));
                if matches!(self.mode, Mode::Play) {
                    self.status = format!("Resumed. {}", self.mode_message());
                }
                effects
            }
            Action::DeclineResume => {
                let Some(offer) = self.resume.take() else {
                    return Vec::new();
                };
                let (game, players) = *offer;
                let mut effects = vec![Effect::Archive {
                    game: Box::new(game),
                    players,
                    file: self.saved_file.take(),
                }];
                effects.extend(self.start_new(self.players));
                effects
            }
            Action::Interrupt => vec![Effect::Quit],
            Action::Notice(text) => {
                self.status = text;
                Vec::new()
            }
            _ => {
                self.status = self.resume_question();
                Vec::new()
            }
        }
    }

    /// Whether the open dialog handles `action` (the engine's reports and quitting go on as usual).
    fn dialog_takes(&self, action: &Action) -> bool {
        action.from_player()
            && !matches!(
                action,
                Action::Interrupt | Action::ToggleHelp | Action::ScrollHelp(_)
            )
    }

    fn dialog_action(&mut self, action: Action) -> Vec<Effect> {
        let Some(dialog) = self.dialog.as_mut() else {
            return Vec::new();
        };
        match action {
            Action::Up | Action::Down => dialog.switch_row(),
            Action::Left => dialog.cycle(-1),
            Action::Right => dialog.cycle(1),
            Action::PickAtCursor | Action::SubmitInput | Action::NewGame => {
                let players = dialog.players;
                self.dialog = None;
                return self.start_new(players);
            }
            Action::Setup(SetupAction::Open) => {
                let players = dialog.players;
                self.dialog = None;
                return self.open_setup(players);
            }
            Action::Cancel | Action::Quit => {
                self.dialog = None;
                self.status = "new game cancelled".into();
            }
            _ => {}
        }
        Vec::new()
    }

    /// Starts a new game from the standard start with `players`; an unfinished game is archived first.
    fn start_new(&mut self, players: Players) -> Vec<Effect> {
        self.start_game(Game::new(), players)
    }

    /// Starts `game` with `players`; an unfinished game is archived first.
    fn start_game(&mut self, game: Game, players: Players) -> Vec<Effect> {
        let mut effects = self.leave_game();
        effects.extend(self.restart(game, players));
        effects
    }

    /// Stops the engine and keeps the game being left when it is the player's own and unfinished (a game being
    /// replayed belongs to its file).
    fn leave_game(&mut self) -> Vec<Effect> {
        let mut effects = self.stop_thinking();
        if self.replay.is_none() && !self.game.is_empty() && self.game.final_outcome().is_none() {
            effects.push(Effect::Archive {
                game: Box::new(self.game.clone()),
                players: self.players,
                file: self.saved_file.clone(),
            });
        }
        effects
    }

    /// Replaces the game and players, everything else starting afresh, and starts the game going.
    fn restart(&mut self, game: Game, players: Players) -> Vec<Effect> {
        self.reset(game, players);
        self.after_change()
    }

    /// Replaces the game and players, everything else starting afresh but the preferences and the search
    /// numbers: they go on rising, so that an answer from the old game is never taken for one in this game.
    fn reset(&mut self, game: Game, players: Players) {
        let (searches, fits) = (self.searches, self.fits);
        let preferences = std::mem::take(&mut self.preferences);
        *self = App::fresh(game, players, preferences);
        self.searches = searches;
        self.fits = fits;
    }

    fn cancel(&mut self) {
        self.help = false;
        if self.focus == Focus::Input {
            self.input.reset();
            self.focus = Focus::Board;
            self.status = self.mode_message();
        } else if matches!(self.mode, Mode::Browsing { .. }) {
            self.focus = Focus::Board;
            self.leave_browsing();
        } else if self.focus == Focus::History {
            self.focus = Focus::Board;
            self.status = self.mode_message();
        } else {
            self.picker.drop_selection();
            self.status = self.mode_message();
        }
    }

    fn move_now(&mut self) -> Vec<Effect> {
        if self.held.is_some() {
            // A game between engines waiting for its pace: the move is shown now.
            self.pace_wait = false;
            return self.show_held_move();
        }
        match self.thinking {
            Some(_) => {
                self.status = "the engine moves now".into();
                vec![Effect::MoveNow]
            }
            None => {
                self.status = "the engine is not thinking".into();
                Vec::new()
            }
        }
    }

    fn move_cursor(&mut self, action: &Action) {
        let step = match action {
            Action::Up => Step::Up,
            Action::Down => Step::Down,
            Action::Left => Step::Left,
            _ => Step::Right,
        };
        self.cursor = self.cursor.step(step, BOARD, self.flipped);
    }

    /// Puts the cursor on `square`.
    fn put_cursor(&mut self, square: Square) {
        self.cursor = Cursor::on(square, BOARD, self.flipped);
    }

    /// Puts the cursor where the player is likely to want it: on the selected piece, or on the middle one of the
    /// pieces that can move, when a human is to move and the cursor is not already on one of them.
    fn place_cursor(&mut self) {
        if !self.humans_turn() {
            return;
        }
        let movable = self.picker.movable();
        let target = self.picker.selected().or_else(|| {
            let on_movable = self.cursor_square().is_some_and(|s| movable.contains(&s));
            (!on_movable)
                .then(|| movable.get(movable.len() / 2).copied())
                .flatten()
        });
        if let Some(square) = target {
            self.put_cursor(square);
        }
    }

    fn humans_turn(&self) -> bool {
        self.players.of(self.game.position().side_to_move()) == Player::Human
    }

    fn pick(&mut self, square: Square) -> Vec<Effect> {
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
        let position = *self.game.position();
        // The jumps of a capture picked one by one have been seen: the animation shows the rest.
        let seen = self.picker.taken_so_far(&position).len();
        match self.picker.pick(&position, square) {
            Ok(Pick::Complete(mv)) => self.play_shown_from(mv, seen),
            Ok(Pick::Selected(s)) => {
                self.status = format!("{s} selected");
                Vec::new()
            }
            Ok(Pick::Continues { at }) => {
                self.status = format!("the capture goes on from {at}");
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

    fn play(&mut self, mv: Move) -> Vec<Effect> {
        self.play_shown_from(mv, 0)
    }

    /// Plays `mv`, and shows it stepping along its path from its landing number `seen`.
    fn play_shown_from(&mut self, mv: Move, seen: usize) -> Vec<Effect> {
        let before = *self.game.position();
        match self.game.play(&mv) {
            Ok(()) => {
                let mut effects = self.after_change();
                effects.extend(self.animate(before, mv, seen));
                effects
            }
            Err(e) => {
                self.status = e.to_string();
                Vec::new()
            }
        }
    }

    /// After the game changed: a new picker, the game's end if it came, the engine's turn if it is one.
    fn after_change(&mut self) -> Vec<Effect> {
        self.picker = Picker::new(self.game.position());
        self.place_cursor();
        let mut effects = vec![Effect::GameChanged];
        match self.game.outcome() {
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
    fn next_turn(&mut self) -> Vec<Effect> {
        let side = self.game.position().side_to_move();
        if self.paused {
            return Vec::new();
        }
        match self.players.of(side) {
            Player::Human => Vec::new(),
            Player::Engine(level) => {
                let search = self.begin_search(Purpose::Move);
                vec![Effect::Think {
                    search,
                    situation: Situation::of_game(&self.game),
                    level,
                    limits: level.limits(self.preferences.think_time),
                }]
            }
        }
    }

    /// Numbers a new search and waits for it; returns its number.
    fn begin_search(&mut self, purpose: Purpose) -> u64 {
        self.searches += 1;
        self.thinking = Some(Thinking {
            search: self.searches,
            purpose,
            depth: None,
            score: None,
        });
        self.searches
    }

    fn stop_thinking(&mut self) -> Vec<Effect> {
        self.held = None;
        match self.thinking.take() {
            Some(_) => vec![Effect::StopThinking],
            None => Vec::new(),
        }
    }

    fn engine_moved(&mut self, search: u64, mv: Option<Move>) -> Vec<Effect> {
        let wanted = self
            .thinking
            .filter(|t| t.search == search && t.purpose == Purpose::Move);
        if wanted.is_none() || self.held.is_some() {
            // An answer to a search that was stopped (by an undo, say): the game has moved on.
            return Vec::new();
        }
        if self.pace_wait && mv.is_some() {
            // A game between engines: the move is shown when the pace says.
            self.held = mv;
            return Vec::new();
        }
        self.deliver(mv)
    }

    /// Plays the engine's move (or, with none, lets the game end).
    fn deliver(&mut self, mv: Option<Move>) -> Vec<Effect> {
        self.thinking = None;
        self.held = None;
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
    fn take_back(&mut self) -> Vec<Effect> {
        if self.game.outcome().is_some() && self.game.withdraw() {
            let mut effects = self.stop_thinking();
            effects.extend(self.after_change());
            if matches!(self.mode, Mode::Play) {
                self.status = format!("taken back: {}", self.mode_message());
            }
            return effects;
        }
        if self.game.ply() == 0 {
            self.status = "nothing to undo".into();
            return Vec::new();
        }
        let mut effects = self.stop_thinking();
        self.game.undo();
        while !self.humans_turn() && self.has_human() && self.game.undo() {}
        effects.extend(self.after_change());
        effects
    }

    /// Redo: one move, or against the engine, on to the human's next turn. With nothing to replay nothing
    /// changes: a search under way goes on.
    fn step_forward(&mut self) -> Vec<Effect> {
        if self.game.ply() == self.game.len() {
            self.status = "nothing to redo".into();
            return Vec::new();
        }
        let mut effects = self.stop_thinking();
        self.game.redo();
        while !self.humans_turn() && self.has_human() && self.game.redo() {}
        effects.extend(self.after_change());
        effects
    }

    fn has_human(&self) -> bool {
        self.players.black == Player::Human || self.players.white == Player::Human
    }

    fn browse(&mut self, step: impl Fn(usize, usize) -> usize) -> Vec<Effect> {
        let live = self.game.ply();
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

    fn leave_browsing(&mut self) {
        if matches!(self.mode, Mode::Browsing { .. }) {
            self.mode = match self.game.outcome() {
                Some(outcome) => Mode::Over(outcome),
                None => Mode::Play,
            };
            self.status = self.mode_message();
        }
    }

    fn quit(&mut self) -> Vec<Effect> {
        let in_progress = !self.game.is_empty() && self.game.outcome().is_none();
        if in_progress && !self.quit_asked {
            self.quit_asked = true;
            self.status = format!(
                "a game is in progress: press {} again to quit, anything else to stay",
                self.key(Context::Board, "quit", "it")
            );
            return Vec::new();
        }
        let mut effects = self.stop_thinking();
        effects.push(Effect::Quit);
        effects
    }
}
