//! The leases and the bus against a real PostgreSQL server.

use std::time::Duration;

use tokio_postgres::{Client, Config, NoTls};

use super::bus::{self, MAX_MESSAGE, NodeInbox};
use super::lease::{self, Leases};
use super::{NodeName, NodesError, create_schema};
use crate::local_postgres::LocalPostgres;
use crate::serve::ids::TableCode;

#[path = "cluster_tests.rs"]
mod cluster;
#[path = "relay_tests.rs"]
mod relay;

/// A fresh database of its own on the test program's PostgreSQL server, with the nodes' tables.
pub(super) async fn database() -> Config {
    let url = tokio::task::spawn_blocking(|| {
        let server =
            LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
        server.fresh_database("nodes").expect("a database")
    })
    .await
    .expect("made");
    let config: Config = url.parse().expect("a PostgreSQL URL");
    let (mut db, connection) = config.connect(NoTls).await.expect("the test database");
    tokio::spawn(connection);
    create_schema(&mut db).await.expect("the schema");
    config
}

pub(super) async fn connect(config: &Config) -> Client {
    let (client, connection) = config.connect(NoTls).await.expect("the test database");
    tokio::spawn(connection);
    client
}

/// The inbox's next message's text, waited for at most a few seconds.
async fn next(inbox: &mut NodeInbox) -> String {
    tokio::time::timeout(Duration::from_secs(10), inbox.next())
        .await
        .expect("a message in time")
        .expect("the inbox runs")
        .body
}

pub(super) fn node(name: &str) -> NodeName {
    name.parse().expect("a node name")
}

fn code(text: &str) -> TableCode {
    TableCode::new(text)
}

#[tokio::test]
async fn the_schema_is_the_records_own_and_a_newer_one_is_refused() {
    let config = database().await;
    let mut db = connect(&config).await;
    // Made again: nothing changes.
    create_schema(&mut db).await.expect("up to date");
    let version: i64 = db
        .query_one("SELECT version FROM crowned_schema", &[])
        .await
        .expect("a version")
        .get(0);
    assert_eq!(
        version,
        crate::serve::records::POSTGRES_MIGRATIONS.len() as i64
    );
    // The records' own tables are there too: the nodes bring the whole schema up to date.
    db.query_one("SELECT count(*) FROM games", &[])
        .await
        .expect("the records' games");
    db.batch_execute("UPDATE crowned_schema SET version = 99")
        .await
        .expect("set");
    let refused = create_schema(&mut db).await.expect_err("refused");
    assert!(
        matches!(refused, NodesError::TooNew { found: 99, .. }),
        "{refused}"
    );
    assert!(refused.to_string().contains("newer"), "{refused}");
}

#[tokio::test]
async fn a_code_of_a_game_in_progress_is_not_reserved_again() {
    let config = database().await;
    let db = connect(&config).await;
    // A game in progress under K7QX whose table has closed (nobody at it, its lease given up).
    db.batch_execute(
        "INSERT INTO players (fingerprint, name, first_seen, last_seen) VALUES ('SHA256:a', 'ann', 0, 0);
         INSERT INTO games (variant, black, white, rated, clock, started, code)
             VALUES ('english', 'SHA256:a', 'SHA256:a', false, '', 1, 'K7QX');",
    )
    .await
    .unwrap();
    let one = Leases::new(node("one"), Duration::from_secs(30));
    let reserved = one
        .reserve_all(&db, &[code("K7QX"), code("ZZ22")])
        .await
        .unwrap();
    assert_eq!(reserved, vec![code("ZZ22")]);
    // Once it has ended, its code is free again.
    db.execute("UPDATE games SET ended = 2 WHERE code = 'K7QX'", &[])
        .await
        .unwrap();
    assert!(one.reserve(&db, &code("K7QX")).await.unwrap());
}

