//! What a key press means now: the lookup from a key to an action, given what is open over the game and where
//! the focus is.
//!
//! The open overlay ([`App::overlay`]) decides first, in the one order the whole app follows: the resume offer
//! takes y / n, the help any key, a question y / n, the dialog and the list their own keys. With nothing open,
//! [`action_for_key`] looks the key up in a list of contexts chosen from the app's state, first to last, so a
//! context can lend the keys it does not bind itself to another (the move list keeps the board's). The keys bound
//! to each context's commands are the key map's ([`super::keymap`]).
//!
//! Keys arrive as the app's own [`Key`]s, which every front end (the local terminal, the SSH server, tests)
//! converts its input into.

use tui_input::InputRequest;

use super::action::{Action, HelpAction, ListAction};
use super::event::{Key, KeyCode, Modifiers};
use super::keymap::{Context, KeyChord, bound_in, command_action};
use super::mode::{Focus, Mode};
use super::overlay::{Overlay, Question};
use super::state::App;

/// The action a key press stands for, or `None` if it means nothing here.
pub fn action_for_key(app: &App, key: Key) -> Option<Action> {
    if key.is_interrupt() {
        return Some(Action::Interrupt);
    }
    // The contexts a key is looked up in, first to last: the move list keeps the board's keys it does not bind.
    let contexts: &[Context] = match app.overlay() {
        Some(Overlay::Resume(_)) => return resume_key(key),
        Some(Overlay::Help(_)) => return Some(help_key(key)),
        Some(Overlay::Question(question)) => return question_key(app, *question, key),
        Some(Overlay::Settings(_)) => return Some(Action::SettingsKey(key)),
        Some(Overlay::Dialog(_)) => &[Context::Dialog],
        Some(Overlay::List(list)) if list.view.typing => return list_filter_key(key),
        Some(Overlay::List(_)) => &[Context::List],
        None if app.input_held() && key.code == KeyCode::Backspace => {
            // Refused text held in the box is taken up for editing.
            return Some(Action::Edit(InputRequest::DeletePrevChar));
        }
        None => {
            let replay = app.replay().is_some();
            match (app.focus(), app.mode()) {
                (Focus::Input, _) => return input_key(key),
                (_, Mode::Setup(_)) => &[Context::Setup, Context::Board],
                (Focus::History, _) if replay => {
                    &[Context::Replay, Context::History, Context::Board]
                }
                (Focus::History, _) => &[Context::History, Context::Board],
                (Focus::Board, _) if replay => &[Context::Replay, Context::Board],
                (Focus::Board, _) => &[Context::Board],
            }
        }
    };
    let bound = bound_action(app, contexts, key);
    match plain_char(key).filter(|&c| names_a_file(app, contexts, c)) {
        // A letter that could start a square typed in coordinates, if what it does alone can be taken back.
        Some(letter) if bound.as_ref().is_none_or(can_be_taken_back) => Some(Action::FileLetter {
            letter,
            then: bound.map(Box::new),
        }),
        _ => bound,
    }
}

/// What `key` is bound to in the first of `contexts` that binds it (digits and `:` type).
fn bound_action(app: &App, contexts: &[Context], key: Key) -> Option<Action> {
    let keys = &app.preferences().keys;
    let chord = KeyChord::from(key);
    for &context in contexts {
        if let Some(c) = plain_char(key).filter(|&c| context.types(c)) {
            return Some(Action::Edit(InputRequest::InsertChar(c)));
        }
        if let Some(command) = keys.command_for(context, chord) {
            return match command_action(command) {
                // A rematch abandons the game, so the key works only once it is over (`:rematch` always does).
                Some(Action::Rematch) if !matches!(app.mode(), Mode::Over(_)) => None,
                action => action,
            };
        }
    }
    None
}

/// Whether `c` is the letter of one of the board's files, pressed where moves are typed (not while setting up,
/// whose letters place pieces).
fn names_a_file(app: &App, contexts: &[Context], c: char) -> bool {
    let files = u32::from(app.board().width);
    matches!(
        contexts.first(),
        Some(Context::Board | Context::History | Context::Replay)
    ) && !contexts.contains(&Context::Setup)
        && c.is_ascii_lowercase()
        && u32::from(c) - u32::from('a') < files
}

