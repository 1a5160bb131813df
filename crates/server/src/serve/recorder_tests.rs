//! The recorder's tests: jobs written in order, and kept while the disk cannot take them.

use super::*;
use crate::serve::records::{GameRecords as _, PlayerRecords as _, RatingRecords as _};
use crate::store::Store;

fn player(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.into(),
    }
}

/// Ann and Bob seen, and a rated English game between them (Ann Black) started under `code`: its key.
fn start_rated_game(recorder: &Recorder, code: &str) -> RecordKey {
    recorder.send(Job::Seen(player("ann")));
    recorder.send(Job::Seen(player("bob")));
    let key = RecordKey::fresh();
    recorder.send(Job::Start {
        key,
        variant: "english".into(),
        black: player("ann"),
        white: player("bob"),
        rated: true,
        clock: String::new(),
        code: code.into(),
        definition: None,
    });
    key
}

#[test]
fn jobs_are_written_in_order_and_games_known_by_their_keys() {
    let dir = std::env::temp_dir().join(format!("crowned-recorder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("records.sqlite");
    let recorder = Recorder::start(
        SqliteRecords::open(&path).expect("opens"),
        Some(dir.join("players")),
    )
    .expect("started");
    let key = start_rated_game(&recorder, "K7QX");
    for (ply, text) in ["11-15", "23-19"].into_iter().enumerate() {
        recorder.send(Job::Move {
            key,
            ply,
            text: text.into(),
            clocks: None,
        });
    }
    recorder.flush();
    let mut records = SqliteRecords::open(&path).expect("reopens");
    let unfinished = records.unfinished_games().expect("listed");
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].moves, ["11-15", "23-19"]);
    recorder.send(Job::Finish {
        key,
        result: "1-0".into(),
        pdn: "1. 11-15 23-19 1-0".into(),
        black_score: 1.0,
    });
    let mut game = AnyGame::default();
    game.tags_mut().set("Black", "ann");
    recorder.send(Job::File {
        players: vec![player("ann")],
        game: Box::new(game),
        name: "table K7QX ann vs bob".into(),
    });
    recorder.flush();
    assert!(records.unfinished().expect("listed").is_empty());
    assert_eq!(
        records.games_of(&"SHA256:bob".into()).expect("games").len(),
        1
    );
    let ann = Store::under(&dir.join("players").join(player("ann").folder_name()));
    let (text, _) = ann.saved_games_pdn().expect("filed");
    assert!(text.contains("[Black \"ann\"]"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn moves_the_disk_cannot_take_wait_in_memory_and_are_written_once_it_can() {
    let dir = std::env::temp_dir().join(format!("crowned-recorder-full-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("records.sqlite");
    let recorder =
        Recorder::start(SqliteRecords::open(&path).expect("opens"), None).expect("started");
    let writing = recorder.writing();
    let key = start_rated_game(&recorder, "FULL");
    let moves = |plies: std::ops::Range<usize>| {
        for ply in plies {
            recorder.send(Job::Move {
                key,
                ply,
                text: format!("move {ply} of a game long enough to need new pages"),
                clocks: Some([1000, 1000]),
            });
        }
    };
    moves(0..1);
    recorder.flush();
    assert!(*writing.borrow());
    // The disk fills: the file may not grow by a page.
    recorder.send(Job::Tamper(|records| {
        records.limit_pages(Some(records.pages()))
    }));
    moves(1..3000);
    recorder.flush();
    assert!(!*writing.borrow(), "the tables are told");
    let mut records = SqliteRecords::open(&path).expect("reopens");
    let stored = |records: &mut SqliteRecords| {
        let unfinished = records.unfinished_games().expect("listed");
        assert_eq!(unfinished.len(), 1);
        unfinished[0].moves.clone()
    };
    assert!(
        stored(&mut records).len() < 3000,
        "the full disk took every move"
    );
    // Table is made: everything kept is written, in order, once.
    recorder.send(Job::Tamper(|records| records.limit_pages(None)));
    let deadline = std::time::Instant::now() + 4 * RETRY_EVERY;
    while !*writing.borrow() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    recorder.flush();
    assert!(*writing.borrow());
    let expected: Vec<String> = (0..3000)
        .map(|ply| format!("move {ply} of a game long enough to need new pages"))
        .collect();
    assert_eq!(stored(&mut records), expected);
    recorder.send(Job::Finish {
        key,
        result: "1-0".into(),
        pdn: "1. 11-15 1-0".into(),
        black_score: 1.0,
    });
    recorder.flush();
    assert_eq!(
        records.games_of(&"SHA256:ann".into()).expect("games").len(),
        1
    );
    let (_, games) = records
        .rating(&"SHA256:ann".into(), "english")
        .expect("rated");
    assert_eq!(games, 1, "the result counted once");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game between players this recorder was never told of (each connected to another node, whose recorder notes
/// them in its own time) goes into records that insist on knowing its players: PostgreSQL's.
#[test]
fn a_game_between_players_seen_elsewhere_is_recorded_with_them() {
    let postgres = crate::local_postgres::LocalPostgres::shared()
        .unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let url: crate::serve::records::PostgresUrl = postgres
        .fresh_database("recorder_seen_elsewhere")
        .expect("a database")
        .parse()
        .expect("a URL");
    let records = crate::serve::records::PostgresRecords::connect(&url).expect("connects");
    let recorder = Recorder::start(records, None).expect("started");
    let key = RecordKey::fresh();
    recorder.send(Job::Start {
        key,
        variant: "english".into(),
        black: player("ann"),
        white: player("bob"),
        rated: false,
        clock: String::new(),
        code: "K7QX".into(),
        definition: None,
    });
    recorder.send(Job::Move {
        key,
        ply: 0,
        text: "11-15".into(),
        clocks: None,
    });
    recorder.flush();
    let mut records = crate::serve::records::PostgresRecords::connect(&url).expect("connects");
    let unfinished = records.unfinished_games().expect("listed");
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].moves, ["11-15"]);
    let players = records.players().expect("players");
    assert_eq!(
        players,
        [
            ("ann".to_string(), "SHA256:ann".into()),
            ("bob".to_string(), "SHA256:bob".into())
        ]
    );
}

/// A commit is answered once written; one the records refuse leaves nothing of itself behind (the rest of its
/// transaction is written again without it), and one on a disk that cannot take it is refused at once and never
/// written later.
#[test]
fn commits_are_written_whole_or_not_at_all_and_each_is_answered() {
    let dir = std::env::temp_dir().join(format!("crowned-recorder-commits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("records.sqlite");
    let recorder =
        Recorder::start(SqliteRecords::open(&path).expect("opens"), None).expect("started");
    let key = RecordKey::fresh();
    let mv = |ply: usize, text: &str| Job::Move {
        key,
        ply,
        text: text.into(),
        clocks: None,
    };
    let start = Job::Start {
        key,
        variant: "english".into(),
        black: player("ann"),
        white: player("bob"),
        rated: false,
        clock: String::new(),
        code: "C0MT".into(),
        definition: None,
    };
    let answer = |committing: Committing| answer_of(committing.blocking_recv());
    assert_eq!(answer(recorder.commit(vec![start, mv(0, "11-15")])), Ok(()));
    // Sent together, so that they share a transaction: the second is refused (another move at its ply) and
    // the others are written.
    let first = recorder.commit(vec![mv(1, "23-19")]);
    let clash = recorder.commit(vec![mv(1, "22-18")]);
    let third = recorder.commit(vec![mv(2, "8-11")]);
    assert_eq!(answer(first), Ok(()));
    assert!(matches!(answer(clash), Err(CommitError::Refused(_))));
    assert_eq!(answer(third), Ok(()));
    // A commit whose second job cannot be written leaves nothing of its first.
    let stranger = RecordKey::fresh();
    let half = recorder.commit(vec![
        mv(3, "22-18"),
        Job::Move {
            key: stranger,
            ply: 0,
            text: "11-15".into(),
            clocks: None,
        },
    ]);
    assert!(matches!(answer(half), Err(CommitError::Refused(_))));
    // The disk refuses writes: the commit is answered at once, and is not written when the disk mends.
    recorder.send(Job::Tamper(|records| records.refuse_writes(true)));
    assert_eq!(
        answer(recorder.commit(vec![mv(3, "24-20")])),
        Err(CommitError::Unwritable)
    );
    recorder.send(Job::Tamper(|records| records.refuse_writes(false)));
    assert_eq!(answer(recorder.commit(vec![mv(3, "22-17")])), Ok(()));
    recorder.flush();
    let mut records = SqliteRecords::open(&path).expect("reopens");
    let unfinished = records.unfinished_games().expect("listed");
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].moves, ["11-15", "23-19", "8-11", "22-17"]);
    let _ = std::fs::remove_dir_all(&dir);
}
