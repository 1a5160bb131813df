//! The bytes an SSH client types, as the app's input events.
//!
//! A local terminal's input is read by crossterm; over SSH the server gets the raw bytes the client's terminal
//! sends, split wherever the network split them. termina's [`Parser`] (the streaming parser of the Helix
//! editor's terminal library, made for input a program reads itself) turns them into keys, SGR mouse reports
//! and bracketed pastes, holding an incomplete escape sequence until the rest comes. This module adds what a
//! server needs on top:
//!
//! * **A lone Esc.** The Esc key sends the byte that also starts every escape sequence. A byte 0x1b with nothing
//!   after it stays pending; when no more bytes come within [`ESC_TIMEOUT`] the front end calls
//!   [`ByteInput::flush`] and it becomes the Esc key.
//! * **Bounded work and memory.** A sequence that never ends (a hostile client sending `ESC [` and digits
//!   forever, a paste without its end marker) is dropped once it passes a limit, so that each byte costs a
//!   bounded amount of work and a session's memory stays small.

use std::time::Duration;

use termina::Parser;
use termina::event::{
    Event, KeyCode as TermKey, KeyEvent, KeyEventKind, Modifiers as TermModifiers, MouseButton,
    MouseEvent, MouseEventKind,
};

use crate::app::{InputEvent, Key, KeyCode, Modifiers, Mouse, MouseKind};

/// How long a lone Esc byte waits for the rest of an escape sequence before it counts as the Esc key. Terminals
/// send a sequence in one write, so its bytes arrive together unless the network splits them; this is long
/// enough for a split over a slow link and short enough that Esc still feels immediate.
pub const ESC_TIMEOUT: Duration = Duration::from_millis(60);

/// The longest escape sequence kept while it is incomplete (real ones are under 40 bytes).
const MAX_SEQUENCE: usize = 256;

/// The longest bracketed paste kept: far more than any move or command, small enough for every session to
/// hold. A longer paste is dropped whole.
pub const MAX_PASTE: usize = 64 * 1024;

/// The start of a bracketed paste.
const PASTE_START: &[u8] = b"\x1b[200~";

/// Turns a stream of bytes, split anywhere, into the app's input events.
#[derive(Debug, Default)]
pub struct ByteInput {
    parser: Parser,
    /// The bytes given to the parser since it last completed an event (its pending sequence), up to the start
    /// of a paste: enough to know how long the pending sequence is and whether it is a paste.
    pending: Vec<u8>,
    pending_len: usize,
    /// Sequences dropped for being too long (for the log).
    dropped: u64,
}

impl ByteInput {
    /// Reads `bytes`; the events they complete are added to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<InputEvent>) {
        for &byte in bytes {
            // One byte at a time, so that the pending sequence's length is known after each one.
            self.parser.parse(&[byte], true);
            if self.pending.len() < PASTE_START.len() {
                self.pending.push(byte);
            }
            self.pending_len += 1;
            if self.drain(out) {
                continue;
            }
            let limit = if self.pending.starts_with(PASTE_START) {
                MAX_PASTE + 2 * PASTE_START.len()
            } else {
                MAX_SEQUENCE
            };
            if self.pending_len > limit {
                self.reset();
                self.dropped += 1;
            }
        }
    }

    /// Whether bytes wait for the rest of a sequence: the front end should call [`ByteInput::flush`] if no more
    /// come within [`ESC_TIMEOUT`].
    pub fn is_pending(&self) -> bool {
        self.pending_len > 0
    }

    /// Ends the pending sequence as it stands: a lone Esc becomes the Esc key (and Esc followed by a key, Alt
    /// with it); an incomplete sequence is dropped.
    pub fn flush(&mut self, out: &mut Vec<InputEvent>) {
        if self.pending_len == 0 {
            return;
        }
        self.parser.parse(&[], false);
        if !self.drain(out) {
            self.reset();
        }
    }

    /// How many over-long sequences have been dropped.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Moves the parser's finished events to `out`; whether there were any (the pending sequence is then
    /// empty: the parser completes an event only at the end of what it holds).
    fn drain(&mut self, out: &mut Vec<InputEvent>) -> bool {
        let mut any = false;
        while let Some(event) = self.parser.pop() {
            any = true;
            out.extend(convert(event));
        }
        if any {
            self.pending.clear();
            self.pending_len = 0;
        }
        any
    }

    fn reset(&mut self) {
        self.parser = Parser::default();
        self.pending.clear();
        self.pending_len = 0;
    }
}

/// The app's event for a parsed one, or `None` for what the app has no use for (key releases, focus changes,
/// mouse moves, drags and releases, terminal reports, keys it does not know).
fn convert(event: Event) -> Option<InputEvent> {
    match event {
        Event::Key(key) => convert_key(key).map(InputEvent::Key),
        Event::Mouse(mouse) => convert_mouse(mouse).map(InputEvent::Mouse),
        Event::Paste(text) => Some(InputEvent::Paste(text)),
        // The size comes from the SSH channel's window-change requests, never from the byte stream.
        _ => None,
    }
}

