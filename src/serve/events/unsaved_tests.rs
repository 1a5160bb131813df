//! An event whose records cannot be written for a while: nothing of it is shown before it is saved (commit,
//! then show, as in a room), and what waited is saved and shown, in order, once the disk mends.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use super::{Ask, CreateError, Events, View};
use crate::serve::identity::Identity;
use crate::serve::recorder::{CommitError, Job, Recorder};
use crate::serve::records::tournaments::test_arena;
use crate::serve::records::{Records as _, SqliteRecords, TournamentSpec};
use crate::serve::tables::Tables;

/// An arena an hour from now: it waits, and takes entrants.
fn spec() -> TournamentSpec {
    test_arena("T1", super::task::unix_now() + 3600)
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
    let refused = events.create(spec()).await;
    assert_eq!(refused, Err(CreateError::NotSaved(CommitError::Unwritable)));
    assert!(events.views().is_empty());

    // It mends: the event is created, and is in the records when anyone sees it.
    recorder.send(Job::Tamper(|records| records.refuse_writes(false)));
    let code = events.create(spec()).await.expect("created");
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
        let enter = Ask::Enter {
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
    let kept = records
        .tournament(&code)
        .expect("reads")
        .expect("the event");
    let entered: Vec<&str> = kept.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(entered, ["ann", "bob"]);
    let _ = std::fs::remove_dir_all(&dir);
}
