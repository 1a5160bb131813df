//! Offers at a table: answered by the opponent only, ended with the game (a pause agreed during it too), and a
//! takeback's effect on the clocks.

use super::*;

#[tokio::test]
async fn offers_are_answered_by_the_opponent_only() {
    let (table, mut ann, mut bob) = two_players(config(None, 1000)).await;
    let first = ann.state().await;
    play(&table, &ann, &first, "11-15").await;
    bob.state_until(|s| s.game.len() == 1).await;
    // A takeback asked and refused, then asked and granted.
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Takeback))
        .await;
    assert_eq!(bob.offered().await, OfferKind::Takeback);
    table
        .ask(
            &ann.id(),
            TableRequest::Answer {
                kind: OfferKind::Takeback,
                accept: true,
            },
        )
        .await;
    assert_eq!(ann.refused().await, "there is nothing to answer");
    table
        .ask(
            &bob.id(),
            TableRequest::Answer {
                kind: OfferKind::Takeback,
                accept: false,
            },
        )
        .await;
    assert_eq!(
        ann.next(|u| match u {
            Update::Declined(k) => Some(k),
            _ => None,
        })
        .await,
        OfferKind::Takeback
    );
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Takeback))
        .await;
    table
        .ask(
            &bob.id(),
            TableRequest::Answer {
                kind: OfferKind::Takeback,
                accept: true,
            },
        )
        .await;
    ann.state_until(|s| s.game.is_empty()).await;
    // A draw offered and agreed.
    play(&table, &ann, &first, "11-15").await;
    table
        .ask(&bob.id(), TableRequest::Offer(OfferKind::Draw))
        .await;
    table
        .ask(
            &ann.id(),
            TableRequest::Answer {
                kind: OfferKind::Draw,
                accept: true,
            },
        )
        .await;
    let drawn = bob.state_until(|s| s.game.outcome().is_some()).await;
    assert_eq!(
        drawn.game.outcome(),
        Some(Outcome::Draw {
            reason: crate::game::DrawReason::Agreement
        })
    );
}

#[tokio::test]
async fn an_ended_game_ends_every_offer_made_during_it() {
    for kind in [OfferKind::Draw, OfferKind::Takeback] {
        // 0.01 minutes: 0.6 s each, from the second first move.
        let (table, mut ann, mut bob, start) =
            two_players_moved(config(Some("0.01+0"), 60_000)).await;
        play(&table, &ann, &start, "8-11").await;
        ann.state_until(|s| s.game.len() == 3).await;
        table.ask(&ann.id(), TableRequest::Offer(kind)).await;
        assert_eq!(bob.offered().await, kind);
        // Bob thinks too long: his flag falls with the offer open.
        let over = bob.state_until(|s| s.game.outcome().is_some()).await;
        let lost = Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Time,
        });
        assert_eq!(over.game.outcome(), lost);
        // Accepting it now is refused, and changes nothing.
        table
            .ask(&bob.id(), TableRequest::Answer { kind, accept: true })
            .await;
        let refused = bob.refused().await;
        assert!(
            refused.starts_with("the game is over"),
            "{kind:?}: {refused}"
        );
        // Someone who comes to watch now sees the game as the records have it.
        let (mut cy, cy_tx) = Person::new("cy");
        table
            .send(Command::Watch {
                who: cy.who.clone(),
                updates: cy_tx,
            })
            .await;
        let after = cy.state().await;
        assert_eq!(after.game.outcome(), lost, "{kind:?}");
        assert_eq!(after.game.len(), 3, "{kind:?}: nothing taken back");
    }
}

#[tokio::test]
async fn a_takeback_takes_the_increment_of_the_moves_it_takes_back() {
    // A minute each and ten seconds a move.
    let (table, mut ann, mut bob, start) = two_players_moved(config(Some("1+10"), 60_000)).await;
    play(&table, &ann, &start, "8-11").await;
    let moved = ann.state_until(|s| s.game.len() == 3).await;
    let with_increment = moved.clocks.expect("clocks")[0];
    assert!(
        with_increment > Duration::from_secs(65),
        "{with_increment:?}"
    );
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Takeback))
        .await;
    assert_eq!(bob.offered().await, OfferKind::Takeback);
    table
        .ask(
            &bob.id(),
            TableRequest::Answer {
                kind: OfferKind::Takeback,
                accept: true,
            },
        )
        .await;
    let back = ann.state_until(|s| s.game.len() == 2).await;
    let left = back.clocks.expect("clocks")[0];
    // The ten seconds went with the move; the time spent on it stays spent.
    assert!(left <= Duration::from_secs(60), "{left:?}");
    assert!(left > Duration::from_secs(55), "{left:?}");
}

#[tokio::test]
async fn clocks_stopped_by_agreement_stay_stopped_when_the_game_ends() {
    let (table, mut ann, mut bob, _) = two_players_moved(config(Some("0.05+0"), 60_000)).await;
    let answer = |kind| TableRequest::Answer { kind, accept: true };
    table
        .ask(&ann.id(), TableRequest::Offer(OfferKind::Pause))
        .await;
    assert_eq!(bob.offered().await, OfferKind::Pause);
    table.ask(&bob.id(), answer(OfferKind::Pause)).await;
    ann.state_until(|s| s.paused).await;
    // A draw agreed while the clocks are stopped, and Ann's resume pressed as it was: too late.
    table
        .ask(&bob.id(), TableRequest::Offer(OfferKind::Draw))
        .await;
    assert_eq!(ann.offered().await, OfferKind::Draw);
    table.ask(&ann.id(), answer(OfferKind::Draw)).await;
    table.ask(&ann.id(), TableRequest::Resume).await;
    let refused = ann.refused().await;
    assert_eq!(refused, "the game is over: Draw by agreement");
    // Someone who comes to watch sees the game drawn, its clocks stopped.
    let (mut cy, cy_tx) = Person::new("cy");
    table
        .send(Command::Watch {
            who: cy.who.clone(),
            updates: cy_tx,
        })
        .await;
    let after = cy.state().await;
    let drawn = Outcome::Draw {
        reason: crate::game::DrawReason::Agreement,
    };
    assert_eq!(after.game.outcome(), Some(drawn));
    assert_eq!(after.running, None);
}
