//! The table's state machine driven by hand, with no task, channel or clock: inputs in, effects out, the time
//! given with each.

use super::*;
use crate::serve::recorder::{CommitError, Job};
use crate::serve::table::machine::{Conn, Input, Table, TableEffect, TableSetup};

fn person(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    }
}

/// A recorded table with both players seated from connections 1 and 2, at time zero.
fn seated(clock: Option<&str>) -> Table {
    seated_with(config(clock, 60_000))
}

/// A recorded table of `config` with both players seated from connections 1 and 2 (rated 1500, Bob's rating
/// provisional), at time zero.
fn seated_with(config: TableConfig) -> Table {
    let setup = TableSetup {
        recorded: true,
        writing: true,
        ..TableSetup::default()
    };
    let mut table = Table::new(config, setup, Duration::ZERO);
    for (i, name) in ["ann", "bob"].into_iter().enumerate() {
        let sit = Input::Sit {
            who: person(name),
            color: None,
            rating: Some(1500),
            provisional: name == "bob",
            returning: false,
            conn: Conn(i as u64 + 1),
        };
        let effects = table.handle(sit, Duration::ZERO);
        // Bob's seat starts the game in the records: shown once they hold it.
        if effects.iter().any(|e| matches!(e, TableEffect::Commit(_))) {
            table.handle(Input::Committed(Ok(())), Duration::ZERO);
        }
    }
    table
}

/// [`seated`], with each side's first move (which no clock times) played at time zero: Black's clock runs.
fn moved(clock: Option<&str>) -> Table {
    let mut table = seated(clock);
    let mut game = AnyGame::new(GameType::standard(Variant::English));
    for (who, text) in [("ann", "11-15"), ("bob", "23-19")] {
        let mv = game.play_text(text).expect("legal");
        let ask = Input::Ask {
            who: person(who).fingerprint,
            request: TableRequest::Play(mv),
        };
        let effects = table.handle(ask, Duration::ZERO);
        assert!(
            effects.iter().any(|e| matches!(e, TableEffect::Commit(_))),
            "{effects:?}"
        );
        table.handle(Input::Committed(Ok(())), Duration::ZERO);
    }
    table
}

/// Wakes the table whenever it asks, up to `until`: the effects, with the time of each.
fn run_until(table: &mut Table, until: Duration) -> Vec<(Duration, TableEffect)> {
    let mut seen = Vec::new();
    while let Some(at) = table.next_wake().filter(|at| *at <= until) {
        for effect in table.handle(Input::Wake, at) {
            seen.push((at, effect));
        }
    }
    seen
}

#[test]
fn a_running_clock_is_noted_in_the_records_every_period_and_ticks_every_second() {
    let mut table = moved(Some("5+3"));
    let seen = run_until(&mut table, Duration::from_secs(10));
    let notes: Vec<Duration> = seen
        .iter()
        .filter(|(_, e)| matches!(e, TableEffect::Note(Job::Clocks { .. })))
        .map(|(at, _)| *at)
        .collect();
    let ticks = seen
        .iter()
        .filter(|(_, e)| {
            matches!(
                e,
                TableEffect::Send {
                    update: Update::Clocks(_),
                    ..
                }
            )
        })
        .count();
    // A note at every whole period, whatever else falls due at the same moment.
    let period = NOTE_CLOCKS_EVERY.as_secs();
    assert_eq!(notes.len() as u64, 10 / period, "{notes:?}");
    // Each second's tick to both players.
    assert!((18..=22).contains(&ticks), "{ticks} ticks");
}

#[test]
fn a_note_due_with_a_tick_is_written_at_the_next_wake_up_not_skipped() {
    // A loaded machine wakes the table late: every second's tick and the note due in the same instant are both
    // past when it wakes, and the table handles one of them a time. The note must still come, every period.
    let mut table = moved(Some("5+3"));
    let late = Duration::from_millis(400);
    let mut notes = Vec::new();
    let mut last = Duration::ZERO;
    while let Some(at) = table.next_wake() {
        let at = at.max(last) + late;
        if at > Duration::from_secs(20) {
            break;
        }
        last = at;
        let effects = table.handle(Input::Wake, at);
        if effects
            .iter()
            .any(|e| matches!(e, TableEffect::Note(Job::Clocks { .. })))
        {
            notes.push(at);
        }
    }
    let period = NOTE_CLOCKS_EVERY.as_secs_f64();
    assert!(notes.len() as f64 >= 20.0 / period - 1.0, "{notes:?}");
    // No two periods without a note.
    for pair in notes.windows(2) {
        assert!(
            (pair[1] - pair[0]).as_secs_f64() <= period + 1.0,
            "{notes:?}"
        );
    }
}

