//! The key map: which action a key press means, given where the focus is.
//!
//! Keys arrive as crossterm events, the form every input source here (a local terminal, tests, later an SSH
//! channel) can produce. The table shown by the help overlay, [`KEY_HELP`], sits beside the map so the two are
//! changed together.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tui_input::InputRequest;
use tui_input::backend::crossterm::to_input_request;

use super::state::{Action, App, Focus, Mode, SetupAction};
use crate::rules::{Color, Piece, Role};

/// Every key, grouped as the help overlay shows them: (keys, what they do).
pub const KEY_HELP: &[(&str, &str)] = &[
    ("arrows, h j k l", "move the cursor"),
    ("Space, Enter", "pick up a piece / put it down"),
    ("Esc", "drop the selection, stop browsing, close"),
    ("0-9, :", "type a move (11-15, 22x15) or a :command"),
    ("i", "type a move in coordinates (c3-d4)"),
    ("u", "undo (a whole turn against the engine)"),
    ("U, Ctrl-r", "redo"),
    ("[ ]", "step back / forward through the game"),
    ("Home, End", "the start / the live position"),
    ("Tab", "focus the move list (arrows step, Home/End, g/G)"),
    ("m", "make the engine move now"),
    ("f", "flip the board"),
    ("n", "new game: choose the players"),
    ("s", "set up a position"),
    ("o", "open a saved game (:load)"),
    (
        "p, + -, c",
        "replaying: play back, faster / slower, continue",
    ),
    ("r", "rematch with colours swapped (game over)"),
    ("?", "this help"),
    ("q, Ctrl-c", "quit (q asks first during a game)"),
    ("mouse", "click a piece, then its destination"),
];

/// The keys of the position editor, shown beside the board while setting up: (keys, what they do).
pub const SETUP_KEYS: &[(&str, &str)] = &[
    ("b w", "black / white man"),
    ("B W", "black / white king"),
    ("x Del", "empty the square"),
    ("Space", "next piece on the square"),
    ("c", "clear the board"),
    ("r", "the standard start"),
    ("t", "the other side to move"),
    ("1 2", "who plays Black / White"),
    ("Enter", "start the game"),
    ("Esc", "back to the game"),
    (":fen", "show, or :fen <FEN> load"),
];

/// The action a key press stands for, or `None` if it means nothing here.
pub fn action_for_key(app: &App, key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    if control && key.code == KeyCode::Char('c') {
        return Some(Action::Interrupt);
    }
    if app.resume_offer().is_some() {
        return match (key.code, plain_char(key)) {
            (KeyCode::Enter, _) | (_, Some('y' | 'Y' | ' ')) => Some(Action::AcceptResume),
            (KeyCode::Esc, _) | (_, Some('n' | 'N')) => Some(Action::DeclineResume),
            _ => None,
        };
    }
    if app.help_open() {
        // Any key closes the help.
        return Some(Action::ToggleHelp);
    }
    if app.dialog().is_some() {
        return dialog_key(key);
    }
    if app.game_list().is_some() {
        return list_key(key);
    }
    if app.replay().is_some()
        && app.focus() != Focus::Input
        && let Some(action) = replay_key(key)
    {
        return Some(action);
    }
    if matches!(app.mode(), Mode::Setup(_)) && app.focus() != Focus::Input {
        return setup_key(key).or_else(|| board_key(app, key));
    }
    match app.focus() {
        Focus::Input => input_key(key),
        Focus::History => history_key(key).or_else(|| board_key(app, key)),
        Focus::Board => board_key(app, key),
    }
}

/// A plain character: no Control or Alt (Shift is part of the character).
fn plain_char(key: KeyEvent) -> Option<char> {
    match key.code {
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(c)
        }
        _ => None,
    }
}

