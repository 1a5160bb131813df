//! crossterm's events in the app's terms: the one place the local terminal's input format is known.

use crossterm::event::{
    Event, KeyCode as TermKey, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};

use crate::app::{InputEvent, Key, KeyCode, Modifiers, Mouse, MouseKind};

/// The app's event for a terminal event, or `None` for what the app has no use for (key releases, focus
/// changes, mouse moves and drags, keys it does not know).
pub fn convert(event: Event) -> Option<InputEvent> {
    match event {
        Event::Key(key) => convert_key(key).map(InputEvent::Key),
        Event::Mouse(mouse) => convert_mouse(mouse).map(InputEvent::Mouse),
        Event::Paste(text) => Some(InputEvent::Paste(text)),
        Event::Resize(width, height) => Some(InputEvent::Resize { width, height }),
        Event::FocusGained | Event::FocusLost => None,
    }
}

fn convert_key(key: KeyEvent) -> Option<Key> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let code = match key.code {
        TermKey::Char(c) => KeyCode::Char(c),
        TermKey::Enter => KeyCode::Enter,
        TermKey::Esc => KeyCode::Esc,
        TermKey::Tab => KeyCode::Tab,
        TermKey::BackTab => KeyCode::BackTab,
        TermKey::Backspace => KeyCode::Backspace,
        TermKey::Delete => KeyCode::Delete,
        TermKey::Insert => KeyCode::Insert,
        TermKey::Home => KeyCode::Home,
        TermKey::End => KeyCode::End,
        TermKey::PageUp => KeyCode::PageUp,
        TermKey::PageDown => KeyCode::PageDown,
        TermKey::Up => KeyCode::Up,
        TermKey::Down => KeyCode::Down,
        TermKey::Left => KeyCode::Left,
        TermKey::Right => KeyCode::Right,
        TermKey::F(n) => KeyCode::F(n),
        _ => return None,
    };
    Some(Key::new(code, convert_modifiers(key.modifiers)))
}

/// Shift, Control and Alt; the rarer modifiers (Super, Hyper, Meta) are not told apart by the app's keys.
fn convert_modifiers(modifiers: KeyModifiers) -> Modifiers {
    let mut out = Modifiers::NONE;
    for (from, to) in [
        (KeyModifiers::SHIFT, Modifiers::SHIFT),
        (KeyModifiers::CONTROL, Modifiers::CONTROL),
        (KeyModifiers::ALT, Modifiers::ALT),
    ] {
        if modifiers.contains(from) {
            out |= to;
        }
    }
    out
}

fn convert_mouse(mouse: MouseEvent) -> Option<Mouse> {
    let kind = match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => MouseKind::Click,
        MouseEventKind::ScrollUp => MouseKind::ScrollUp,
        MouseEventKind::ScrollDown => MouseKind::ScrollDown,
        _ => return None,
    };
    Some(Mouse {
        kind,
        column: mouse.column,
        row: mouse.row,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: TermKey, modifiers: KeyModifiers, kind: KeyEventKind) -> Event {
        let mut key = KeyEvent::new(code, modifiers);
        key.kind = kind;
        Event::Key(key)
    }

    #[test]
    fn keys_keep_their_code_and_modifiers_and_releases_are_dropped() {
        let press = key(
            TermKey::Char('r'),
            KeyModifiers::CONTROL,
            KeyEventKind::Press,
        );
        assert_eq!(convert(press), Some(InputEvent::Key(Key::ctrl('r'))));
        let repeat = key(TermKey::PageDown, KeyModifiers::SHIFT, KeyEventKind::Repeat);
        assert_eq!(
            convert(repeat),
            Some(InputEvent::Key(Key::new(
                KeyCode::PageDown,
                Modifiers::SHIFT
            )))
        );
        let release = key(
            TermKey::Char('q'),
            KeyModifiers::NONE,
            KeyEventKind::Release,
        );
        assert_eq!(convert(release), None);
        let caps = key(TermKey::CapsLock, KeyModifiers::NONE, KeyEventKind::Press);
        assert_eq!(convert(caps), None);
        let alt = key(
            TermKey::Char('u'),
            KeyModifiers::ALT | KeyModifiers::SUPER,
            KeyEventKind::Press,
        );
        assert_eq!(
            convert(alt),
            Some(InputEvent::Key(Key::new(
                KeyCode::Char('u'),
                Modifiers::ALT
            )))
        );
    }

    #[test]
    fn clicks_and_the_wheel_keep_their_cell_and_other_mouse_events_are_dropped() {
        let mouse = |kind, column, row| {
            Event::Mouse(MouseEvent {
                kind,
                column,
                row,
                modifiers: KeyModifiers::NONE,
            })
        };
        assert_eq!(
            convert(mouse(MouseEventKind::Down(MouseButton::Left), 7, 3)),
            Some(InputEvent::Mouse(Mouse {
                kind: MouseKind::Click,
                column: 7,
                row: 3
            }))
        );
        assert_eq!(
            convert(mouse(MouseEventKind::ScrollDown, 1, 2)).map(|e| matches!(
                e,
                InputEvent::Mouse(Mouse {
                    kind: MouseKind::ScrollDown,
                    ..
                })
            )),
            Some(true)
        );
        assert_eq!(
            convert(mouse(MouseEventKind::Down(MouseButton::Right), 7, 3)),
            None
        );
        assert_eq!(convert(mouse(MouseEventKind::Moved, 7, 3)), None);
        assert_eq!(convert(Event::FocusGained), None);
        assert_eq!(
            convert(Event::Paste("11-15".into())),
            Some(InputEvent::Paste("11-15".into()))
        );
        assert_eq!(
            convert(Event::Resize(80, 24)),
            Some(InputEvent::Resize {
                width: 80,
                height: 24
            })
        );
    }
}