#[test]
fn a_move_is_shown_only_once_the_records_answer_and_undone_when_they_refuse() {
    let mut table = seated(None);
    let mv = AnyGame::new(GameType::standard(Variant::English))
        .position()
        .legal_moves()[0];
    let ask = |mv: &Move| Input::Ask {
        who: person("ann").fingerprint,
        request: TableRequest::Play(*mv),
    };
    let effects = table.handle(ask(&mv), Duration::from_secs(1));
    assert!(
        matches!(effects.as_slice(), [TableEffect::Commit(jobs)] if matches!(jobs.as_slice(), [Job::Move { ply: 0, .. }])),
        "{effects:?}"
    );
    assert!(table.awaiting_records());
    // Refused: each player is shown the game without it, and Ann hears why.
    let effects = table.handle(
        Input::Committed(Err(CommitError::Unwritable)),
        Duration::from_secs(1),
    );
    let states: Vec<usize> = effects
        .iter()
        .filter_map(|e| match e {
            TableEffect::Send {
                update: Update::State(s),
                ..
            } => Some(s.game.len()),
            _ => None,
        })
        .collect();
    assert_eq!(states, [0, 0]);
    assert!(effects.iter().any(|e| matches!(
        e,
        TableEffect::Send {
            to: Conn(1),
            update: Update::MoveRefused(_)
        }
    )));
    // Played again and written: shown to both.
    table.handle(ask(&mv), Duration::from_secs(2));
    let effects = table.handle(Input::Committed(Ok(())), Duration::from_secs(2));
    let shown = effects
        .iter()
        .filter(
            |e| matches!(e, TableEffect::Send { update: Update::State(s), .. } if s.game.len() == 1),
        )
        .count();
    assert_eq!(shown, 2);
}

#[test]
fn a_player_alone_at_a_table_cannot_resign_a_game_that_has_not_begun() {
    let setup = TableSetup {
        recorded: true,
        writing: true,
        ..TableSetup::default()
    };
    let mut table = Table::new(config(None, 60_000), setup, Duration::ZERO);
    table.handle(
        Input::Sit {
            who: person("ann"),
            color: None,
            rating: None,
            provisional: false,
            returning: false,
            conn: Conn(1),
        },
        Duration::ZERO,
    );
    let effects = table.handle(
        Input::Ask {
            who: person("ann").fingerprint,
            request: TableRequest::Resign,
        },
        Duration::from_secs(1),
    );
    // Refused with the reason, and nothing shown as over (nor sent to the records).
    assert!(
        effects.iter().any(|e| matches!(
            e,
            TableEffect::Send { to: Conn(1), update: Update::Refused(why) } if why.contains("opponent sits down")
        )),
        "{effects:?}"
    );
    assert!(!effects.iter().any(|e| matches!(
        e,
        TableEffect::Commit(_)
            | TableEffect::Send {
                update: Update::State(_),
                ..
            }
    )));
    assert!(!table.finished());
}

/// The first state among `effects`, sent to anyone.
fn first_state(effects: &[TableEffect]) -> Option<Arc<Snapshot>> {
    effects.iter().find_map(|e| match e {
        TableEffect::Send {
            update: Update::State(s),
            ..
        } => Some(Arc::clone(s)),
        _ => None,
    })
}

