//! The app at a table on a server, driven by actions as a session would: the player's moves are shown
//! and sent, the table's states followed, offers go to the table, and what belongs to local games is refused.

use std::sync::Arc;
use std::time::Duration;

use crowned::app::{
    Action, App, ConductRequest, Effect, Mode, OfferKind, Question, SeatView, TableNews,
    TableRequest, TableState, TableView,
};
use crowned::game::AnyGame;
use crowned::rules::{Color, GameType, Strictness};

fn seat(name: &str) -> Option<SeatView> {
    Some(SeatView {
        name: name.into(),
        provisional: false,
        rating: Some(1500),
        rating_after: None,
        away: None,
    })
}

/// The table's state with `moves` played and both seats taken.
fn state(moves: &[&str]) -> TableNews {
    let mut game = AnyGame::new(GameType::default());
    for text in moves {
        game.play_text(text).expect("a legal move");
    }
    let side = game.position().side_to_move();
    TableNews::State(Arc::new(TableState {
        game,
        seats: [seat("ann"), seat("bob")],
        clocks: Some([Duration::from_secs(300), Duration::from_secs(297)]),
        running: Some(side),
        first_move_left: None,
        watchers: 1,
        rated: true,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }))
}

/// The table's state once `game` has ended, both seats taken, the clocks stopped as given.
fn ended(game: AnyGame, clocks: Option<[Duration; 2]>, watchers: usize) -> TableNews {
    TableNews::State(Arc::new(TableState {
        game,
        seats: [seat("ann"), seat("bob")],
        clocks,
        running: None,
        first_move_left: None,
        watchers,
        rated: true,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }))
}

fn requests(effects: &[Effect]) -> Vec<TableRequest> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Table(request) => Some(request.clone()),
            _ => None,
        })
        .collect()
}

fn seated(color: Color) -> App {
    let mut app = App::at_table(TableView::new(Some(color), "K7QX"), GameType::default());
    let _ = app.update(Action::Table(state(&[])));
    app
}

#[test]
fn a_move_is_shown_at_once_sent_and_confirmed_and_the_reply_follows() {
    let mut app = seated(Color::Black);
    assert_eq!(app.status(), "move 1, Black to play: your move");
    let effects = app.update(Action::Submit("11-15".into()));
    let mv = app.game().moves()[0];
    assert_eq!(requests(&effects), [TableRequest::Play(mv)]);
    assert_eq!(app.game().len(), 1);
    // A state sent before the table saw the move does not take it back.
    let _ = app.update(Action::Table(state(&[])));
    assert_eq!(app.game().len(), 1);
    let _ = app.update(Action::Table(state(&["11-15"])));
    assert!(app.status().contains("bob is thinking"), "{}", app.status());
    // Not the player's turn: nothing is sent.
    let effects = app.update(Action::Submit("9-13".into()));
    assert!(requests(&effects).is_empty());
    assert_eq!(app.status(), "it is your opponent's turn");
    // The opponent's reply arrives and is played, and nothing is sent back.
    let effects = app.update(Action::Table(state(&["11-15", "23-19"])));
    assert!(requests(&effects).is_empty());
    assert_eq!(app.game().len(), 2);
    let view = app.table().expect("a table");
    assert_eq!(view.clocks().map(|c| c[1]), Some(Duration::from_secs(297)));
}

#[test]
fn a_refused_move_is_put_back_as_the_table_has_the_game() {
    let mut app = seated(Color::Black);
    let _ = app.update(Action::Submit("11-15".into()));
    // A refusal of something else leaves the move as it is.
    let _ = app.update(Action::Table(TableNews::Refused(
        "slow down: a few lines at a time".into(),
    )));
    assert_eq!(app.game().len(), 1);
    let _ = app.update(Action::Table(TableNews::MoveRefused(
        "your time ran out".into(),
    )));
    assert_eq!(app.game().len(), 0);
    assert_eq!(app.status(), "your time ran out");
}

