//! The problem trainer in the records (migration 6): ratings changed by first tries, later tries kept unrated,
//! best streaks, alike in SQLite and PostgreSQL, and copied from one to the other.

use super::tests::fresh_postgres;
use super::*;
use crate::serve::identity::Identity;
use crate::serve::rating::Rating;
use crate::serve::rating::after_game;

#[test]
fn on_sqlite() {
    attempts_rate_players_and_problems(&mut SqliteRecords::in_memory().expect("opens"));
}

#[test]
fn on_postgres() {
    attempts_rate_players_and_problems(&mut fresh_postgres("attempts_rate_players_and_problems"));
}

#[test]
fn the_schema_is_at_version_six_on_both() {
    let sqlite = SqliteRecords::in_memory().expect("opens");
    assert!(sqlite.version().expect("a version") >= 6);
    let mut postgres = fresh_postgres("the_problem_schema_version");
    assert!(postgres.version().expect("a version") >= 6);
}

fn player(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    }
}

const EASY: &str = "W:W27,K17:B18,K29,K30";
const HARD: &str = "B:W21,22:B1,2";

fn attempts_rate_players_and_problems(records: &mut dyn Records) {
    let ann = player("ann");
    let bob = player("bob");
    records.seen(&ann).expect("seen");
    records.seen(&bob).expect("seen");
    let fresh = records.problem_standing(&ann.fingerprint).expect("read");
    assert_eq!(fresh, ProblemStanding::default());
    assert!(records.problem_ratings().expect("read").is_empty());

    // Ann solves the easy one at her first try: a win against the problem, both rated as Glicko-2 says.
    let solved = records
        .record_problem_attempt(&ann.fingerprint, EASY, true)
        .expect("kept");
    let [ann_after, easy_after] = after_game(Rating::default(), Rating::default(), 1.0);
    assert!(solved.rated);
    assert_eq!(solved.player, ann_after);
    assert_eq!(solved.problem, easy_after);
    assert!(ann_after.rating > 1500.0 && easy_after.rating < 1500.0);
    // Her second try at it changes nothing.
    let again = records
        .record_problem_attempt(&ann.fingerprint, EASY, false)
        .expect("kept");
    assert!(!again.rated);
    assert_eq!(again.player, ann_after);
    // Bob misses it: a loss against the problem as it is rated now.
    let missed = records
        .record_problem_attempt(&bob.fingerprint, EASY, false)
        .expect("kept");
    let [bob_after, easy_after] = after_game(Rating::default(), easy_after, 0.0);
    assert!(missed.rated);
    assert_eq!(missed.player, bob_after);
    assert_eq!(missed.problem, easy_after);
    records
        .record_problem_attempt(&bob.fingerprint, HARD, false)
        .expect("kept");

    let ann_standing = records.problem_standing(&ann.fingerprint).expect("read");
    assert_eq!(ann_standing.rating, ann_after);
    assert_eq!((ann_standing.attempts, ann_standing.solved), (1, 1));
    let bob_standing = records.problem_standing(&bob.fingerprint).expect("read");
    assert_eq!((bob_standing.attempts, bob_standing.solved), (2, 0));
    let mut ratings = records.problem_ratings().expect("read");
    ratings.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(ratings.len(), 2);
    assert_eq!(ratings[1], (EASY.to_string(), easy_after));

    // Streaks: the best is kept, a shorter one does not lower it; the rating is left alone.
    assert_eq!(
        records
            .note_problem_streak(&ann.fingerprint, 3)
            .expect("kept"),
        3
    );
    assert_eq!(
        records
            .note_problem_streak(&ann.fingerprint, 2)
            .expect("kept"),
        3
    );
    assert_eq!(
        records
            .note_problem_streak(&ann.fingerprint, 5)
            .expect("kept"),
        5
    );
    let ann_standing = records.problem_standing(&ann.fingerprint).expect("read");
    assert_eq!(ann_standing.best_streak, 5);
    assert_eq!(ann_standing.rating, ann_after);
    // A player's first streak before any rated try.
    let cy = player("cy");
    records.seen(&cy).expect("seen");
    assert_eq!(
        records
            .note_problem_streak(&cy.fingerprint, 1)
            .expect("kept"),
        1
    );
    let cy_standing = records.problem_standing(&cy.fingerprint).expect("read");
    assert_eq!(cy_standing.rating, Rating::default());
    assert_eq!(cy_standing.attempts, 0);
}

/// `crowned serve migrate-records` takes the problem ratings and attempts along.
#[test]
fn problem_records_are_copied_from_sqlite_into_postgres() {
    let dir = std::env::temp_dir().join(format!("crowned-problems-copy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("records.sqlite");
    let mut sqlite = SqliteRecords::open(&path).expect("opens");
    attempts_rate_players_and_problems(&mut sqlite);
    let server = crate::local_postgres::LocalPostgres::shared()
        .unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let url: PostgresUrl = server
        .fresh_database("problem_records_are_copied_from_sqlite_into_postgres")
        .unwrap_or_else(|e| panic!("a database: {e}"))
        .parse()
        .expect("a URL");
    let copied = migrate::sqlite_to_postgres(&path, &url).expect("copied");
    assert_eq!(copied.problem_attempts, 4);
    let mut postgres = PostgresRecords::connect(&url).expect("opens");
    for name in ["ann", "bob", "cy"] {
        let who = player(name).fingerprint;
        assert_eq!(
            postgres.problem_standing(&who).expect("read"),
            sqlite.problem_standing(&who).expect("read")
        );
    }
    let sorted = |mut v: Vec<(String, Rating)>| {
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(
        sorted(postgres.problem_ratings().expect("read")),
        sorted(sqlite.problem_ratings().expect("read"))
    );
    // The copied attempts count: a second try at a problem tried in SQLite is unrated in PostgreSQL.
    let ann = player("ann").fingerprint;
    let again = postgres
        .record_problem_attempt(&ann, EASY, true)
        .expect("kept");
    assert!(!again.rated);
    let _ = std::fs::remove_dir_all(&dir);
}
