//! Two nodes in one process on one database: a table on node one, people at it from node two.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use super::{database, node};
use crate::app::{TableNews, TableRequest, TableState};
use crate::rules::{Color, GameType, Strictness, Variant};
use crate::serve::identity::Identity;
use crate::serve::ids::TableCode;
use crate::serve::nodes::{Relay, TablesHere};
use crate::serve::table::{
    Command, Links, TableConfig, TableError, TableHandle, UPDATES_QUEUE, open_table,
};

struct Person {
    who: Identity,
    news: mpsc::Receiver<TableNews>,
    line: mpsc::WeakSender<TableNews>,
}

impl Person {
    fn new(name: &str) -> (Person, mpsc::Sender<TableNews>) {
        let (updates, news) = mpsc::channel(UPDATES_QUEUE);
        let who = Identity {
            fingerprint: format!("SHA256:{name}").into(),
            name: name.to_string(),
        };
        let line = updates.downgrade();
        (Person { who, news, line }, updates)
    }

    /// The next news that `pick` takes, skipping others.
    async fn next<T>(&mut self, pick: impl Fn(TableNews) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let event = tokio::time::timeout_at(deadline, self.news.recv())
                .await
                .expect("news in time")
                .expect("the table is there");
            if let Some(found) = pick(event) {
                return found;
            }
        }
    }

    async fn state_until(&mut self, want: impl Fn(&TableState) -> bool) -> Arc<TableState> {
        self.next(|e| match e {
            TableNews::State(s) if want(&s) => Some(s),
            _ => None,
        })
        .await
    }

    async fn sit(
        &self,
        table: &TableHandle,
        updates: mpsc::Sender<TableNews>,
    ) -> Result<Color, TableError> {
        let (reply, answer) = oneshot::channel();
        assert!(
            table
                .send(Command::Sit {
                    who: self.who.clone(),
                    color: None,
                    rating: None,
                    provisional: false,
                    returning: false,
                    updates,
                    reply,
                })
                .await
        );
        answer.await.expect("an answer")
    }

    async fn play(&self, table: &TableHandle, state: &TableState, text: &str) {
        let mv = state
            .game
            .position()
            .parse_move(text, Strictness::Squares)
            .expect("a legal move");
        assert!(
            table
                .ask(&self.who.fingerprint, TableRequest::Play(mv))
                .await
        );
    }
}

fn tables(code: &'static str, table: Option<TableHandle>) -> TablesHere {
    Arc::new(move |asked: &TableCode| table.clone().filter(|_| asked.as_str() == code))
}

/// A table of English draughts with the clock `clock` on node one, and the relays of nodes one and two.
async fn two_nodes(clock: Option<&str>) -> (TableHandle, Arc<Relay>, Arc<Relay>) {
    let config = database().await;
    let table = open_table(
        TableConfig {
            game_type: GameType::standard(Variant::English),
            clock: clock.map(|c| c.parse().expect("a clock")),
            grace: Duration::from_secs(60),
            rated: false,
            private: false,
        },
        Links::default(),
    );
    let term = Duration::from_secs(30);
    let one = Relay::start(
        config.clone(),
        node("one"),
        term,
        tables("ROOM", Some(table.clone())),
    )
    .await
    .expect("node one");
    let two = Relay::start(config, node("two"), term, tables("ROOM", None))
        .await
        .expect("node two");
    (table, one, two)
}