#[test]
fn a_refusal_stays_on_the_status_line_until_the_player_moves_again() {
    let mut app = seated(Color::Black);
    let _ = app.update(Action::Submit("11-15".into()));
    let not_played = "the game is moving to another server; your move was not played";
    let _ = app.update(Action::Table(TableNews::MoveRefused(not_played.into())));
    // The opponent goes and comes back (the seats change, not the game): the word is still there to be read.
    let mut away = state(&[]);
    if let TableNews::State(state) = &mut away
        && let Some(bob) = Arc::make_mut(state).seats[1].as_mut()
    {
        bob.away = Some(Duration::from_secs(60));
    }
    let _ = app.update(Action::Table(away));
    let _ = app.update(Action::Table(state(&[])));
    assert_eq!(app.status(), not_played);
    // Once the player moves again, the table's news says where the game stands.
    let _ = app.update(Action::Submit("11-15".into()));
    let _ = app.update(Action::Table(state(&["11-15"])));
    assert!(app.status().contains("bob is thinking"), "{}", app.status());
}

#[test]
fn undo_asks_for_a_takeback_and_offers_are_answered_through_the_table() {
    let mut app = seated(Color::White);
    let _ = app.update(Action::Table(state(&["11-15"])));
    let _ = app.update(Action::Submit("23-19".into()));
    assert_eq!(
        requests(&app.update(Action::Undo)),
        [TableRequest::Offer(OfferKind::Takeback)]
    );
    assert!(requests(&app.update(Action::Redo)).is_empty());
    assert_eq!(
        requests(&app.update(Action::Submit(":draw".into()))),
        [TableRequest::Offer(OfferKind::Draw)]
    );
    // The opponent offers a draw: the player is asked, and the answer goes to the table.
    let _ = app.update(Action::Table(TableNews::Offer(OfferKind::Draw)));
    assert_eq!(app.question(), Some(Question::Offered(OfferKind::Draw)));
    assert_eq!(
        requests(&app.update(Action::Answer(false))),
        [TableRequest::Answer {
            kind: OfferKind::Draw,
            accept: false
        }]
    );
    // Resigning asks first, then goes to the table; the game ends when the table says so.
    let _ = app.update(Action::Submit(":resign".into()));
    assert_eq!(
        requests(&app.update(Action::Answer(true))),
        [TableRequest::Resign]
    );
    assert_eq!(app.mode(), Mode::Play);
    let mut over = AnyGame::new(GameType::default());
    over.play_text("11-15").expect("legal");
    over.play_text("23-19").expect("legal");
    over.resign(Color::White).expect("resigned");
    let _ = app.update(Action::Table(TableNews::State(Arc::new(TableState {
        game: over,
        seats: [seat("ann"), seat("bob")],
        clocks: None,
        running: None,
        first_move_left: None,
        watchers: 0,
        rated: false,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }))));
    assert!(matches!(app.mode(), Mode::Over(_)));
}

#[test]
fn chat_is_sent_and_heard_and_local_games_are_refused() {
    let mut app = seated(Color::Black);
    assert_eq!(
        requests(&app.update(Action::Submit(":say good luck".into()))),
        [TableRequest::Chat("good luck".into())]
    );
    let _ = app.update(Action::Table(TableNews::Chat {
        from: "bob".into(),
        text: "you too".into(),
        by: String::new(),
    }));
    assert_eq!(app.status(), "bob: you too");
    assert_eq!(
        app.table().map(|t| t.chat().len()),
        Some(1),
        "the line is kept"
    );
    for refused in [":new", ":setup", ":load", ":level max", ":save"] {
        let effects = app.update(Action::Submit(refused.into()));
        assert!(effects.is_empty(), "{refused}: {effects:?}");
        assert_eq!(app.game().len(), 0, "{refused}");
    }
    let effects = app.update(Action::NewGame);
    assert!(effects.is_empty());
    assert!(app.dialog().is_none());
}

