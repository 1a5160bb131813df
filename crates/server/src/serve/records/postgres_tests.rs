//! What only the PostgreSQL records have: a schema shared and migrated by every server, results recorded by
//! two servers at once, a connection lost and made again.

use std::sync::{Arc, Barrier};

use super::schema::POSTGRES_MIGRATIONS as MIGRATIONS;
use super::*;
use crate::local_postgres::LocalPostgres;
use crate::serve::identity::Identity;

fn server() -> &'static LocalPostgres {
    LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"))
}

/// A new database's URL and name.
fn database(test: &str) -> (PostgresUrl, String) {
    let url = server()
        .fresh_database(test)
        .unwrap_or_else(|e| panic!("a database: {e}"));
    let name = url.rsplit('/').next().unwrap_or_default().to_string();
    (url.parse().expect("a URL"), name)
}

fn player(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    }
}

#[test]
fn the_schema_is_made_once_and_a_newer_one_is_refused() {
    let (url, _) = database("newer_schema");
    let mut records = PostgresRecords::connect(&url).expect("created");
    assert_eq!(
        records.version().expect("a version"),
        MIGRATIONS.len() as i64
    );
    records.seen(&player("ann")).expect("seen");
    drop(records);
    // Connecting again finds the schema up to date and the records kept.
    let mut records = PostgresRecords::connect(&url).expect("reopened");
    assert_eq!(records.players().expect("listed").len(), 1);
    drop(records);
    // (The test server asks no password: the URL shown is the whole URL.)
    let mut admin =
        ::postgres::Client::connect(&url.to_string(), ::postgres::NoTls).expect("connects");
    admin
        .batch_execute("UPDATE crowned_schema SET version = 99")
        .expect("set");
    let refused = PostgresRecords::connect(&url).err().expect("refused");
    assert!(
        matches!(refused, RecordsError::TooNew { found: 99, .. }),
        "{refused}"
    );
    assert!(refused.to_string().contains("newer"), "{refused}");
}

