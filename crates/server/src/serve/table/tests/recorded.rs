//! The records as a table's jobs to its recorder build them, for the property test's witness
//! (`witness.rs`): the game's start, its moves and takebacks, its end and the game filed for its players, each
//! checked as it comes (nothing after the end, nothing twice, moves in order and legal).

use super::witness::Ended;
use super::*;
use crate::game::pdn::{open_game, parse_games};
use crate::serve::recorder::{Job, RecordKey};

/// The records of one table's game.
#[derive(Debug, Default)]
pub(super) struct Recorded {
    /// The game's key, once it has started in the records.
    pub(super) key: Option<RecordKey>,
    starts: usize,
    /// The moves recorded, as written.
    pub(super) moves: Vec<String>,
    /// The game they make, read back.
    pub(super) game: Option<AnyGame>,
    /// Each end recorded: its result as written, the game as PDN, and Black's score.
    pub(super) finishes: Vec<(String, String, f64)>,
    /// The games filed among the players' saved games.
    pub(super) filed: Vec<AnyGame>,
    /// Whether the recorded end has been checked against the one shown (it cannot change after).
    checked: bool,
    /// Every list of moves the records have held, in order: a screen may show only one of these.
    pub(super) versions: Vec<Vec<Move>>,
    /// Both clocks as last recorded (with a move or noted between moves), in milliseconds.
    pub(super) clocks: Option<[u64; 2]>,
}

impl Recorded {
    /// Whether the game was called off before its first move: recorded as over with the result `*` and no
    /// move.
    pub(super) fn called_off(&self) -> bool {
        self.moves.is_empty()
            && !self.finishes.is_empty()
            && self.finishes.iter().all(|(result, ..)| result == "*")
    }

    /// The records of a game started before a restart, under `key`: its moves so far.
    pub(super) fn resumed(key: RecordKey, game: &AnyGame) -> Recorded {
        let notation = game.game_type().variant.notation();
        let mut recorded = Recorded {
            key: Some(key),
            starts: 1,
            moves: (1..=game.len())
                .filter_map(|ply| game.move_text(ply, notation))
                .collect(),
            ..Recorded::default()
        };
        recorded.replay(game.game_type());
        recorded.versions.push(game.moves().to_vec());
        recorded
    }

    /// The moves the records hold now.
    pub(super) fn held(&self) -> &[Move] {
        self.game.as_ref().map_or(&[][..], AnyGame::moves)
    }

    /// Whether the records have ever held `moves` (the versions of a game not started hold none).
    pub(super) fn ever_held(&self, moves: &[Move]) -> bool {
        moves.is_empty() || self.versions.iter().any(|held| same_moves(held, moves))
    }

    /// The recorded moves, played again from the start.
    fn replay(&mut self, game_type: GameType) {
        let mut game = AnyGame::new(game_type);
        for text in &self.moves {
            game.play_text(text).expect("a recorded move reads back");
        }
        self.game = Some(game);
    }

    /// Takes in a job from the table with `config`, whose players are `players` (Black's and White's keys).
    pub(super) fn take(&mut self, job: Job, config: &TableConfig, players: &[Fingerprint; 2]) {
        let over = !self.finishes.is_empty();
        match job {
            Job::Start {
                key, black, white, ..
            } => {
                self.starts += 1;
                assert_eq!(self.starts, 1, "the game is started twice in the records");
                self.key = Some(key);
                assert_eq!(&[black.fingerprint, white.fingerprint], players);
            }
            Job::Move {
                key,
                ply,
                text,
                clocks,
            } => {
                self.ours(key);
                assert!(!over, "move {text} recorded after the end");
                assert_eq!(ply, self.moves.len(), "move {text} recorded out of order");
                assert_eq!(clocks.is_some(), config.clock.is_some());
                let game = self
                    .game
                    .get_or_insert_with(|| AnyGame::new(config.game_type));
                game.play_text(&text).expect("a recorded move reads back");
                self.moves.push(text);
                self.clocks = clocks.or(self.clocks);
                self.versions.push(self.held().to_vec());
            }
            Job::TakeBack { key, ply } => {
                self.ours(key);
                assert!(!over, "a takeback recorded after the end");
                assert!(ply < self.moves.len(), "a takeback of nothing: ply {ply}");
                self.moves.truncate(ply);
                self.replay(config.game_type);
                self.versions.push(self.held().to_vec());
            }
            Job::Clocks { key, ply, clocks } => {
                self.ours(key);
                assert!(!over, "clocks noted after the end");
                assert_eq!(ply, self.moves.len());
                self.clocks = Some(clocks);
            }
            Job::Finish {
                key,
                result,
                pdn,
                black_score,
            } => {
                self.ours(key);
                self.finishes.push((result, pdn, black_score));
                assert_eq!(self.finishes.len(), 1, "the end recorded twice");
            }
            Job::File { players, game, .. } => {
                assert_eq!(players.len(), 2, "filed for both players");
                self.filed.push(*game);
                assert_eq!(self.filed.len(), 1, "the game filed twice");
            }
            Job::Commit(_) => panic!("a commit reaches the records unopened"),
            // Word for a player away at the end, left once the end is in the records.
            Job::News { player, .. } => {
                assert!(over, "news before the end is recorded");
                assert!(
                    players.contains(&player),
                    "news for someone not at the table"
                );
            }
            // Only after the end, which is in the records by then: commit, then show.
            Job::Ratings(_) => assert!(over, "ratings read before the end is recorded"),
            Job::Seen(_)
            | Job::Resume { .. }
            | Job::Flush(_)
            | Job::Tamper(_)
            | Job::CreateEvent(_)
            | Job::EventCreated { .. }
            | Job::Event { .. }
            | Job::EventGame { .. } => {
                panic!("a table outside a tournament sends no {job:?}")
            }
        }
    }

    fn ours(&self, key: RecordKey) {
        assert_eq!(Some(key), self.key, "a job for another game");
    }

    /// The records keep `end`, the end the screens show: its result (with the score for the ratings), and the
    /// game as PDN with its moves.
    pub(super) fn check_end(&mut self, end: &Ended, game_type: GameType) {
        if self.checked {
            return;
        }
        let (outcome, moves) = end;
        assert_eq!(self.finishes.len(), 1, "the end is told but not recorded");
        // A game called off (no first move in time) has nothing to keep among the players' games.
        let filed = usize::from(!outcome.is_aborted());
        assert_eq!(
            self.filed.len(),
            filed,
            "the end is not filed for the players"
        );
        let (result, pdn, black_score) = &self.finishes[0];
        let token = AnyGame::new(game_type).result_token(Some(*outcome));
        assert_eq!(result, token, "the records' result is not the one shown");
        let black = match outcome.winner() {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
        assert!((black_score - black).abs() < f64::EPSILON, "{black_score}");
        let text = parse_games(pdn)
            .into_iter()
            .next()
            .expect("a game")
            .expect("the recorded PDN reads");
        assert_eq!(text.result.as_deref(), Some(token), "{pdn}");
        assert_eq!(text.tags.get("Result"), Some(token), "{pdn}");
        let (read, error) = open_game(&text, None);
        assert_eq!(error, None, "{pdn}");
        assert!(same_moves(read.moves(), moves), "{pdn}\n{moves:?}");
        self.checked = true;
    }
}

/// Whether two games' moves are the same for the players: a capture read back from its text may take another
/// route to the same square, taking the same pieces ([`Move::same_effect`]).
pub(super) fn same_moves(these: &[Move], those: &[Move]) -> bool {
    these.len() == those.len() && these.iter().zip(those).all(|(a, b)| a.same_effect(b))
}
