//! The table's rules, driven by commands as players' connections would send them.

use std::sync::Arc;

use super::*;
#[allow(unused_imports)]
pub(super) use crate::app::{OfferKind, TableNews, TableState};
#[allow(unused_imports)]
pub(super) use crate::game::{AnyGame, TimeControl};
#[allow(unused_imports)]
pub(super) use crate::rules::GameType;

mod by_hand;
mod event;
mod interleavings;
mod nodes;
mod offers;
mod recorded;
mod rematch;
mod unsaved;
mod witness;
use crate::game::{Outcome, WinReason};
use crate::rules::{Move, Strictness, Variant};
use crate::serve::records::GameRecords as _;

struct Person {
    who: Identity,
    updates: mpsc::Receiver<Update>,
    /// Which connection this is, for leaving.
    line: WeakUpdates,
}

impl Person {
    fn new(name: &str) -> (Person, Updates) {
        let (tx, rx) = mpsc::channel(UPDATES_QUEUE);
        let who = Identity {
            fingerprint: format!("SHA256:{name}").into(),
            name: name.to_string(),
        };
        let line = tx.downgrade();
        (
            Person {
                who,
                updates: rx,
                line,
            },
            tx,
        )
    }

    fn id(&self) -> Fingerprint {
        self.who.fingerprint.clone()
    }

    /// This connection goes.
    fn leave(&self) -> Command {
        Command::Leave {
            who: self.id(),
            line: self.line.clone(),
        }
    }

    /// The next update that `pick` takes, skipping others; fails after two seconds.
    async fn next<T>(&mut self, pick: impl Fn(Update) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let update = tokio::time::timeout_at(deadline, self.updates.recv())
                .await
                .expect("an update in time")
                .expect("the table is there");
            if let Some(found) = pick(update) {
                return found;
            }
        }
    }

    async fn state(&mut self) -> Arc<Snapshot> {
        self.next(|u| match u {
            Update::State(s) => Some(s),
            _ => None,
        })
        .await
    }

    /// The first state for which `want` holds (earlier states, sent before the change waited for, skipped).
    async fn state_until(&mut self, want: impl Fn(&Snapshot) -> bool) -> Arc<Snapshot> {
        loop {
            let state = self.state().await;
            if want(&state) {
                return state;
            }
        }
    }

    async fn offered(&mut self) -> OfferKind {
        self.next(|u| match u {
            Update::Offer(k) => Some(k),
            _ => None,
        })
        .await
    }

    async fn refused(&mut self) -> String {
        self.next(|u| match u {
            Update::Refused(why) | Update::MoveRefused(why) => Some(why),
            _ => None,
        })
        .await
    }
}

fn config(clock: Option<&str>, grace_ms: u64) -> TableConfig {
    TableConfig {
        game_type: GameType::standard(Variant::English),
        clock: clock.map(|c| c.parse().expect("a time control")),
        grace: Duration::from_millis(grace_ms),
        rated: false,
        private: true,
    }
}

async fn sit(
    table: &TableHandle,
    person: &Person,
    updates: Updates,
    color: Option<Color>,
) -> Color {
    let (reply, answer) = oneshot::channel();
    assert!(
        table
            .send(Command::Sit {
                who: person.who.clone(),
                color,
                rating: None,
                provisional: false,
                returning: false,
                updates,
                reply
            })
            .await
    );
    answer.await.expect("answered").expect("seated")
}

fn mv(state: &Snapshot, text: &str) -> Move {
    state
        .game
        .position()
        .parse_move(text, Strictness::Squares)
        .expect("a legal move")
}

/// A table with Ann (Black) and Bob (White) seated.
async fn two_players(config: TableConfig) -> (TableHandle, Person, Person) {
    let table = open_table(config, Links::default());
    let (ann, ann_tx) = Person::new("ann");
    let (bob, bob_tx) = Person::new("bob");
    assert_eq!(sit(&table, &ann, ann_tx, None).await, Color::Black);
    assert_eq!(sit(&table, &bob, bob_tx, None).await, Color::White);
    (table, ann, bob)
}

