//! Two nodes' lists of tables on one database: codes, summaries, lookups, a node's death and a table lost.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use super::{database, node};
use crate::rules::{GameType, Variant};
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::nodes::TablesHere;
use crate::serve::nodes::cluster::{Cluster, Found, listing_from_summary, summary_text};
use crate::serve::table::TableConfig;
use crate::serve::tables::Tables;

async fn node_with_tables(
    config: &tokio_postgres::Config,
    name: &str,
    term: Duration,
) -> (Arc<Tables>, Arc<Cluster>) {
    let tables = Arc::new(Tables::new(None));
    let weak = Arc::downgrade(&tables);
    let tables_here: TablesHere =
        Arc::new(move |code: &TableCode| weak.upgrade()?.find(code).map(|(handle, _)| handle));
    let cluster = Cluster::start(config.clone(), node(name), term, None, tables_here)
        .await
        .expect("a node");
    tables.join_cluster(Arc::clone(&cluster));
    (tables, cluster)
}

fn table_config(variant: Variant) -> TableConfig {
    TableConfig {
        game_type: GameType::standard(variant),
        clock: Some("3+2".parse().expect("a clock")),
        grace: Duration::from_secs(90),
        rated: true,
        private: false,
    }
}

#[tokio::test]
async fn tables_are_listed_and_found_on_every_node_and_taken_over_when_their_node_dies() {
    let config = database().await;
    let (tables_one, one) = node_with_tables(&config, "one", Duration::from_millis(800)).await;
    let (tables_two, two) = node_with_tables(&config, "two", Duration::from_secs(30)).await;
    // Before its first heartbeat a node has no codes reserved, and opens nothing.
    assert!(
        tables_one
            .open(table_config(Variant::Russian), None)
            .is_none()
    );
    one.beat(&tables_one.codes(), &[]).await.unwrap();
    let (code, _table) = tables_one
        .open(table_config(Variant::Russian), None)
        .expect("a table with a reserved code");
    one.beat(&tables_one.codes(), &[]).await.unwrap();
    two.beat(&tables_two.codes(), &[]).await.unwrap();

    let listed = tables_two.listings();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].code, code);
    assert_eq!(listed[0].config, table_config(Variant::Russian));
    assert!(matches!(
        two.find(&code).await.unwrap(),
        Some(Found::Elsewhere(_, _))
    ));
    assert!(two.find(&TableCode::new("ZZZZ")).await.unwrap().is_none());
    // Node two's own codes are its own: none of them is node one's.
    let mine = two.take_code(|_| false).expect("a code reserved");
    assert_ne!(mine, code);

    // Node one stops beating: its leases lapse, its table is listed nowhere, and node two may take it over.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let beat = two.beat(&tables_two.codes(), &[]).await.unwrap();
    assert!(beat.lapsed.contains(&code), "{beat:?}");
    assert!(tables_two.listings().is_empty());
    assert!(matches!(
        two.find(&code).await.unwrap(),
        Some(Found::Lapsed)
    ));
    assert!(two.claim(&code).await.unwrap());
    // Node one wakes up: the table is no longer its own.
    let beat = one.beat(&tables_one.codes(), &[]).await.unwrap();
    assert_eq!(beat.lost, vec![code.clone()]);
}

#[test]
fn summaries_read_back_and_bad_ones_are_refused() {
    let listing = crate::serve::table::Listing {
        code: TableCode::new("K7QX"),
        config: table_config(Variant::Frisian),
        seats: [Some(("SHA256:ann".into(), "ann".into())), None],
        plies: 7,
        over: false,
        watchers: 3,
        board: true,
    };
    let text = summary_text(&listing);
    assert_eq!(
        listing_from_summary(&listing.code, &text),
        Some(listing.clone())
    );
    // A node of the version before writes no board: its tables read as casual tables.
    let older = text.replace(",\"board\":true", "");
    assert_ne!(older, text);
    let read = listing_from_summary(&listing.code, &older).expect("it reads");
    assert!(!read.board);
    for bad in [
        "",
        "{}",
        "[]",
        "{\"variant\":\"chess\"}",
        &text.replace("frisian", "chess"),
        &text.replace("3+2", "3+"),
    ] {
        assert_eq!(listing_from_summary(&listing.code, bad), None, "{bad}");
    }
}