#[test]
fn two_servers_recording_one_result_at_once_change_the_ratings_once() {
    let (url, _) = database("one_result");
    let mut first = PostgresRecords::connect(&url).expect("opens");
    let (ann, bob) = (player("ann"), player("bob"));
    first.seen(&ann).expect("seen");
    first.seen(&bob).expect("seen");
    let game = first
        .start_game(&NewGame {
            variant: "english",
            black: &ann.fingerprint,
            white: &bob.fingerprint,
            rated: true,
            clock: "",
            code: &"K7QX".into(),
            definition: None,
        })
        .expect("started");
    let second = PostgresRecords::connect(&url).expect("opens");
    let together = Arc::new(Barrier::new(2));
    let outcomes: Vec<Result<(), RecordsError>> = [first, second]
        .into_iter()
        .map(|mut records| {
            let together = Arc::clone(&together);
            std::thread::spawn(move || {
                together.wait();
                records.record_result(
                    game,
                    &FinishedGame {
                        result: "1-0",
                        pdn: "1-0",
                        black_score: 1.0,
                    },
                )
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|thread| thread.join().expect("no panic"))
        .collect();
    let kept = outcomes.iter().filter(|outcome| outcome.is_ok()).count();
    assert_eq!(kept, 1, "{outcomes:?}");
    assert!(
        outcomes
            .iter()
            .any(|outcome| matches!(outcome, Err(RecordsError::NoGame(_)))),
        "{outcomes:?}"
    );
    let mut records = PostgresRecords::connect(&url).expect("opens");
    for someone in [&ann, &bob] {
        let (_, games) = records
            .rating(&someone.fingerprint, "english")
            .expect("rated");
        assert_eq!(games, 1, "{}", someone.name);
    }
}

#[test]
fn a_lost_connection_is_made_again() {
    let (url, name) = database("reconnect");
    let mut records = PostgresRecords::connect(&url).expect("opens");
    records.seen(&player("ann")).expect("seen");
    assert!(server().cut_connections(&name).expect("cut") >= 1);
    // A read is tried again on a new connection.
    assert_eq!(records.players().expect("read again").len(), 1);
    server().cut_connections(&name).expect("cut");
    // A write whose connection is lost is not tried again at once (it may have been kept): its error is the
    // kind the recorder tries again later, and the next call has a connection.
    match records.seen(&player("bob")) {
        Ok(()) => {}
        Err(e) => assert!(e.is_storage(), "{e}"),
    }
    records.seen(&player("bob")).expect("written");
    assert_eq!(records.players().expect("listed").len(), 2);
}

#[test]
fn records_go_on_after_their_database_server_restarts() {
    // A server of its own: restarting the shared one would cut the other tests off.
    let own = LocalPostgres::start().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let url: PostgresUrl = own
        .fresh_database("restart")
        .expect("a database")
        .parse()
        .expect("a URL");
    let mut records = PostgresRecords::connect(&url).expect("opens");
    records.seen(&player("ann")).expect("seen");
    own.restart().expect("restarted");
    assert_eq!(records.players().expect("read again").len(), 1);
    own.restart().expect("restarted");
    match records.seen(&player("bob")) {
        Ok(()) => {}
        Err(e) => assert!(e.is_storage(), "{e}"),
    }
    records.seen(&player("bob")).expect("written");
    assert_eq!(records.players().expect("listed").len(), 2);
}

#[test]
fn a_server_that_is_not_there_is_a_storage_error_without_the_password() {
    // A port nothing listens on any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a port")
        .port();
    let url: PostgresUrl = format!("postgres://ann:s3cret-pw@127.0.0.1:{port}/x")
        .parse()
        .expect("a URL");
    let e = PostgresRecords::connect(&url).err().expect("not connected");
    assert!(e.is_storage(), "{e:?}");
    assert!(!e.to_string().contains("s3cret-pw"), "{e}");
    assert!(!format!("{e:?}").contains("s3cret-pw"), "{e:?}");
}

#[test]
fn a_database_whose_nodes_made_their_tables_comes_up_to_date_as_it_is() {
    let (url, _) = database("nodes_tables_before");
    // As a deployment left it before the nodes' tables were records: version 1, and the tables the nodes made
    // for themselves, with a table leased.
    let mut admin =
        ::postgres::Client::connect(&url.to_string(), ::postgres::NoTls).expect("connects");
    admin
        .batch_execute(MIGRATIONS[0])
        .expect("version 1's tables");
    admin
        .batch_execute(
            "CREATE TABLE crowned_schema (version BIGINT NOT NULL);
             INSERT INTO crowned_schema VALUES (1);
             CREATE TABLE nodes (name text PRIMARY KEY, seen timestamptz NOT NULL);
             CREATE TABLE room_leases (
                 code text PRIMARY KEY, owner text NOT NULL, expires timestamptz NOT NULL, listing text
             );
             CREATE INDEX room_leases_by_owner ON room_leases (owner);
             CREATE TABLE node_messages (
                 id bigserial PRIMARY KEY, recipient text NOT NULL, body text NOT NULL,
                 sent timestamptz NOT NULL DEFAULT now()
             );
             INSERT INTO room_leases VALUES ('K7QX', 'one', now() + interval '1 minute', NULL);",
        )
        .expect("the nodes' own tables");
    let mut records = PostgresRecords::connect(&url).expect("migrated");
    assert_eq!(
        records.version().expect("a version"),
        MIGRATIONS.len() as i64
    );
    let leases: i64 = admin
        .query_one("SELECT count(*) FROM room_leases", &[])
        .expect("counted")
        .get(0);
    assert_eq!(leases, 1);
    // The index the nodes did not make is there now.
    let indexed: bool = admin
        .query_one(
            "SELECT to_regclass('node_messages_by_recipient') IS NOT NULL",
            &[],
        )
        .expect("looked up")
        .get(0);
    assert!(indexed);
}

#[test]
fn a_session_stopped_in_a_transaction_is_ended_by_the_database_and_statements_are_bounded() {
    let (url, _) = database("session_bounds");
    let mut records = PostgresRecords::connect(&url).expect("opens");
    let client = records.client().expect("a connection");
    let show = |client: &mut ::postgres::Client, setting: &str| -> String {
        client
            .query_one(&format!("SHOW {setting}"), &[])
            .expect("shown")
            .get(0)
    };
    assert_eq!(show(client, "idle_in_transaction_session_timeout"), "20s");
    assert_eq!(show(client, "statement_timeout"), "1min");
    // The URL's own options come after the program's, and win.
    let own: PostgresUrl = format!("{url}?options=-c%20statement_timeout%3D5s")
        .parse()
        .expect("a URL");
    let mut own = PostgresRecords::connect(&own).expect("opens");
    let client = own.client().expect("a connection");
    assert_eq!(show(client, "statement_timeout"), "5s");
}

#[test]
fn one_game_in_progress_per_code_is_held_by_the_database_and_older_duplicates_lose_their_code() {
    let (url, _) = database("code_in_play");
    let mut admin =
        ::postgres::Client::connect(&url.to_string(), ::postgres::NoTls).expect("connects");
    // A database at version 7, where a code was taken again while a game under it was in progress.
    for sql in &MIGRATIONS[..7] {
        admin.batch_execute(sql).expect("an older version");
    }
    admin
        .batch_execute(
            "CREATE TABLE crowned_schema (version BIGINT NOT NULL);
             INSERT INTO crowned_schema VALUES (7);
             INSERT INTO players (fingerprint, name, first_seen, last_seen) VALUES ('SHA256:a', 'ann', 0, 0);
             INSERT INTO games (variant, black, white, rated, clock, started, code)
                 VALUES ('english', 'SHA256:a', 'SHA256:a', false, '', 1, 'K7QX'),
                        ('english', 'SHA256:a', 'SHA256:a', false, '', 2, 'K7QX'),
                        ('english', 'SHA256:a', 'SHA256:a', false, '', 3, 'ZZ22');",
        )
        .expect("two games in progress under one code");
    let mut records = PostgresRecords::connect(&url).expect("migrated");
    assert_eq!(
        records.version().expect("a version"),
        MIGRATIONS.len() as i64
    );
    let codes: Vec<(i64, Option<String>)> = admin
        .query("SELECT started, code FROM games ORDER BY started", &[])
        .expect("read")
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    assert_eq!(
        codes,
        vec![
            (1, None),
            (2, Some("K7QX".to_string())),
            (3, Some("ZZ22".to_string()))
        ]
    );
    // A second game in progress under a code in use is refused by the database itself.
    let again = admin.execute(
        "INSERT INTO games (variant, black, white, rated, clock, started, code)
             VALUES ('english', 'SHA256:a', 'SHA256:a', false, '', 4, 'K7QX')",
        &[],
    );
    assert!(again.is_err());
    // Once that game has ended, its code may be used again.
    admin
        .execute("UPDATE games SET ended = 5 WHERE code = 'K7QX'", &[])
        .expect("ended");
    admin
        .execute(
            "INSERT INTO games (variant, black, white, rated, clock, started, code)
                 VALUES ('english', 'SHA256:a', 'SHA256:a', false, '', 6, 'K7QX')",
            &[],
        )
        .expect("a code free again");
}
