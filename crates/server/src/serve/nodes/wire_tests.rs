use super::*;
use crate::app::OfferKind;
use crate::game::{DrawReason, WinReason};
use crate::rules::{GameType, MAX_PATH, Variant};
use crate::serve::TableCode;
use crate::serve::table::TableError;

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
                // A provisional rating crosses with its mark (a plain one without a word of it).
                provisional: true,
                rating: Some(1500),
                rating_after: Some(1513),
                away: None,
            }),
            Some(SeatView {
                name: "bob".into(),
                provisional: false,
                rating: None,
                rating_after: None,
                away: Some(Duration::from_secs(170)),
            }),
        ],
        clocks: Some([Duration::from_millis(299_500), Duration::from_secs(300)]),
        running: Some(Color::White),
        first_move_left: Some(Duration::from_millis(12_300)),
        watchers: 2,
        rated: true,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }
}

/// An event as the text that crosses, on a link whose sending side is `out`.
fn sent(out: &mut LinkOut, event: &TableNews) -> String {
    Envelope::Update {
        link: 7,
        news: out.wire(event),
    }
    .to_text()
}

/// Reads what crossed on a link whose receiving side is `into`.
fn got(into: &mut LinkIn, text: &str) -> Result<TableNews, WireError> {
    let Envelope::Update { link: 7, news } = Envelope::from_text(text)? else {
        panic!("another message came back: {text}");
    };
    into.take(news)
}

/// Sends an event across a new link as text and reads it back.
fn across(event: &TableNews) -> TableNews {
    let text = sent(&mut LinkOut::default(), event);
    got(&mut LinkIn::default(), &text).expect("a good event")
}

/// The state after `state`'s game with `change` made to it.
fn changed(state: &TableState, change: impl FnOnce(&mut AnyGame)) -> TableNews {
    let mut next = state.clone();
    change(&mut next.game);
    TableNews::State(Arc::new(next))
}

fn play_first(game: &mut AnyGame) {
    let mv = game.legal_moves()[0];
    game.play(&mv).expect("legal");
}

#[test]
fn a_table_s_news_crosses_under_the_name_earlier_nodes_read() {
    // Nodes of two versions run side by side during an upgrade: the field keeps its first name on the wire.
    let state = state_after(GameType::standard(Variant::English), 4);
    let text = sent(&mut LinkOut::default(), &TableNews::State(Arc::new(state)));
    let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(value.get("event").is_some(), "{text}");
    assert!(value.get("news").is_none(), "{text}");
}

#[test]
fn a_seat_asked_by_a_node_of_an_earlier_version_is_an_ordinary_one() {
    // An earlier node knows nothing of a connection coming back: its seats are taken as new ones.
    let earlier = r#"{"kind":"sit","from":"n1","link":3,"code":"K7QX","fingerprint":"SHA256:a","name":"ann","color":null,"rating":null}"#;
    let Ok(Envelope::Sit {
        returning,
        provisional,
        ..
    }) = Envelope::from_text(earlier)
    else {
        panic!("read");
    };
    assert!(!returning && !provisional);
    let now = Envelope::Sit {
        from: "n2".into(),
        link: 4,
        code: "K7QX".into(),
        fingerprint: "SHA256:a".into(),
        name: "ann".into(),
        color: None,
        rating: Some(1500),
        provisional: true,
        returning: true,
    };
    let text = now.to_text();
    assert_eq!(Envelope::from_text(&text).ok(), Some(now), "{text}");
    // The refusal comes back in words, and the one a connection acts on is known again by them.
    let code = TableCode::new("K7QX");
    let known = |error: TableError| TableError::from_elsewhere(error.to_string(), Some(&code));
    assert_eq!(
        known(TableError::SeatedElsewhere),
        TableError::SeatedElsewhere
    );
    // A table that stopped as the seat was asked (handed to another node): looked for again, as one here.
    assert_eq!(
        known(TableError::NoGame(code.clone())),
        TableError::NoGame(code.clone())
    );
    assert_eq!(
        known(TableError::SeatTaken(Color::Black)),
        TableError::Elsewhere("black is taken".into())
    );
    let other = TableError::NoGame(TableCode::new("ZZZZ")).to_string();
    assert!(matches!(
        TableError::from_elsewhere(other, Some(&code)),
        TableError::Elsewhere(_)
    ));
}

#[test]
fn states_after_the_first_cross_as_their_moves_and_read_back_whole() {
    let start = state_after(GameType::standard(Variant::International), 60);
    let mut events = vec![TableNews::State(Arc::new(start.clone()))];
    let mut state = start;
    // A move, the clocks and seats only, a takeback of two plies, a move again, a resignation.
    let steps: [&dyn Fn(&mut AnyGame); 5] = [
        &play_first,
        &|_| {},
        &|game| {
            game.go_to(game.len() - 2);
            game.truncate();
        },
        &play_first,
        &|game| game.resign(Color::White).expect("resigned"),
    ];
    for step in steps {
        let TableNews::State(next) = changed(&state, step) else {
            unreachable!()
        };
        state = (*next).clone();
        state.watchers += 1;
        events.push(TableNews::State(Arc::new(state.clone())));
    }
    let (mut out, mut into) = (LinkOut::default(), LinkIn::default());
    let mut sizes = Vec::new();
    for event in &events {
        let text = sent(&mut out, event);
        sizes.push(text.len());
        assert_eq!(&got(&mut into, &text).expect("read back"), event, "{text}");
    }
    // The first goes whole; each after it as a few moves and the table around them, whatever the game's length.
    assert!(
        sizes[1..].iter().all(|&size| size * 2 < sizes[0]),
        "{sizes:?}"
    );
}

