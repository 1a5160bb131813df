//! The app's vocabulary: what can happen to it ([`Action`]), what it asks the outside world to do ([`Effect`]),
//! the timers it asks for, and what it knows of a search under way. Plain data, known to every other part of the
//! app and depending on none of them but the list of games an action can carry.

use std::path::PathBuf;
use std::time::Duration;

use tui_input::InputRequest;

use super::library::GameList;
use super::table::{TableNews, TableRequest};
use crate::engine::{AnySituation, Level, Limits, Players, Score};
use crate::game::{AnyGame, ClockState};
use crate::problems::check::{Answer, ProverQuestion, SharedProver};
use crate::rules::{Color, Move, Piece, Square};
use crate::store::{Filed, SavedGame};

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Choosing the engine's move.
    Move,
    /// Judging the position, to answer the player's draw offer.
    DrawOffer,
    /// Finding a move to suggest to the player.
    Hint,
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

/// What the player does in the lobby of a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LobbyAction {
    /// The cursor one line up.
    Up,
    /// One line down.
    Down,
    /// To the first line.
    First,
    /// To the last line.
    Last,
    /// What the cursor is on: play, join, watch, or open.
    Choose,
    /// Play the engine.
    Engine,
    /// The player's saved games.
    SavedGames,
    /// The form for a new game against a person.
    NewGame,
    /// Type a game's code to join it.
    JoinByCode,
    /// The problem trainer, open for this.
    Problems(super::trainer::TrainingKind),
    /// The settings screen.
    Settings,
    /// The lobby's keys.
    Help,
    /// Leave.
    Quit,
}

/// What a key does on a tournament's screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventAction {
    /// Scroll the table up a line.
    Up,
    /// Down a line.
    Down,
    /// Withdraw from the event (asked first).
    Withdraw,
    /// The screen's keys.
    Help,
    /// Back to the lobby (still entered).
    Leave,
}

/// What the engine says of a search the app asked for: each names its search by number, so that a late answer is
/// never taken for another's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineNews {
    /// The engine finished an iteration of the search numbered `search`.
    Progress {
        /// The search reporting.
        search: u64,
        /// Depth completed.
        depth: u32,
        /// Score for the side to move.
        score: Score,
        /// The expected line of play.
        pv: Vec<Move>,
    },
    /// The engine finished the search numbered `search` (asked for with [`Effect::Think`] or
    /// [`Effect::Evaluate`]): the app knows which it asked for, and takes the answer as a move
    /// ([`EngineNews::Moved`]) or a judgement ([`EngineNews::Evaluated`]).
    Done {
        /// The number of the search.
        search: u64,
        /// Its best move, or `None` if it found none.
        best: Option<Move>,
        /// Its score for the side to move.
        score: Score,
    },
    /// The engine chose a move, in the search numbered `search`.
    Moved {
        /// The number of the search that chose it (stale answers are ignored).
        search: u64,
        /// The move, or `None` if it found none.
        mv: Option<Move>,
    },
    /// The engine judged a position, in the search numbered `search` (asked for with [`Effect::Evaluate`]).
    Evaluated {
        /// The number of the search.
        search: u64,
        /// The score for the side to move.
        score: Score,
    },
}

/// Moving through the moves of the game on show, leaving the game itself as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowseAction {
    /// Show the position one move earlier.
    Back,
    /// One move later.
    Forward,
    /// The start.
    First,
    /// The live position.
    Last,
    /// The next (`true`) or previous move the review marked.
    ToMark(bool),
}

/// What a key does in a list of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListAction {
    /// Move the selection by this many entries.
    Step(isize),
    /// Type a filter (`/`).
    Filter,
    /// Sort by the next column.
    Sort,
    /// Reverse the order.
    Reverse,
}

/// What the player does with a game from a file being replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayAction {
    /// Start or pause playing it back on a timer.
    AutoPlay,
    /// Play back faster (`true`) or slower.
    Speed(bool),
    /// Continue it from the move on show as a game of the player's own.
    Continue,
}

/// The help overlay's own actions, which leave the game and the input box as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpAction {
    /// Open or close it.
    Toggle,
    /// Scroll it by this many lines.
    Scroll(isize),
    /// Open it at the rules of the game on show (its variant's goal, pieces, captures, draws); from the rules, go
    /// back to the keys.
    RulesPage,
}