fn direction(key: KeyEvent) -> Option<Action> {
    match (key.code, plain_char(key)) {
        (KeyCode::Up, _) | (_, Some('k')) => Some(Action::Up),
        (KeyCode::Down, _) | (_, Some('j')) => Some(Action::Down),
        (KeyCode::Left, _) | (_, Some('h')) => Some(Action::Left),
        (KeyCode::Right, _) | (_, Some('l')) => Some(Action::Right),
        _ => None,
    }
}

fn board_key(app: &App, key: KeyEvent) -> Option<Action> {
    if let Some(action) = direction(key) {
        return Some(action);
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('r') {
        return Some(Action::Redo);
    }
    match key.code {
        KeyCode::Enter => return Some(Action::PickAtCursor),
        KeyCode::Esc => return Some(Action::Cancel),
        KeyCode::Tab | KeyCode::BackTab => return Some(Action::ToggleHistoryFocus),
        KeyCode::Home => return Some(Action::BrowseFirst),
        KeyCode::End => return Some(Action::BrowseLast),
        _ => {}
    }
    let c = plain_char(key)?;
    Some(match c {
        '0'..='9' | ':' => Action::Edit(InputRequest::InsertChar(c)),
        ' ' => Action::PickAtCursor,
        'i' => Action::StartTyping,
        'u' => Action::Undo,
        'U' => Action::Redo,
        '[' => Action::BrowseBack,
        ']' => Action::BrowseForward,
        'm' => Action::MoveNow,
        'f' => Action::Flip,
        'n' => Action::NewGame,
        's' => Action::Setup(SetupAction::Open),
        'o' => Action::Load,
        // A rematch abandons the game, so the single key works only once it is over (`:rematch` always does).
        'r' if matches!(app.mode(), Mode::Over(_)) => Action::Rematch,
        '?' => Action::ToggleHelp,
        'q' => Action::Quit,
        _ => return None,
    })
}

/// The position editor's own keys; the others (cursor, typing, help, quitting) are the board's.
fn setup_key(key: KeyEvent) -> Option<Action> {
    let put = |color, role| Some(Action::Setup(SetupAction::Put(Piece::new(color, role))));
    match key.code {
        KeyCode::Enter => return Some(Action::Setup(SetupAction::Start)),
        KeyCode::Delete | KeyCode::Backspace => return Some(Action::Setup(SetupAction::Remove)),
        _ => {}
    }
    match plain_char(key)? {
        'b' => put(Color::Black, Role::Man),
        'B' => put(Color::Black, Role::King),
        'w' => put(Color::White, Role::Man),
        'W' => put(Color::White, Role::King),
        'x' => Some(Action::Setup(SetupAction::Remove)),
        ' ' => Some(Action::Setup(SetupAction::Cycle)),
        'c' => Some(Action::Setup(SetupAction::Clear)),
        'r' => Some(Action::Setup(SetupAction::Standard)),
        't' => Some(Action::Setup(SetupAction::SwitchSide)),
        '1' => Some(Action::Setup(SetupAction::CyclePlayer(Color::Black))),
        '2' => Some(Action::Setup(SetupAction::CyclePlayer(Color::White))),
        _ => None,
    }
}

/// The keys of a list of games.
fn list_key(key: KeyEvent) -> Option<Action> {
    if let Some(action) = direction(key) {
        return Some(action);
    }
    match (key.code, plain_char(key)) {
        (KeyCode::Enter, _) | (_, Some(' ')) => Some(Action::PickAtCursor),
        (KeyCode::PageUp, _) => Some(Action::ListStep(-10)),
        (KeyCode::PageDown, _) => Some(Action::ListStep(10)),
        (KeyCode::Home, _) | (_, Some('g')) => Some(Action::BrowseFirst),
        (KeyCode::End, _) | (_, Some('G')) => Some(Action::BrowseLast),
        (KeyCode::Esc, _) | (_, Some('q')) => Some(Action::Cancel),
        _ => None,
    }
}

/// The keys of a game being replayed, besides those for browsing.
fn replay_key(key: KeyEvent) -> Option<Action> {
    match plain_char(key)? {
        'p' => Some(Action::AutoPlay),
        '+' | '=' => Some(Action::Speed(true)),
        '-' => Some(Action::Speed(false)),
        'c' => Some(Action::Continue),
        _ => None,
    }
}

fn history_key(key: KeyEvent) -> Option<Action> {
    match direction(key) {
        Some(Action::Up | Action::Left) => return Some(Action::BrowseBack),
        Some(_) => return Some(Action::BrowseForward),
        None => {}
    }
    match (key.code, plain_char(key)) {
        (KeyCode::Home, _) | (_, Some('g')) => Some(Action::BrowseFirst),
        (KeyCode::End, _) | (_, Some('G')) => Some(Action::BrowseLast),
        _ => None,
    }
}

fn input_key(key: KeyEvent) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::SubmitInput),
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::Up | KeyCode::Down | KeyCode::Tab | KeyCode::BackTab => None,
        _ => to_input_request(&Event::Key(key)).map(Action::Edit),
    }
}