#[tokio::test]
async fn a_table_has_one_owner_until_its_lease_lapses() {
    let config = database().await;
    let db = connect(&config).await;
    let one = Leases::new(node("one"), Duration::from_millis(300));
    let two = Leases::new(node("two"), Duration::from_secs(30));
    assert!(one.reserve(&db, &code("K7QX")).await.unwrap());
    assert!(!two.reserve(&db, &code("K7QX")).await.unwrap());
    assert!(!two.claim(&db, &code("K7QX")).await.unwrap());
    // Claiming again one's own table renews it.
    assert!(one.claim(&db, &code("K7QX")).await.unwrap());
    assert!(one.publish(&db, &code("K7QX"), "{}").await.unwrap());
    assert!(!two.publish(&db, &code("K7QX"), "{...}").await.unwrap());
    let holder = lease::holder(&db, &code("K7QX"))
        .await
        .unwrap()
        .expect("a holder");
    assert_eq!(
        (holder.node.as_str(), holder.live, holder.listing.as_deref()),
        ("one", true, Some("{}"))
    );
    assert!(lease::lapsed(&db, false).await.unwrap().is_empty());
    assert_eq!(two.others(&db, false).await.unwrap().len(), 1);
    assert!(one.others(&db, false).await.unwrap().is_empty());

    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(lease::lapsed(&db, false).await.unwrap(), vec![code("K7QX")]);
    assert!(
        !lease::holder(&db, &code("K7QX"))
            .await
            .unwrap()
            .unwrap()
            .live
    );
    // A lapsed table is not free to reserve: its game waits to be taken over.
    assert!(!two.reserve(&db, &code("K7QX")).await.unwrap());
    assert!(two.others(&db, false).await.unwrap().is_empty());
    assert!(two.claim(&db, &code("K7QX")).await.unwrap());
    // The old owner finds out on its heartbeat that the table is no longer its own.
    assert!(one.renew(&db).await.unwrap().is_empty());
    assert!(!one.claim(&db, &code("K7QX")).await.unwrap());
    assert_eq!(
        two.renew(&db)
            .await
            .unwrap()
            .into_iter()
            .collect::<Vec<_>>(),
        vec![code("K7QX")]
    );
    assert_eq!(two.held(&db).await.unwrap(), vec![code("K7QX")]);
}

#[tokio::test]
async fn an_event_s_lease_is_its_own_and_never_taken_for_a_table_s() {
    let config = database().await;
    let db = connect(&config).await;
    let one = Leases::new(node("one"), Duration::from_millis(300));
    let two = Leases::new(node("two"), Duration::from_secs(30));
    // The same code as an event and as a table: two leases, held by two nodes.
    let event = lease::event_key(&code("K7QX"));
    assert!(one.reserve(&db, &event).await.unwrap());
    assert!(two.reserve(&db, &code("K7QX")).await.unwrap());
    assert!(!two.reserve(&db, &event).await.unwrap());
    assert_eq!(lease::event_of_key(&event), Some(code("K7QX")));
    assert_eq!(lease::event_of_key(&code("K7QX")), None);
    assert!(one.publish(&db, &event, "{}").await.unwrap());
    assert!(two.publish(&db, &code("K7QX"), "{}").await.unwrap());
    // Each node lists the other's: the event among events, the table among tables.
    let events = two.others(&db, true).await.unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].code.as_str(), events[0].node.as_str()),
        ("K7QX", "one")
    );
    assert!(two.others(&db, false).await.unwrap().is_empty());
    assert_eq!(one.others(&db, false).await.unwrap().len(), 1);
    assert!(one.others(&db, true).await.unwrap().is_empty());
    // The event's node stops: its lease lapses, and is listed among the events to take over, not the tables.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(lease::lapsed(&db, true).await.unwrap(), vec![code("K7QX")]);
    assert!(lease::lapsed(&db, false).await.unwrap().is_empty());
    assert!(two.claim(&db, &event).await.unwrap());
    assert!(!one.claim(&db, &event).await.unwrap());
    assert!(lease::lapsed(&db, true).await.unwrap().is_empty());
}

#[tokio::test]
async fn codes_reserved_together_are_those_no_node_had() {
    let config = database().await;
    let db = connect(&config).await;
    let one = Leases::new(node("one"), Duration::from_secs(30));
    let two = Leases::new(node("two"), Duration::from_secs(30));
    assert!(one.reserve(&db, &code("AAAA")).await.unwrap());
    let asked = [code("AAAA"), code("BBBB"), code("CCCC")];
    let mut got = two.reserve_all(&db, &asked).await.unwrap();
    got.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    assert_eq!(got, [code("BBBB"), code("CCCC")]);
    assert!(two.reserve_all(&db, &asked).await.unwrap().is_empty());
    assert!(two.reserve_all(&db, &[]).await.unwrap().is_empty());
    let holder = lease::holder(&db, &code("CCCC")).await.unwrap();
    assert_eq!(holder.map(|h| h.node), Some("two".to_string()));
}

