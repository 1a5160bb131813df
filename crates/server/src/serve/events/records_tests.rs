//! Events on real records: one whose records cannot be written for a while shows nothing before it is saved
//! (commit, then show, as in a table), and what waited is saved and shown, in order, once the disk mends; players'
//! events are held to their caps while the operator's always have a place.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use super::caps::{CapReached, Creator, EventCaps};
use super::{CreateError, EventRequest, Events, View};
use crate::serve::identity::Identity;
use crate::serve::recorder::{CommitError, Job, Recorder};
use crate::serve::records::events::test_arena;
use crate::serve::records::{EventRecords as _, EventSpec, SqliteRecords};
use crate::serve::tables::Tables;

/// An arena an hour from now: it waits, and takes entrants.
fn spec() -> EventSpec {
    test_arena("T1", super::unix_now() + 3600)
}

/// The first view of the event for which `want` holds; fails after five seconds.
async fn view_until(
    view: &mut watch::Receiver<Arc<View>>,
    want: impl Fn(&View) -> bool,
) -> Arc<View> {
    let waited = tokio::time::timeout(Duration::from_secs(5), view.wait_for(|v| want(v)))
        .await
        .expect("the view in time")
        .expect("the event runs");
    waited.clone()
}

#[tokio::test]
async fn an_event_shows_nothing_the_records_have_not_taken_and_catches_up_once_they_do() {
    let dir = std::env::temp_dir().join(format!("crowned-event-unsaved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("r.sqlite");
    let recorder =
        Recorder::start(SqliteRecords::open(&path).expect("opens"), None).expect("starts");
    let tables = Arc::new(Tables::new(Some(recorder.clone())));
    let (_stop, shutdown) = watch::channel(false);
    let events = Events::new(
        &tables,
        recorder.clone(),
        Duration::from_secs(60),
        super::caps::EventCaps {
            per_key: 5,
            per_address: 10,
            at_once: 100,
        },
        shutdown,
        HashSet::new(),
    );
    let ann = Identity {
        fingerprint: "SHA256:ann".into(),
        name: "ann".to_string(),
    };
    let bob = Identity {
        fingerprint: "SHA256:bob".into(),
        name: "bob".to_string(),
    };
    recorder.send(Job::Seen(ann.clone()));
    recorder.send(Job::Seen(bob.clone()));

    // The disk takes nothing: no event is created, and the creator is told why.
    recorder.send(Job::Tamper(|records| records.refuse_writes(true)));
    let refused = events.create(spec(), None).await;
    assert_eq!(refused, Err(CreateError::NotSaved(CommitError::Unwritable)));
    assert!(events.views().is_empty());

    // It mends: the event is created, and is in the records when anyone sees it.
    recorder.send(Job::Tamper(|records| records.refuse_writes(false)));
    let code = events.create(spec(), None).await.expect("created");
    let handle = events.find(&code).expect("it runs here");
    let mut view = handle.view();

    // The disk fails again while Ann, then Bob, enter: neither is shown among the entrants, whose table would
    // then hold someone the records do not.
    recorder.send(Job::Tamper(|records| records.refuse_writes(true)));
    let mut boards = Vec::new();
    for who in [&ann, &bob] {
        let (news, board) = mpsc::channel(4);
        boards.push(board);
        let (taken_in, entered) = oneshot::channel();
        let enter = EventRequest::Enter {
            who: who.clone(),
            news,
            taken_in,
        };
        assert!(handle.send(enter).await);
        entered.await.expect("answered");
    }
    // Several ticks try again, and fail: the steps keep their order.
    tokio::time::sleep(Duration::from_millis(1700)).await;
    assert_eq!(
        view.borrow().entrants,
        0,
        "an entrant shown before the records hold them"
    );

    // The disk mends: their entries, in order, are written at the next tick and shown.
    recorder.send(Job::Tamper(|records| records.refuse_writes(false)));
    let shown = view_until(&mut view, |v| v.entrants == 2).await;
    assert!(
        shown.text.contains("ann") && shown.text.contains("bob"),
        "{}",
        shown.text
    );
    let mut records = SqliteRecords::open(&path).expect("opens again");
    let kept = records.event(&code).expect("reads").expect("the event");
    let entered: Vec<&str> = kept.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(entered, ["ann", "bob"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn players_events_are_capped_and_the_operator_s_always_have_a_place() {
    let dir = std::env::temp_dir().join(format!("crowned-event-caps-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let recorder = Recorder::start(
        SqliteRecords::open(&dir.join("r.sqlite")).expect("opens"),
        None,
    )
    .expect("starts");
    let tables = Arc::new(Tables::new(Some(recorder.clone())));
    let (_stop, shutdown) = watch::channel(false);
    let caps = EventCaps {
        per_key: 5,
        per_address: 10,
        at_once: 2,
    };
    let events = Events::new(
        &tables,
        recorder.clone(),
        Duration::from_secs(60),
        caps,
        shutdown,
        HashSet::new(),
    );
    let creator = |key: &str| Creator {
        key: key.into(),
        address: Some(std::net::IpAddr::from([192, 0, 2, 1])),
    };
    for key in ["SHA256:ann", "SHA256:bob"] {
        let code = events.create(spec(), Some(&creator(key))).await;
        assert!(code.is_ok(), "{code:?}");
    }
    // Players' events fill the server: a third player is told so.
    let refused = events.create(spec(), Some(&creator("SHA256:cid"))).await;
    assert_eq!(refused, Err(CreateError::Cap(CapReached::AtOnce(2))));
    // The operator's scheduled events are not held back, however many players' events there are.
    for _ in 0..3 {
        let code = events.create(spec(), None).await;
        assert!(code.is_ok(), "{code:?}");
    }
    let views = events.views();
    assert_eq!(views.len(), 5);
    // A player's event is theirs in the records' eyes too, whatever the words said.
    let theirs = views
        .iter()
        .filter(|v| v.spec.created_by.as_ref().map(|k| k.as_str()) == Some("SHA256:ann"))
        .count();
    assert_eq!(theirs, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_key_s_daily_cap_holds_across_nodes_on_the_same_records() {
    let dir = std::env::temp_dir().join(format!("crowned-event-caps-nodes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("r.sqlite");
    let recorder =
        Recorder::start(SqliteRecords::open(&path).expect("opens"), None).expect("starts");
    let caps = EventCaps {
        per_key: 2,
        per_address: 10,
        at_once: 100,
    };
    // Two nodes on the one set of records: each its own tables and its own log of tries.
    let (_stop, shutdown) = watch::channel(false);
    let node = |tables: &Arc<Tables>| {
        let events = Events::new(
            tables,
            recorder.clone(),
            Duration::from_secs(60),
            caps,
            shutdown.clone(),
            HashSet::new(),
        );
        let reader: Arc<std::sync::Mutex<dyn crate::serve::records::Records>> = Arc::new(
            std::sync::Mutex::new(SqliteRecords::open(&path).expect("opens")),
        );
        events.read_from(reader);
        events
    };
    let (one_tables, two_tables) = (
        Arc::new(Tables::new(Some(recorder.clone()))),
        Arc::new(Tables::new(Some(recorder.clone()))),
    );
    let (one, two) = (node(&one_tables), node(&two_tables));
    let ann = Creator {
        key: "SHA256:ann".into(),
        address: Some(std::net::IpAddr::from([192, 0, 2, 1])),
    };
    recorder.send(Job::Seen(Identity {
        fingerprint: "SHA256:ann".into(),
        name: "ann".to_string(),
    }));
    // Two on the first node, then the second node knows of them.
    for _ in 0..2 {
        let code = one.create(spec(), Some(&ann)).await;
        assert!(code.is_ok(), "{code:?}");
    }
    let refused = two.create(spec(), Some(&ann)).await;
    assert_eq!(refused, Err(CreateError::Cap(CapReached::Key(2))));
    let _ = std::fs::remove_dir_all(&dir);
}