/// Two players at a timed game who have made their first moves (`11-15`, `23-19`), which no clock times: Black's
/// clock runs from here.
async fn two_players_moved(config: TableConfig) -> (TableHandle, Person, Person, Arc<Snapshot>) {
    let (table, mut ann, mut bob) = two_players(config).await;
    let first = ann.state().await;
    assert_eq!(first.running, None, "the first move is not timed");
    play(&table, &ann, &first, "11-15").await;
    let after = bob.state_until(|s| s.game.len() == 1).await;
    assert_eq!(after.running, None, "nor is the second");
    play(&table, &bob, &after, "23-19").await;
    let timed = ann.state_until(|s| s.game.len() == 2).await;
    assert_eq!(timed.running, Some(Color::Black));
    bob.state_until(|s| s.game.len() == 2).await;
    (table, ann, bob, timed)
}

async fn play(table: &TableHandle, who: &Person, state: &Snapshot, text: &str) {
    let mv = mv(state, text);
    assert!(table.ask(&who.id(), TableRequest::Play(mv)).await);
}

#[tokio::test]
async fn players_alternate_legal_moves_and_watchers_see_them() {
    let (table, mut ann, mut bob) = two_players(config(None, 1000)).await;
    let (mut cy, cy_tx) = Person::new("cy");
    table
        .send(Command::Watch {
            who: cy.who.clone(),
            updates: cy_tx,
        })
        .await;
    // A third person cannot sit.
    let (dan, dan_tx) = Person::new("dan");
    let (reply, answer) = oneshot::channel();
    table
        .send(Command::Sit {
            who: dan.who.clone(),
            color: None,
            rating: None,
            provisional: false,
            returning: false,
            updates: dan_tx,
            reply,
        })
        .await;
    assert!(answer.await.expect("answered").is_err());
    let start = AnyGame::new(GameType::standard(Variant::English));
    let snapshot = Snapshot {
        game: start,
        seats: [None, None],
        clocks: None,
        running: None,
        first_move_left: None,
        watchers: 0,
        rated: false,
        paused: false,
        unrecorded: false,
        node_silent: false,
    };
    // White may not move first; a watcher may not move at all.
    play(&table, &bob, &snapshot, "11-15").await;
    assert_eq!(bob.refused().await, "it is not your turn");
    play(&table, &cy, &snapshot, "11-15").await;
    assert_eq!(cy.refused().await, "you are watching this game");
    play(&table, &ann, &snapshot, "11-15").await;
    let state = bob.state_until(|s| s.game.len() == 1).await;
    assert_eq!(state.watchers, 1);
    cy.state_until(|s| s.game.len() == 1).await;
    // A move illegal where it is played is refused by the table, whatever the client thought.
    let stale = mv(&snapshot, "9-13");
    table.ask(&bob.id(), TableRequest::Play(stale)).await;
    assert!(!bob.refused().await.is_empty());
    play(&table, &bob, &state, "23-19").await;
    ann.state_until(|s| s.game.len() == 2).await;
    // Resigning ends it.
    table.ask(&ann.id(), TableRequest::Resign).await;
    let over = bob.state_until(|s| s.game.outcome().is_some()).await;
    assert_eq!(
        over.game.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Resignation
        })
    );
}

#[tokio::test]
async fn the_clock_runs_out_and_an_absent_player_may_be_claimed_against() {
    // 0.005 minutes: 0.3 s for the whole game.
    let (_table, mut ann, _bob, _) = two_players_moved(config(Some("0.005+0"), 1000)).await;
    let over = ann.state_until(|s| s.game.outcome().is_some()).await;
    assert_eq!(
        over.game.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Time
        })
    );
    assert_eq!(over.clocks.map(|c| c[0]), Some(Duration::ZERO));

    let (table, mut ann, bob) = two_players(config(None, 150)).await;
    table.send(bob.leave()).await;
    ann.state_until(|s| s.seats[1].as_ref().is_some_and(|s| s.away.is_some()))
        .await;
    table.ask(&ann.id(), TableRequest::Claim).await;
    let refused = ann.refused().await;
    assert!(
        refused.starts_with("bob may still come back ("),
        "{refused}"
    );
    // Bob comes back within the grace period: his seat is his again.
    let (bob_again, tx) = Person::new("bob");
    assert_eq!(sit(&table, &bob_again, tx, None).await, Color::White);
    table.send(bob_again.leave()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    table.ask(&ann.id(), TableRequest::Claim).await;
    let claimed = ann.state_until(|s| s.game.outcome().is_some()).await;
    assert_eq!(
        claimed.game.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Abandoned
        })
    );
}

