//! A table whose records cannot be written for a while: a move (or a resignation) is refused with a word and the
//! game stays as the records hold it, everyone at the table is told, and play resumes by itself once the disk
//! takes writes again.

use super::*;
use crate::serve::recorder::{Job, Recorder};
use crate::serve::records::{GameRecords as _, SqliteRecords};
use crate::serve::tables::Tables;

/// A recorder writing SQLite records in a fresh folder of its own (`r.sqlite` in it), named for the test.
fn recorder_in(name: &str) -> (std::path::PathBuf, Recorder) {
    let dir = std::env::temp_dir().join(format!("crowned-table-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let records = SqliteRecords::open(&dir.join("r.sqlite")).expect("opens");
    (dir, Recorder::start(records, None).expect("starts"))
}

#[tokio::test]
async fn a_failing_disk_refuses_moves_with_a_word_and_play_resumes_once_it_mends() {
    let (dir, recorder) = recorder_in("unsaved");
    let tables = Arc::new(Tables::new(Some(recorder.clone())));
    let (_code, table) = tables.open(config(None, 60_000), None).expect("a table");
    let (mut ann, ann_tx) = Person::new("ann");
    let (mut bob, bob_tx) = Person::new("bob");
    let (mut cy, cy_tx) = Person::new("cy");
    recorder.send(Job::Seen(ann.who.clone()));
    recorder.send(Job::Seen(bob.who.clone()));
    sit(&table, &ann, ann_tx, Some(Color::Black)).await;
    sit(&table, &bob, bob_tx, None).await;
    table
        .send(Command::Watch {
            who: cy.who.clone(),
            updates: cy_tx,
        })
        .await;
    let state = ann.state_until(|s| s.seats[1].is_some()).await;
    assert!(!state.unrecorded);
    play(&table, &ann, &state, "11-15").await;
    let state = bob.state_until(|s| s.game.len() == 1).await;
    // The disk stops taking writes: Bob's move is not played, and he is told why.
    recorder.send(Job::Tamper(|records| records.refuse_writes(true)));
    play(&table, &bob, &state, "23-19").await;
    let why = bob.refused().await;
    assert!(
        why.contains("cannot save moves right now") && why.contains("your move was not played"),
        "{why}"
    );
    // Everyone at the table hears that the records are not written, with the game as they hold it.
    for person in [&mut ann, &mut bob, &mut cy] {
        let state = person.state_until(|s| s.unrecorded).await;
        assert_eq!(state.game.len(), 1);
    }
    // A resignation is refused too: a game that did not end in the records does not end on a screen.
    table.ask(&ann.id(), TableRequest::Resign).await;
    assert!(ann.refused().await.contains("cannot save"));
    // The disk mends: the same move is played now, and the table hears the records are written again.
    recorder.send(Job::Tamper(|records| records.refuse_writes(false)));
    play(&table, &bob, &state, "23-19").await;
    for person in [&mut ann, &mut bob, &mut cy] {
        person
            .state_until(|s| !s.unrecorded && s.game.len() == 2)
            .await;
    }
    let flushing = recorder.clone();
    tokio::task::spawn_blocking(move || flushing.flush())
        .await
        .expect("flushed");
    let mut records = SqliteRecords::open(&dir.join("r.sqlite")).expect("opens");
    let unfinished = records.unfinished_games().expect("read");
    assert_eq!(unfinished.len(), 1, "the game is not over in the records");
    assert_eq!(unfinished[0].moves, ["11-15", "23-19"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_new_game_opens_on_a_full_disk_and_its_first_move_says_why_it_is_not_played() {
    let (dir, recorder) = recorder_in("full");
    recorder.send(Job::Tamper(|records| records.refuse_writes(true)));
    let tables = Arc::new(Tables::new(Some(recorder.clone())));
    let (_code, table) = tables.open(config(None, 60_000), None).expect("a table");
    let (mut ann, ann_tx) = Person::new("ann");
    let (bob, bob_tx) = Person::new("bob");
    assert_eq!(
        sit(&table, &ann, ann_tx, Some(Color::Black)).await,
        Color::Black
    );
    assert_eq!(sit(&table, &bob, bob_tx, None).await, Color::White);
    let state = ann.state_until(|s| s.seats[1].is_some()).await;
    play(&table, &ann, &state, "11-15").await;
    let why = ann.refused().await;
    assert!(why.contains("cannot save moves right now"), "{why}");
    let state = ann.state_until(|s| s.unrecorded).await;
    assert!(state.game.is_empty(), "the move is not shown");
    // The disk has room again: the game starts in the records with its first move.
    recorder.send(Job::Tamper(|records| records.refuse_writes(false)));
    play(&table, &ann, &state, "11-15").await;
    ann.state_until(|s| !s.unrecorded && s.game.len() == 1)
        .await;
    let flushing = recorder.clone();
    tokio::task::spawn_blocking(move || flushing.flush())
        .await
        .expect("flushed");
    let mut records = SqliteRecords::open(&dir.join("r.sqlite")).expect("opens");
    let unfinished = records.unfinished_games().expect("read");
    assert_eq!(unfinished.len(), 1, "started once");
    assert_eq!(unfinished[0].moves, ["11-15"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(start_paused = true)]
async fn a_move_the_records_are_slow_to_take_waits_unseen_and_its_player_hears_why() {
    let (recorder, jobs) = Recorder::by_hand();
    let links = Links {
        code: "SL0W".into(),
        recorder: Some(recorder),
        ..Links::default()
    };
    let table = open_table(config(None, 60_000), links);
    let (mut ann, ann_tx) = Person::new("ann");
    let (mut bob, bob_tx) = Person::new("bob");
    // Every commit is answered as written, but the first move's only after a while.
    let answer_all = |jobs: &std::sync::mpsc::Receiver<Job>| {
        let mut held = Vec::new();
        while let Ok(job) = jobs.try_recv() {
            if let Job::Commit(commit) = job {
                held.push(commit);
            }
        }
        held
    };
    sit(&table, &ann, ann_tx, Some(Color::Black)).await;
    let (reply, answer) = oneshot::channel();
    table
        .send(Command::Sit {
            who: bob.who.clone(),
            color: None,
            rating: None,
            provisional: false,
            returning: false,
            updates: bob_tx,
            reply,
        })
        .await;
    // The game's start waits for its commit.
    let mut started = Vec::new();
    while started.is_empty() {
        tokio::task::yield_now().await;
        started = answer_all(&jobs);
    }
    started.into_iter().for_each(|c| c.answer(Ok(())));
    answer.await.expect("answered").expect("seated");
    let state = ann.state_until(|s| s.seats[1].is_some()).await;
    play(&table, &ann, &state, "11-15").await;
    tokio::time::sleep(Duration::from_secs(4)).await;
    let why = ann.refused().await;
    assert!(why.contains("slow to save"), "{why}");
    // Bob has not seen the move.
    while let Ok(update) = bob.updates.try_recv() {
        if let Update::State(state) = update {
            assert!(state.game.is_empty(), "shown before it is written");
        }
    }
    answer_all(&jobs).into_iter().for_each(|c| c.answer(Ok(())));
    bob.state_until(|s| s.game.len() == 1).await;
}