#[test]
fn news_after_a_lost_state_is_not_shown_and_the_whole_state_comes_again() {
    let start = state_after(GameType::standard(Variant::English), 10);
    let (mut out, mut into) = (LinkOut::default(), LinkIn::default());
    let first = TableNews::State(Arc::new(start.clone()));
    got(&mut into, &sent(&mut out, &first)).expect("the first state");
    // One state is lost on the way; the next follows it, so it cannot be read.
    let TableNews::State(lost) = changed(&start, play_first) else {
        unreachable!()
    };
    sent(&mut out, &TableNews::State(Arc::clone(&lost)));
    let after = changed(&lost, play_first);
    assert_eq!(got(&mut into, &sent(&mut out, &after)), Err(WireError::Gap));
    // Asked again, the whole state comes, and moves after it read as before.
    let again = Envelope::Update {
        link: 7,
        news: out.resend().expect("a state was sent"),
    }
    .to_text();
    assert_eq!(got(&mut into, &again), Ok(after.clone()));
    let TableNews::State(after) = after else {
        unreachable!()
    };
    let next = changed(&after, play_first);
    assert_eq!(got(&mut into, &sent(&mut out, &next)), Ok(next));
    // A send that failed: the next state goes whole, and reads on a fresh link too.
    out.lost();
    let whole = sent(&mut out, &changed(&after, |_| {}));
    assert!(got(&mut LinkIn::default(), &whole).is_ok());
}

#[test]
fn moves_the_game_does_not_allow_are_refused() {
    let start = state_after(GameType::standard(Variant::English), 4);
    let (mut out, mut into) = (LinkOut::default(), LinkIn::default());
    got(
        &mut into,
        &sent(&mut out, &TableNews::State(Arc::new(start.clone()))),
    )
    .expect("first");
    let mut event = out.wire(&changed(&start, play_first));
    let WireNews::Moves { moves, .. } = &mut event else {
        panic!("not moves: {event:?}");
    };
    // The move again, from the square it left: no piece is there now.
    moves.push(moves[0]);
    assert_eq!(into.take(event), Err(WireError::IllegalMove));
    // More plies kept than the game has.
    let mut event = out.wire(&changed(&start, play_first));
    if let WireNews::Moves { keep, seq, .. } = &mut event {
        *keep = 99;
        *seq = 2;
    }
    assert_eq!(into.take(event), Err(WireError::Gap));
}

#[test]
fn every_event_crosses_unchanged() {
    let mut events = vec![
        TableNews::Clocks([Duration::from_millis(1), Duration::from_secs(2)]),
        TableNews::Offer(OfferKind::Draw),
        TableNews::Declined(OfferKind::Takeback),
        TableNews::Refused("no".into()),
        TableNews::MoveRefused("it is not your turn".into()),
        TableNews::Rematch("K7QX".into()),
        TableNews::Chat {
            from: "alice".into(),
            text: "gl \"hf\" {}".into(),
            by: "SHA256:alice".into(),
        },
    ];
    for (variant, plies) in [
        (Variant::English, 0),
        (Variant::English, 17),
        (Variant::International, 30),
        (Variant::Frisian, 12),
    ] {
        events.push(TableNews::State(Arc::new(state_after(
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
        let event = TableNews::State(Arc::new(state));
        let TableNews::State(back) = across(&event) else {
            panic!("not a state");
        };
        assert_eq!(back.game.outcome(), Some(outcome));
        assert_eq!(TableNews::State(back), event);
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
            request: request.clone(),
        }
        .to_text();
        let Ok(Envelope::Ask { request: back, .. }) = Envelope::from_text(&text) else {
            panic!("{text}");
        };
        assert_eq!(back, request);
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
        let text = format!(
            r#"{{"kind":"ask","from":"one","link":1,"code":"K7QX","request":{{"play":{{"from":{from},"path":{path:?},"captured":"{captured}","crowns":false}}}}}}"#
        );
        assert!(
            matches!(Envelope::from_text(&text), Err(WireError::Unreadable(_))),
            "{text}"
        );
    }
    // A good move in the same shape reads.
    let good = r#"{"kind":"ask","from":"one","link":1,"code":"K7QX","request":{"play":{"from":8,"path":[12],"captured":"0","crowns":false}}}"#;
    assert!(Envelope::from_text(good).is_ok());
    let bad_game = WireNews::State {
        seq: 1,
        state: WireState {
            pdn: "[GameType \"20\"]\n1. 99-98 *".into(),
            outcome: None,
            tags: Vec::new(),
            table: WireTable {
                seats: [None, None],
                clocks: None,
                running: None,
                first_move_left: None,
                watchers: 0,
                rated: false,
                paused: false,
                unrecorded: false,
            },
        },
    };
    assert!(matches!(
        LinkIn::default().take(bad_game),
        Err(WireError::BadGame(_))
    ));
}

#[test]
fn every_message_about_an_event_crosses_unchanged() {
    let messages = [
        Envelope::Resend {
            from: "two".into(),
            link: 9,
        },
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