#[tokio::test]
async fn a_player_back_on_a_new_connection_is_here_when_the_old_one_is_found_gone() {
    let (table, mut ann, bob) = two_players(config(None, 150)).await;
    // Bob's network stops answering, and he connects again before the server notices.
    let (bob_again, tx) = Person::new("bob");
    assert_eq!(sit(&table, &bob_again, tx, None).await, Color::White);
    // Then the server finds his first connection gone: he is still here, past the grace period too.
    table.send(bob.leave()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    table.ask(&ann.id(), TableRequest::Claim).await;
    assert_eq!(ann.refused().await, "bob is here");
    let (mut cy, cy_tx) = Person::new("cy");
    table
        .send(Command::Watch {
            who: cy.who.clone(),
            updates: cy_tx,
        })
        .await;
    let seen = cy.state().await;
    assert_eq!(seen.seats[1].as_ref().map(|s| s.away), Some(None));
}

#[tokio::test]
async fn someone_watching_on_two_connections_watches_on_one_when_the_other_goes() {
    let (table, ann, mut bob) = two_players(config(None, 60_000)).await;
    let (cy, cy_tx) = Person::new("cy");
    let (mut cy_again, cy_again_tx) = Person::new("cy");
    for (who, updates) in [(&cy, cy_tx), (&cy_again, cy_again_tx)] {
        let who = who.who.clone();
        table.send(Command::Watch { who, updates }).await;
    }
    let first = bob.state_until(|s| s.watchers == 2).await;
    table.send(cy.leave()).await;
    assert_eq!(bob.state().await.watchers, 1);
    play(&table, &ann, &first, "11-15").await;
    cy_again.state_until(|s| s.game.len() == 1).await;
}

#[tokio::test]
async fn chat_is_cleaned_and_limited() {
    let (table, ann, mut bob) = two_players(config(None, 1000)).await;
    table
        .ask(
            &ann.id(),
            TableRequest::Chat("\x1b[2J\x1b]0;owned\x07good luck".into()),
        )
        .await;
    let (from, text) = bob
        .next(|u| match u {
            Update::Chat { from, text, .. } => Some((from, text)),
            _ => None,
        })
        .await;
    assert_eq!(
        (from.as_str(), text.as_str()),
        ("ann", "[2J]0;ownedgood luck")
    );
    for _ in 0..10 {
        table
            .ask(&ann.id(), TableRequest::Chat("spam".into()))
            .await;
    }
    let mut ann = ann;
    assert_eq!(ann.refused().await, "slow down: a few lines at a time");
}

#[tokio::test]
async fn the_clocks_tick_on_everyone_s_screen() {
    let (table, mut ann, mut bob, timed) = two_players_moved(config(Some("10+5"), 1000)).await;
    play(&table, &ann, &timed, "8-11").await;
    for person in [&mut ann, &mut bob] {
        let clocks = person
            .next(|u| match u {
                Update::Clocks(c) => Some(c),
                _ => None,
            })
            .await;
        assert!(clocks[1] < Duration::from_secs(600), "{clocks:?}");
    }
}

#[tokio::test]
async fn a_listed_recorded_table_goes_on_after_a_player_drops_and_comes_back() {
    use crate::serve::recorder::Recorder;
    use crate::serve::records::SqliteRecords;
    use crate::serve::tables::Tables;
    let dir = std::env::temp_dir().join(format!("crowned-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let records = SqliteRecords::open(&dir.join("r.sqlite")).expect("opens");
    let recorder = Recorder::start(records, None).expect("starts");
    let tables = Arc::new(Tables::new(Some(recorder.clone())));
    let mut config = config(Some("10+5"), 60_000);
    config.rated = true;
    let (_code, table) = tables.open(config, None).expect("a table");
    let (mut ann, ann_tx) = Person::new("ann");
    let (mut bob, bob_tx) = Person::new("bob");
    recorder.send(crate::serve::recorder::Job::Seen(ann.who.clone()));
    recorder.send(crate::serve::recorder::Job::Seen(bob.who.clone()));
    assert_eq!(
        sit(&table, &ann, ann_tx, Some(Color::Black)).await,
        Color::Black
    );
    assert_eq!(sit(&table, &bob, bob_tx, None).await, Color::White);
    let state = ann.state_until(|s| s.seats[1].is_some()).await;
    play(&table, &ann, &state, "10-14").await;
    let state = bob.state_until(|s| s.game.len() == 1).await;
    play(&table, &bob, &state, "21-17").await;
    let state = ann.state_until(|s| s.game.len() == 2).await;
    table.send(ann.leave()).await;
    let (ann2, tx) = Person::new("ann");
    let mut ann = Person {
        who: ann2.who,
        updates: {
            drop(ann.updates);
            ann2.updates
        },
        line: ann2.line,
    };
    assert_eq!(sit(&table, &ann, tx, None).await, Color::Black);
    play(&table, &ann, &state, "14x21").await;
    let state = bob.state_until(|s| s.game.len() == 3).await;
    play(&table, &bob, &state, "22-17").await;
    ann.state_until(|s| s.game.len() == 4).await;
    ann.next(|u| match u {
        Update::Clocks(c) => Some(c),
        _ => None,
    })
    .await;
    tokio::task::spawn_blocking(move || recorder.flush())
        .await
        .expect("flushed");
    let mut records = SqliteRecords::open(&dir.join("r.sqlite")).expect("opens");
    let unfinished = records.unfinished_games().expect("read");
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].moves, ["10-14", "21-17", "14x21", "22-17"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_clocks_pause_only_by_agreement_and_a_move_starts_them_again() {
    let (table, mut ann, mut bob, first) = two_players_moved(config(Some("10+5"), 1000)).await;
    // The clocks run from the second first move: Black's.
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Pause))
        .await;
    assert_eq!(bob.offered().await, OfferKind::Pause);
    table
        .ask(
            &bob.id(),
            TableRequest::Answer {
                kind: OfferKind::Pause,
                accept: true,
            },
        )
        .await;
    let paused = ann.state_until(|s| s.paused).await;
    assert_eq!(paused.running, None);
    let left = paused.clocks.expect("clocks")[0];
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Stopped: a second ask to pause is refused, and no time has gone.
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Pause))
        .await;
    assert_eq!(ann.refused().await, "the clocks are not running");
    // Ann's move starts them again: hers stops (with the increment), Bob's runs.
    play(&table, &ann, &first, "8-11").await;
    let going = bob.state_until(|s| s.game.len() == 3).await;
    assert!(!going.paused);
    assert_eq!(going.running, Some(Color::White));
    let after = going.clocks.expect("clocks")[0];
    assert!(
        after >= left + Duration::from_secs(4),
        "{left:?} then {after:?}"
    );
}

