//! A tournament's table: its players seated before they arrive, an absent one losing when their time to come
//! back runs out (nobody claims), the result sent to the event, and its PDN named by the event and round.

use super::*;
use crate::serve::event_rules::GameResult;
use crate::serve::events::view::View;
use crate::serve::records::{EventKind, EventSpec, Stage};

/// A tournament's table and the people of a test.
struct EventTable {
    table: TableHandle,
    ann: (Person, Updates),
    bob: (Person, Updates),
    /// Where its result goes.
    ended: mpsc::UnboundedReceiver<GameEnded>,
}

/// A table of round 2, board 1, of a Swiss event, with Ann (Black) and Bob (White) seated and away.
fn event_table(grace_ms: u64) -> EventTable {
    let (results, ended) = mpsc::unbounded_channel();
    let spec = EventSpec {
        code: TableCode::new("T4RN"),
        name: "Club Swiss".into(),
        kind: EventKind::Swiss,
        variant: "english".into(),
        clock: "3+2".into(),
        rated: false,
        open: true,
        starts: 0,
        seconds: 0,
        rounds: 5,
        created_by: None,
    };
    let view = View {
        spec: spec.clone(),
        stage: Stage::Running,
        entrants: 2,
        text: String::new(),
        leaders: "1. ann 1 · 2. bob 0".into(),
        boards: Default::default(),
    };
    // The table reads the last view sent, which stays when the sender has gone.
    let (_, view) = watch::channel(Arc::new(view));
    let (ann, ann_tx) = Person::new("ann");
    let (bob, bob_tx) = Person::new("bob");
    let link = EventLink {
        event: spec.code.clone(),
        round: 2,
        board: 1,
        tags: crate::serve::event_rules::director::event_tags(&spec, 2),
        results,
        view,
    };
    let rematch = Rematch {
        seats: [(ann.who.clone(), None), (bob.who.clone(), None)],
    };
    let table = open_table(
        config(Some("3+2"), grace_ms),
        Links {
            rematch: Some(rematch),
            tournament: Some(link),
            ..Links::default()
        },
    );
    EventTable {
        table,
        ann: (ann, ann_tx),
        bob: (bob, bob_tx),
        ended,
    }
}

#[tokio::test]
async fn a_player_who_does_not_come_loses_when_the_grace_runs_out_and_the_event_hears_it() {
    let EventTable {
        table,
        ann: (mut ann, ann_tx),
        bob: _bob,
        mut ended,
    } = event_table(300);
    assert_eq!(sit(&table, &ann, ann_tx, None).await, Color::Black);
    let over = ann.state_until(|s| s.game.outcome().is_some()).await;
    assert_eq!(
        over.game.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Abandoned
        })
    );
    let result = tokio::time::timeout(Duration::from_secs(2), ended.recv())
        .await
        .expect("in time")
        .expect("a result");
    assert_eq!(
        result,
        GameEnded {
            round: 2,
            board: 1,
            result: GameResult::FirstWins,
            forfeit: true
        }
    );
    // The event pairs the next game: no rematch at its board.
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    assert_eq!(
        ann.refused().await,
        "a tournament's game has no rematch: the event pairs your next game"
    );
}

#[tokio::test]
async fn nobody_coming_is_a_draw_and_a_game_played_out_is_no_forfeit() {
    let mut nobody = event_table(100);
    let result = tokio::time::timeout(Duration::from_secs(2), nobody.ended.recv())
        .await
        .expect("in time")
        .expect("a result");
    assert_eq!((result.result, result.forfeit), (GameResult::Draw, true));

    let EventTable {
        table,
        ann: (mut ann, ann_tx),
        bob: (mut bob, bob_tx),
        mut ended,
    } = event_table(60_000);
    sit(&table, &ann, ann_tx, None).await;
    sit(&table, &bob, bob_tx, None).await;
    // A watcher is told the event's leaders.
    let (mut cy, cy_tx) = Person::new("cy");
    assert!(
        table
            .send(Command::Watch {
                who: cy.who.clone(),
                updates: cy_tx
            })
            .await
    );
    let line = cy
        .next(|u| match u {
            Update::Chat { from, text, .. } => Some((from, text)),
            _ => None,
        })
        .await;
    assert_eq!(
        line,
        (
            "Club Swiss".to_string(),
            "round 2: 1. ann 1 · 2. bob 0".to_string()
        )
    );
    let _ = ann.state().await;
    assert!(table.ask(&bob.id(), TableRequest::Resign).await);
    bob.state_until(|s| s.game.outcome().is_some()).await;
    let result = ended.recv().await.expect("a result");
    assert_eq!(
        (result.result, result.forfeit),
        (GameResult::FirstWins, false)
    );
}

#[test]
fn its_pdn_is_named_by_the_event_and_the_round() {
    let setup = crate::serve::table::machine::TableSetup {
        event: Some(crate::serve::table::machine::EventGame {
            event: TableCode::new("T4RN"),
            round: 2,
            board: 0,
            tags: [
                ("Event", "Club Swiss".to_string()),
                ("Round", "2".to_string()),
            ],
        }),
        ..crate::serve::table::machine::TableSetup::default()
    };
    let pdn = Table::new(config(None, 1000), setup, Duration::ZERO).pdn();
    assert!(
        pdn.contains("[Event \"Club Swiss\"]") && pdn.contains("[Round \"2\"]"),
        "{pdn}"
    );
}

#[test]
fn a_tournament_game_without_a_first_move_is_lost_by_the_side_that_did_not_make_it() {
    let setup = crate::serve::table::machine::TableSetup {
        event: Some(crate::serve::table::machine::EventGame {
            event: TableCode::new("T4RN"),
            round: 1,
            board: 0,
            tags: [
                ("Event", "Club Swiss".to_string()),
                ("Round", "1".to_string()),
            ],
        }),
        ..crate::serve::table::machine::TableSetup::default()
    };
    let mut table = Table::new(config(Some("3+2"), 60_000), setup, Duration::ZERO);
    for (i, name) in ["ann", "bob"].into_iter().enumerate() {
        let _ = table.handle(
            crate::serve::table::machine::Input::Sit {
                who: Identity {
                    fingerprint: format!("SHA256:{name}").into(),
                    name: name.to_string(),
                },
                color: None,
                rating: None,
                provisional: false,
                returning: false,
                conn: crate::serve::table::machine::Conn(i as u64 + 1),
            },
            Duration::ZERO,
        );
    }
    while let Some(at) = table.next_wake().filter(|at| *at <= FIRST_MOVE_LIMIT) {
        let _ = table.handle(crate::serve::table::machine::Input::Wake, at);
    }
    let Update::State(state) = table.state() else {
        unreachable!("a state")
    };
    // Ann (Black) came but did not move: Bob, who came to play, wins, as on time.
    assert_eq!(
        state.game.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Time
        })
    );
}