#[test]
fn a_watcher_sees_the_game_and_cannot_move_or_offer() {
    let mut app = App::at_table(TableView::new(None, "K7QX"), GameType::default());
    let _ = app.update(Action::Table(state(&["11-15", "23-19"])));
    assert_eq!(app.game().len(), 2);
    let position = app.game().position();
    assert!(position.parse_move("8-11", Strictness::Squares).is_ok());
    let effects = app.update(Action::Submit("8-11".into()));
    assert!(requests(&effects).is_empty());
    assert_eq!(app.status(), "you are watching this game");
    assert!(requests(&app.update(Action::Submit(":draw".into()))).is_empty());
    assert!(requests(&app.update(Action::Undo)).is_empty());
}

#[test]
fn a_seat_waiting_for_an_opponent_says_the_code() {
    let mut app = App::at_table(
        TableView::new(Some(Color::Black), "K7QX"),
        GameType::default(),
    );
    let mut waiting = AnyGame::new(GameType::default());
    waiting.truncate();
    let _ = app.update(Action::Table(TableNews::State(Arc::new(TableState {
        game: waiting,
        seats: [seat("ann"), None],
        clocks: None,
        running: None,
        first_move_left: None,
        watchers: 0,
        rated: false,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }))));
    assert!(app.status().contains("code K7QX"), "{}", app.status());
    let effects = app.update(Action::Submit("11-15".into()));
    assert!(requests(&effects).is_empty());
    assert_eq!(app.game().len(), 0);
}

use crate::common;

/// A game at a table on an 80x24 screen: the seats with names, ratings and clocks (the running one marked), the
/// code and the watchers in the move pane's title, the chat under the moves, and whose turn it is.
#[test]
fn a_table_on_screen_80x24() {
    let mut app = seated(Color::White);
    let _ = app.update(Action::Table(state(&["11-15", "23-19", "8-11"])));
    let _ = app.update(Action::Table(TableNews::Clocks([
        Duration::from_secs(287),
        Duration::from_millis(9_400),
    ])));
    let _ = app.update(Action::Table(TableNews::Chat {
        from: "ann".into(),
        text: "good luck!".into(),
        by: String::new(),
    }));
    insta::assert_snapshot!(common::screen::screen(&app, 80, 24));
}

/// The same game over, seen by a watcher: the result, and the keys that are left (browse, leave).
#[test]
fn a_table_game_over_for_a_watcher_80x24() {
    let app = over_at_table(None);
    insta::assert_snapshot!(common::screen::screen(&app, 80, 24));
}

#[test]
fn pause_asks_the_opponent_and_starts_the_clocks_again_once_stopped() {
    let mut app = seated(Color::Black);
    assert_eq!(
        requests(&app.update(Action::Submit(":pause".into()))),
        [TableRequest::Offer(OfferKind::Pause)]
    );
    let mut game = AnyGame::new(GameType::default());
    game.truncate();
    let _ = app.update(Action::Table(TableNews::State(Arc::new(TableState {
        game,
        seats: [seat("ann"), seat("bob")],
        clocks: Some([Duration::from_secs(300); 2]),
        running: None,
        first_move_left: None,
        watchers: 0,
        rated: true,
        paused: true,
        unrecorded: false,
        node_silent: false,
    }))));
    assert!(
        app.status().contains("stopped by agreement"),
        "{}",
        app.status()
    );
    assert_eq!(requests(&app.update(Action::Pause)), [TableRequest::Resume]);
}

/// The table's state with Bob (White, to move) away for `left` more to come back, his clock at 4:31 running.
fn bob_away(left: Duration) -> TableNews {
    let mut game = AnyGame::new(GameType::default());
    game.play_text("11-15").expect("a legal move");
    let mut bob = seat("bob");
    if let Some(bob) = bob.as_mut() {
        bob.away = Some(left);
    }
    TableNews::State(Arc::new(TableState {
        game,
        seats: [seat("ann"), bob],
        clocks: Some([Duration::from_secs(300), Duration::from_secs(271)]),
        running: Some(Color::White),
        first_move_left: None,
        watchers: 1,
        rated: true,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }))
}