/// Whether an action done by a file's letter can be taken back unseen when a digit follows: it only moves the
/// cursor, turns the board, shows or hides the analysis, or opens the input box.
fn can_be_taken_back(action: &Action) -> bool {
    matches!(
        action,
        Action::Up
            | Action::Down
            | Action::Left
            | Action::Right
            | Action::Flip
            | Action::ToggleAnalysis
            | Action::StartTyping
    )
}

/// A list's filter being typed: characters and Backspace edit it, Enter opens the game selected, Esc clears
/// the filter, and the arrows still choose.
fn list_filter_key(key: Key) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::PickAtCursor),
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::Backspace => Some(Action::Edit(InputRequest::DeletePrevChar)),
        KeyCode::Up => Some(Action::Up),
        KeyCode::Down => Some(Action::Down),
        KeyCode::PageUp => Some(Action::List(ListAction::Step(-10))),
        KeyCode::PageDown => Some(Action::List(ListAction::Step(10))),
        _ => plain_char(key).map(|c| Action::Edit(InputRequest::InsertChar(c))),
    }
}

/// The resume offer: y, Space or Enter resumes, n or Esc starts a new game.
fn resume_key(key: Key) -> Option<Action> {
    match (key.code, plain_char(key)) {
        (KeyCode::Enter, _) | (_, Some('y' | 'Y' | ' ')) => Some(Action::AcceptResume),
        (KeyCode::Esc, _) | (_, Some('n' | 'N')) => Some(Action::DeclineResume),
        _ => None,
    }
}

/// The help: the arrow keys and PgUp/PgDn scroll it, Tab turns between the keys and the rules; any other key
/// closes it.
fn help_key(key: Key) -> Action {
    match key.code {
        KeyCode::Up => Action::Help(HelpAction::Scroll(-1)),
        KeyCode::Down => Action::Help(HelpAction::Scroll(1)),
        KeyCode::PageUp => Action::Help(HelpAction::Scroll(-10)),
        KeyCode::PageDown => Action::Help(HelpAction::Scroll(10)),
        KeyCode::Tab | KeyCode::BackTab => Action::Help(HelpAction::RulesPage),
        _ => Action::Help(HelpAction::Toggle),
    }
}

/// A yes/no question: y or n (Esc is no); the quit key confirms quitting too; help still opens, other keys
/// leave the question on screen.
fn question_key(app: &App, question: Question, key: Key) -> Option<Action> {
    let quit_key = bound_in(&app.preferences().keys, Context::Board, key) == Some(Action::Quit);
    if matches!(question, Question::Quit { .. }) && quit_key {
        return Some(Action::Answer(true));
    }
    match (key.code, plain_char(key)) {
        (_, Some('y' | 'Y')) => Some(Action::Answer(true)),
        (KeyCode::Esc, _) | (_, Some('n' | 'N')) => Some(Action::Answer(false)),
        (_, Some('?')) => Some(Action::Help(HelpAction::Toggle)),
        _ => None,
    }
}

/// A plain character: no Control or Alt (Shift is part of the character).
fn plain_char(key: Key) -> Option<char> {
    match key.code {
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(Modifiers::CONTROL | Modifiers::ALT) =>
        {
            Some(c)
        }
        _ => None,
    }
}

fn input_key(key: Key) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::SubmitInput),
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::Up | KeyCode::Down | KeyCode::Tab | KeyCode::BackTab => None,
        _ => edit_request(key).map(Action::Edit),
    }
}

