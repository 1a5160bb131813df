//! The arena check on an event made here: three players, four games; a streak, a draw, and each way the records
//! can disagree with the games.

use super::arena_check::{ArenaCheckError, check_arena};
use super::load_arena::SeenGame;
use crate::game::AnyGame;
use crate::rules::{Color, GameType};
use crate::serve::GameId;
use crate::serve::TableCode;
use crate::serve::event_rules::{GameResult, Pairing};
use crate::serve::records::{EntryRecord, EventKind, EventRecord, EventSpec, PairingRecord, Stage};

const NAMES: [&str; 3] = ["ann", "bob", "cy"];

/// The games: (first, second, result), in the order they were paired.
const GAMES: [(u32, u32, GameResult); 4] = [
    (0, 1, GameResult::FirstWins),
    (2, 0, GameResult::SecondWins),
    (1, 2, GameResult::Draw),
    (0, 1, GameResult::FirstWins),
];

fn record() -> EventRecord {
    EventRecord {
        spec: EventSpec {
            code: TableCode::new("ARNA"),
            name: "Test arena".to_string(),
            kind: EventKind::Arena,
            variant: "english".to_string(),
            clock: "1+1".to_string(),
            rated: true,
            open: true,
            starts: 1_800_000_000,
            seconds: 60,
            rounds: 0,
            created_by: None,
        },
        stage: Stage::Finished,
        entries: NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| EntryRecord {
                entrant: i as u32,
                fingerprint: format!("SHA256:{name}").into(),
                name: name.to_string(),
                withdrawn: false,
            })
            .collect(),
        pairings: GAMES
            .iter()
            .enumerate()
            .map(|(i, &(first, second, result))| PairingRecord {
                round: i as u32,
                board: 0,
                pairing: Pairing { first, second },
                result: Some(result),
                game: Some(GameId::new(i as i64 + 1)),
            })
            .collect(),
        byes: Vec::new(),
    }
}

/// Game `i` as the server records it: a few moves, then the result (a resignation or an agreed draw).
fn pdn(i: usize) -> String {
    let (first, second, result) = GAMES[i];
    let mut game = AnyGame::new(GameType::default());
    for _ in 0..4 {
        let moves = game.position().legal_moves();
        game.play(&moves[i % moves.len()]).expect("a legal move");
    }
    match result {
        GameResult::FirstWins => game.resign(Color::White),
        GameResult::SecondWins => game.resign(Color::Black),
        GameResult::Draw => game.agree_draw(),
    }
    .expect("ended");
    let tags = game.tags_mut();
    tags.set("Event", "Test arena");
    tags.set("Site", &format!("table T00{i}"));
    tags.set("Round", &(i + 1).to_string());
    tags.set("Black", NAMES[first as usize]);
    tags.set("White", NAMES[second as usize]);
    game.to_pdn()
}

fn pdns() -> Vec<String> {
    (0..GAMES.len()).map(pdn).collect()
}

/// The games as their players saw them.
fn seen() -> Vec<SeenGame> {
    let mut seen = Vec::new();
    for (i, &(first, second, result)) in GAMES.iter().enumerate() {
        let result = match result {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        };
        for (who, black) in [(first, true), (second, false)] {
            seen.push(SeenGame {
                code: format!("T00{i}"),
                player: NAMES[who as usize].to_string(),
                black,
                result: result.to_string(),
            });
        }
    }
    seen
}

#[test]
fn an_arena_kept_as_played_is_found_whole_with_its_streak() {
    let checked = check_arena(&record(), &pdns(), &seen()).expect("the records agree");
    assert_eq!(checked.games, 4);
    assert_eq!((checked.decisive, checked.draws), (3, 1));
    assert_eq!(checked.seen, 8);
    // ann wins three in a row: 2 + 2 + 4 (the third doubled); bob a draw; cy a loss and a draw.
    assert_eq!(checked.streak_bonus, 2);
    assert_eq!(checked.table, ["ann 8 3-0-0", "bob 1 0-1-2", "cy 1 0-1-1"]);
}

#[test]
fn a_game_missing_twice_or_of_another_event_is_found() {
    let mut fewer = pdns();
    fewer.pop();
    assert!(matches!(
        check_arena(&record(), &fewer, &[]),
        Err(ArenaCheckError::Unmatched(_))
    ));
    let mut twice = pdns();
    twice.push(twice[0].clone());
    assert!(matches!(
        check_arena(&record(), &twice, &[]),
        Err(ArenaCheckError::Twice(_))
    ));
    let mut other = pdns();
    other[1] = other[1].replace("Test arena", "Another");
    assert!(matches!(
        check_arena(&record(), &other, &[]),
        Err(ArenaCheckError::OtherEvent { round: 2, .. })
    ));
}

#[test]
fn a_result_unlike_the_pairing_or_the_players_is_found() {
    let mut changed = record();
    changed.pairings[2].result = Some(GameResult::FirstWins);
    assert!(matches!(
        check_arena(&changed, &pdns(), &[]),
        Err(ArenaCheckError::NotThePairing { round: 3, .. })
    ));
    let mut swapped = record();
    swapped.pairings[0].pairing = Pairing {
        first: 1,
        second: 0,
    };
    assert!(matches!(
        check_arena(&swapped, &pdns(), &[]),
        Err(ArenaCheckError::NotThePairing { round: 1, .. })
    ));
    let mut wrong = seen();
    wrong[0].result = "0-1".to_string();
    assert!(matches!(
        check_arena(&record(), &pdns(), &wrong),
        Err(ArenaCheckError::NotAsSeen { .. })
    ));
    let mut unknown = seen();
    unknown[0].code = "ZZZZ".to_string();
    assert!(matches!(
        check_arena(&record(), &pdns(), &unknown),
        Err(ArenaCheckError::NotAsSeen { .. })
    ));
}

#[test]
fn an_event_not_over_or_with_a_game_under_way_is_refused() {
    let mut running = record();
    running.stage = Stage::Running;
    assert_eq!(
        check_arena(&running, &pdns(), &[]),
        Err(ArenaCheckError::NotFinished(Stage::Running))
    );
    let mut open = record();
    open.pairings[3].result = None;
    assert_eq!(
        check_arena(&open, &pdns(), &[]),
        Err(ArenaCheckError::Unfinished(3, "result"))
    );
}

#[test]
fn a_table_code_used_again_by_a_later_game_is_no_fault() {
    // The codes of tables that have closed are given out again: ann and bob's second game at ann and bob's
    // first table.
    let mut pdns = pdns();
    pdns[3] = pdns[3].replace("table T003", "table T000");
    let mut seen = seen();
    for game in seen.iter_mut().filter(|g| g.code == "T003") {
        game.code = "T000".to_string();
    }
    let checked = check_arena(&record(), &pdns, &seen).expect("the records agree");
    assert_eq!(checked.seen, 8);
    // A result nobody saw at that table is still found.
    seen[6].result = "0-1".to_string();
    assert!(matches!(
        check_arena(&record(), &pdns, &seen),
        Err(ArenaCheckError::NotAsSeen { .. })
    ));
}