#[tokio::test]
async fn a_move_waits_for_the_heartbeat_to_be_shared_and_a_seat_does_not() {
    let config = database().await;
    let (tables, one) = node_with_tables(&config, "one", Duration::from_secs(30)).await;
    one.beat(&tables.codes(), &[]).await.unwrap();
    let code = one.take_code(|_| false).expect("a code reserved");
    let mut listing = crate::serve::table::Listing {
        code: code.clone(),
        config: table_config(Variant::Russian),
        seats: [Some(("SHA256:ann".into(), "ann".into())), None],
        plies: 0,
        over: false,
        watchers: 0,
        board: false,
    };
    let told = |cluster: Arc<Cluster>| async move {
        tokio::time::timeout(Duration::from_millis(200), cluster.changed())
            .await
            .is_ok()
    };
    // A new table is shared at once.
    one.publish(&listing);
    assert!(told(Arc::clone(&one)).await);
    one.flush().await.unwrap();
    // Moves and watchers wait for the heartbeat.
    listing.plies = 3;
    listing.watchers = 2;
    one.publish(&listing);
    assert!(
        !told(Arc::clone(&one)).await,
        "a move's summary written at once"
    );
    let db = super::connect(&config).await;
    assert_eq!(shared_summary(&db, &code).await.plies, 0);
    one.beat(&tables.codes(), &[]).await.unwrap();
    assert_eq!(shared_summary(&db, &code).await.plies, 3);
    // A seat taken is shared at once: another node's player may want to sit in it.
    listing.seats[1] = Some(("SHA256:bob".into(), "bob".into()));
    one.publish(&listing);
    assert!(told(Arc::clone(&one)).await);
}

/// The summary of the table `code` as the other nodes read it.
async fn shared_summary(
    db: &tokio_postgres::Client,
    code: &TableCode,
) -> crate::serve::table::Listing {
    let holder = crate::serve::nodes::lease::holder(db, code)
        .await
        .unwrap()
        .expect("held");
    listing_from_summary(code, &holder.listing.expect("listed")).expect("a summary")
}

#[tokio::test]
async fn a_table_that_ended_keeps_its_lease_until_it_is_given_up() {
    let config = database().await;
    let (tables, one) = node_with_tables(&config, "one", Duration::from_secs(30)).await;
    one.beat(&tables.codes(), &[]).await.unwrap();
    let code = one.take_code(|_| false).expect("a code reserved");
    let listing = crate::serve::table::Listing {
        code: code.clone(),
        config: table_config(Variant::Russian),
        seats: [Some(("SHA256:ann".into(), "ann".into())), None],
        plies: 0,
        over: true,
        watchers: 0,
        board: false,
    };
    one.publish(&listing);
    one.flush().await.unwrap();
    one.ended(&code);
    // The records may not have the game yet: the lease stays (and is renewed with the others).
    one.beat(&tables.codes(), &[]).await.unwrap();
    let db = super::connect(&config).await;
    let holder = crate::serve::nodes::lease::holder(&db, &code)
        .await
        .unwrap()
        .expect("still held");
    assert_eq!((holder.node.as_str(), holder.live), ("one", true));
    assert_eq!(one.ending(), std::slice::from_ref(&code));
    one.release_ended(&one.ending()).await.unwrap();
    assert!(one.ending().is_empty());
    assert!(
        crate::serve::nodes::lease::holder(&db, &code)
            .await
            .unwrap()
            .is_none()
    );
}

