//! A room whose records cannot be written for a while: everyone at the table is told, and every move is
//! written once the disk takes it again.

use super::*;
use crate::serve::recorder::{Job, Recorder};
use crate::serve::records::{Records as _, SqliteRecords};
use crate::serve::tables::Tables;

#[tokio::test]
async fn a_failing_disk_is_told_at_the_table_and_the_moves_are_written_once_it_mends() {
    let dir = std::env::temp_dir().join(format!("crowned-room-unsaved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let recorder = Recorder::start(
        SqliteRecords::open(&dir.join("r.sqlite")).expect("opens"),
        None,
    )
    .expect("starts");
    let tables = Arc::new(Tables::new(Some(recorder.clone())));
    let (_code, room) = tables.open(config(None, 60_000), None).expect("a room");
    let (mut ann, ann_tx) = Person::new("ann");
    let (mut bob, bob_tx) = Person::new("bob");
    let (mut cy, cy_tx) = Person::new("cy");
    recorder.send(Job::Seen(ann.who.clone()));
    recorder.send(Job::Seen(bob.who.clone()));
    sit(&room, &ann, ann_tx, Some(Color::Black)).await;
    sit(&room, &bob, bob_tx, None).await;
    room.send(Command::Watch {
        who: cy.who.clone(),
        updates: cy_tx,
    })
    .await;
    let state = ann.state_until(|s| s.seats[1].is_some()).await;
    assert!(!state.unrecorded);
    play(&room, &ann, &state, "11-15").await;
    // The disk stops taking writes.
    recorder.send(Job::Tamper(|records| records.refuse_writes(true)));
    let state = bob.state_until(|s| s.game.len() == 1).await;
    play(&room, &bob, &state, "23-19").await;
    // Everyone at the table hears of it, players and watcher.
    for person in [&mut bob, &mut cy] {
        person
            .state_until(|s| s.unrecorded && s.game.len() == 2)
            .await;
    }
    let state = ann.state_until(|s| s.unrecorded && s.game.len() == 2).await;
    play(&room, &ann, &state, "8-11").await;
    // The disk mends: the table hears that too, and every move is in the records, in order, once.
    recorder.send(Job::Tamper(|records| records.refuse_writes(false)));
    for person in [&mut ann, &mut bob, &mut cy] {
        person
            .state_until(|s| !s.unrecorded && s.game.len() == 3)
            .await;
    }
    let flushing = recorder.clone();
    tokio::task::spawn_blocking(move || flushing.flush())
        .await
        .expect("flushed");
    let mut records = SqliteRecords::open(&dir.join("r.sqlite")).expect("opens");
    let unfinished = records.unfinished_games().expect("read");
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].moves, ["11-15", "23-19", "8-11"]);
    let _ = std::fs::remove_dir_all(&dir);
}
