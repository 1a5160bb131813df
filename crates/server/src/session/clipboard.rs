//! The player's clipboard, set through their terminal: the OSC 52 sequence (`ESC ] 52 ; c ; <base64> BEL`),
//! which a terminal emulator reads from the bytes it is sent, so that it works over SSH as well as at home.
//!
//! The sequence goes out beside the frames, into whatever the screen is drawn on ([`Passthrough`]).

use std::io::{self, Write};

use base64ct::{Base64, Encoding};

use ratatui::backend::{CrosstermBackend, TestBackend};

use crate::app::MAX_COPY_BYTES;

/// A screen that can also carry bytes meant for the terminal itself rather than for its cells.
pub trait Passthrough {
    /// Sends `bytes` to the terminal as they are, after what has been drawn.
    fn pass_through(&mut self, bytes: &[u8]) -> io::Result<()>;
}

impl<W: Write> Passthrough for CrosstermBackend<W> {
    fn pass_through(&mut self, bytes: &[u8]) -> io::Result<()> {
        // The backend writes through to its writer as it is.
        self.write_all(bytes)?;
        Write::flush(self)
    }
}

impl Passthrough for TestBackend {
    /// A test screen has no terminal behind it: the bytes have nowhere to go.
    fn pass_through(&mut self, _bytes: &[u8]) -> io::Result<()> {
        Ok(())
    }
}

/// The sequence that puts `text` on the terminal's clipboard, or `None` when the text is longer than
/// [`MAX_COPY_BYTES`] (the app refuses such copies before asking; this bound holds whoever asks).
pub fn clipboard_sequence(text: &str) -> Option<Vec<u8>> {
    if text.len() > MAX_COPY_BYTES {
        return None;
    }
    let mut sequence = b"\x1b]52;c;".to_vec();
    sequence.extend_from_slice(base64(text.as_bytes()).as_bytes());
    sequence.push(0x07);
    Some(sequence)
}

/// `bytes` in standard base64, padded (RFC 4648), as OSC 52 carries them.
fn base64(bytes: &[u8]) -> String {
    Base64::encode_string(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_the_standard_one() {
        // RFC 4648's own examples.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn the_sequence_carries_the_text_and_is_bounded() {
        assert_eq!(
            clipboard_sequence("W:W31-50:B1-20"),
            Some(b"\x1b]52;c;VzpXMzEtNTA6QjEtMjA=\x07".to_vec())
        );
        let most = "a".repeat(MAX_COPY_BYTES);
        let sequence = clipboard_sequence(&most).expect("the most there may be");
        assert!(sequence.len() <= 64 * 1024 + 16, "{}", sequence.len());
        assert_eq!(clipboard_sequence(&format!("{most}a")), None);
    }
}