/// Who sits at a table through `table`, with their news.
async fn sit_through(
    table: &crate::serve::table::TableHandle,
    name: &str,
) -> (
    crate::serve::identity::Identity,
    tokio::sync::mpsc::Receiver<crate::app::TableNews>,
) {
    let who = crate::serve::identity::Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    };
    let (updates, news) = tokio::sync::mpsc::channel(crate::serve::table::UPDATES_QUEUE);
    let (reply, answer) = tokio::sync::oneshot::channel();
    assert!(
        table
            .send(crate::serve::table::Command::Sit {
                who: who.clone(),
                color: None,
                rating: None,
                provisional: false,
                returning: false,
                updates,
                reply,
            })
            .await
    );
    answer.await.expect("an answer").expect("a seat");
    (who, news)
}

/// The next news `pick` takes, skipping others.
async fn next_news<T>(
    news: &mut tokio::sync::mpsc::Receiver<crate::app::TableNews>,
    pick: impl Fn(crate::app::TableNews) -> Option<T>,
) -> T {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let event = tokio::time::timeout_at(deadline, news.recv())
            .await
            .expect("news in time")
            .expect("the table is there");
        if let Some(found) = pick(event) {
            return found;
        }
    }
}

#[tokio::test]
async fn people_at_a_table_whose_node_stops_answering_are_told_and_their_moves_refused_until_it_answers()
 {
    use crate::app::{NODE_SILENT, TableNews, TableRequest};
    let config = database().await;
    let term = Duration::from_secs(30);
    let (tables_one, one) = node_with_tables(&config, "one", term).await;
    let (tables_two, two) = node_with_tables(&config, "two", term).await;
    one.beat(&tables_one.codes(), &[]).await.unwrap();
    let mut casual = table_config(Variant::English);
    casual.clock = None;
    casual.rated = false;
    let (code, _table) = tables_one.open(casual, None).expect("a table");
    one.beat(&tables_one.codes(), &[]).await.unwrap();
    two.beat(&tables_two.codes(), &[]).await.unwrap();
    let Some(Found::Elsewhere(there, _)) = two.find(&code).await.unwrap() else {
        panic!("node two finds the table on node one");
    };
    let (ann, mut ann_news) = sit_through(&there, "ann").await;
    let (_bob, _bob_news) = sit_through(&there, "bob").await;
    let state = next_news(&mut ann_news, |e| match e {
        TableNews::State(s) if s.seats.iter().all(Option::is_some) => Some(s),
        _ => None,
    })
    .await;
    assert!(!state.node_silent);

    // Node one stops answering (its heartbeat is an hour old): at node two's next beat, ann is told.
    let db = super::connect(&config).await;
    db.execute(
        "UPDATE nodes SET seen = now() - interval '1 hour' WHERE name = 'one'",
        &[],
    )
    .await
    .unwrap();
    two.beat(&tables_two.codes(), &[]).await.unwrap();
    let paused = next_news(&mut ann_news, |e| match e {
        TableNews::State(s) if s.node_silent => Some(s),
        _ => None,
    })
    .await;
    assert_eq!(paused.game.len(), 0);
    // Her move is refused where she is, with the reason, rather than sent to a node that does not answer.
    let mv = paused.game.position().legal_moves()[0];
    assert!(there.ask(&ann.fingerprint, TableRequest::Play(mv)).await);
    let refused = next_news(&mut ann_news, |e| match e {
        TableNews::MoveRefused(why) => Some(why),
        _ => None,
    })
    .await;
    assert_eq!(refused, NODE_SILENT);

    // Node one answers again: ann is told, and her move goes through.
    one.beat(&tables_one.codes(), &[]).await.unwrap();
    two.beat(&tables_two.codes(), &[]).await.unwrap();
    let back = next_news(&mut ann_news, |e| match e {
        TableNews::State(s) if !s.node_silent => Some(s),
        _ => None,
    })
    .await;
    assert_eq!(back.game.len(), 0);
    assert!(there.ask(&ann.fingerprint, TableRequest::Play(mv)).await);
    let played = next_news(&mut ann_news, |e| match e {
        TableNews::State(s) if s.game.len() == 1 => Some(s),
        _ => None,
    })
    .await;
    assert!(!played.node_silent);
}

