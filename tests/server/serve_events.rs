//! Tournaments over SSH: an event kept in the records is shown to anyone who asks for it by its code
//! (`ssh host tournament CODE`: its table and pairings), and all its games come back as PDN
//! (`ssh host tournament CODE --pdn`).

use crate::doors::ssh::{Server, connect, new_key, read_all};
use crowned::serve::Identity;
use crowned::serve::codes::new_code;
use crowned::serve::event_rules::{GameResult as Outcome, Pairing};
use crowned::serve::records::{
    EventChange, EventKind, EventSpec, FinishedGame, NewGame, PairingRecord, Records,
    SqliteRecords, Stage,
};

fn player(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}-tournament").into(),
        name: name.to_string(),
    }
}

/// A finished Swiss event of three, one round: ann beats bob, cy has the bye; kept in the server's records as
/// its director keeps it.
fn keep_event(records: &mut dyn Records, code: &crowned::serve::TableCode) {
    let spec = EventSpec {
        code: code.clone(),
        name: "Autumn Swiss".to_string(),
        kind: EventKind::Swiss,
        variant: "english".to_string(),
        clock: "3+2".to_string(),
        rated: true,
        open: true,
        starts: 1_800_000_000,
        seconds: 0,
        rounds: 1,
        created_by: None,
    };
    records.create_event(&spec).expect("created");
    let people = [player("ann"), player("bob"), player("cy")];
    for (entrant, who) in people.iter().enumerate() {
        records.seen(who).expect("seen");
        records
            .change_event(
                code,
                &EventChange::Entered {
                    entrant: entrant as u32,
                    fingerprint: &who.fingerprint,
                    name: &who.name,
                },
            )
            .expect("entered");
    }
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
        .change_event(code, &EventChange::Paired(&pairing))
        .expect("paired");
    records
        .change_event(
            code,
            &EventChange::Bye {
                round: 1,
                entrant: 2,
            },
        )
        .expect("bye");
    let game = records
        .start_game(&NewGame {
            variant: "english",
            black: &people[0].fingerprint,
            white: &people[1].fingerprint,
            rated: true,
            clock: "3+2",
            code: &"ZZZZ".into(),
            definition: None,
        })
        .expect("a game");
    records
        .change_event(
            code,
            &EventChange::Started {
                round: 1,
                board: 0,
                game,
            },
        )
        .expect("its game");
    let pdn = "[Event \"Autumn Swiss\"]\n[Round \"1\"]\n[Black \"ann\"]\n[White \"bob\"]\n[Result \"1-0\"]\n\n1. 11-15 1-0\n";
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
    records
        .change_event(
            code,
            &EventChange::Result {
                round: 1,
                board: 0,
                result: Outcome::FirstWins,
            },
        )
        .expect("its result");
    records
        .change_event(code, &EventChange::Stage(Stage::Finished))
        .expect("over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_event_s_table_and_games_are_there_to_see() {
    let server = Server::start("tournament-table");
    let code = new_code(|_| false).expect("a code");
    {
        // The server's own records file, written beside it as its director would (SQLite takes turns).
        let path = server.home.join("data/server/records.sqlite");
        let mut records = SqliteRecords::open(&path).expect("the server's records");
        keep_event(&mut records, &code);
    }
    let handle = connect(&server, &new_key(), "dan").await;
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel
        .exec(true, format!("tournament {}", code.as_str().to_lowercase()))
        .await
        .expect("asked");
    let (table, status) = read_all(&mut channel).await;
    assert_eq!(status, Some(0), "{table}");
    assert!(
        table.contains("Autumn Swiss") && table.contains("finished"),
        "{table}"
    );
    // ann 1 point (a win), cy 1 (the bye), bob 0; ann first on Buchholz (bob's 0 against cy's none: equal) and
    // Sonneborn-Berger equal too, so by seed.
    let lines: Vec<&str> = table.lines().collect();
    let row = |name: &str| {
        lines
            .iter()
            .find(|l| l.contains(name) && !l.contains("bye") && !l.contains(" - "))
            .copied()
    };
    assert!(
        row("ann").is_some_and(|l| l.trim_start().starts_with("1 ") && l.contains(" 1 ")),
        "{table}"
    );
    assert!(
        row("cy").is_some_and(|l| l.trim_start().starts_with("2 ")),
        "{table}"
    );
    assert!(
        row("bob").is_some_and(|l| l.trim_start().starts_with("3 ")),
        "{table}"
    );
    assert!(
        table.contains("Round 1") && table.contains("1-0") && table.contains("bye"),
        "{table}"
    );

    let mut channel = handle.channel_open_session().await.expect("a session");
    channel
        .exec(true, format!("tournament {} --pdn", code.as_str()))
        .await
        .expect("asked");
    let (pdn, status) = read_all(&mut channel).await;
    assert_eq!(status, Some(0), "{pdn}");
    assert!(
        pdn.contains("[Event \"Autumn Swiss\"]") && pdn.contains("[Round \"1\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("1. 11-15 1-0"), "{pdn}");

    let mut channel = handle.channel_open_session().await.expect("a session");
    channel.exec(true, "tournament QQQQ").await.expect("asked");
    let (said, status) = read_all(&mut channel).await;
    // The reason goes to stderr; nothing on stdout, and a failing status.
    assert_eq!(status, Some(1), "{said}");
    assert!(!said.contains("Round"), "{said}");
}