/// Everything the player (or the engine thread) can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A key of a tournament's screen.
    Event(EventAction),
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
    /// The help overlay.
    Help(HelpAction),
    /// Browse the game on show.
    Browse(BrowseAction),
    /// A list of games.
    List(ListAction),
    /// The game from a file being replayed.
    Replay(ReplayAction),
    /// The engine answers or reports on a search.
    Engine(EngineNews),
    /// Open the new-game dialog.
    NewGame,
    /// Start a new game at once with the colours swapped.
    Rematch,
    /// Ask the engine to play the best move it has found so far.
    MoveNow,
    /// Ask the engine for a move to suggest to the player to move (at the hint level of the settings).
    Hint,
    /// Show or hide the analysis panel: the engine's live judgement of the position on show.
    ToggleAnalysis,
    /// Turn the capture effect on or off for the session.
    ToggleCaptureEffect,
    /// Open the problem trainer over the game.
    Problems,
    /// The prover answered the trainer's question numbered `question` (asked with [`Effect::Prove`]).
    Proved {
        /// The question's number (a stale answer is let go).
        question: u64,
        /// The answer.
        answer: Answer,
    },
    /// Analyse every move of the game on show, and mark the costly ones.
    AnalyseGame,
    /// Take back a move (a whole turn pair against the engine).
    Undo,
    /// Replay a taken-back move (a whole turn pair against the engine).
    Redo,
    /// Turn the board round.
    Flip,
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
    /// The game on show was filed among the saved games: its file, identity and name, for later saves to
    /// update the same file.
    Filed(Filed),
    /// A timer asked for with [`Effect::Wake`] is due.
    Timer(Timer),
    /// The answer to the question asked (yes: resign, accept the draw offer).
    Answer(bool),
    /// Hold the engine (it stops thinking and waits), or let it go on.
    Pause,
    /// Save the game among the saved games (`:save` without a name).
    Save,
    /// The screen changed size. While the game does not fit on it, the player's actions do nothing but quit
    /// and help (the game is not on show to act on).
    Resized {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// The table the game is played at (on a server) says something.
    Table(TableNews),
    /// A key of the lobby of a server (the lobby takes it; the game never sees it).
    Lobby(LobbyAction),
    /// Open the settings screen (the front end answers with [`Action::ShowSettings`]).
    OpenSettings,
    /// The settings screen, with the look's rows as the settings in force give them and where changes are
    /// kept.
    ShowSettings {
        /// The look's rows.
        rows: Vec<crate::config::SettingRow>,
        /// Where changes are kept, or why they last only for now.
        saved_in: String,
    },
    /// A key pressed on the settings screen.
    SettingsKey(super::event::Key),
    /// The answer to a change made on the settings screen ([`Effect::ChangeSetting`]): in force, with a word on
    /// where it is kept, and what the app follows now; or refused, with the reason.
    SettingAnswered {
        /// The change.
        edit: crate::config::SettingEdit,
        /// In force (and where it is kept), or why not.
        answer: Result<String, String>,
        /// What the app follows once it is in force.
        follow: Option<Box<super::settings_screen::Followed>>,
    },
    /// A letter that names a file of the board, pressed on the board: `then` (what the key means alone, if
    /// anything) is done at once, and a digit straight after it takes that back and starts a move typed in
    /// coordinates (`h6-g5`), with no key to open the box first.
    FileLetter {
        /// The letter.
        letter: char,
        /// What the key does alone: a step of the cursor, a flip, the analysis panel, or nothing.
        then: Option<Box<Action>>,
    },
}

impl Action {
    /// Whether this is one of the help's own actions, which leave the game and the input box as they are.
    pub fn is_help(&self) -> bool {
        matches!(self, Action::Help(_))
    }

    /// Whether the player did this (a key, a click, a paste, a command), rather than the engine, a timer or the
    /// outside world.
    pub fn from_player(&self) -> bool {
        !matches!(
            self,
            Action::Engine(_)
                | Action::Proved { .. }
                | Action::Timer(_)
                | Action::Notice(_)
                | Action::ShowGames(_)
                | Action::Filed(_)
                | Action::Resized { .. }
                | Action::Table(_)
                | Action::ShowSettings { .. }
                | Action::SettingAnswered { .. }
        )
    }
}

/// The most text [`Effect::Copy`] carries: 48 KiB, which the clipboard sequence makes 64 KiB, within what
/// terminals take in one piece (some refuse a sequence of 100 000 bytes or more).
pub const MAX_COPY_BYTES: usize = 48 * 1024;