#[tokio::test]
async fn a_game_is_played_from_two_nodes() {
    let (table, one, two) = two_nodes(Some("5+3")).await;
    let there = two.table_at(node("one"), TableCode::new("ROOM"));

    let (mut ann, ann_updates) = Person::new("ann");
    assert_eq!(ann.sit(&table, ann_updates).await, Ok(Color::Black));
    let (mut bob, bob_updates) = Person::new("bob");
    assert_eq!(bob.sit(&there, bob_updates).await, Ok(Color::White));
    let (mut cy, cy_updates) = Person::new("cy");
    assert!(
        there
            .send(Command::Watch {
                who: cy.who.clone(),
                updates: cy_updates,
            })
            .await
    );
    // A third seat is refused in the owner's words.
    let (dan, dan_updates) = Person::new("dan");
    assert_eq!(
        dan.sit(&there, dan_updates).await,
        Err(TableError::Elsewhere(TableError::Full.to_string()))
    );
    assert_eq!((one.links().1, two.links().0), (2, 2));

    let start = ann
        .state_until(|s| s.seats.iter().all(Option::is_some))
        .await;
    ann.play(&table, &start, "11-15").await;
    let first = bob.state_until(|s| s.game.len() == 1).await;
    // The first moves are not timed; the time for Bob's crosses with the state.
    assert_eq!(first.running, None);
    assert!(first.first_move_left.is_some());
    bob.play(&there, &first, "23-19").await;
    let timed = ann.state_until(|s| s.game.len() == 2).await;
    assert_eq!(timed.running, Some(Color::Black));
    cy.state_until(|s| s.game.len() == 2).await;
    // A move out of turn from the far node is refused by the owner.
    bob.play(&there, &first, "22-18").await;
    let refused = bob
        .next(|e| match e {
            TableNews::MoveRefused(why) => Some(why),
            _ => None,
        })
        .await;
    assert_eq!(refused, "it is not your turn");

    // Chat and offers cross both ways.
    assert!(
        there
            .ask(&bob.who.fingerprint, TableRequest::Chat("hello".into()))
            .await
    );
    let line = ann
        .next(|e| match e {
            TableNews::Chat { from, text, .. } => Some((from, text)),
            _ => None,
        })
        .await;
    assert_eq!(line, ("bob".to_string(), "hello".to_string()));
    assert!(
        table
            .ask(
                &ann.who.fingerprint,
                TableRequest::Offer(crate::app::OfferKind::Draw)
            )
            .await
    );
    bob.next(|e| matches!(e, TableNews::Offer(_)).then_some(()))
        .await;
    assert!(
        there
            .ask(
                &bob.who.fingerprint,
                TableRequest::Answer {
                    kind: crate::app::OfferKind::Draw,
                    accept: true,
                },
            )
            .await
    );
    let over = cy.state_until(|s| s.game.outcome().is_some()).await;
    assert_eq!(over.game.len(), 2);

    // Bob's connection goes: the owner hears of it.
    assert!(
        there
            .send(Command::Leave {
                who: bob.who.fingerprint.clone(),
                line: bob.line.clone(),
            })
            .await
    );
    ann.state_until(|s| s.seats[1].as_ref().is_some_and(|seat| seat.away.is_some()))
        .await;
}

#[tokio::test]
async fn a_table_that_is_not_there_is_refused_and_a_dead_node_s_visitors_go_away() {
    let (table, one, two) = two_nodes(None).await;
    let (mut ann, ann_updates) = Person::new("ann");
    assert_eq!(ann.sit(&table, ann_updates).await, Ok(Color::Black));

    let nowhere = two.table_at(node("one"), TableCode::new("GONE"));
    let (bob, bob_updates) = Person::new("bob");
    // Known again by its words: the seat is asked again where the game runs next, as for a table here.
    assert_eq!(
        bob.sit(&nowhere, bob_updates).await,
        Err(TableError::NoGame(TableCode::new("GONE")))
    );
    assert_eq!(two.links().0, 0);

    let there = two.table_at(node("one"), TableCode::new("ROOM"));
    let (mut bob, bob_updates) = Person::new("bob");
    assert_eq!(bob.sit(&there, bob_updates).await, Ok(Color::White));
    bob.state_until(|s| s.seats.iter().all(Option::is_some))
        .await;
    // Node two dies: node one lets its visitors go, and their seats wait as after any drop.
    one.forget_node(&node("two")).await;
    assert_eq!(one.links().1, 0);
    ann.state_until(|s| s.seats[1].as_ref().is_some_and(|seat| seat.away.is_some()))
        .await;
    // The far side of a table taken over is closed: its people see the table end.
    two.close_table(&node("one"), &TableCode::new("ROOM"));
    tokio::time::timeout(Duration::from_secs(5), async {
        while bob.news.recv().await.is_some() {}
    })
    .await
    .expect("the table ends for bob");
}
