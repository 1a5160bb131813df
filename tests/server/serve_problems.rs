//! The problem trainer on `crowned serve`, end to end with real SSH clients: `P` in the lobby opens it, a
//! problem solved changes the player's problem rating in the records, the problem of the day is the same for
//! everyone, and a streak ends at the first miss with the best streak kept.

use std::path::Path;
use std::time::Duration;

use crowned::problems::choose::{problem_of_the_day, utc_day};
use crowned::problems::{Problem, Prover, builtin_problems};
use crowned::rules::{Move, SquareStyle, write_move};
use crowned::serve::Fingerprint;
use crowned::serve::records::{ProblemRecords as _, ProblemStanding, SqliteRecords};
use russh::keys::HashAlg;

use crate::doors::ssh::{PATIENCE, Server, Terminal, connect, new_key};

const COLS: u16 = 120;
const ROWS: u16 = 36;

fn fingerprint(key: &russh::keys::PrivateKey) -> Fingerprint {
    Fingerprint::new(key.public_key().fingerprint(HashAlg::Sha256).to_string())
}

/// The player's problem standing in the records at `path` (read beside the running server).
fn standing(path: &Path, who: &Fingerprint) -> Option<ProblemStanding> {
    SqliteRecords::open(path)
        .and_then(|mut records| records.problem_standing(who))
        .ok()
}

/// Waits until the standing in the records satisfies `done`.
async fn standing_until(
    path: &Path,
    who: &Fingerprint,
    done: impl Fn(&ProblemStanding) -> bool,
) -> ProblemStanding {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        if let Some(s) = standing(path, who)
            && done(&s)
        {
            return s;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the records never showed it: {:?}",
            standing(path, who)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Each move of a problem's solution in numbers, as played from where it is.
fn solution_words(problem: &Problem) -> Vec<String> {
    let mut pos = problem.start;
    problem
        .solution
        .iter()
        .map(|m| {
            let word = write_move(&pos, m, SquareStyle::Numbers);
            pos = pos.play(m);
            word
        })
        .collect()
}

/// Plays `problem`'s solution by typing the solver's moves; the server answers with the defence.
async fn solve(terminal: &mut Terminal, problem: &Problem) {
    let words = solution_words(problem);
    for (i, word) in words.iter().enumerate().step_by(2) {
        terminal.send(format!("{word}\r").as_bytes()).await;
        match words.get(i + 1) {
            Some(defence) => terminal.wait_for(defence).await,
            None => terminal.wait_for("Solved!").await,
        }
    }
    terminal.wait_for("Solved!").await;
}

/// A move of the problem's first position that is proved not to keep its result.
fn wrong_move(problem: &Problem) -> Move {
    let mut prover = Prover::new(None);
    problem
        .start
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !prover.keeps(&problem.start, m, problem.goal))
        .expect("a problem with a wrong first move")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_problem_solved_over_ssh_raises_the_problem_rating_in_the_records() {
    let server = Server::start("problems-rated");
    let records = server.home.join("data/server/records.sqlite");
    let key = new_key();
    let handle = connect(&server, &key, "ann").await;
    let mut ann = Terminal::open(&handle, COLS, ROWS).await;
    ann.wait_for("Problem rating: none yet").await;
    ann.send(b"P").await;
    ann.wait_for("Rated: first tries count").await;
    // Nothing is rated yet: the collection comes in its own order, its first problem first.
    let first = builtin_problems().remove(0);
    ann.wait_for(&first.heading()).await;
    solve(&mut ann, &first).await;
    let who = fingerprint(&key);
    let after = standing_until(&records, &who, |s| s.attempts == 1).await;
    assert_eq!(after.solved, 1);
    assert!(after.rating.rating > 1500.0, "{after:?}");
    // Back in the lobby, the new rating is shown.
    ann.send(b"q").await;
    let shown = format!("Problem rating {}", after.rating.rating.round() as i32);
    ann.wait_for(&shown).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_problem_of_the_day_is_the_same_for_two_players() {
    let server = Server::start("problems-daily");
    let problems = builtin_problems();
    let (ka, kb) = (new_key(), new_key());
    let (ha, hb) = (
        connect(&server, &ka, "ann").await,
        connect(&server, &kb, "bob").await,
    );
    let mut ann = Terminal::open(&ha, COLS, ROWS).await;
    let mut bob = Terminal::open(&hb, COLS, ROWS).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    let today = problem_of_the_day(problems.len(), utc_day(now)).expect("problems");
    let title = &problems[today].title;
    for player in [&mut ann, &mut bob] {
        player
            .wait_for(&format!("The problem of the day: {title}"))
            .await;
        player.send(b"d").await;
        player.wait_for("Problem of the day").await;
        player.wait_for(title).await;
        assert!(player.contents().contains(&problems[today].heading()));
    }
    assert!(ann.contents().contains("Problem 1 of 1"));
    assert!(bob.contents().contains("Problem 1 of 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streak_ends_at_the_first_miss_and_the_best_is_kept() {
    let server = Server::start("problems-streak");
    let records = server.home.join("data/server/records.sqlite");
    let key = new_key();
    let handle = connect(&server, &key, "ann").await;
    let mut ann = Terminal::open(&handle, COLS, ROWS).await;
    ann.wait_for("lobby").await;
    ann.send(b"s").await;
    ann.wait_for("Streak: 0").await;
    // Nothing rated: easiest first is the collection's order.
    let problems = builtin_problems();
    solve(&mut ann, &problems[0]).await;
    ann.wait_for("Streak: 1").await;
    // A streak only goes forward past a problem solved: on to the second, missed at once.
    ann.send(b"]").await;
    ann.wait_for(&problems[1].title).await;
    let miss = wrong_move(&problems[1]);
    let word = write_move(&problems[1].start, &miss, SquareStyle::Numbers);
    ann.send(format!("{word}\r").as_bytes()).await;
    ann.wait_for("Streak over: 1 (best 1)").await;
    // Over: nothing more is played on it.
    let who = fingerprint(&key);
    let kept = standing_until(&records, &who, |s| s.best_streak == 1 && s.attempts == 2).await;
    assert_eq!(kept.solved, 1);
    // `]` starts a new streak from the first problem; the best is still shown.
    ann.send(b"]").await;
    ann.wait_for("Streak: 0 (best 1)").await;
}
