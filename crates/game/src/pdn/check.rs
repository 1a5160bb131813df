//! Checking every game of a PDN file: reading it, then replaying it with the rules of its variant.

use std::io::{self, BufRead};

use thiserror::Error;

use super::defined::{definition_of, replay_defined};
use super::game_type::{VariantError, game_type_of_or, needs_replay_to_guess, title};
use super::parse::{GameText, PdnError, parse_games};
use super::replay::{ReplayError, replay, replay_from};
use super::split::PdnPieces;
use crate::any::{AnyGame, GameVisitorMut};
use crate::record::Game;
use crowned_rules::{English, GameType, International, Rules, Variant};

/// What checking one game of a file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCheck {
    /// 1-based index of the game in the file.
    pub index: usize,
    /// The game's `Event` tag, or an empty string.
    pub event: String,
    /// What is wrong with it, if anything: a syntax error, a move that cannot be played, a bad set-up
    /// position, or a variant this program does not play.
    pub problem: Option<String>,
}

/// How far checking a stream has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckProgress {
    /// Bytes read from the stream so far.
    pub bytes_read: u64,
    /// Games checked so far.
    pub games_checked: usize,
}

/// Reads every game of a PDN text and replays it with the rules of its variant.
pub fn check_games(text: &str) -> Vec<GameCheck> {
    parse_games(text)
        .into_iter()
        .map(|parsed| check_one(parsed, None))
        .collect()
}

/// Checks the games of a PDN stream one at a time, holding only the game being checked: `report` is called
/// after each game with what was found and how far the stream has been read. Returns the progress at the end,
/// or the error that stopped reading (the games reported before it stand).
pub fn check_reader<R: BufRead>(
    reader: R,
    report: impl FnMut(GameCheck, CheckProgress),
) -> io::Result<CheckProgress> {
    check_reader_as(reader, None, report)
}

/// [`check_reader`] where a game without a `GameType` tag is of `default` when given (`pdn check --variant`).
pub fn check_reader_as<R: BufRead>(
    reader: R,
    default: Option<GameType>,
    mut report: impl FnMut(GameCheck, CheckProgress),
) -> io::Result<CheckProgress> {
    let mut progress = CheckProgress::default();
    for piece in PdnPieces::new(reader) {
        let piece = piece?;
        progress.bytes_read = piece.bytes_read;
        for parsed in piece.games(progress.games_checked + 1) {
            progress.games_checked += 1;
            report(check_one(parsed, default), progress);
        }
    }
    Ok(progress)
}

fn check_one(parsed: Result<GameText, PdnError>, default: Option<GameType>) -> GameCheck {
    match parsed {
        Ok(game) => GameCheck {
            index: game.index,
            event: game.event().to_string(),
            // A game that carries its variant's definition (or names Turkish by its game type) is replayed under
            // it, as it is opened.
            problem: match definition_of(&game) {
                Some(Ok(id)) => replay_defined(&game, id).error.map(|e| e.to_string()),
                Some(Err(e)) => Some(format!(
                    "the game's variant definition cannot be played: {e}"
                )),
                None => check_as(&game, default).err().map(|e| e.to_string()),
            },
        },
        Err(e) => GameCheck {
            index: e.game,
            event: e.event.unwrap_or_default(),
            problem: Some(format!(
                "line {}, column {}: {}",
                e.line, e.column, e.message
            )),
        },
    }
}

/// Replays a game under the variant it is played under; returns the error that stopped it, if any (or the
/// reason it could not be replayed at all).
pub fn check(text: &GameText) -> Result<(), CheckError> {
    check_as(text, None)
}

/// [`check`] for a game that, without a `GameType` tag, is of `default` when given (see [`game_type_of_or`]).
pub fn check_as(text: &GameText, default: Option<GameType>) -> Result<(), CheckError> {
    let tagged = text.tags.get("GameType").is_some();
    let (game_type, error) = if default.is_some() || !needs_replay_to_guess(text) {
        let game_type = game_type_of_or(text, default)?;
        let mut game = AnyGame::new(game_type);
        (game_type, game.visit_mut(ReplayErrorOf(text)))
    } else {
        // The same choice as `game_type_of`, without replaying a game twice.
        let english = GameType::standard(Variant::English);
        match replay::<English>(text).error {
            None => return Ok(()),
            Some(error) => {
                let international = replay::<International>(text);
                if international.game.len() > moves_before(&error) {
                    (
                        GameType::standard(Variant::International),
                        international.error,
                    )
                } else {
                    (english, Some(error))
                }
            }
        }
    };
    match error {
        None => Ok(()),
        Some(error) => {
            // A game that fails at once and names no variant was probably read under the wrong rules.
            let at_first_move = matches!(&error, ReplayError::Move { ply: 0, .. });
            Err(CheckError::Replay {
                error,
                assumed: (!tagged && at_first_move).then_some(game_type),
            })
        }
    }
}

/// How many moves replayed before `error` stopped the game.
fn moves_before(error: &ReplayError) -> usize {
    match error {
        ReplayError::Fen { .. } => 0,
        ReplayError::Move { ply, .. } => *ply,
    }
}

/// What stopped a game's replay under the rules of the game it is replayed into, built in or defined, if
/// anything.
struct ReplayErrorOf<'a>(&'a GameText);

