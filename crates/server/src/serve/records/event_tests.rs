//! Tournaments in the records: kept as they change and read back alike from SQLite and PostgreSQL.

use super::tests::fresh_postgres;
use super::*;
use crate::serve::event_rules::{GameResult as Outcome, Pairing};
use crate::serve::identity::Identity;

#[test]
fn on_sqlite() {
    an_event_is_kept_as_it_changes(&mut SqliteRecords::in_memory().expect("opens"));
}

#[test]
fn on_postgres() {
    an_event_is_kept_as_it_changes(&mut fresh_postgres("an_event_is_kept_as_it_changes"));
}

fn player(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    }
}

fn an_event_is_kept_as_it_changes(records: &mut dyn Records) {
    let code = TableCode::from("T4RN");
    let spec = EventSpec {
        code: code.clone(),
        name: "Friday Swiss".to_string(),
        kind: EventKind::Swiss,
        variant: "english".to_string(),
        clock: "3+2".to_string(),
        rated: true,
        open: false,
        starts: 1_800_000_000,
        seconds: 0,
        rounds: 5,
        created_by: Some("SHA256:ann".into()),
    };
    records.create_event(&spec).expect("created");
    // The same code twice is refused.
    assert!(records.create_event(&spec).is_err());
    let names = ["ann", "bob", "cy"];
    for (entrant, name) in names.iter().enumerate() {
        let who = player(name);
        records.seen(&who).expect("seen");
        records
            .change_event(
                &code,
                &EventChange::Entered {
                    entrant: entrant as u32,
                    fingerprint: &who.fingerprint,
                    name: &who.name,
                },
            )
            .expect("entered");
    }
    records
        .change_event(&code, &EventChange::Stage(Stage::Running))
        .expect("started");
    let pairing = PairingRecord {
        round: 1,
        board: 0,
        pairing: Pairing {
            first: 0,
            second: 1,
        },
        result: None,
        game: None,
    };
    records
        .change_event(&code, &EventChange::Paired(&pairing))
        .expect("paired");
    records
        .change_event(
            &code,
            &EventChange::Bye {
                round: 1,
                entrant: 2,
            },
        )
        .expect("a bye");
    let game = records
        .start_game(&NewGame {
            variant: "english",
            black: &"SHA256:ann".into(),
            white: &"SHA256:bob".into(),
            rated: true,
            clock: "3+2",
            code: &"G001".into(),
            definition: None,
        })
        .expect("a game");
    records
        .change_event(
            &code,
            &EventChange::Started {
                round: 1,
                board: 0,
                game,
            },
        )
        .expect("its game");
    let pdn = "[Event \"Friday Swiss\"]\n[Round \"1\"]\n[Result \"1-0\"]\n1. 11-15 1-0\n";
    records
        .record_result(
            game,
            &FinishedGame {
                result: "1-0",
                pdn,
                black_score: 1.0,
            },
        )
        .expect("ended");
    // The game has ended and its pairing's result is not kept yet: the records say what it was.
    assert_eq!(
        records.event_games_ended(&code).expect("read"),
        vec![(1, 0, "1-0".to_string())]
    );
    records
        .change_event(
            &code,
            &EventChange::Result {
                round: 1,
                board: 0,
                result: Outcome::FirstWins,
            },
        )
        .expect("its result");
    records
        .change_event(
            &code,
            &EventChange::Withdrawn {
                entrant: 1,
                withdrawn: true,
            },
        )
        .expect("withdrawn");

    let kept = records.event(&code).expect("read").expect("there");
    assert_eq!(kept.spec, spec);
    assert_eq!(kept.stage, Stage::Running);
    let entries: Vec<_> = kept
        .entries
        .iter()
        .map(|e| (e.entrant, e.name.as_str(), e.withdrawn))
        .collect();
    assert_eq!(
        entries,
        vec![(0, "ann", false), (1, "bob", true), (2, "cy", false)]
    );
    assert_eq!(
        kept.pairings,
        vec![PairingRecord {
            result: Some(Outcome::FirstWins),
            game: Some(game),
            ..pairing
        }]
    );
    assert_eq!(kept.byes, vec![(1, 2)]);
    assert!(records.event_games_ended(&code).expect("read").is_empty());
    assert_eq!(
        records.event_games(&code).expect("games"),
        vec![pdn.to_string()]
    );
    // Entering again brings a withdrawn player back.
    let bob = player("bob");
    records
        .change_event(
            &code,
            &EventChange::Entered {
                entrant: 1,
                fingerprint: &bob.fingerprint,
                name: "bob",
            },
        )
        .expect("back");
    let kept = records.event(&code).expect("read").expect("there");
    assert!(!kept.entries[1].withdrawn);

    records
        .change_event(&code, &EventChange::Stage(Stage::Finished))
        .expect("over");
    let listed = records.events().expect("listed");
    assert_eq!(listed, vec![(spec, Stage::Finished)]);
    assert!(records.event(&"NONE".into()).expect("read").is_none());
}

/// `crowned serve migrate-records` takes the events along: read back from PostgreSQL as SQLite had them.
#[test]
fn an_event_is_copied_from_sqlite_into_postgres() {
    let dir = std::env::temp_dir().join(format!("crowned-tournament-copy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("records.sqlite");
    let mut sqlite = SqliteRecords::open(&path).expect("opens");
    an_event_is_kept_as_it_changes(&mut sqlite);
    let server = crate::local_postgres::LocalPostgres::shared()
        .unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let url: PostgresUrl = server
        .fresh_database("an_event_is_copied_from_sqlite_into_postgres")
        .unwrap_or_else(|e| panic!("a database: {e}"))
        .parse()
        .expect("a URL");
    let copied = migrate::sqlite_to_postgres(&path, &url).expect("copied");
    assert_eq!(copied.tournaments, 1);
    let mut postgres = PostgresRecords::connect(&url).expect("opens");
    let code = TableCode::from("T4RN");
    assert_eq!(
        postgres.event(&code).expect("read"),
        sqlite.event(&code).expect("read")
    );
    assert_eq!(
        postgres.events().expect("listed"),
        sqlite.events().expect("listed")
    );
    assert_eq!(
        postgres.event_games(&code).expect("games"),
        sqlite.event_games(&code).expect("games")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
