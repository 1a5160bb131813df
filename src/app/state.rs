//! The application: a game, who plays it, and what the player is doing, changed only by [`Action`]s.
//!
//! `App::update` is the whole behaviour: it takes one action and returns the effects the outside world must
//! carry out (start or stop the engine, clear the input box, quit). Nothing here touches a terminal, a thread or
//! a file, so tests drive it directly.

use std::fmt;

use tui_input::{Input, InputRequest};

use super::dialog::NewGameDialog;
use super::keys::Context;
use super::library::{GameEntry, GameList, ListPurpose, Replay};
use super::picking::{Pick, Picker};
use super::preferences::Preferences;
use super::setup::{Setup, check_position};
use crate::engine::{Level, Score, Situation};
use crate::game::{Game, GameError, Outcome};
use crate::rules::{
    Color, English, Move, MoveText, Piece, Position, RuleSet, Square, Strictness, parse_fen, to_fen,
};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The engine at a level.
    Engine(Level),
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Engine(level) => write!(f, "engine ({level})"),
        }
    }
}

impl std::str::FromStr for Player {
    type Err = crate::engine::UnknownLevel;

    /// `human`, or an engine level name (`medium`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("human") {
            Ok(Player::Human)
        } else {
            s.parse().map(Player::Engine)
        }
    }
}

/// Who plays each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Players {
    /// The side that moves first.
    pub black: Player,
    /// The other side.
    pub white: Player,
}

impl Players {
    /// The player of `color`.
    pub fn of(&self, color: Color) -> Player {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The same players with colours swapped.
    pub fn swapped(self) -> Players {
        Players {
            black: self.white,
            white: self.black,
        }
    }
}

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

/// What the engine has reported about the search under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// The number of the search.
    pub search: u64,
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
    /// Auto-play's timer: the next move of the replayed game.
    Tick,
    /// Continue the replayed game from the move on show as a new game.
    Continue,
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
    /// Row and column of the cursor on the diagram (row 0 at the top when not flipped).
    cursor: (u32, u32),
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
}

const G: crate::rules::Geometry = English::GEOMETRY;

