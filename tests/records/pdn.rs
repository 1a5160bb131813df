//! PDN reading and writing against the real files in the shared reference data, and round trips.

use crate::common;
mod pieces;

use std::path::{Path, PathBuf};

use crowned::game::pdn::{
    GameCheck, check_games, parse_games, replay, replay_english, write_game, write_games,
};
use crowned::game::{Game, Outcome, WinReason};
use crowned::rules::{Color, English, International};
use proptest::prelude::*;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pdn")
}

/// The text of a reference file, or `None` (with a note) when the reference data is not there.
fn read(relative: &str) -> Option<String> {
    let path = data_dir().join(relative);
    match std::fs::read(&path) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) => {
            eprintln!(
                "skipped: reference data {} not readable: {e}",
                path.display()
            );
            None
        }
    }
}

fn problems(checks: &[GameCheck]) -> Vec<(usize, String)> {
    checks
        .iter()
        .filter_map(|c| c.problem.clone().map(|p| (c.index, p)))
        .collect()
}

#[test]
fn tinsley_has_one_illegal_move_in_724_games() {
    let Some(text) = read("tinsley.pdn") else {
        return;
    };
    let checks = check_games(&text);
    assert_eq!(checks.len(), 724);
    assert_eq!(
        problems(&checks),
        vec![(
            541,
            "move 62 32-28: there is no black piece on 32".to_string()
        )]
    );
    assert_eq!(checks[540].event, "Petal 1981, game 18");
}

#[test]
fn english_conformance_files_replay() {
    // (file, games, games with a problem)
    let expected: [(&str, usize, &[usize]); 7] = [
        ("sample.pdn", 1, &[]),
        ("german_open_2004.pdn", 1, &[]),
        ("conformance/succeed/OCA_2.0.pdn", 43, &[]),
        ("conformance/succeed/inferno.pdn", 68, &[]),
        ("conformance/succeed/Principles_of_Strategy.pdn", 16, &[]),
        // Two captures written start-to-end that two routes fit: real ambiguities in the record.
        (
            "conformance/succeed/Tricks_traps_and_shots.pdn",
            91,
            &[57, 90],
        ),
        // Problem 88 has a white man on square 3, where it would have been crowned.
        ("conformance/succeed/goulds.pdn", 262, &[93]),
    ];
    for (file, games, bad) in expected {
        let Some(text) = read(file) else {
            return;
        };
        let checks = check_games(&text);
        assert_eq!(checks.len(), games, "{file}");
        let found: Vec<usize> = problems(&checks).iter().map(|(i, _)| *i).collect();
        assert_eq!(found, bad, "{file}: {:?}", problems(&checks));
    }
}

#[test]
fn every_conformance_success_file_parses() {
    let dir = data_dir().join("conformance/succeed");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} not readable", dir.display());
        return;
    };
    let mut files = 0;
    for entry in entries.flatten() {
        let text =
            String::from_utf8_lossy(&std::fs::read(entry.path()).expect("readable")).into_owned();
        let games = parse_games(&text);
        assert!(!games.is_empty(), "{}", entry.path().display());
        for game in games {
            assert!(game.is_ok(), "{}: {:?}", entry.path().display(), game.err());
        }
        files += 1;
    }
    assert_eq!(files, 15);
}

#[test]
fn every_conformance_failure_file_is_rejected_with_a_place() {
    let expected = [
        ("Cat.A1.pdn", 30, 405, "expected a move, found \".\""),
        (
            "delfts.pdn",
            1,
            5,
            "the Result tag must be 1-0, 0-1, 1/2-1/2 or * (or 2-0, 0-2, 1-1), not \"4-6\"",
        ),
        (
            "nested_comment.pdn",
            1,
            1,
            "a comment cannot hold another '{'",
        ),
    ];
    for (file, game, line, message) in expected {
        let Some(text) = read(&format!("conformance/fail/{file}")) else {
            return;
        };
        let first = parse_games(&text)
            .into_iter()
            .find_map(Result::err)
            .unwrap_or_else(|| panic!("{file} was accepted"));
        assert_eq!((first.game, first.line), (game, line), "{file}: {first}");
        assert!(first.message.contains(message), "{file}: {first}");
    }
}

#[test]
fn international_files_replay_with_the_international_rules() {
    let Some(text) = read("conformance/succeed/wk2003.pdn") else {
        return;
    };
    let checks = check_games(&text);
    assert_eq!(checks.len(), 23);
    assert_eq!(problems(&checks), vec![]);
    let first = parse_games(&text).remove(0).expect("parses");
    let replayed = replay::<International>(&first);
    assert_eq!(replayed.error, None);
    assert_eq!(replayed.game.len(), 80);
}

