//! The games the records keep: each game as it starts, its moves and clocks as they are played, its result, and
//! what a restarted server or a node taking a table over resumes from.

use super::RecordsError;
use crate::serve::ids::{Fingerprint, GameId, TableCode};

/// The games' records. A result changes ratings with it ([`record_result`](GameRecords::record_result)).
pub trait GameRecords {
    /// Records a game that starts; its number.
    fn start_game(&mut self, game: &NewGame) -> Result<GameId, RecordsError>;

    /// Records the move at `ply` (from 0) of a game in progress, with both clocks after it (milliseconds,
    /// Black's then White's) when the game has clocks. The same move written twice (a write tried again after
    /// its answer was lost) is kept once; another move at a ply already written is [`RecordsError::PlyTaken`].
    fn add_move(
        &mut self,
        game: GameId,
        ply: usize,
        text: &str,
        clocks: Option<[u64; 2]>,
    ) -> Result<(), RecordsError>;

    /// Notes both clocks of a game in progress as they stand after `ply` moves (milliseconds, Black's then
    /// White's), replacing the last note: what a restart goes on from, so that time used since the last move is
    /// not given back.
    fn note_clocks(
        &mut self,
        game: GameId,
        ply: usize,
        clocks: [u64; 2],
    ) -> Result<(), RecordsError>;

    /// Takes back the moves from `ply` on (an agreed takeback), and the clocks noted at them.
    fn take_back(&mut self, game: GameId, ply: usize) -> Result<(), RecordsError>;

    /// Ends a game with its result; when the game is rated, both players' ratings in its variant change by
    /// [`rating::after_game`](crate::serve::rating::after_game). Atomic: the result and both ratings change together
    /// or not at all. A game not in progress is [`RecordsError::NoGame`].
    fn record_result(&mut self, game: GameId, result: &FinishedGame) -> Result<(), RecordsError>;

    /// The moves of a game so far, in order: what a restarted server replays.
    fn moves(&mut self, game: GameId) -> Result<Vec<String>, RecordsError>;

    /// The games that started and have not ended: those a restarted server resumes.
    fn unfinished(&mut self) -> Result<Vec<GameId>, RecordsError>;

    /// The codes of the games that started and have not ended, oldest first: what a node looks through for games
    /// that no node runs, at a cost that does not grow with their moves.
    fn unfinished_codes(&mut self) -> Result<Vec<TableCode>, RecordsError>;

    /// Every game that started and has not ended, with what resuming it needs.
    fn unfinished_games(&mut self) -> Result<Vec<Unfinished>, RecordsError>;

    /// The games not ended in which `player` has a seat (what a player coming back rejoins), oldest first.
    fn unfinished_games_of(
        &mut self,
        player: &Fingerprint,
    ) -> Result<Vec<Unfinished>, RecordsError>;

    /// The game not ended that is joined by `code`, if there is one: what a node taking a table over resumes.
    /// PostgreSQL's read first waits for a write to the game that is being made to be kept or refused, so that
    /// the table's new owner reads every move its old owner was let write.
    fn unfinished_game(&mut self, code: &TableCode) -> Result<Option<Unfinished>, RecordsError>;

    /// Every finished game's result and PDN, oldest first.
    fn finished_games(&mut self) -> Result<Vec<(String, String)>, RecordsError>;

    /// The finished games a player took part in, as PDN, oldest first.
    fn games_of(&mut self, player: &Fingerprint) -> Result<Vec<String>, RecordsError>;
}

/// A game as it starts: who plays what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// Black's key fingerprint.
    pub black: &'a Fingerprint,
    /// White's.
    pub white: &'a Fingerprint,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// The time control as written (`5+3`), empty for none.
    pub clock: &'a str,
    /// The code the game is joined by.
    pub code: &'a TableCode,
    /// The definition (TOML text) of a variant written as one; `None` for a built-in variant.
    pub definition: Option<&'a str>,
}

