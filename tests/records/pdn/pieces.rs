//! Reading PDN files a game at a time: whatever the layout (tags or none, blank lines or none, one game a line
//! or all on one line), the reader holds one game at a time, and the pieces read as the whole text does.

use std::io::{self, BufReader, Read};
use std::path::PathBuf;

use crowned::game::pdn::{PdnPieces, check_reader, parse_games, parse_piece};

/// Short legal English games with every kind of result, none with tags.
const GAMES: [&str; 4] = [
    "1. 11-15 23-19 2. 8-11 22-17 1-0",
    "1. 9-13 22-18 2. 11-15 18x11 3. 8x15 0-1",
    "1. 11-15 23-19 2. 8-11 22-17 *",
    "1. 10-14 24-20 1/2-1/2",
];

/// A stream of `count` untagged games, made as it is read, each followed by `separator` and none by a blank
/// line.
struct Untagged {
    count: usize,
    made: usize,
    separator: &'static str,
    pending: Vec<u8>,
}

impl Untagged {
    fn new(count: usize, separator: &'static str) -> Self {
        Untagged {
            count,
            made: 0,
            separator,
            pending: Vec::new(),
        }
    }

    /// How many bytes the stream holds in all.
    fn len(count: usize, separator: &str) -> u64 {
        (0..count)
            .map(|i| (GAMES[i % GAMES.len()].len() + separator.len()) as u64)
            .sum()
    }
}

impl Read for Untagged {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() && self.made < self.count {
            self.pending =
                format!("{}{}", GAMES[self.made % GAMES.len()], self.separator).into_bytes();
            self.made += 1;
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// About 10 MB of games.
const MANY: usize = 330_000;

#[test]
fn ten_megabytes_of_untagged_games_are_read_a_game_at_a_time() {
    for separator in ["\n", " ", "\r\n"] {
        let total = Untagged::len(MANY, separator);
        assert!(total > 10_000_000, "{total}");
        let (mut pieces, mut largest, mut bytes) = (0, 0, 0);
        for piece in PdnPieces::new(BufReader::new(Untagged::new(MANY, separator))) {
            let piece = piece.expect("reads");
            assert!(!piece.too_long);
            pieces += 1;
            largest = largest.max(piece.text.len());
            assert!(piece.bytes_read > bytes);
            bytes = piece.bytes_read;
        }
        assert_eq!(pieces, MANY, "{separator:?}");
        assert_eq!(bytes, total);
        // The largest game and its separator, never more.
        let longest = GAMES.iter().map(|g| g.len()).max().unwrap_or(0) + separator.len();
        assert_eq!(largest, longest, "{separator:?}");
    }
}

#[test]
fn untagged_games_on_one_line_are_checked_one_by_one() {
    let count = 20_000;
    let mut checked = 0;
    let end = check_reader(
        BufReader::new(Untagged::new(count, " ")),
        |game, progress| {
            checked += 1;
            assert_eq!(game.index, checked);
            assert_eq!(game.problem, None, "game {}", game.index);
            assert_eq!(progress.games_checked, checked);
        },
    )
    .expect("reads");
    assert_eq!(end.games_checked, count);
    assert_eq!(end.bytes_read, Untagged::len(count, " "));
}

#[test]
fn a_game_that_never_ends_is_one_error_and_the_next_games_still_read() {
    let mut text = String::from("[Event \"endless\"]\n1.");
    while text.len() < 3 << 20 {
        text.push_str(" 11-15 23-19 15-11 19-23");
    }
    text.push_str("\n[Event \"after\"]\n1. 11-15 *\n1. 9-13 *\n");
    let mut reports = Vec::new();
    let end = check_reader(text.as_bytes(), |game, _| reports.push(game)).expect("reads");
    assert_eq!(end.games_checked, 3);
    assert_eq!(reports[0].index, 1);
    assert!(
        reports[0]
            .problem
            .as_deref()
            .is_some_and(|p| p.starts_with("line 1, column 1:") && p.contains("more than 1 MiB")),
        "{:?}",
        reports[0].problem
    );
    assert_eq!(
        (reports[1].event.as_str(), &reports[1].problem),
        ("after", &None)
    );
    assert_eq!(reports[2].problem, None);
}

/// The reference files read the same whether cut into pieces or parsed whole.
#[test]
fn real_files_read_alike_cut_or_whole() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pdn");
    let mut files = vec![dir.join("tinsley.pdn"), dir.join("sample.pdn")];
    match std::fs::read_dir(dir.join("conformance/succeed")) {
        Ok(entries) => files.extend(entries.flatten().map(|e| e.path())),
        Err(e) => {
            eprintln!(
                "skipped: reference data {} not readable: {e}",
                dir.display()
            );
            return;
        }
    }
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let cut = parse_games(text);
        assert!(!cut.is_empty(), "{}", path.display());
        assert_eq!(cut, parse_piece(text, 1, 1, 1), "{}", path.display());
    }
}
