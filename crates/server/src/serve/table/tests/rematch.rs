//! Rematches: offered after the game, agreed, and the players seated at a new table.

use super::*;

#[tokio::test]
async fn a_rematch_agreed_after_the_game_seats_both_at_a_new_table_colours_swapped() {
    use crate::serve::tables::Tables;
    let tables = Arc::new(Tables::new(None));
    let config = config(Some("5+3"), 60_000);
    let (code, table) = tables.open(config, None).expect("a table");
    let (mut ann, ann_tx) = Person::new("ann");
    let (mut bob, bob_tx) = Person::new("bob");
    let (mut cy, cy_tx) = Person::new("cy");
    assert_eq!(sit(&table, &ann, ann_tx, None).await, Color::Black);
    assert_eq!(sit(&table, &bob, bob_tx, None).await, Color::White);
    table
        .send(Command::Watch {
            who: cy.who.clone(),
            updates: cy_tx,
        })
        .await;
    // Not while the game goes on.
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    assert_eq!(ann.refused().await, "a rematch is for after the game");
    table.ask(&ann.id(), TableRequest::Resign).await;
    bob.state_until(|s| s.game.outcome().is_some()).await;
    // A watcher cannot offer one; Bob offers, Ann declines; Bob offers again and Ann accepts.
    table
        .ask(&cy.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    assert_eq!(cy.refused().await, "you are watching this game");
    let answer = |accept| TableRequest::Answer {
        kind: OfferKind::Rematch,
        accept,
    };
    table
        .ask(&bob.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    assert_eq!(ann.offered().await, OfferKind::Rematch);
    table.ask(&ann.id(), answer(false)).await;
    table
        .ask(&bob.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    assert_eq!(ann.offered().await, OfferKind::Rematch);
    table.ask(&ann.id(), answer(true)).await;
    let rematch = |u| match u {
        Update::Rematch(code) => Some(TableCode::new(code)),
        _ => None,
    };
    let new_code = ann.next(rematch).await;
    assert_eq!(bob.next(rematch).await, new_code);
    assert_eq!(cy.next(rematch).await, new_code);
    assert_ne!(new_code, code);
    // The new table: the same clock and settings, Bob seated as Black and Ann as White before they arrive.
    let (new_table, listing) = tables.find(&new_code).expect("the rematch's table");
    assert_eq!(listing.config, config);
    assert_eq!(
        listing.seats.clone().map(|s| s.map(|(_, name)| name)),
        [Some("bob".to_string()), Some("ann".to_string())]
    );
    let (bob2, tx) = Person::new("bob");
    let mut bob = Person {
        who: bob2.who,
        updates: bob2.updates,
        line: bob2.line,
    };
    assert_eq!(sit(&new_table, &bob, tx, None).await, Color::Black);
    let (ann2, tx) = Person::new("ann");
    assert_eq!(sit(&new_table, &ann2, tx, None).await, Color::White);
    // Both there: a fresh game with full clocks, waiting for Black's first move (not timed, but limited).
    let fresh = bob
        .state_until(|s| s.seats.iter().flatten().all(|s| s.away.is_none()))
        .await;
    assert!(fresh.game.is_empty());
    assert_eq!(fresh.running, None);
    assert!(
        fresh
            .first_move_left
            .is_some_and(|left| left <= FIRST_MOVE_LIMIT)
    );
    assert_eq!(fresh.clocks.map(|c| c[1]), Some(Duration::from_secs(300)));
    drop(ann);
}

#[tokio::test]
async fn a_rematch_offered_to_someone_who_leaves_is_called_off() {
    let (table, mut ann, bob) = two_players(config(None, 60_000)).await;
    table.ask(&ann.id(), TableRequest::Resign).await;
    ann.state_until(|s| s.game.outcome().is_some()).await;
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    table.send(bob.leave()).await;
    assert_eq!(ann.refused().await, "bob has left the table: no rematch");
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    assert_eq!(ann.refused().await, "bob has left the table");
}

#[tokio::test]
async fn rematches_offered_by_both_are_agreed_without_a_question() {
    use crate::serve::tables::Tables;
    let tables = Arc::new(Tables::new(None));
    let (_, table) = tables.open(config(None, 60_000), None).expect("a table");
    let (mut ann, ann_tx) = Person::new("ann");
    let (mut bob, bob_tx) = Person::new("bob");
    sit(&table, &ann, ann_tx, None).await;
    sit(&table, &bob, bob_tx, None).await;
    table.ask(&bob.id(), TableRequest::Resign).await;
    ann.state_until(|s| s.game.outcome().is_some()).await;
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    table
        .ask(&bob.id(), TableRequest::Offer(OfferKind::Rematch))
        .await;
    let rematch = |u| match u {
        Update::Rematch(code) => Some(TableCode::new(code)),
        _ => None,
    };
    let code = ann.next(rematch).await;
    assert_eq!(bob.next(rematch).await, code);
    assert!(tables.find(&code).is_some());
}

#[tokio::test]
async fn a_game_resumed_twice_on_one_node_is_one_table_under_its_code() {
    use crate::serve::recorder::RecordKey;
    use crate::serve::table::Resumed;
    use crate::serve::tables::Tables;
    let tables = Arc::new(Tables::new(None));
    let (ann, _) = Person::new("ann");
    let (bob, _) = Person::new("bob");
    let (cy, _) = Person::new("cy");
    let resumed = |seats: [Identity; 2]| Resumed {
        game: AnyGame::new(GameType::default()),
        seats,
        clocks: None,
        ratings: [None, None],
        code: Some(TableCode::new("K7QX")),
        record: RecordKey::fresh(),
    };
    let ann_bob = [ann.who.clone(), bob.who.clone()];
    let (first, table) = tables
        .open(config(None, 60_000), Some(resumed(ann_bob.clone())))
        .expect("a table");
    assert_eq!(first, TableCode::new("K7QX"));
    // Two take-overs of the game at once: the second finds the table the first opened.
    let (second, again) = tables
        .open(config(None, 60_000), Some(resumed(ann_bob)))
        .expect("the same table");
    assert_eq!(second, first);
    assert!(again.same_table(&table));
    assert_eq!(tables.len(), 1);
    // Another game that had the same code (from before a restart, say) is not this one: it gets a code of its
    // own.
    let (other, _) = tables
        .open(
            config(None, 60_000),
            Some(resumed([cy.who.clone(), bob.who.clone()])),
        )
        .expect("a table");
    assert_ne!(other, first);
    assert_eq!(tables.len(), 2);
}
