//! Two `crowned serve` on one PostgreSQL database (a server of the test's own): both start (the SQLite lock is
//! not theirs to take), and each one's players are in the shared records.

use std::time::{Duration, Instant};

use crate::common::ssh::{PATIENCE, Server, Terminal, connect, new_key};
use crowned::serve::records::{PlayerRecords as _, PostgresRecords};
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