#[test]
fn the_time_to_come_back_ticks_and_its_end_offers_the_claims() {
    let mut ann = seated(Color::Black);
    let mut watcher = App::at_table(TableView::new(None, "K7QX"), GameType::default());
    let _ = ann.update(Action::Table(state(&["11-15"])));
    for app in [&mut ann, &mut watcher] {
        let _ = app.update(Action::Table(bob_away(Duration::from_secs(15))));
        assert!(app.status().contains("0:15 left"), "{}", app.status());
        // A second later the state says so, and so does the status line.
        let _ = app.update(Action::Table(bob_away(Duration::from_secs(14))));
        assert!(app.status().contains("0:14 left"), "{}", app.status());
        // The header keeps the absent player's running clock beside the countdown.
        let screen = common::screen::screen(app, 80, 24);
        assert!(screen.contains("away 0:14 >4:31"), "{screen}");
    }
    // A chat line is not wiped by the next tick.
    let _ = ann.update(Action::Table(TableNews::Chat {
        from: "cy".into(),
        text: "he will be back".into(),
        by: String::new(),
    }));
    let _ = ann.update(Action::Table(bob_away(Duration::from_secs(13))));
    assert_eq!(ann.status(), "cy: he will be back");
    // The grace is over: the status line says so, whatever it showed, with the commands that end the game.
    for app in [&mut ann, &mut watcher] {
        let _ = app.update(Action::Table(bob_away(Duration::ZERO)));
        assert!(
            app.status().contains("bob has not come back"),
            "{}",
            app.status()
        );
        let screen = common::screen::screen(app, 80, 24);
        assert!(screen.contains("gone >4:31"), "{screen}");
    }
    assert!(
        ann.status().contains(":claim wins the game"),
        "{}",
        ann.status()
    );
    assert!(
        ann.status().contains(":claim draw calls it a draw"),
        "{}",
        ann.status()
    );
    assert!(!watcher.status().contains(":claim"), "{}", watcher.status());
    assert_eq!(
        requests(&ann.update(Action::Submit(":claim draw".into()))),
        [TableRequest::ClaimDraw]
    );
    assert_eq!(
        requests(&ann.update(Action::Submit(":claim".into()))),
        [TableRequest::Claim]
    );
    assert!(requests(&watcher.update(Action::Submit(":claim".into()))).is_empty());
}

#[test]
fn offers_name_the_opponent_and_a_waiting_seat_gives_the_whole_command() {
    let mut app = seated(Color::White);
    let _ = app.update(Action::Table(TableNews::Offer(OfferKind::Draw)));
    assert_eq!(
        app.status(),
        "ann offers a draw. Accept? y: accept, n: decline"
    );
    let screen = common::screen::screen(&app, 80, 24);
    assert!(screen.contains("ann offers a draw"), "{screen}");
    let _ = app.update(Action::Answer(false));
    let _ = app.update(Action::Table(TableNews::Declined(OfferKind::Takeback)));
    assert!(
        app.status().starts_with("ann declines a takeback."),
        "{}",
        app.status()
    );

    // Waiting for an opponent: the code, and the whole command a friend types to join.
    let mut table = TableView::new(Some(Color::Black), "9WXJ");
    table.set_reached_by(Some("ssh -t -p 2222 192.0.2.7".into()));
    let mut app = App::at_table(table, GameType::default());
    let _ = app.update(Action::Table(TableNews::State(Arc::new(TableState {
        game: AnyGame::new(GameType::default()),
        seats: [seat("ann"), None],
        clocks: None,
        running: None,
        first_move_left: None,
        watchers: 0,
        rated: false,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }))));
    assert!(
        app.status()
            .contains("a friend types `ssh -t -p 2222 192.0.2.7 join 9WXJ`"),
        "{}",
        app.status()
    );
}

/// A game at a table over after Black resigned, as the player in seat `mine` (or a watcher) sees it.
fn over_at_table(mine: Option<Color>) -> App {
    let mut app = App::at_table(TableView::new(mine, "K7QX"), GameType::default());
    let mut over = AnyGame::new(GameType::default());
    for text in ["11-15", "23-19"] {
        over.play_text(text).expect("legal");
    }
    over.resign(Color::Black).expect("resigned");
    let _ = app.update(Action::Table(ended(over, None, 3)));
    app
}