#[tokio::test]
async fn the_time_to_come_back_counts_down_on_the_opponent_s_screen() {
    let (table, mut ann, bob) = two_players(config(None, 5_000)).await;
    table.send(bob.leave()).await;
    let away = |s: &Snapshot| s.seats[1].as_ref().and_then(|s| s.away);
    let first = ann.state_until(|s| away(s).is_some()).await;
    // A state a second later says less time is left, with nothing else happening.
    let later = ann
        .state_until(|s| away(s).is_some_and(|left| Some(left) < away(&first)))
        .await;
    assert!(away(&later) < away(&first));
}

// On paused time: the countdown's seconds pass as fast as the table can take them, and a loaded machine cannot
// make an update look late.
#[tokio::test(start_paused = true)]
async fn the_time_to_come_back_counts_down_beside_a_running_clock_and_its_end_is_told() {
    let (table, mut ann, bob, first) = two_players_moved(config(Some("5+3"), 2_500)).await;
    play(&table, &ann, &first, "8-11").await;
    ann.state_until(|s| s.game.len() == 3).await;
    // Bob, to move, drops: his clock goes on running while the time he has to come back counts down.
    table.send(bob.leave()).await;
    let away = |s: &Snapshot| s.seats[1].as_ref().and_then(|s| s.away);
    let left = ann.state_until(|s| away(s).is_some()).await.seats[1]
        .as_ref()
        .and_then(|s| s.away)
        .expect("away");
    // The clocks tick every second too; the countdown is not put off by them.
    let ticked = ann
        .state_until(|s| away(s).is_some_and(|now| now + Duration::from_millis(500) < left))
        .await;
    assert_eq!(ticked.running, Some(Color::White));
    // When the grace is over, a state says so (nothing left), with Bob's clock still running.
    let over = ann.state_until(|s| away(s) == Some(Duration::ZERO)).await;
    assert_eq!(over.running, Some(Color::White));
    let bob_left = over.clocks.expect("clocks")[1];
    assert!(bob_left < Duration::from_secs(300), "{bob_left:?}");
    // Ann calls it a draw rather than claiming the win.
    table.ask(&ann.id(), TableRequest::ClaimDraw).await;
    let drawn = ann.state_until(|s| s.game.outcome().is_some()).await;
    assert_eq!(
        drawn.game.outcome(),
        Some(Outcome::Draw {
            reason: crate::game::DrawReason::Abandoned
        })
    );
}

