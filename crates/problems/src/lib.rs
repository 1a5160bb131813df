//! Problems: positions where one side is to play and win, or play and draw, with a proved solution.
//!
//! A problem is offered only when crowned proves its result ([`prove`]): a PDN file's solution line is
//! checked move by move (each of the solver's moves must keep the result; the defender's need only be legal),
//! and a position given with no solution (a FEN and a result, as problem collections are often written) gets
//! one from the prover, or is refused. [`mine`] finds problems in games: positions where exactly one move
//! keeps the win or the draw. Problems are English draughts only: the proofs use the English databases.
//!
//! A crate of its own below the application: it stands on the rules, the game and the engine (whose endgame
//! databases the proofs use), and the app's problem trainer and the server's problem records stand on it.

#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod check;
pub mod choose;
pub mod mine;
pub mod prove;

// The layers below, by the names the whole program knows them by.
use crowned_engine as engine;
use crowned_game as game;
#[cfg(test)]
use crowned_lab as lab;
use crowned_rules as rules;

use crate::game::pdn::{GameText, parse_games, recorded_outcome, replay_english};
use crate::game::{Game, Outcome, WinReason};
use crate::rules::{Color, English, Move, Position, SquareStyle, to_fen, write_move};
pub use prove::{Distance, PROOF_DEPTH, PROOF_NODES, ProblemGoal, Prover, Verdict};

/// The longest solution line kept, in plies: a problem is its decisive moves, not the whole ending.
pub const MAX_SOLUTION_PLIES: usize = 40;

/// A problem: the position, what its side to move is asked to do, and a solution that proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Its name (the PDN `Event`, or where it was found).
    pub title: String,
    /// The position; its side to move is the solver.
    pub start: Position,
    /// Win or draw.
    pub goal: ProblemGoal,
    /// The main line: the solver's moves and the defence, starting with the solver's.
    pub solution: Vec<Move>,
}

impl Problem {
    /// The solver.
    pub fn solver(&self) -> Color {
        self.start.side_to_move()
    }

    /// "Black to play and win".
    pub fn heading(&self) -> String {
        format!("{} to play and {}", self.solver(), self.goal.word())
    }

    /// The solution in numbers, the moves separated by spaces.
    pub fn solution_text(&self) -> String {
        line_text(&self.start, &self.solution)
    }

    /// The problem as a PDN game: the `FEN` tag, the result asked for, and the solution as the main line.
    pub fn to_pdn(&self) -> String {
        let mut game: Game<English> = Game::from_position(self.start);
        for m in &self.solution {
            if game.play(m).is_err() {
                break;
            }
        }
        game.tags_mut().set("Event", &self.title);
        if game.final_outcome().is_none() {
            let outcome = match self.goal {
                ProblemGoal::Win => Outcome::Win {
                    winner: self.solver(),
                    reason: WinReason::Recorded,
                },
                ProblemGoal::Draw => Outcome::Draw {
                    reason: crate::game::DrawReason::Recorded,
                },
            };
            // A line that ends the game carries its own result; only an open one is declared.
            let _ = game.declare(outcome);
        }
        crate::game::pdn::write_game(&game)
    }
}

/// A line of moves in numbers, each written in the position it is played from.
pub fn line_text(start: &Position, line: &[Move]) -> String {
    let mut pos = *start;
    let mut words = Vec::new();
    for m in line {
        words.push(write_move(&pos, m, SquareStyle::Numbers));
        pos = pos.play(m);
    }
    words.join(" ")
}

/// Why a position is not offered as a problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The PDN text could not be read.
    #[error("unreadable: {0}")]
    Unreadable(String),
    /// Not English draughts.
    #[error("not English draughts (problems are English only)")]
    NotEnglish,
    /// The position's side to move has already lost.
    #[error("the side to move has no move")]
    NoMove,
    /// The result it claims is a loss for the side to move.
    #[error("the result given is a loss for the side to move")]
    LossClaimed,
    /// The result could not be proved.
    #[error("its result could not be proved")]
    Unproved,
    /// Proved, but not the result the file claims.
    #[error("the file says {claimed} but crowned proves {proved}")]
    Contradicted {
        /// What the file says.
        claimed: String,
        /// What is proved.
        proved: String,
    },
    /// A move of the solution line lets the result go.
    #[error("the solution's move {0} does not keep the result")]
    BadSolution(String),
}

/// Problems read from a PDN text, and the games refused, by title, with the reason.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// The problems proved, in the file's order.
    pub problems: Vec<Problem>,
    /// The games not offered.
    pub refused: Vec<(String, Refusal)>,
}

/// The games of a PDN text that read, numbered from 0 in the file; each that does not is refused as unreadable.
fn readable_games(text: &str, refused: &mut Vec<(String, Refusal)>) -> Vec<(usize, GameText)> {
    let mut games = Vec::new();
    for (i, parsed) in parse_games(text).into_iter().enumerate() {
        match parsed {
            Ok(game) => games.push((i, game)),
            Err(e) => refused.push((format!("game {}", i + 1), Refusal::Unreadable(e.message))),
        }
    }
    games
}