#[tokio::test]
async fn a_node_whose_sessions_are_gone_does_not_answer_before_its_heartbeat_is_missed() {
    let config = database().await;
    let (_tables, one) = node_with_tables(&config, "one", Duration::from_secs(30)).await;
    let db = super::connect(&config).await;
    // "ghost" beat two seconds ago and has no session left: a process killed; node one beat just now.
    db.execute(
        "INSERT INTO nodes (name, seen) VALUES ('ghost', now() - interval '2 seconds')",
        &[],
    )
    .await
    .unwrap();
    let names = vec!["ghost".to_string(), "one".to_string()];
    let term = Duration::from_secs(30);
    assert_eq!(
        crate::serve::nodes::lease::unanswering(&db, &names, term / 2)
            .await
            .unwrap(),
        vec!["ghost".to_string()]
    );
    // Node one, silent for two seconds too but with its sessions open, answers (a pause shorter than its
    // heartbeat's margin).
    db.execute(
        "UPDATE nodes SET seen = now() - interval '2 seconds' WHERE name = 'one'",
        &[],
    )
    .await
    .unwrap();
    assert_eq!(
        crate::serve::nodes::lease::unanswering(&db, &names, term / 2)
            .await
            .unwrap(),
        vec!["ghost".to_string()]
    );
    drop(one);
}

#[tokio::test]
async fn a_player_at_an_event_s_board_on_another_node_is_busy_here_and_one_at_a_casual_table_is_not()
 {
    let config = database().await;
    let (tables_one, one) = node_with_tables(&config, "one", Duration::from_secs(30)).await;
    let (tables_two, two) = node_with_tables(&config, "two", Duration::from_secs(30)).await;
    one.beat(&tables_one.codes(), &[]).await.unwrap();
    let seated =
        |ann: &str, bob: &str, code: TableCode, board: bool| crate::serve::table::Listing {
            code,
            config: table_config(Variant::Russian),
            seats: [
                Some((format!("SHA256:{ann}").into(), ann.into())),
                Some((format!("SHA256:{bob}").into(), bob.into())),
            ],
            plies: 4,
            over: false,
            watchers: 0,
            board,
        };
    let board = seated(
        "ann",
        "bob",
        one.take_code(|_| false).expect("a code"),
        true,
    );
    let casual = seated(
        "cy",
        "dee",
        one.take_code(|_| false).expect("a code"),
        false,
    );
    one.publish(&board);
    one.publish(&casual);
    one.flush().await.unwrap();
    two.beat(&tables_two.codes(), &[]).await.unwrap();
    let busy = tables_two.busy_players();
    let names = |names: &[&str]| -> HashSet<Fingerprint> {
        names.iter().map(|n| format!("SHA256:{n}").into()).collect()
    };
    assert_eq!(busy, names(&["ann", "bob"]));
    // Once the board's game is over, its players are free for the next pairing.
    one.publish(&crate::serve::table::Listing {
        over: true,
        ..board
    });
    one.flush().await.unwrap();
    two.beat(&tables_two.codes(), &[]).await.unwrap();
    assert!(tables_two.busy_players().is_empty());
}

#[tokio::test]
async fn a_node_that_has_not_renewed_within_its_term_asks_the_leases_whose_a_table_is() {
    let config = database().await;
    let term = Duration::from_millis(600);
    let (tables_one, one) = node_with_tables(&config, "one", term).await;
    let (_tables_two, two) = node_with_tables(&config, "two", term).await;
    // Never renewed: nothing is sure.
    assert!(!one.leases_sure());
    one.beat(&tables_one.codes(), &[]).await.unwrap();
    assert!(one.leases_sure());
    let (code, _table) = tables_one
        .open(table_config(Variant::English), None)
        .expect("a table with a reserved code");
    assert!(one.holds(&code).await.unwrap());
    assert!(!two.holds(&code).await.unwrap());
    // One goes silent past its term (as a stalled node does): its leases are no longer sure, and once another
    // node has taken the table over, the leases say so.
    tokio::time::sleep(term + Duration::from_millis(100)).await;
    assert!(!one.leases_sure());
    assert!(two.claim(&code).await.unwrap());
    assert!(!one.holds(&code).await.unwrap());
    assert!(two.holds(&code).await.unwrap());
}