fn convert_key(key: KeyEvent) -> Option<Key> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let code = match key.code {
        TermKey::Char(c) => KeyCode::Char(c),
        TermKey::Enter => KeyCode::Enter,
        TermKey::Escape => KeyCode::Esc,
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
        TermKey::Function(n) => KeyCode::F(n),
        _ => return None,
    };
    let mut modifiers = Modifiers::NONE;
    for (from, to) in [
        (TermModifiers::SHIFT, Modifiers::SHIFT),
        (TermModifiers::CONTROL, Modifiers::CONTROL),
        (TermModifiers::ALT, Modifiers::ALT),
    ] {
        if key.modifiers.contains(from) {
            modifiers |= to;
        }
    }
    Some(Key::new(code, modifiers))
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
    use proptest::prelude::*;

    fn events(chunks: &[&[u8]]) -> Vec<InputEvent> {
        let mut input = ByteInput::default();
        let mut out = Vec::new();
        for chunk in chunks {
            input.feed(chunk, &mut out);
        }
        input.flush(&mut out);
        out
    }

    fn key(code: KeyCode) -> InputEvent {
        InputEvent::Key(Key::plain(code))
    }

    #[test]
    fn keys_arrows_mouse_and_paste() {
        let got = events(&[
            b"h\x1b[A\x1bOB\r \x03\x1b[<0;12;5M\x1b[<0;12;5m\x1b[200~11-15\x1b[201~\x1bx",
        ]);
        assert_eq!(
            got,
            vec![
                key(KeyCode::Char('h')),
                key(KeyCode::Up),
                key(KeyCode::Down),
                key(KeyCode::Enter),
                key(KeyCode::Char(' ')),
                InputEvent::Key(Key::ctrl('c')),
                InputEvent::Mouse(Mouse {
                    kind: MouseKind::Click,
                    column: 11,
                    row: 4
                }),
                InputEvent::Paste("11-15".into()),
                InputEvent::Key(Key::new(KeyCode::Char('x'), Modifiers::ALT)),
            ]
        );
    }

    #[test]
    fn a_lone_esc_waits_for_the_timeout() {
        let mut input = ByteInput::default();
        let mut out = Vec::new();
        input.feed(b"\x1b", &mut out);
        assert!(out.is_empty());
        assert!(input.is_pending());
        // The rest of an arrow key arrives in the next packet: one key, no Esc.
        input.feed(b"[D", &mut out);
        assert_eq!(out, vec![key(KeyCode::Left)]);
        assert!(!input.is_pending());
        input.feed(b"\x1b", &mut out);
        input.flush(&mut out);
        assert_eq!(out, vec![key(KeyCode::Left), key(KeyCode::Esc)]);
        assert!(!input.is_pending());
    }

    #[test]
    fn endless_sequences_are_dropped_and_input_goes_on() {
        let mut input = ByteInput::default();
        let mut out = Vec::new();
        let mut hostile = b"\x1b[".to_vec();
        hostile.extend(std::iter::repeat_n(b'1', 100_000));
        input.feed(&hostile, &mut out);
        assert!(input.dropped() >= 1);
        input.flush(&mut out);
        input.feed(b"q", &mut out);
        assert_eq!(out.last(), Some(&key(KeyCode::Char('q'))));
        // A paste that never ends is dropped once it passes the limit.
        let mut input = ByteInput::default();
        let mut out = Vec::new();
        let mut paste = PASTE_START.to_vec();
        paste.extend(std::iter::repeat_n(b'a', MAX_PASTE + 100));
        input.feed(&paste, &mut out);
        assert_eq!(input.dropped(), 1);
        assert!(out.iter().all(|e| !matches!(e, InputEvent::Paste(_))));
        // A paste within the limit arrives whole.
        let mut paste = PASTE_START.to_vec();
        paste.extend(std::iter::repeat_n(b'b', MAX_PASTE));
        paste.extend(b"\x1b[201~");
        let mut out = Vec::new();
        ByteInput::default().feed(&paste, &mut out);
        assert!(matches!(&out[..], [InputEvent::Paste(p)] if p.len() == MAX_PASTE));
    }

    /// What a terminal sends for a few keys, a click and a paste.
    fn token() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            prop::sample::select(vec![
                b"a".to_vec(),
                b"Z".to_vec(),
                b" ".to_vec(),
                b"\r".to_vec(),
                b"\x7f".to_vec(),
                b"\x1b[A".to_vec(),
                b"\x1b[1;5C".to_vec(),
                b"\x1bOP".to_vec(),
                b"\x1b[5~".to_vec(),
                b"\x1b[<0;3;7M".to_vec(),
                b"\x1b[<64;3;7M".to_vec(),
                b"\x1bj".to_vec(),
                "\u{e9}".as_bytes().to_vec(),
            ]),
            "[a-z0-9 x-]{0,12}".prop_map(|t| {
                let mut p = PASTE_START.to_vec();
                p.extend(t.bytes());
                p.extend(b"\x1b[201~");
                p
            }),
        ]
    }

    proptest! {
        #[test]
        fn a_stream_split_anywhere_gives_the_same_events(
            tokens in prop::collection::vec(token(), 0..30),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        ) {
            let whole: Vec<u8> = tokens.concat();
            let expected = events(&[&whole]);
            let mut points: Vec<usize> = cuts.iter().map(|i| i.index(whole.len() + 1)).collect();
            points.sort_unstable();
            let mut chunks = Vec::new();
            let mut last = 0;
            for p in points {
                chunks.push(&whole[last..p]);
                last = p;
            }
            chunks.push(&whole[last..]);
            prop_assert_eq!(events(&chunks), expected.clone());
            // And every token is one event (releases and moves are not among them).
            prop_assert_eq!(expected.len(), tokens.len());
        }
    }
}