/// Every English game that replays writes out and reads back as the same game.
#[test]
fn real_games_round_trip() {
    for file in [
        "tinsley.pdn",
        "sample.pdn",
        "conformance/succeed/OCA_2.0.pdn",
        "conformance/succeed/Tricks_traps_and_shots.pdn",
        "conformance/succeed/goulds.pdn",
    ] {
        let Some(text) = read(file) else {
            return;
        };
        let mut compared = 0;
        for parsed in parse_games(&text).into_iter().flatten() {
            let first = replay_english(&parsed);
            if first.error.is_some() {
                continue;
            }
            let written = write_game(&first.game);
            assert!(written.lines().all(|l| l.chars().count() < 80), "{written}");
            let again = parse_games(&written);
            assert_eq!(again.len(), 1, "{written}");
            let second = replay_english(again[0].as_ref().expect("our own output parses"));
            assert_eq!(second.error, None, "{written}");
            assert_same(&first.game, &second.game, &written);
            assert_eq!(write_game(&second.game), written, "writing is stable");
            compared += 1;
        }
        assert!(compared > 0, "{file}");
    }
}

fn assert_same(a: &Game, b: &Game, context: &str) {
    assert_eq!(a.start(), b.start(), "{context}");
    assert_eq!(a.moves(), b.moves(), "{context}");
    for ply in 0..=a.len() {
        assert_eq!(a.comment(ply), b.comment(ply), "{context}");
    }
    // The writer makes Result, GameType, SetUp and FEN from the game itself; the other tags travel as they are.
    let derived = ["Result", "GameType", "SetUp", "FEN"];
    for (name, value) in a.tags().iter().filter(|(n, _)| !derived.contains(n)) {
        assert_eq!(b.tags().get(name), Some(value), "{context}");
    }
    assert_eq!(
        a.final_outcome().map(|o| o.winner()),
        b.final_outcome().map(|o| o.winner()),
        "{context}"
    );
}

/// A random game from random play, with random comments, tags and ending.
fn random_game() -> impl Strategy<Value = Game> {
    (
        prop::collection::vec(any::<prop::sample::Index>(), 0..120),
        prop::collection::vec(("[a-zA-Z0-9 ,.!?'\"-]{0,30}", any::<bool>()), 0..120),
        "[ -~]{0,20}",
        0u8..4,
    )
        .prop_map(|(choices, comments, event, ending)| {
            let mut game: Game = Game::new();
            for (i, choice) in choices.iter().enumerate() {
                if game.outcome().is_some() {
                    break;
                }
                let moves = game.position().legal_moves();
                let mv = moves[choice.index(moves.len())];
                game.play(&mv).expect("legal");
                if let Some((text, keep)) = comments.get(i)
                    && *keep
                    && !text.trim().is_empty()
                {
                    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    game.set_comment(i + 1, Some(words));
                }
            }
            game.tags_mut().set("Event", &event);
            game.tags_mut().set("White", "W \\ \"quoted\"");
            common::declare_ending(&mut game, ending);
            game
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_round_trip(game in random_game()) {
        let written = write_game(&game);
        let parsed = parse_games(&written);
        prop_assert_eq!(parsed.len(), 1);
        let back = replay_english(parsed[0].as_ref().expect("our own output parses"));
        prop_assert_eq!(&back.error, &None);
        assert_same(&game, &back.game, &written);
        prop_assert_eq!(game.tags().get("Event"), back.game.tags().get("Event"));
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = check_games(&text);
    }

    #[test]
    fn pdn_like_noise_never_panics(text in "[\\[\\]{}()\"%$!?.…0-9xX:/* a-h\\-\n\r]{0,300}") {
        let _ = check_games(&text);
    }
}

/// Mutations of a real file: characters deleted, doubled, swapped for PDN punctuation. Nothing panics, and
/// every game either parses or names a place inside the text.
#[test]
fn mutated_real_files_never_panic() {
    let Some(text) = read("sample.pdn") else {
        return;
    };
    let chars: Vec<char> = text.chars().collect();
    let lines = text.lines().count();
    let noise = [
        '{', '}', '(', ')', '[', ']', '"', '.', 'x', '-', '%', '\n', '$', '*', '0',
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for round in 0..3000 {
        let mut mutated = chars.clone();
        for _ in 0..1 + round % 4 {
            // xorshift: a fixed, reproducible stream of positions and replacements.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed % mutated.len() as u64) as usize;
            match seed % 3 {
                0 => {
                    mutated.remove(at);
                }
                1 => mutated.insert(at, mutated[at]),
                _ => mutated[at] = noise[(seed / 3 % noise.len() as u64) as usize],
            }
        }
        let mutated: String = mutated.into_iter().collect();
        for game in parse_games(&mutated) {
            if let Err(e) = game {
                assert!(e.line >= 1 && e.line <= lines + 2, "{e}");
                assert!(e.column >= 1, "{e}");
            }
        }
        let _ = check_games(&mutated);
    }
}

#[test]
fn many_games_write_and_read() {
    let mut a: Game = Game::new();
    a.play_text("11-15").expect("legal");
    let mut b: Game = Game::from_fen("B:W18:B14").expect("valid");
    b.play_text("14x23").expect("legal");
    let text = write_games(&[a, b]);
    let games: Vec<_> = parse_games(&text).into_iter().flatten().collect();
    assert_eq!(games.len(), 2);
    let second = replay::<English>(&games[1]);
    assert_eq!(
        second.game.final_outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPieces
        })
    );
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).exists());
}
