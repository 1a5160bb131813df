//! Two `crowned serve` on one PostgreSQL database (a server of the test's own): both start (the SQLite lock is
//! not theirs to take), and each one's players are in the shared records. The README's backup of such records,
//! `pg_dump` while people play and `pg_restore` into an empty database, gives records a server serves on.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::doors::ssh::{OneFinishedOneInPlay, PATIENCE, Server, Terminal, connect, new_key};
use crowned::serve::records::{GameRecords as _, PlayerRecords as _, PostgresRecords};
use crowned::server_lab::local_postgres::LocalPostgres;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_postgres_database() {
    let postgres = LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let url = postgres.fresh_database("two_servers").expect("a database");
    let mut first = Server::start_with_files("pg-first", &[], &["--records", &url]);
    let mut second = Server::start_with_files("pg-second", &[], &["--records", &url]);
    for (server, name) in [(&first, "ann"), (&second, "bob")] {
        let handle = connect(server, &new_key(), name).await;
        let mut t = Terminal::to_engine(&handle, 80, 24).await;
        t.wait_for("Black to play").await;
    }
    assert!(first.is_running() && second.is_running());
    // The recorder writes who connected on a thread of its own: read until both are there (on a blocking
    // thread, as the client blocks).
    let url = url.parse().expect("a URL");
    let names = tokio::task::spawn_blocking(move || {
        let mut records = PostgresRecords::connect(&url).expect("connects");
        let deadline = Instant::now() + PATIENCE;
        loop {
            let mut names: Vec<String> = records
                .players()
                .expect("listed")
                .into_iter()
                .map(|(name, _)| name)
                .collect();
            names.sort();
            if names.len() == 2 || Instant::now() > deadline {
                return names;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    })
    .await
    .expect("read");
    assert_eq!(names, ["ann", "bob"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pg_dump_taken_while_people_play_restores_to_records_a_server_serves_on() {
    let postgres = LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let url = postgres.fresh_database("dumped").expect("a database");
    let server = Server::start_with_files("pg-dumped", &[], &["--records", &url]);
    // One game finished, and a second in play as the dump is taken.
    let OneFinishedOneInPlay {
        keys: [ann_key, _],
        second,
        held,
    } = OneFinishedOneInPlay::play(&server).await;

    // The README's commands, while the server runs.
    let dump = server.home.join("records.dump");
    let dumped = Command::new(postgres.program("pg_dump"))
        .args(["--format=custom", "--file"])
        .arg(&dump)
        .arg(&url)
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", postgres.program("pg_dump").display()));
    assert!(
        dumped.status.success(),
        "{}",
        String::from_utf8_lossy(&dumped.stderr)
    );
    let fresh = postgres
        .fresh_database("restored")
        .expect("an empty database");
    let restored = Command::new(postgres.program("pg_restore"))
        .arg("--dbname")
        .arg(&fresh)
        .arg(&dump)
        .output()
        .expect("pg_restore runs");
    assert!(
        restored.status.success(),
        "{}",
        String::from_utf8_lossy(&restored.stderr)
    );

    // The restored records hold the finished game and the one in play, with its move.
    let parsed = fresh.parse().expect("a URL");
    let (finished, unfinished) = tokio::task::spawn_blocking(move || {
        let mut records = PostgresRecords::connect(&parsed).expect("connects");
        let finished = records.finished_games().expect("read").len();
        let unfinished = records.unfinished_games().expect("read");
        (finished, unfinished)
    })
    .await
    .expect("read");
    assert_eq!(finished, 1);
    let codes: Vec<_> = unfinished
        .iter()
        .filter_map(|game| game.code.clone())
        .collect();
    assert_eq!(codes.len(), 1, "{unfinished:?}");
    assert_eq!(codes[0].to_string(), second);

    // A server pointed at them serves the game in play from where it stood.
    drop((held, server));
    let server = Server::start_with_files("pg-restored", &[], &["--records", &fresh]);
    let ann = connect(&server, &ann_key, "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, &format!("join {second}")).await;
    a.wait_for("9-13").await;
}