/// Reads every game of a PDN text as a problem and proves it (see the module's documentation).
pub fn load_problems(text: &str, prover: &mut Prover) -> Loaded {
    let mut loaded = Loaded::default();
    for (i, game) in readable_games(text, &mut loaded.refused) {
        let title = match game.event() {
            "" | "?" => format!("Problem {}", i + 1),
            event => event.to_string(),
        };
        if game
            .tags
            .get("GameType")
            .is_some_and(|t| !t.trim().starts_with("21"))
        {
            loaded.refused.push((title, Refusal::NotEnglish));
            continue;
        }
        let replayed = replay_english(&game);
        if let Some(error) = replayed.error {
            loaded
                .refused
                .push((title, Refusal::Unreadable(error.to_string())));
            continue;
        }
        let claimed = game
            .tags
            .get("Result")
            .or(game.result.as_deref())
            .and_then(recorded_outcome::<English>);
        let start = *replayed.game.start();
        prover.forget();
        match prove_problem(&title, start, claimed, replayed.game.moves(), prover) {
            Ok(problem) => loaded.problems.push(problem),
            Err(refusal) => loaded.refused.push((title, refusal)),
        }
    }
    loaded
}

/// Proves a problem: `claimed` is the result the source gives (if any), `given` its solution line (may be
/// empty: the prover then finds one).
pub fn prove_problem(
    title: &str,
    start: Position,
    claimed: Option<Outcome>,
    given: &[Move],
    prover: &mut Prover,
) -> Result<Problem, Refusal> {
    if start.legal_moves().is_empty() {
        return Err(Refusal::NoMove);
    }
    let solver = start.side_to_move();
    let claimed_goal = match claimed {
        Some(Outcome::Win { winner, .. }) if winner == solver => Some(ProblemGoal::Win),
        Some(Outcome::Win { .. }) => return Err(Refusal::LossClaimed),
        Some(Outcome::Draw { .. }) => Some(ProblemGoal::Draw),
        None => None,
    };
    let goal = match prover.verdict(&start) {
        Verdict::Win(_) => ProblemGoal::Win,
        Verdict::Draw => ProblemGoal::Draw,
        Verdict::Loss(_) => {
            return Err(Refusal::Contradicted {
                claimed: claimed_goal
                    .map_or("nothing", ProblemGoal::word)
                    .to_string(),
                proved: "a loss".into(),
            });
        }
        Verdict::Unknown => return Err(Refusal::Unproved),
    };
    if let Some(claimed) = claimed_goal
        && claimed != goal
    {
        return Err(Refusal::Contradicted {
            claimed: claimed.word().into(),
            proved: goal.word().into(),
        });
    }
    let solution = if given.is_empty() {
        prover.line(&start, MAX_SOLUTION_PLIES)
    } else {
        let mut pos = start;
        for m in given {
            if pos.side_to_move() == solver && !prover.keeps(&pos, m, goal) {
                return Err(Refusal::BadSolution(write_move(
                    &pos,
                    m,
                    SquareStyle::Numbers,
                )));
            }
            pos = pos.play(m);
        }
        given.to_vec()
    };
    Ok(Problem {
        title: title.to_string(),
        start,
        goal,
        solution,
    })
}

/// The problems compiled in (`problems.pdn` beside this file, which says where they come from). They were
/// proved when the collection was made, without databases, and the test suite proves every one again
/// (`load_problems`), so opening them costs no search: they are read as they stand ([`read_problems`]).
pub fn builtin_problems() -> Vec<Problem> {
    read_problems(BUILTIN).problems
}

/// Reads the problems of a PDN text without proving them: each needs a position whose side to move the
/// `Result` tag names as the winner (or a draw) and a legal solution line. For collections proved already
/// (the built-in one); anything else goes through [`load_problems`].
pub fn read_problems(text: &str) -> Loaded {
    let mut loaded = Loaded::default();
    for (_, game) in readable_games(text, &mut loaded.refused) {
        let title = game.event().to_string();
        let replayed = replay_english(&game);
        if let Some(error) = replayed.error {
            loaded
                .refused
                .push((title, Refusal::Unreadable(error.to_string())));
            continue;
        }
        let start = *replayed.game.start();
        let goal = match game
            .tags
            .get("Result")
            .and_then(recorded_outcome::<English>)
        {
            Some(Outcome::Win { winner, .. }) if winner == start.side_to_move() => ProblemGoal::Win,
            Some(Outcome::Draw { .. }) => ProblemGoal::Draw,
            _ => {
                loaded.refused.push((title, Refusal::Unproved));
                continue;
            }
        };
        if replayed.game.moves().is_empty() {
            loaded.refused.push((title, Refusal::Unproved));
            continue;
        }
        loaded.problems.push(Problem {
            title,
            start,
            goal,
            solution: replayed.game.moves().to_vec(),
        });
    }
    loaded
}

/// The built-in collection's PDN.
pub const BUILTIN: &str = include_str!("problems.pdn");

/// Where the position in `fen` stands, for messages: `to_fen` of a position.
pub fn fen_of(pos: &Position) -> String {
    to_fen(pos)
}