/// A game that started and has not ended, as a restarted server resumes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// Its number in the records.
    pub id: GameId,
    /// The variant's name.
    pub variant: String,
    /// Black's key fingerprint and name.
    pub black: (Fingerprint, String),
    /// White's.
    pub white: (Fingerprint, String),
    /// Whether it is rated.
    pub rated: bool,
    /// The time control as written, empty for none.
    pub clock: String,
    /// The code it was joined by.
    pub code: Option<TableCode>,
    /// The definition (TOML text) of a variant written as one; `None` for a built-in variant.
    pub definition: Option<String>,
    /// Its moves, in order.
    pub moves: Vec<String>,
    /// Black's and White's time left in milliseconds, when the game has clocks: as they stood when last noted
    /// ([`GameRecords::note_clocks`]) if that was after the last move, else after the last move (if there is one).
    pub clocks: Option<[u64; 2]>,
}

/// How a game ended, as the records keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame<'a> {
    /// Its result as the variant writes it (`1-0`, `0-1`, `1/2-1/2`... from Black's side).
    pub result: &'a str,
    /// The whole game as PDN.
    pub pdn: &'a str,
    /// Black's score for the ratings, when the game is rated: 1, 0.5 or 0.
    pub black_score: f64,
}

impl FinishedGame<'_> {
    /// Whether the game changes its players' ratings (when it is rated): not when it has no result (`*`, a game
    /// called off because a side made no first move in time).
    pub fn counts(&self) -> bool {
        self.result != "*"
    }
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// The clocks after a game's last move.
    pub(in super::super) const LAST_MOVE_CLOCKS: &str =
        "SELECT black_ms, white_ms FROM moves WHERE game = $1 ORDER BY ply DESC LIMIT 1";

    /// The clocks noted at a ply.
    pub(in super::super) const NOTED_CLOCKS: &str =
        "SELECT black_ms, white_ms FROM clocks WHERE game = $1 AND ply = $2";

    /// A move, kept once.
    pub(in super::super) const ADD_MOVE: &str =
        "INSERT INTO moves (game, ply, text, black_ms, white_ms) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game, ply) DO NOTHING";

    /// The move at a ply.
    pub(in super::super) const MOVE_AT: &str =
        "SELECT text FROM moves WHERE game = $1 AND ply = $2";

    /// Both clocks noted, in place of the last note.
    pub(in super::super) const NOTE_CLOCKS: &str =
        "INSERT INTO clocks (game, ply, black_ms, white_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (game) DO UPDATE SET ply = $2, black_ms = $3, white_ms = $4";

    /// The moves from a ply on, taken back.
    pub(in super::super) const TAKE_BACK_MOVES: &str =
        "DELETE FROM moves WHERE game = $1 AND ply >= $2";

    /// The clocks noted at them.
    pub(in super::super) const TAKE_BACK_CLOCKS: &str =
        "DELETE FROM clocks WHERE game = $1 AND ply >= $2";

    /// A game's end: when, its result and its PDN.
    pub(in super::super) const END: &str =
        "UPDATE games SET ended = $2, result = $3, pdn = $4 WHERE id = $1";

    /// A game's moves, in order.
    pub(in super::super) const MOVES: &str = "SELECT text FROM moves WHERE game = $1 ORDER BY ply";

    /// The games not ended.
    pub(in super::super) const UNFINISHED: &str =
        "SELECT id FROM games WHERE ended IS NULL ORDER BY id";

    /// The codes of the games not ended (a game from before tables had codes has none).
    pub(in super::super) const UNFINISHED_CODES: &str =
        "SELECT code FROM games WHERE ended IS NULL AND code IS NOT NULL ORDER BY id";

    /// Every finished game's result and PDN, oldest first.
    pub(in super::super) const FINISHED: &str =
        "SELECT result, pdn FROM games WHERE ended IS NOT NULL ORDER BY id";

    /// The finished games a player took part in, oldest first.
    pub(in super::super) const GAMES_OF: &str =
        "SELECT pdn FROM games WHERE (black = $1 OR white = $1) AND ended IS NOT NULL ORDER BY id";
}