#[tokio::test]
async fn a_watcher_who_never_reads_holds_a_bounded_queue_and_then_gets_the_newest_state() {
    let (table, mut ann, mut bob) = two_players(config(None, 60_000)).await;
    let (mut cy, cy_tx) = Person::new("cy");
    table
        .send(Command::Watch {
            who: cy.who.clone(),
            updates: cy_tx,
        })
        .await;
    // Many moves (and takebacks, each a change), while Cy reads nothing.
    let mut state = ann.state_until(|s| s.watchers == 1).await;
    for _ in 0..UPDATES_QUEUE {
        play(&table, &ann, &state, "11-15").await;
        bob.state_until(|s| s.game.len() == 1).await;
        table
            .ask(&ann.id(), TableRequest::Offer(OfferKind::Takeback))
            .await;
        bob.offered().await;
        table
            .ask(
                &bob.id(),
                TableRequest::Answer {
                    kind: OfferKind::Takeback,
                    accept: true,
                },
            )
            .await;
        state = ann.state_until(|s| s.game.is_empty()).await;
    }
    // Then a position the game never had before: two moves played.
    play(&table, &ann, &state, "11-15").await;
    let state = bob.state_until(|s| s.game.len() == 1).await;
    play(&table, &bob, &state, "23-19").await;
    ann.state_until(|s| s.game.len() == 2).await;
    assert!(cy.updates.len() <= UPDATES_QUEUE, "{}", cy.updates.len());
    // Cy reads again: the states he missed are made good by the newest, as the game stands.
    let newest = cy.state_until(|s| s.game.len() == 2).await;
    assert_eq!(
        newest.game.moves(),
        state_after(&["11-15", "23-19"]).moves()
    );
}

/// The game after `moves`, for comparing with a table's.
fn state_after(moves: &[&str]) -> AnyGame {
    let mut game = AnyGame::new(GameType::standard(Variant::English));
    for text in moves {
        game.play_text(text).expect("a legal move");
    }
    game
}

#[tokio::test]
async fn a_recorded_game_stays_when_its_players_leave_and_ends_when_its_flag_falls() {
    use crate::serve::recorder::Recorder;
    use crate::serve::records::SqliteRecords;
    use crate::serve::tables::Tables;
    let dir = std::env::temp_dir().join(format!("crowned-table-empty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let recorder = Recorder::start(
        SqliteRecords::open(&dir.join("r.sqlite")).expect("opens"),
        None,
    )
    .expect("starts");
    let tables = Arc::new(Tables::new(Some(recorder.clone())));
    // 0.02 minutes: Black's 1.2 seconds run out while nobody is there.
    let (code, table) = tables
        .open(config(Some("0.02+0"), 60_000), None)
        .expect("a table");
    let (mut ann, ann_tx) = Person::new("ann");
    let (mut bob, bob_tx) = Person::new("bob");
    for person in [&ann, &bob] {
        recorder.send(crate::serve::recorder::Job::Seen(person.who.clone()));
    }
    sit(&table, &ann, ann_tx, None).await;
    sit(&table, &bob, bob_tx, None).await;
    // The first moves, which no clock times; then Black's clock runs.
    let first = ann.state().await;
    play(&table, &ann, &first, "11-15").await;
    let after = bob.state_until(|s| s.game.len() == 1).await;
    play(&table, &bob, &after, "23-19").await;
    ann.state_until(|s| s.game.len() == 2).await;
    // Both leave (as they do when the server stops): the game is in the records, so the table stays for them,
    // and notes its clocks when asked.
    table.send(ann.leave()).await;
    table.send(bob.leave()).await;
    let (done, noted) = oneshot::channel();
    assert!(table.send(Command::NoteClocks { done }).await);
    noted.await.expect("the clocks noted");
    assert!(tables.find(&code).is_some());
    // Black's flag falls with nobody there: the game is over, and the table goes.
    let deadline = Instant::now() + Duration::from_secs(5);
    while tables.find(&code).is_some() {
        assert!(Instant::now() < deadline, "the table is still there");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}