/// The commands the input box understands, as listed in messages and the help overlay.
pub const COMMANDS: &str = ":new :rematch :undo :redo :flip :resign :draw :move :level L :setup :fen [FEN] \
     :save [name] :load :continue :help :quit";

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
            cursor: (5, 0),
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

    /// The game offered for resuming, with its players.
    pub fn resume_offer(&self) -> Option<(&Game, Players)> {
        self.resume
            .as_deref()
            .map(|(game, players)| (game, *players))
    }

    fn resume_question(&self) -> String {
        match self.resume_offer() {
            Some((game, _)) => format!(
                "An unfinished game ({} moves) was saved. Resume it? y: resume, n: new game",
                game.ply()
            ),
            None => String::new(),
        }
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
            _ => self.game.position(),
        }
    }

    /// The position being set up, when setting up.
    pub fn setup(&self) -> Option<&Setup> {
        match &self.mode {
            Mode::Setup(setup) => Some(setup),
            _ => None,
        }
    }

    /// The square under the cursor, if it is a dark square.
    pub fn cursor_square(&self) -> Option<Square> {
        G.at(self.cursor.0, self.cursor.1)
    }

    /// Cursor row and column on the diagram.
    pub fn cursor(&self) -> (u32, u32) {
        self.cursor
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

    /// How long until the next [`Action::Tick`] is wanted (auto-play), if one is.
    pub fn tick_interval(&self) -> Option<std::time::Duration> {
        self.replay
            .as_ref()
            .filter(|r| r.playing)
            .map(Replay::interval)
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
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        if action != Action::Quit && !matches!(action, Action::EngineProgress { .. }) {
            self.quit_asked = false;
        }
        if self.resume.is_some() {
            return self.resume_action(action);
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
            Action::PickAtCursor => match self.cursor_square() {
                Some(square) => self.pick(square),
                None => {
                    self.status = "pieces stand on the dark squares".into();
                    Vec::new()
                }
            },
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
                self.input.handle(request);
                self.focus = if self.input.value().is_empty() {
                    Focus::Board
                } else {
                    Focus::Input
                };
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
                Vec::new()
            }
            Action::BrowseBack => self.browse(|ply, _| ply.saturating_sub(1)),
            Action::BrowseForward => self.browse(|ply, live| (ply + 1).min(live)),
            Action::BrowseFirst => self.browse(|_, _| 0),
            Action::BrowseLast => {
                self.leave_browsing();
                Vec::new()
            }
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
            Action::AutoPlay | Action::Speed(_) | Action::Tick | Action::Continue => {
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

    /// Opens `list` for choosing, or says there is nothing in it.
    fn show_games(&mut self, list: GameList) {
        if list.entries.is_empty() {
            self.status = match list.purpose {
                ListPurpose::Load => {
                    "no saved games yet (:save [name] saves the game on the board)".into()
                }
                ListPurpose::Replay => format!("no games in {}", list.title),
            };
            return;
        }
        self.status = format!(
            "{}: {} games. Enter opens the selected one, Esc closes the list",
            list.title,
            list.entries.len()
        );
        self.list = Some(Box::new(list));
    }

    fn list_action(&mut self, action: Action) -> Vec<Effect> {
        let Some(list) = self.list.as_mut() else {
            return Vec::new();
        };
        match action {
            Action::Up | Action::Left => list.step(-1),
            Action::Down | Action::Right => list.step(1),
            Action::ListStep(step) => list.step(step),
            Action::BrowseFirst => list.step(isize::MIN),
            Action::BrowseLast => list.step(isize::MAX),
            Action::PickAtCursor | Action::SubmitInput => {
                let purpose = list.purpose;
                let chosen = list.chosen().cloned();
                self.list = None;
                if let Some(entry) = chosen {
                    return self.open_entry(entry, purpose);
                }
            }
            Action::Cancel | Action::Quit => {
                self.list = None;
                self.status = self.mode_message();
            }
            _ => {}
        }
        Vec::new()
    }

    /// Opens a game chosen from a list: one of the program's own unfinished games goes on where it stood with
    /// its players; any other game is replayed from its start.
    fn open_entry(&mut self, entry: GameEntry, purpose: ListPurpose) -> Vec<Effect> {
        match entry.players {
            Some(players)
                if purpose == ListPurpose::Load
                    && entry.error.is_none()
                    && entry.game.outcome().is_none() =>
            {
                let source = entry.source.clone();
                let mut effects = self.start_game(entry.game, players);
                // Opening a saved game is not a move: it goes into the autosave only when it changes.
                effects.retain(|e| !matches!(e, Effect::GameChanged));
                if matches!(self.mode, Mode::Play) {
                    self.status = format!("{source}: {}", self.mode_message());
                }
                effects
            }
            _ => {
                let mut effects = self.leave_game();
                self.open_replay(entry);
                // The player's game has been filed: the autosave must not offer it again.
                effects.push(Effect::GameChanged);
                effects
            }
        }
    }

    /// Shows `entry` from its start, for stepping through; nobody moves until it is continued.
    fn open_replay(&mut self, entry: GameEntry) {
        let flipped = self.flipped;
        let replay = Replay::of(&entry);
        let mut game = entry.game;
        game.go_to(game.len());
        self.reset(game, self.players);
        self.flipped = flipped;
        self.replay = Some(replay);
        self.mode = Mode::Browsing { ply: 0 };
        // The arrows step through the moves; the board has nothing to pick.
        self.focus = Focus::History;
        self.status = match self.replay.as_ref().and_then(|r| r.error.as_deref()) {
            Some(error) => format!(
                "{}: the record stops after move {}: {error}",
                self.replay_source(),
                self.game.len()
            ),
            None => self.mode_message(),
        };
    }

    fn replay_source(&self) -> &str {
        self.replay.as_ref().map_or("", |r| r.source.as_str())
    }

    /// What replaying does with an action, or `None` for the actions that work as in a game (browsing, typing,
    /// help, a new game, quitting).
    fn replay_action(&mut self, action: &Action) -> Option<Vec<Effect>> {
        let replay = self.replay.as_mut()?;
        let ply = match self.mode {
            Mode::Browsing { ply } => ply,
            _ => self.game.len(),
        };
        let live = self.game.len();
        match action {
            Action::AutoPlay => {
                replay.playing = !replay.playing;
                if replay.playing && ply == live {
                    // Played back from the start when started at the end.
                    self.mode = Mode::Browsing { ply: 0 };
                }
            }
            Action::Speed(faster) => replay.change_speed(*faster),
            Action::Tick => {
                if !replay.playing {
                    return Some(Vec::new());
                }
                let next = (ply + 1).min(live);
                replay.playing = next < live;
                self.mode = Mode::Browsing { ply: next };
            }
            Action::Continue => return Some(self.continue_replay(ply)),
            Action::Cancel if self.focus != Focus::Input => {
                replay.playing = false;
                self.focus = Focus::History;
            }
            // The cursor keys step through the moves while the move list has them, as in a game.
            Action::BrowseBack | Action::Up | Action::Left
                if self.focus == Focus::History || *action == Action::BrowseBack =>
            {
                self.mode = Mode::Browsing {
                    ply: ply.saturating_sub(1),
                };
            }
            Action::BrowseForward | Action::Down | Action::Right
                if self.focus == Focus::History || *action == Action::BrowseForward =>
            {
                self.mode = Mode::Browsing {
                    ply: (ply + 1).min(live),
                };
            }
            Action::BrowseFirst => self.mode = Mode::Browsing { ply: 0 },
            Action::BrowseLast => self.mode = Mode::Browsing { ply: live },
            Action::PickAtCursor
            | Action::PickSquare(_)
            | Action::Undo
            | Action::Redo
            | Action::MoveNow
            | Action::Rematch => {
                let source = replay.source.clone();
                self.status = format!(
                    "replaying {source}: {} continues from here as a new game",
                    self.key(Context::Replay, "continue", ":continue")
                );
                return Some(Vec::new());
            }
            _ => return None,
        }
        self.status = self.mode_message();
        Some(Vec::new())
    }

    /// A new game from the replayed game's position after `ply` moves, with those moves as its history.
    fn continue_replay(&mut self, ply: usize) -> Vec<Effect> {
        let mut game = self.game.clone();
        game.go_to(ply);
        game.truncate();
        // The record's result belongs to the game as it was played.
        game.tags_mut().remove("Result");
        let source = self.replay_source().to_string();
        let effects = self.start_game(game, self.players);
        if matches!(self.mode, Mode::Play) {
            self.status = format!(
                "continuing {source} after move {ply}: {}",
                self.mode_message()
            );
        }
        effects
    }

    /// Starts setting up a position, from the one on show, for `players`. The engine stops; the game is kept
    /// until a new one starts.
    fn open_setup(&mut self, players: Players) -> Vec<Effect> {
        let effects = self.stop_thinking();
        self.mode = Mode::Setup(Setup::new(*self.shown_position(), players));
        self.focus = Focus::Board;
        self.status = self.mode_message();
        effects
    }

    /// The actions setting up handles itself, or `None` for those that work as usual (typing, help, quitting,
    /// flipping, the engine's late answers).
    fn setup_action(&mut self, mut setup: Setup, action: &Action) -> Option<Vec<Effect>> {
        let square = self.cursor_square();
        let done = match action {
            Action::Setup(what) => match what {
                SetupAction::Open => Ok(()),
                SetupAction::Put(piece) => setup.toggle(square, *piece),
                SetupAction::Remove => setup.remove(square),
                SetupAction::Cycle => setup.cycle(square),
                SetupAction::Clear => {
                    setup.clear();
                    Ok(())
                }
                SetupAction::Standard => {
                    setup.standard();
                    Ok(())
                }
                SetupAction::SwitchSide => {
                    setup.switch_side();
                    Ok(())
                }
                SetupAction::CyclePlayer(color) => {
                    setup.cycle_player(*color);
                    Ok(())
                }
                SetupAction::Start => return Some(self.start_setup(setup)),
            },
            Action::PickAtCursor => setup.cycle(square),
            Action::PickSquare(square) => {
                self.cursor = G.row_col(*square);
                setup.cycle(Some(*square))
            }
            Action::Up | Action::Down | Action::Left | Action::Right => {
                self.move_cursor(action);
                return Some(Vec::new());
            }
            Action::Cancel if self.focus != Focus::Input => return Some(self.leave_setup()),
            Action::Cancel
            | Action::Edit(_)
            | Action::SubmitInput
            | Action::Submit(_)
            | Action::StartTyping
            | Action::ToggleHelp
            | Action::ScrollHelp(_)
            | Action::Flip
            | Action::EngineProgress { .. }
            | Action::EngineMoved { .. }
            | Action::Quit
            | Action::Interrupt
            | Action::Notice(_) => return None,
            _ => {
                self.status = format!(
                    "setting up a position: {} starts a game from it, {} returns to the game",
                    self.key(Context::Setup, "start", "Enter"),
                    self.key(Context::Setup, "cancel", "Esc")
                );
                return Some(Vec::new());
            }
        };
        self.mode = Mode::Setup(setup);
        self.status = match done {
            Ok(()) => self.mode_message(),
            Err(e) => e.to_string(),
        };
        Some(Vec::new())
    }

    /// Starts a game from the set-up position, or says why it cannot.
    fn start_setup(&mut self, setup: Setup) -> Vec<Effect> {
        match setup.check() {
            Ok(position) => self.start_game(Self::game_from(position), setup.players()),
            Err(e) => {
                self.status = format!("cannot start: {e}");
                Vec::new()
            }
        }
    }

    /// A game from `position`: the standard start is recorded as an ordinary game, without a FEN.
    fn game_from(position: Position) -> Game {
        if position == Position::start() {
            Game::new()
        } else {
            Game::from_position(position)
        }
    }

    /// Back to the game as it was, the engine thinking again if it is its turn.
    fn leave_setup(&mut self) -> Vec<Effect> {
        self.focus = Focus::Board;
        if self.replay.is_some() {
            // Back to the record (at its end): nobody plays a replayed game.
            self.mode = Mode::Browsing {
                ply: self.game.len(),
            };
            self.focus = Focus::History;
            self.status = self.mode_message();
            return Vec::new();
        }
        match self.game.outcome() {
            Some(outcome) => {
                self.mode = Mode::Over(outcome);
                self.status = self.mode_message();
                Vec::new()
            }
            None => {
                self.mode = Mode::Play;
                self.picker = Picker::new(self.game.position());
                self.place_cursor();
                self.status = self.mode_message();
                self.next_turn()
            }
        }
    }

    /// `:fen` shows the position on show in FEN; `:fen <FEN>` sets it up, or in play starts a game from it.
    fn fen_command(&mut self, text: Option<&str>) -> Result<Vec<Effect>, String> {
        let Some(text) = text.filter(|t| !t.is_empty()) else {
            self.status = format!("FEN: {}", to_fen(self.shown_position()));
            return Ok(Vec::new());
        };
        let position = parse_fen::<English>(text).map_err(|e| format!("bad FEN: {e}"))?;
        if let Mode::Setup(mut setup) = self.mode {
            setup.set_position(position);
            self.mode = Mode::Setup(setup);
            self.status = self.mode_message();
            return Ok(Vec::new());
        }
        check_position(&position).map_err(|e| format!("cannot start: {e}"))?;
        Ok(self.start_game(Self::game_from(position), self.players))
    }

    /// While the resume question is open only its answers, Ctrl-C and notices count.
    fn resume_action(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::AcceptResume => {
                let Some(offer) = self.resume.take() else {
                    return Vec::new();
                };
                let (game, players) = *offer;
                let mut effects = self.restart(game, players);
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
        !matches!(
            action,
            Action::EngineMoved { .. }
                | Action::EngineProgress { .. }
                | Action::Interrupt
                | Action::ToggleHelp
                | Action::ScrollHelp(_)
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
        let searches = self.searches;
        let preferences = std::mem::take(&mut self.preferences);
        *self = App::fresh(game, players, preferences);
        self.searches = searches;
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
        let (row, col) = self.cursor;
        // On a turned board the screen's up is the board's down.
        let (dr, dc): (i32, i32) = match action {
            Action::Up => (-1, 0),
            Action::Down => (1, 0),
            Action::Left => (0, -1),
            _ => (0, 1),
        };
        let (dr, dc) = if self.flipped { (-dr, -dc) } else { (dr, dc) };
        let clamp = |v: i32| v.clamp(0, 7) as u32;
        self.cursor = (clamp(row as i32 + dr), clamp(col as i32 + dc));
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
            self.cursor = G.row_col(square);
        }
    }

    fn humans_turn(&self) -> bool {
        self.players.of(self.game.position().side_to_move()) == Player::Human
    }

    fn pick(&mut self, square: Square) -> Vec<Effect> {
        self.cursor = G.row_col(square);
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
        match self.picker.pick(&position, square) {
            Ok(Pick::Complete(mv)) => self.play(mv),
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
        match self.game.play(&mv) {
            Ok(()) => self.after_change(),
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
                effects.extend(self.next_turn());
            }
        }
        effects
    }

    fn next_turn(&mut self) -> Vec<Effect> {
        let side = self.game.position().side_to_move();
        match self.players.of(side) {
            Player::Human => Vec::new(),
            Player::Engine(level) => {
                self.searches += 1;
                self.thinking = Some(Thinking {
                    search: self.searches,
                    depth: None,
                    score: None,
                });
                vec![Effect::Think {
                    search: self.searches,
                    situation: Situation::of_game(&self.game),
                    level,
                }]
            }
        }
    }

    fn stop_thinking(&mut self) -> Vec<Effect> {
        match self.thinking.take() {
            Some(_) => vec![Effect::StopThinking],
            None => Vec::new(),
        }
    }

    fn engine_moved(&mut self, search: u64, mv: Option<Move>) -> Vec<Effect> {
        if self.thinking.map(|t| t.search) != Some(search) {
            // An answer to a search that was stopped (by an undo, say): the game has moved on.
            return Vec::new();
        }
        self.thinking = None;
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

    fn turn_message(&self) -> String {
        let pos = self.game.position();
        let side = pos.side_to_move();
        if let Player::Engine(level) = self.players.of(side) {
            return format!(
                "{side} to move: the engine ({level}) is thinking ({}: move now)",
                self.key(Context::Board, "move-now", ":move")
            );
        }
        if self.picker.must_capture() {
            let takers: Vec<String> = self
                .picker
                .movable()
                .iter()
                .map(Square::to_string)
                .collect();
            format!(
                "{side} to move: a capture is compulsory ({} can take)",
                takers.join(", ")
            )
        } else {
            format!("{side} to move")
        }
    }

    /// The first key bound to a command, for messages, or `fallback` (a :command) when it has none.
    fn key(&self, context: Context, name: &str, fallback: &str) -> String {
        self.preferences
            .keys
            .first_key(context, name)
            .map_or_else(|| fallback.to_string(), |k| k.to_string())
    }

    fn browsing_refusal(&self) -> String {
        format!(
            "browsing: press {} to return to the game",
            self.key(Context::Board, "cancel", "Esc")
        )
    }

    fn engine_refusal(&self) -> String {
        format!(
            "the engine is thinking ({}: move now)",
            self.key(Context::Board, "move-now", ":move")
        )
    }

    /// The status line's message for the current mode.
    fn mode_message(&self) -> String {
        match self.mode {
            Mode::Play => self.turn_message(),
            Mode::Over(outcome) => {
                format!(
                    "{outcome}. {}: new game, {}: rematch, {}: browse",
                    self.key(Context::Board, "new-game", ":new"),
                    self.key(Context::Board, "rematch", ":rematch"),
                    self.key(Context::Board, "back", "Tab")
                )
            }
            Mode::Browsing { ply } => match &self.replay {
                Some(replay) => {
                    let playing = if replay.playing {
                        format!(
                            "playing back, {:.2} s a move ({} pauses, {} {})",
                            replay.interval().as_secs_f64(),
                            self.key(Context::Replay, "play", "-"),
                            self.key(Context::Replay, "faster", "-"),
                            self.key(Context::Replay, "slower", "-")
                        )
                    } else {
                        format!("{} plays back", self.key(Context::Replay, "play", "-"))
                    };
                    let end = match (&replay.error, ply == self.game.len()) {
                        (Some(error), true) => format!(" The record stops here: {error}."),
                        _ => String::new(),
                    };
                    format!(
                        "{}: move {ply} of {}; {playing}, {} continues from here.{end}",
                        replay.source,
                        self.game.len(),
                        self.key(Context::Replay, "continue", ":continue")
                    )
                }
                None => format!(
                    "browsing: after move {ply} of {} ({} returns to the game)",
                    self.game.ply(),
                    self.key(Context::Board, "cancel", "Esc")
                ),
            },
            Mode::Setup(setup) => match setup.check() {
                Ok(position) => format!(
                    "setting up: {} to move; {} starts the game, {} returns to the old one",
                    position.side_to_move(),
                    self.key(Context::Setup, "start", "Enter"),
                    self.key(Context::Setup, "cancel", "Esc")
                ),
                Err(e) => format!("setting up: {e}"),
            },
        }
    }

    fn submit_input(&mut self) -> Vec<Effect> {
        let text = self.input.value().trim().to_string();
        if let Some(command) = text.strip_prefix(':') {
            return self.command(command.trim());
        }
        if text.is_empty() {
            self.clear_input();
            return Vec::new();
        }
        if !matches!(self.mode, Mode::Play) || !self.humans_turn() {
            self.status = match self.mode {
                Mode::Over(_) => self.mode_message(),
                Mode::Browsing { .. } => self.browsing_refusal(),
                Mode::Play => self.engine_refusal(),
                Mode::Setup(_) => {
                    "setting up: moves are played once the game starts (Enter)".into()
                }
            };
            return Vec::new();
        }
        let found =
            MoveText::parse(&text, G).and_then(|t| t.find(self.game.position(), Strictness::Exact));
        match found {
            Ok(mv) => {
                self.clear_input();
                self.play(mv)
            }
            Err(e) => {
                // The text stays in the box for correction.
                self.focus = Focus::Input;
                self.status = e.to_string();
                Vec::new()
            }
        }
    }

    fn clear_input(&mut self) {
        self.input.reset();
        if self.focus == Focus::Input {
            self.focus = Focus::Board;
        }
    }

    fn command(&mut self, command: &str) -> Vec<Effect> {
        let mut words = command.split_whitespace();
        let name = words.next().unwrap_or("");
        let argument = words.next();
        let effects = match name {
            "new" => self.update(Action::NewGame),
            "rematch" => self.update(Action::Rematch),
            "undo" => self.take_back(),
            "redo" => self.step_forward(),
            "flip" => self.update(Action::Flip),
            "help" => {
                self.help = true;
                self.help_scroll = 0;
                Vec::new()
            }
            "quit" => self.update(Action::Interrupt),
            "move" => self.move_now(),
            "save" => vec![Effect::Save {
                game: Box::new(self.game.clone()),
                players: self.players,
                // The name is the rest of the line, spaces and all (the store makes it a safe file name).
                name: command
                    .split_once(char::is_whitespace)
                    .map(|(_, rest)| rest.trim().to_string()),
            }],
            "resign" | "draw" => self.declare(name),
            "setup" => self.update(Action::Setup(SetupAction::Open)),
            "load" => vec![Effect::ListSaved],
            "continue" => self.update(Action::Continue),
            "fen" => {
                let text = command
                    .split_once(char::is_whitespace)
                    .map(|(_, rest)| rest.trim());
                match self.fen_command(text) {
                    Ok(effects) => effects,
                    Err(refusal) => {
                        // The text stays in the box for correction.
                        self.focus = Focus::Input;
                        self.status = refusal;
                        return Vec::new();
                    }
                }
            }
            "level" => match argument.map(str::parse::<Level>) {
                Some(Ok(level)) => {
                    self.set_engine_level(level);
                    Vec::new()
                }
                refused => {
                    self.focus = Focus::Input;
                    self.status = match refused {
                        Some(Err(e)) => e.to_string(),
                        _ => "which level? random, easy, medium, hard or max".into(),
                    };
                    return Vec::new();
                }
            },
            _ => {
                // The text stays in the box for correction.
                self.focus = Focus::Input;
                self.status = format!("unknown command :{name} (commands: {COMMANDS})");
                return Vec::new();
            }
        };
        self.clear_input();
        effects
    }

    /// Every engine player plays at `level` from its next move.
    fn set_engine_level(&mut self, level: Level) {
        for side in [Color::Black, Color::White] {
            if let Player::Engine(_) = self.players.of(side) {
                self.set_player(side, Player::Engine(level));
            }
        }
        self.status = format!("engine level: {level}");
    }

    fn set_player(&mut self, side: Color, player: Player) {
        match side {
            Color::Black => self.players.black = player,
            Color::White => self.players.white = player,
        }
    }

    fn declare(&mut self, what: &str) -> Vec<Effect> {
        let mut effects = self.stop_thinking();
        let side = self.game.position().side_to_move();
        // The human resigns: on the engine's turn, that is the other side.
        let loser = if self.humans_turn() {
            side
        } else {
            side.opponent()
        };
        let result = match what {
            "resign" => self.game.resign(loser),
            _ => self.game.agree_draw(),
        };
        match result {
            Ok(()) => effects.extend(self.after_change()),
            Err(GameError::Over(outcome)) => self.status = format!("{outcome} already"),
            Err(e) => self.status = e.to_string(),
        }
        effects
    }

    /// Undo: one move, or against the engine, back to the human's previous turn.
    fn take_back(&mut self) -> Vec<Effect> {
        let mut effects = self.stop_thinking();
        self.mode = Mode::Play;
        if !self.game.undo() {
            self.status = "nothing to undo".into();
            return effects;
        }
        while !self.humans_turn() && self.has_human() && self.game.undo() {}
        effects.push(Effect::GameChanged);
        self.picker = Picker::new(self.game.position());
        self.status = self.mode_message();
        if let Some(outcome) = self.game.outcome() {
            self.mode = Mode::Over(outcome);
        } else if !self.humans_turn() {
            // Back at the start with the engine to move (or no human at all): the engine plays again.
            effects.extend(self.next_turn());
        }
        effects
    }

    /// Redo: one move, or against the engine, on to the human's next turn.
    fn step_forward(&mut self) -> Vec<Effect> {
        let mut effects = self.stop_thinking();
        if !self.game.redo() {
            self.status = "nothing to redo".into();
            return effects;
        }
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