/// Wakes `table` whenever it asks up to `until`, and gives the states it sent (to anyone) with their times.
fn states_until(table: &mut Table, until: Duration) -> Vec<(Duration, Arc<Snapshot>)> {
    run_until(table, until)
        .into_iter()
        .filter_map(|(at, effect)| match effect {
            TableEffect::Send {
                update: Update::State(state),
                ..
            } => Some((at, state)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_timed_game_waits_for_each_first_move_and_is_aborted_without_one() {
    let mut table = seated(Some("5+3"));
    // The first move is not timed, but its time counts down on everyone's screen, a second at a time.
    let shown = states_until(&mut table, Duration::from_secs(3));
    let left: Vec<Option<Duration>> = shown.iter().map(|(_, s)| s.first_move_left).collect();
    assert!(
        left.contains(&Some(FIRST_MOVE_LIMIT - Duration::from_secs(2))),
        "{left:?}"
    );
    assert!(
        shown.iter().all(|(_, s)| s.running.is_none()),
        "no clock runs"
    );
    // Ann moves at 10 s: Bob's time for his first move starts then, and still no clock runs.
    let mv = AnyGame::new(GameType::standard(Variant::English))
        .play_text("11-15")
        .expect("legal");
    let ask = Input::Ask {
        who: person("ann").fingerprint,
        request: TableRequest::Play(mv),
    };
    let _ = table.handle(ask, Duration::from_secs(10));
    let effects = table.handle(Input::Committed(Ok(())), Duration::from_secs(10));
    let after = first_state(&effects).expect("a state");
    assert_eq!(after.running, None);
    assert_eq!(after.first_move_left, Some(FIRST_MOVE_LIMIT));
    assert_eq!(
        after.clocks.map(|c| c[0]),
        Some(Duration::from_secs(300)),
        "no increment, no time spent"
    );
    // Bob never moves: at 10 s + the limit the game is aborted, and the records hear a result of `*`.
    let limit = Duration::from_secs(10) + FIRST_MOVE_LIMIT;
    let mut ended = None;
    while let Some(at) = table
        .next_wake()
        .filter(|at| *at <= limit + Duration::from_secs(1))
    {
        for effect in table.handle(Input::Wake, at) {
            if let TableEffect::Commit(jobs) = &effect
                && let Some(Job::Finish { result, .. }) =
                    jobs.iter().find(|j| matches!(j, Job::Finish { .. }))
            {
                ended = Some((at, result.clone()));
            }
        }
        if table.awaiting_records() {
            let _ = table.handle(Input::Committed(Ok(())), at);
        }
    }
    assert_eq!(ended, Some((limit, "*".to_string())));
    let state = table.state();
    let Update::State(state) = state else {
        unreachable!("a state")
    };
    let outcome = state.game.outcome().expect("over");
    assert!(outcome.is_aborted(), "{outcome:?}");
    assert_eq!(
        outcome.to_string(),
        "Game aborted: White did not make a first move in time (no result, not rated)"
    );
}

#[test]
fn a_game_without_clocks_has_no_time_for_a_first_move() {
    let mut table = seated(None);
    assert!(table.next_wake().is_none());
    let Update::State(state) = table.state() else {
        unreachable!("a state")
    };
    assert_eq!(state.first_move_left, None);
}

#[test]
fn a_rated_game_s_end_shows_each_rating_change_once_the_records_hold_the_result() {
    let mut table = seated_with(TableConfig {
        rated: true,
        ..config(None, 60_000)
    });
    let resign = Input::Ask {
        who: person("ann").fingerprint,
        request: TableRequest::Resign,
    };
    let effects = table.handle(resign, Duration::from_secs(1));
    // Nothing is read before the result is written.
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, TableEffect::ReadRatings { .. })),
        "{effects:?}"
    );
    let effects = table.handle(Input::Committed(Ok(())), Duration::from_secs(1));
    let asked = effects.iter().find_map(|e| match e {
        TableEffect::ReadRatings { players, variant } => Some((players.clone(), variant.clone())),
        _ => None,
    });
    assert_eq!(
        asked,
        Some((
            [person("ann").fingerprint, person("bob").fingerprint],
            "english".to_string()
        ))
    );
    let effects = table.handle(Input::Ratings([1338, 1662]), Duration::from_secs(2));
    let shown = first_state(&effects).expect("a state to everyone");
    let changes: Vec<Option<String>> = shown
        .seats
        .iter()
        .map(|s| s.as_ref().and_then(crate::app::SeatView::rating_change))
        .collect();
    assert_eq!(
        changes,
        [
            Some("1500 → 1338 (-162)".to_string()),
            Some("1500 → 1662 (+162)".to_string())
        ]
    );
}

#[test]
fn a_provisional_rating_is_told_with_the_seat() {
    let mut rated = config(Some("5+3"), 60_000);
    rated.rated = true;
    let mut table = seated_with(rated);
    let mut game = AnyGame::new(GameType::standard(Variant::English));
    let mv = game.play_text("11-15").expect("legal");
    let ask = Input::Ask {
        who: person("ann").fingerprint,
        request: TableRequest::Play(mv),
    };
    let _ = table.handle(ask, Duration::ZERO);
    let effects = table.handle(Input::Committed(Ok(())), Duration::ZERO);
    let state = first_state(&effects).expect("the move is told");
    let provisional = state
        .seats
        .each_ref()
        .map(|seat| seat.as_ref().map(|s| (s.rating, s.provisional)));
    assert_eq!(
        provisional,
        [Some((Some(1500), false)), Some((Some(1500), true))]
    );
}

/// The news the table leaves for its absent players among `effects`: to whom, and what.
fn news(effects: &[TableEffect]) -> Vec<(String, String)> {
    effects
        .iter()
        .filter_map(|e| match e {
            TableEffect::Note(Job::News { player, text }) => {
                Some((player.to_string(), text.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Bob's connection (2) goes at time zero.
fn bob_leaves(table: &mut Table) {
    let _ = table.handle(
        Input::Leave {
            who: person("bob").fingerprint,
            conn: Some(Conn(2)),
        },
        Duration::ZERO,
    );
}

#[test]
fn a_player_away_at_the_end_is_left_word_of_it_with_the_rating_change() {
    // Rated: Bob leaves, Ann claims the game once his time to come back is over; the word for Bob waits for
    // the ratings after the game.
    let mut rated = config(None, 1_000);
    rated.rated = true;
    let mut table = seated_with(rated);
    let bob = person("bob");
    bob_leaves(&mut table);
    let claim = Input::Ask {
        who: person("ann").fingerprint,
        request: TableRequest::Claim,
    };
    let at = Duration::from_secs(2);
    let effects = table.handle(claim, at);
    assert!(
        effects.iter().any(|e| matches!(e, TableEffect::Commit(_))),
        "{effects:?}"
    );
    let effects = table.handle(Input::Committed(Ok(())), at);
    assert!(
        news(&effects).is_empty(),
        "not before the ratings: {effects:?}"
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, TableEffect::ReadRatings { .. }))
    );
    let effects = table.handle(Input::Ratings([1512, 1488]), at);
    let told = news(&effects);
    assert_eq!(told.len(), 1, "Bob alone, who was away: {told:?}");
    assert_eq!(told[0].0, bob.fingerprint.to_string());
    let text = &told[0].1;
    assert!(
        text.contains("against ann ended while you were away: you lost"),
        "{text}"
    );
    assert!(text.contains("White left the game"), "{text}");
    assert!(text.contains("Your rating: 1500 → 1488 (-12)."), "{text}");

    // Casual: the word is left as the end is written, with no rating.
    let mut table = seated_with(config(None, 1_000));
    bob_leaves(&mut table);
    let claim = Input::Ask {
        who: person("ann").fingerprint,
        request: TableRequest::ClaimDraw,
    };
    let _ = table.handle(claim, at);
    let effects = table.handle(Input::Committed(Ok(())), at);
    let told = news(&effects);
    assert_eq!(told.len(), 1, "{effects:?}");
    assert!(
        told[0]
            .1
            .contains("casual) against ann ended while you were away: it was drawn"),
        "{}",
        told[0].1
    );
    assert!(!told[0].1.contains("rating"), "{}", told[0].1);
}

/// Ann sits again from connection `conn`, as a connection coming back after her table moved (`returning`) or as
/// a new one: the colour she gets, or why not.
fn ann_sits_from(table: &mut Table, conn: u64, returning: bool) -> Result<Color, TableError> {
    let sit = Input::Sit {
        who: person("ann"),
        color: None,
        rating: Some(1500),
        provisional: false,
        returning,
        conn: Conn(conn),
    };
    let seated = table
        .handle(sit, Duration::ZERO)
        .into_iter()
        .find_map(|e| match e {
            TableEffect::Seated(seated) => Some(seated),
            _ => None,
        });
    seated.expect("a sit is answered")
}

#[test]
fn a_connection_coming_back_after_its_table_moved_leaves_the_seat_to_a_newer_one() {
    // Ann connected again (connection 3) while her first connection (1) looked for the game her table moved
    // with: the first one, coming back, does not take the seat from the newer.
    let mut table = seated(None);
    assert_eq!(ann_sits_from(&mut table, 3, false), Ok(Color::Black));
    assert_eq!(
        ann_sits_from(&mut table, 1, true),
        Err(TableError::SeatedElsewhere)
    );
    // The newer connection still plays: its move is the game's.
    let mv = AnyGame::new(GameType::standard(Variant::English))
        .play_text("11-15")
        .expect("legal");
    let effects = table.handle(
        Input::Ask {
            who: person("ann").fingerprint,
            request: TableRequest::Play(mv),
        },
        Duration::ZERO,
    );
    assert!(
        effects.iter().any(|e| matches!(e, TableEffect::Commit(_))),
        "{effects:?}"
    );
    // Coming back to a seat nobody holds (Bob's connection has gone) takes it, as it takes one's own again.
    bob_leaves(&mut table);
    let bob_back = Input::Sit {
        who: person("bob"),
        color: None,
        rating: Some(1500),
        provisional: true,
        returning: true,
        conn: Conn(2),
    };
    let effects = table.handle(bob_back, Duration::ZERO);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, TableEffect::Seated(Ok(Color::White)))),
        "{effects:?}"
    );
    // A new connection takes a seat held from elsewhere, as it always has (the newest connection plays).
    assert_eq!(ann_sits_from(&mut table, 4, false), Ok(Color::Black));
}