impl GameVisitorMut for ReplayErrorOf<'_> {
    type Output = Option<ReplayError>;
    fn visit<R: Rules>(self, game: &mut Game<R>) -> Option<ReplayError> {
        replay_from::<R>(self.0, *game.start()).error
    }
}

/// Why a game did not replay.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// Its variant cannot be replayed.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// A move or the set-up position is wrong.
    #[error("{error}{}", assumed_note(*.assumed))]
    Replay {
        /// What went wrong.
        error: ReplayError,
        /// The game type the game was read as, when the game names none and failed at once.
        assumed: Option<GameType>,
    },
}

fn assumed_note(assumed: Option<GameType>) -> String {
    match assumed {
        Some(game_type) => format!(
            " (the game has no GameType tag and was read as {})",
            title(game_type)
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::io::{BufReader, Read};

    fn text(s: &str) -> GameText {
        parse_games(s).remove(0).expect("parses")
    }

    #[test]
    fn a_game_is_checked_under_its_tagged_or_guessed_rules() {
        assert_eq!(
            check(&text("[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *")),
            Ok(())
        );
        assert_eq!(check(&text("1. 32-28 19-23 *")), Ok(()));
        assert_eq!(
            check(&text("1. 21-17 *")).map_err(|e| e.to_string()),
            Err("move 1 21-17: there is no black piece on 21 (the game has no GameType tag and was read as \
                 English draughts)"
                .to_string())
        );
    }

    #[test]
    fn a_game_of_a_defined_variant_is_checked_under_its_definition() {
        let id = crowned_rules::defined::load_builtin("turkish")
            .expect("built in")
            .expect("loads");
        let turkish = Some(GameType::standard(Variant::Defined(id)));
        // White's man steps forward from the third row to the fourth, Black's from the sixth to the fifth.
        assert_eq!(check_as(&text("1. d3-d4 d6-d5 *"), turkish), Ok(()));
        let refused = check_as(&text("1. d3-d6 *"), turkish).map_err(|e| e.to_string());
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.starts_with("move 1 d3-d6")),
            "{refused:?}"
        );
    }

    /// A stream of `games` short games, made as it is read, that counts the bytes taken from it.
    struct Endless<'a> {
        games: usize,
        made: usize,
        pending: Vec<u8>,
        taken: &'a Cell<u64>,
    }

    impl Read for Endless<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pending.is_empty() && self.made < self.games {
                self.made += 1;
                self.pending =
                    format!("[Event \"{}\"]\n1. 11-15 23-19 *\n\n", self.made).into_bytes();
            }
            let n = buf.len().min(self.pending.len());
            buf[..n].copy_from_slice(&self.pending[..n]);
            self.pending.drain(..n);
            self.taken.set(self.taken.get() + n as u64);
            Ok(n)
        }
    }

    #[test]
    fn games_are_reported_while_the_stream_is_read() {
        let taken = Cell::new(0);
        let stream = Endless {
            games: 100_000,
            made: 0,
            pending: Vec::new(),
            taken: &taken,
        };
        let mut first_report = None;
        let mut last = CheckProgress::default();
        let end = check_reader(BufReader::new(stream), |game, progress| {
            assert_eq!(game.problem, None);
            assert_eq!(game.event, game.index.to_string());
            assert!(progress.bytes_read <= taken.get());
            assert_eq!(progress.games_checked, last.games_checked + 1);
            first_report.get_or_insert(taken.get());
            last = progress;
        })
        .expect("reads");
        assert_eq!(end.games_checked, 100_000);
        assert_eq!(end.bytes_read, taken.get());
        // The first game was checked long before the stream's end: games are not all held at once.
        assert!(
            first_report.is_some_and(|t| t < 100_000),
            "{first_report:?}"
        );
    }

    #[test]
    fn a_game_that_carries_its_definition_is_checked_under_it() {
        let id = crowned_rules::defined::register(include_str!("../../../../variants/holes.toml"))
            .expect("the definition loads");
        let mut game = crate::AnyGame::new(GameType::standard(crowned_rules::Variant::Defined(id)));
        let first = game.legal_moves()[0];
        game.play(&first).expect("legal");
        let text = game.to_pdn();
        let checked = check_games(&text);
        assert_eq!(checked.len(), 1);
        assert_eq!(checked[0].problem, None, "{text}");
        let moved = text.replace("1. ", "1. a1-b2 ");
        let problem = check_games(&moved)[0].problem.clone().unwrap_or_default();
        assert!(problem.contains("a1-b2"), "{problem}");
    }

    #[test]
    fn a_stream_reads_as_the_same_text_would() {
        let text =
            "[Event \"a\"]\n1. 11-15 *\n[Event \"b\"]\n1. 11-15 . *\n\n[Event \"c\"]\n1. 99-1 *\n";
        let mut streamed = Vec::new();
        check_reader(text.as_bytes(), |game, _| streamed.push(game)).expect("reads");
        assert_eq!(streamed, check_games(text));
        assert_eq!(streamed.len(), 3);
        assert!(
            streamed[1]
                .problem
                .as_deref()
                .is_some_and(|p| p.starts_with("line 4, column 10"))
        );
    }
}
