use super::*;
use crate::game::{DrawReason, WinReason};
use crate::rules::{GameType, Variant};

fn state_after(game_type: GameType, plies: usize) -> TableState {
    let mut game = AnyGame::new(game_type);
    for _ in 0..plies {
        let Some(mv) = game.legal_moves().first().copied() else {
            break;
        };
        game.play(&mv).expect("a legal move");
    }
    game.tags_mut().set("Event", "crowned \"serve\"");
    TableState {
        game,
        seats: [
            Some(SeatView {
                name: "alice".into(),
                rating: Some(1500),
                away: None,
            }),
            Some(SeatView {
                name: "bob".into(),
                rating: None,
                away: Some(Duration::from_secs(170)),
            }),
        ],
        clocks: Some([Duration::from_millis(299_500), Duration::from_secs(300)]),
        running: Some(Color::White),
        watchers: 2,
        rated: true,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }
}

/// Sends an event across as text and reads it back.
fn across(event: &TableEvent) -> TableEvent {
    let text = Envelope::Update {
        link: 7,
        event: event_to_wire(event),
    }
    .to_text();
    let Envelope::Update { link: 7, event } = Envelope::from_text(&text).expect("it reads back")
    else {
        panic!("another message came back: {text}");
    };
    event_from_wire(event).expect("a good event")
}

#[test]
fn every_event_crosses_unchanged() {
    let mut events = vec![
        TableEvent::Clocks([Duration::from_millis(1), Duration::from_secs(2)]),
        TableEvent::Offer(OfferKind::Draw),
        TableEvent::Declined(OfferKind::Takeback),
        TableEvent::Refused("no".into()),
        TableEvent::MoveRefused("it is not your turn".into()),
        TableEvent::Rematch("K7QX".into()),
        TableEvent::Chat {
            from: "alice".into(),
            text: "gl \"hf\" {}".into(),
        },
    ];
    for (variant, plies) in [
        (Variant::English, 0),
        (Variant::English, 17),
        (Variant::International, 30),
        (Variant::Frisian, 12),
    ] {
        events.push(TableEvent::State(Arc::new(state_after(
            GameType::standard(variant),
            plies,
        ))));
    }
    for event in events {
        assert_eq!(across(&event), event);
    }
}

#[test]
fn a_game_ended_outside_the_rules_keeps_its_reason() {
    for outcome in [
        Outcome::Win {
            winner: Color::White,
            reason: WinReason::Time,
        },
        Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Resignation,
        },
        Outcome::Draw {
            reason: DrawReason::Agreement,
        },
    ] {
        let mut state = state_after(GameType::standard(Variant::English), 9);
        state.game.declare(outcome).expect("declared");
        let event = TableEvent::State(Arc::new(state));
        let TableEvent::State(back) = across(&event) else {
            panic!("not a state");
        };
        assert_eq!(back.game.outcome(), Some(outcome));
        assert_eq!(TableEvent::State(back), event);
    }
}

#[test]
fn every_request_crosses_unchanged() {
    let mut game = AnyGame::new(GameType::standard(Variant::International));
    let mut requests = vec![
        TableRequest::Offer(OfferKind::Pause),
        TableRequest::Answer {
            kind: OfferKind::Rematch,
            accept: true,
        },
        TableRequest::Resign,
        TableRequest::Chat("hello".into()),
        TableRequest::Claim,
        TableRequest::ClaimDraw,
        TableRequest::Resume,
    ];
    // Captures too: international games reach them within a few moves of playing the first legal move.
    for _ in 0..40 {
        let Some(mv) = game.legal_moves().first().copied() else {
            break;
        };
        requests.push(TableRequest::Play(mv));
        game.play(&mv).expect("legal");
    }
    assert!(
        requests
            .iter()
            .any(|r| matches!(r, TableRequest::Play(mv) if mv.is_capture()))
    );
    for request in requests {
        let text = Envelope::Ask {
            from: "one".into(),
            link: 1,
            code: "K7QX".into(),
            request: request_to_wire(&request),
        }
        .to_text();
        let Ok(Envelope::Ask { request: wire, .. }) = Envelope::from_text(&text) else {
            panic!("{text}");
        };
        assert_eq!(request_from_wire(wire), Ok(request));
    }
}

#[test]
fn malformed_messages_are_refused_not_trusted() {
    for text in [
        "",
        "{",
        "null",
        "{\"kind\":\"launch\"}",
        "{\"kind\":\"closed\"}",
        "{\"kind\":\"closed\",\"link\":-1}",
        &"[".repeat(10_000),
    ] {
        assert!(Envelope::from_text(text).is_err(), "{text:.40}");
    }
    let bad_moves = [
        (0, vec![], "1"),
        (0, vec![200], "0"),
        (200, vec![1], "0"),
        (0, vec![1; MAX_PATH + 1], "0"),
        (0, vec![1], "not hex"),
        (0, vec![1], "1ffffffffffffffffffffffffffffffff"),
    ];
    for (from, path, captured) in bad_moves {
        let request = WireRequest::Play {
            from,
            path,
            captured: captured.into(),
            crowns: false,
        };
        assert_eq!(request_from_wire(request), Err(WireError::BadMove));
    }
    let bad_game = WireEvent::State(WireState {
        pdn: "[GameType \"20\"]\n1. 99-98 *".into(),
        outcome: None,
        tags: Vec::new(),
        seats: [None, None],
        clocks: None,
        running: None,
        watchers: 0,
        rated: false,
        paused: false,
        unrecorded: false,
    });
    assert!(matches!(
        event_from_wire(bad_game),
        Err(WireError::BadGame(_))
    ));
}

#[test]
fn every_message_about_an_event_crosses_unchanged() {
    let messages = [
        Envelope::EventEnter {
            from: "one".into(),
            link: 3,
            event: "T4RN".into(),
            fingerprint: "SHA256:ann".into(),
            name: "ann".into(),
        },
        Envelope::EventEntered {
            link: 3,
            entered: true,
        },
        Envelope::EventBoard {
            link: 3,
            code: "K7QX".into(),
        },
        Envelope::EventLeave {
            from: "one".into(),
            link: 3,
        },
        Envelope::EventWithdraw {
            event: "T4RN".into(),
            fingerprint: "SHA256:ann".into(),
        },
        Envelope::EventResult {
            event: "T4RN".into(),
            round: 2,
            board: 1,
            result: "second".into(),
            forfeit: true,
        },
    ];
    for message in messages {
        let text = message.to_text();
        assert_eq!(Envelope::from_text(&text), Ok(message), "{text}");
    }
    // A message of a kind a node does not know is refused, not taken for another.
    assert!(Envelope::from_text(r#"{"kind":"event_coup","link":3}"#).is_err());
}