fn dialog_key(key: KeyEvent) -> Option<Action> {
    if let Some(action) = direction(key) {
        return Some(action);
    }
    match (key.code, plain_char(key)) {
        (KeyCode::Enter, _) | (_, Some(' ')) => Some(Action::PickAtCursor),
        (KeyCode::Tab | KeyCode::BackTab, _) => Some(Action::Down),
        (_, Some('s')) => Some(Action::Setup(SetupAction::Open)),
        (KeyCode::Esc, _) | (_, Some('q')) => Some(Action::Cancel),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Player, Players};
    use crate::engine::Level;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn app() -> App {
        App::new(Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        })
        .0
    }

    #[test]
    fn board_keys() {
        let app = app();
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('k'))),
            Some(Action::Up)
        );
        assert_eq!(action_for_key(&app, key(KeyCode::Left)), Some(Action::Left));
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char(' '))),
            Some(Action::PickAtCursor)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('1'))),
            Some(Action::Edit(InputRequest::InsertChar('1')))
        );
        assert_eq!(
            action_for_key(
                &app,
                KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)
            ),
            Some(Action::Redo)
        );
        assert_eq!(
            action_for_key(&app, KeyEvent::new(KeyCode::Char('U'), KeyModifiers::SHIFT)),
            Some(Action::Redo)
        );
        // A rematch needs the game to be over.
        assert_eq!(action_for_key(&app, key(KeyCode::Char('r'))), None);
        assert_eq!(action_for_key(&app, key(KeyCode::F(5))), None);
    }

    #[test]
    fn releases_are_ignored_and_ctrl_c_always_interrupts() {
        let mut app = app();
        let mut release = key(KeyCode::Char('q'));
        release.kind = KeyEventKind::Release;
        assert_eq!(action_for_key(&app, release), None);
        app.update(Action::ToggleHelp);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(action_for_key(&app, ctrl_c), Some(Action::Interrupt));
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('x'))),
            Some(Action::ToggleHelp),
            "any key closes the help"
        );
    }

    #[test]
    fn while_typing_keys_edit_the_box() {
        let mut app = app();
        app.update(Action::Edit(InputRequest::InsertChar('1')));
        assert_eq!(app.focus(), Focus::Input);
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('q'))),
            Some(Action::Edit(InputRequest::InsertChar('q')))
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Left)),
            Some(Action::Edit(InputRequest::GoToPrevChar))
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Enter)),
            Some(Action::SubmitInput)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Esc)),
            Some(Action::Cancel)
        );
    }

    #[test]
    fn history_focus_turns_arrows_into_browsing() {
        let mut app = app();
        app.update(Action::ToggleHistoryFocus);
        assert_eq!(
            action_for_key(&app, key(KeyCode::Up)),
            Some(Action::BrowseBack)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('j'))),
            Some(Action::BrowseForward)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Home)),
            Some(Action::BrowseFirst)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('f'))),
            Some(Action::Flip),
            "other keys keep their board meaning"
        );
    }
}