/// What the outside world must do after an action.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Start the engine on this situation at this level; answer with [`EngineNews::Done`] and this number.
    Think {
        /// The number of this search.
        search: u64,
        /// The position and its history.
        situation: AnySituation,
        /// The level to play at.
        level: Level,
        /// What the search is given: the level's limits for the thinking time when it was asked for.
        limits: Limits,
    },
    /// Judge this situation quickly (a short full-strength search); answer with [`EngineNews::Done`] and this
    /// number.
    Evaluate {
        /// The number of this search.
        search: u64,
        /// The position and its history.
        situation: AnySituation,
        /// What the search is given: full strength for the thinking time, but never longer than
        /// [`JUDGING_TIME`](crate::app::JUDGING_TIME).
        limits: Limits,
    },
    /// Answer the problem trainer's question with this prover, off the app's thread (it may take a second);
    /// answer with [`Action::Proved`] and this number.
    Prove {
        /// The question's number.
        question: u64,
        /// The prover to answer with (shared with the trainer, so that what it proves is remembered).
        prover: SharedProver,
        /// The question.
        asked: ProverQuestion,
    },
    /// Tell the outside world what the problem trainer decided (a server keeps it in its records).
    Trained(super::trainer::TrainingNews),
    /// Think on the opponent's time: search this situation (the position after the reply the engine expects)
    /// with no limit, until [`Effect::PonderHit`] gives it its time or another search replaces it. Its answer
    /// comes with [`EngineNews::Done`] and this number.
    Ponder {
        /// The number of this search.
        search: u64,
        /// The position after the expected reply, and its history.
        situation: AnySituation,
        /// The level to play at.
        level: Level,
    },
    /// The expected reply was played: the ponder search numbered `search` is now the engine's move, with the
    /// time these limits give from now.
    PonderHit {
        /// The ponder search's number.
        search: u64,
        /// The limits of the move, as [`Effect::Think`] would have them.
        limits: Limits,
    },
    /// Stop the running search; its answer will be stale.
    StopThinking,
    /// Stop the running search and let it answer with the best move found so far.
    MoveNow,
    /// The game changed (a move, an undo, a new game): keep it as it stands after the action.
    GameChanged(Keep),
    /// Keep this game among the saved games: it is being left unfinished (a new game, a declined resume).
    Archive {
        /// The game.
        game: Box<AnyGame>,
        /// Who played it.
        players: Players,
        /// The saved-games file it came from, to be updated instead of filing a second copy.
        file: Option<PathBuf>,
        /// Its clocks as they stand, when it has them.
        clock: Option<ClockState>,
    },
    /// Save this game among the saved games (`:save`), under a name the player chose if any, and say where;
    /// answer with [`Action::Filed`].
    Save {
        /// The game.
        game: Box<AnyGame>,
        /// Who plays it.
        players: Players,
        /// The saved-games file it already has, to be updated instead of filing a second copy.
        file: Option<PathBuf>,
        /// Its clocks as they stand, when it has them.
        clock: Option<ClockState>,
        /// The name typed, if any.
        name: Option<String>,
    },
    /// List the saved games and answer with [`Action::ShowGames`].
    ListSaved,
    /// Put this text (at most [`MAX_COPY_BYTES`]) on the player's clipboard, through their terminal.
    Copy(String),
    /// Send [`Action::Timer`] with this timer after this long, replacing any earlier request for it.
    Wake {
        /// Which timer.
        timer: Timer,
        /// How long from now.
        after: Duration,
    },
    /// Ask the table the game is played at (on a server) for this.
    Table(TableRequest),
    /// Ask the server to keep this about the opponent at the table (a block, a report); the answer comes as
    /// [`TableNews::Told`](super::TableNews::Told).
    Conduct(super::table::ConductRequest),
    /// Open the settings screen: answer with [`Action::ShowSettings`].
    OpenSettings,
    /// Check, apply and keep this change of the settings; answer with [`Action::SettingAnswered`].
    ChangeSetting(crate::config::SettingEdit),
    /// Leave the program.
    Quit,
}

/// What a change of the game asks to keep, as the game stands once the action is done.
#[derive(Clone, Debug)]
pub enum Keep {
    /// Nothing is in progress (a game with no moves yet, or a file's game being replayed): the game in progress
    /// kept earlier is let go.
    Nothing,
    /// The game in progress, kept in case the program stops before it ends.
    InProgress(Box<SavedGame>),
    /// The game, just ended: filed among the saved games (answer with [`Action::Filed`]), and no longer kept as
    /// in progress.
    Finished(Box<SavedGame>),
}

/// The timers the app asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Timer {
    /// The next move of a replayed game being played back.
    Replay,
    /// The next move of a game between engines may be shown.
    Pace,
    /// The next step of a move being shown along its path.
    Animation,
    /// The next frame of the capture effect's bursts.
    Burst,
    /// The analysis panel may show the engine's latest report.
    Analysis,
    /// The running clock shows a new second, or has run out.
    Clock,
}