/// How a key edits the input box: the usual line-editing keys, with the Emacs-style Control and Alt keys that
/// shells understand.
fn edit_request(key: Key) -> Option<InputRequest> {
    use InputRequest::*;
    const NONE: Modifiers = Modifiers::NONE;
    const CONTROL: Modifiers = Modifiers::CONTROL;
    const ALT: Modifiers = Modifiers::ALT;
    Some(match (key.code, key.modifiers) {
        (KeyCode::Backspace, NONE) | (KeyCode::Char('h'), CONTROL) => DeletePrevChar,
        (KeyCode::Delete, NONE) => DeleteNextChar,
        (KeyCode::Left, NONE) | (KeyCode::Char('b'), CONTROL) => GoToPrevChar,
        (KeyCode::Left, CONTROL) => GoToPrevWord,
        (KeyCode::Right, NONE) | (KeyCode::Char('f'), CONTROL) => GoToNextChar,
        (KeyCode::Right, CONTROL) => GoToNextWord,
        (KeyCode::Char('u'), CONTROL) => DeleteLine,
        (KeyCode::Char('w'), CONTROL) | (KeyCode::Backspace, ALT) => DeletePrevWord,
        (KeyCode::Delete, CONTROL) => DeleteNextWord,
        (KeyCode::Char('k'), CONTROL) => DeleteTillEnd,
        (KeyCode::Char('y'), CONTROL) => Yank,
        (KeyCode::Char('a'), CONTROL) | (KeyCode::Home, NONE) => GoToStart,
        (KeyCode::Char('e'), CONTROL) | (KeyCode::End, NONE) => GoToEnd,
        (KeyCode::Char(c), m) if m == NONE || m == Modifiers::SHIFT || m == CONTROL | ALT => {
            InsertChar(c)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::BrowseAction;
    use crate::app::keymap::KeyMap;
    use crate::app::{Player, Players, Preferences};
    use crate::engine::Level;
    use Context::Board;

    fn key(code: KeyCode) -> Key {
        Key::new(code, Modifiers::NONE)
    }

    fn chord(text: &str) -> KeyChord {
        text.parse().expect("a key")
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
            action_for_key(&app, Key::new(KeyCode::Char('r'), Modifiers::CONTROL)),
            Some(Action::Redo)
        );
        assert_eq!(
            action_for_key(&app, Key::new(KeyCode::Char('U'), Modifiers::SHIFT)),
            Some(Action::Redo)
        );
        // A rematch needs the game to be over.
        assert_eq!(action_for_key(&app, key(KeyCode::Char('r'))), None);
        assert_eq!(action_for_key(&app, key(KeyCode::F(5))), None);
        assert_eq!(
            action_for_key(&app, Key::new(KeyCode::Char('u'), Modifiers::ALT)),
            None,
            "Alt-u is not u"
        );
    }

    #[test]
    fn ctrl_c_always_interrupts() {
        let mut app = app();
        let _ = app.update(Action::Help(HelpAction::Toggle));
        let ctrl_c = Key::new(KeyCode::Char('c'), Modifiers::CONTROL);
        assert_eq!(action_for_key(&app, ctrl_c), Some(Action::Interrupt));
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('x'))),
            Some(Action::Help(HelpAction::Toggle)),
            "any key closes the help"
        );
    }

    #[test]
    fn while_typing_keys_edit_the_box() {
        let mut app = app();
        let _ = app.update(Action::Edit(InputRequest::InsertChar('1')));
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
    fn history_focus_has_its_own_keys_and_falls_back_to_the_board() {
        let mut app = app();
        let _ = app.update(Action::ToggleHistoryFocus);
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('g'))),
            Some(Action::Browse(BrowseAction::First))
        );
        assert_eq!(
            action_for_key(&app, Key::new(KeyCode::Char('G'), Modifiers::SHIFT)),
            Some(Action::Browse(BrowseAction::Last))
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Home)),
            Some(Action::Browse(BrowseAction::First))
        );
        // The cursor keys are the board's; the app turns them into steps through the game.
        assert_eq!(action_for_key(&app, key(KeyCode::Up)), Some(Action::Up));
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('f'))),
            Some(Action::FileLetter {
                letter: 'f',
                then: Some(Box::new(Action::Flip))
            }),
            "other keys keep their board meaning (a file's letter may start a square too)"
        );
    }

    #[test]
    fn the_dialog_has_its_own_keys() {
        let mut app = app();
        let _ = app.update(Action::NewGame);
        for (code, action) in [
            (KeyCode::Tab, Action::Down),
            (KeyCode::Char('q'), Action::Cancel),
            (KeyCode::Char(' '), Action::PickAtCursor),
            (KeyCode::Char('h'), Action::Left),
        ] {
            assert_eq!(action_for_key(&app, key(code)), Some(action), "{code:?}");
        }
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('1'))),
            None,
            "nothing is typed in the dialog"
        );
        assert_eq!(action_for_key(&app, key(KeyCode::Char('u'))), None);
    }

    #[test]
    fn preferences_carry_the_key_map_into_the_app() {
        let mut app = app();
        let mut keys = KeyMap::default();
        keys.bind(Board, "undo", &[chord("x")]).expect("bound");
        app.set_preferences(Preferences {
            keys,
            ..Preferences::default()
        });
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('x'))),
            Some(Action::Undo)
        );
        assert_eq!(action_for_key(&app, key(KeyCode::Char('u'))), None);
    }
}