/// The game over for a player: the result, then a rematch offered first, browsing, and the way back to the
/// lobby.
#[test]
fn a_table_game_over_for_a_player_80x24() {
    let app = over_at_table(Some(Color::White));
    insta::assert_snapshot!(common::screen::screen(&app, 80, 24));
}

#[test]
fn a_rematch_is_offered_after_the_game_and_answered_by_the_other() {
    // Not before the game is over.
    let mut playing = seated(Color::Black);
    assert!(requests(&playing.update(Action::Submit(":rematch".into()))).is_empty());
    assert_eq!(playing.status(), "a rematch is for after the game");
    // A watcher has no rematch to offer.
    let mut watcher = over_at_table(None);
    assert!(requests(&watcher.update(Action::Submit(":rematch".into()))).is_empty());
    assert_eq!(watcher.status(), "you are watching this game");
    // Bob offers one with the rematch key; Ann is asked, by his name, and her answer goes to the table.
    let mut bob = over_at_table(Some(Color::White));
    assert_eq!(
        requests(&bob.update(Action::Rematch)),
        [TableRequest::Offer(OfferKind::Rematch)]
    );
    let mut ann = over_at_table(Some(Color::Black));
    let _ = ann.update(Action::Table(TableNews::Offer(OfferKind::Rematch)));
    assert_eq!(ann.question(), Some(Question::Offered(OfferKind::Rematch)));
    assert!(
        ann.status()
            .starts_with("bob offers a rematch, colours swapped"),
        "{}",
        ann.status()
    );
    assert_eq!(
        requests(&ann.update(Action::Answer(true))),
        [TableRequest::Answer {
            kind: OfferKind::Rematch,
            accept: true
        }]
    );
    // The table says where the rematch is; the front end takes everyone there.
    let _ = ann.update(Action::Table(TableNews::Rematch("M4TR".into())));
    assert!(ann.status().contains("M4TR"), "{}", ann.status());
}

#[test]
fn an_offer_waiting_when_the_game_ends_is_no_longer_asked() {
    let mut app = seated(Color::White);
    let _ = app.update(Action::Table(state(&["11-15"])));
    let _ = app.update(Action::Table(TableNews::Offer(OfferKind::Takeback)));
    assert_eq!(app.question(), Some(Question::Offered(OfferKind::Takeback)));
    // White's flag falls while the question is open.
    let mut over = AnyGame::new(GameType::default());
    over.play_text("11-15").expect("legal");
    over.declare(crowned::game::lost_on_time(Color::White))
        .expect("declared");
    let clocks = Some([Duration::from_secs(290), Duration::ZERO]);
    let _ = app.update(Action::Table(ended(over, clocks, 0)));
    assert_eq!(app.question(), None, "nothing is left to answer");
    assert!(matches!(app.mode(), Mode::Over(_)));
    // y now means nothing to the table.
    let effects = app.update(Action::Answer(true));
    assert!(requests(&effects).is_empty(), "{effects:?}");
}

#[test]
fn the_players_are_told_while_the_server_cannot_save_and_when_it_can_again() {
    let mut app = seated(Color::Black);
    let unsaved = |unrecorded| {
        let TableNews::State(state) = state(&[]) else {
            unreachable!("a state")
        };
        TableNews::State(Arc::new(TableState {
            unrecorded,
            ..(*state).clone()
        }))
    };
    let _ = app.update(Action::Table(unsaved(true)));
    assert_eq!(
        app.status(),
        "move 1, Black to play: your move · the server cannot save moves right now: a move is played once it is \
         saved, so try again in a moment"
    );
    let _ = app.update(Action::Table(unsaved(false)));
    assert_eq!(app.status(), "move 1, Black to play: your move");
}