#[tokio::test]
async fn two_nodes_racing_for_a_lapsed_table_one_wins() {
    let config = database().await;
    let (a, b) = (connect(&config).await, connect(&config).await);
    let dead = Leases::new(node("dead"), Duration::ZERO);
    let one = Leases::new(node("one"), Duration::from_secs(30));
    let two = Leases::new(node("two"), Duration::from_secs(30));
    for round in 0..40 {
        let table = code(&format!("R{round:03}"));
        assert!(dead.reserve(&a, &table).await.unwrap());
        let (won_one, won_two) = tokio::join!(one.claim(&a, &table), two.claim(&b, &table));
        let (won_one, won_two) = (won_one.unwrap(), won_two.unwrap());
        assert!(won_one != won_two, "round {round}: {won_one} {won_two}");
        let winner = if won_one { "one" } else { "two" };
        let holder = lease::holder(&a, &table).await.unwrap().expect("a holder");
        assert_eq!(holder.node, winner);
    }
    let held = one.renew(&a).await.unwrap().len() + two.renew(&b).await.unwrap().len();
    assert_eq!(held, 40);
}

#[tokio::test]
async fn released_tables_are_free_and_the_heartbeat_shows_who_lives() {
    let config = database().await;
    let db = connect(&config).await;
    let one = Leases::new(node("one"), Duration::from_secs(30));
    let two = Leases::new(node("two"), Duration::from_secs(30));
    for table in ["AAAA", "BBBB", "CCCC"] {
        assert!(one.reserve(&db, &code(table)).await.unwrap());
    }
    one.release(&db, &code("AAAA")).await.unwrap();
    // Another node's release leaves a table alone.
    two.release(&db, &code("BBBB")).await.unwrap();
    assert!(lease::holder(&db, &code("AAAA")).await.unwrap().is_none());
    assert!(lease::holder(&db, &code("BBBB")).await.unwrap().is_some());
    assert!(two.reserve(&db, &code("AAAA")).await.unwrap());
    assert_eq!(one.renew(&db).await.unwrap().len(), 2);
    two.renew(&db).await.unwrap();
    assert_eq!(
        lease::live_nodes(&db, Duration::from_secs(10))
            .await
            .unwrap(),
        vec!["one".to_string(), "two".to_string()]
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    two.renew(&db).await.unwrap();
    assert_eq!(
        lease::silent_nodes(&db, Duration::from_millis(200))
            .await
            .unwrap(),
        vec!["one".to_string()]
    );
}

#[tokio::test]
async fn messages_reach_their_node_only_in_order() {
    let config = database().await;
    let db = connect(&config).await;
    // Sent before anyone listens: they wait.
    bus::send(&db, &node("b"), "early").await.unwrap();
    let mut inbox_b = NodeInbox::listen(config.clone(), node("b")).await.unwrap();
    let mut inbox_c = NodeInbox::listen(config.clone(), node("c")).await.unwrap();
    for i in 0..300 {
        bus::send(&db, &node("b"), &format!("to b {i}"))
            .await
            .unwrap();
    }
    bus::send(&db, &node("c"), "to c").await.unwrap();
    assert_eq!(next(&mut inbox_b).await, "early");
    for i in 0..300 {
        assert_eq!(next(&mut inbox_b).await, format!("to b {i}"));
    }
    assert_eq!(next(&mut inbox_c).await, "to c");
    assert!(
        tokio::time::timeout(Duration::from_millis(300), inbox_c.next())
            .await
            .is_err()
    );

    let huge = "x".repeat(MAX_MESSAGE + 1);
    assert!(matches!(
        bus::send(&db, &node("b"), &huge).await,
        Err(NodesError::TooLarge { .. })
    ));
    let largest = "y".repeat(MAX_MESSAGE);
    bus::send(&db, &node("b"), &largest).await.unwrap();
    assert_eq!(next(&mut inbox_b).await.len(), MAX_MESSAGE);
}

#[tokio::test]
async fn the_inbox_connects_again_and_stale_messages_are_dropped() {
    let config = database().await;
    let db = connect(&config).await;
    let mut listening = config.clone();
    listening.application_name("crowned-test-inbox");
    let mut inbox = NodeInbox::listen(listening, node("b")).await.unwrap();
    let cut = db
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = 'crowned-test-inbox'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(cut.len(), 1);
    bus::send(&db, &node("b"), "after the cut").await.unwrap();
    let message = tokio::time::timeout(Duration::from_secs(15), inbox.next())
        .await
        .expect("a message in time")
        .expect("the inbox runs");
    assert_eq!(message.body, "after the cut");

    bus::send(&db, &node("gone"), "never read").await.unwrap();
    assert_eq!(
        bus::purge_stale(&db, Duration::from_secs(60))
            .await
            .unwrap(),
        0
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        bus::purge_stale(&db, Duration::from_millis(100))
            .await
            .unwrap(),
        1
    );
}