#[test]
fn chat_is_muted_and_the_opponent_blocked_or_reported_through_the_server() {
    let mut app = seated(Color::Black);
    let _ = app.update(Action::Table(state(&["11-15"])));
    let chat = |text: &str| {
        Action::Table(TableNews::Chat {
            from: "bob".into(),
            text: text.into(),
            by: "SHA256:bob".into(),
        })
    };
    assert!(app.update(Action::Submit(":mute".into())).is_empty());
    assert!(app.status().contains("muted"), "{}", app.status());
    let _ = app.update(chat("unheard"));
    assert_eq!(app.table().map(|t| t.chat().len()), Some(0));
    let _ = app.update(Action::Submit(":mute".into()));
    let _ = app.update(chat("heard"));
    assert_eq!(app.status(), "bob: heard");
    assert_eq!(app.table().map(|t| t.chat().len()), Some(1));

    let conduct = |effects: Vec<Effect>| -> Vec<ConductRequest> {
        effects
            .into_iter()
            .filter_map(|e| match e {
                Effect::Conduct(c) => Some(c),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        conduct(app.update(Action::Submit(":report stalls when losing".into()))),
        [ConductRequest::Report("stalls when losing".into())]
    );
    assert!(conduct(app.update(Action::Submit(":report".into()))).is_empty());
    assert!(app.status().contains("say why"), "{}", app.status());
    assert_eq!(
        conduct(app.update(Action::Submit(":block".into()))),
        [ConductRequest::Block]
    );
    let _ = app.update(Action::Table(TableNews::Told(
        "you have blocked bob".into(),
    )));
    assert_eq!(app.status(), "you have blocked bob");

    // A watcher has no opponent to block, and a local game no table.
    let mut watcher = App::at_table(TableView::new(None, "K7QX"), GameType::default());
    let _ = watcher.update(Action::Table(state(&["11-15"])));
    assert!(conduct(watcher.update(Action::Submit(":block".into()))).is_empty());
    assert!(
        watcher.status().contains("you are watching"),
        "{}",
        watcher.status()
    );
    let (mut local, _) = App::new(crate::common::app::HUMANS);
    assert!(conduct(local.update(Action::Submit(":report rude".into()))).is_empty());
    assert!(local.status().contains("on a server"), "{}", local.status());
}

#[test]
fn a_tournament_s_board_offers_no_rematch() {
    let mut table = TableView::new(Some(Color::Black), "K7QX");
    table.set_in_event(true);
    let mut app = App::at_table(table, GameType::default());
    let mut game = AnyGame::new(GameType::default());
    game.play_text("11-15").expect("a legal move");
    let _ = app.update(Action::Table(ended_by_resignation(game)));
    assert!(requests(&app.update(Action::Rematch)).is_empty());
    assert!(app.status().contains("no rematch"), "{}", app.status());
    let screen = crate::common::screen::screen(&app, 80, 24);
    assert!(!screen.contains("rematch (colours swapped)"), "{screen}");
    assert!(screen.contains("the event's table follows"), "{screen}");
}

/// The table's state once White has resigned `game`.
fn ended_by_resignation(mut game: AnyGame) -> TableNews {
    game.resign(Color::White).expect("resigns");
    ended(game, None, 0)
}

#[test]
fn a_provisional_rating_is_marked_in_the_table_s_header() {
    let mut app = seated(Color::Black);
    let mut game = AnyGame::new(GameType::default());
    game.play_text("11-15").expect("a legal move");
    let mut newcomer = seat("bob");
    if let Some(seat) = newcomer.as_mut() {
        seat.provisional = true;
    }
    let _ = app.update(Action::Table(TableNews::State(Arc::new(TableState {
        game,
        seats: [seat("ann"), newcomer],
        clocks: Some([Duration::from_secs(300), Duration::from_secs(297)]),
        running: Some(Color::White),
        first_move_left: None,
        watchers: 0,
        rated: true,
        paused: false,
        unrecorded: false,
        node_silent: false,
    }))));
    let screen = crate::common::screen::screen(&app, 100, 30);
    assert!(screen.contains("bob (1500?)"), "{screen}");
    assert!(screen.contains("ann (1500)"), "{screen}");
}
