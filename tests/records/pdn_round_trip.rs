//! Whatever the PDN reader accepts, the writer writes so that reading it again gives the same game: moves,
//! start position, tags, comments and result. Checked on generated games (random play from the start or from
//! a set-up position, with tags and comments full of characters PDN treats specially), on the program's own
//! saved-game format, and on every game of the shared reference files.
//!
//! The generated cases are few by default; `cargo test --profile fast --test records pdn_round_trip -- --ignored` runs
//! the long mode with many more.

use crate::common;

use std::path::{Path, PathBuf};

use crowned::app::{Player, Players};
use crowned::engine::Level;
use crowned::game::pdn::{GameText, game_type_of, parse_games, replay, write_game};
use crowned::game::{AnyGame, ClockState, Game, GameVisitor};
use crowned::rules::{Defined, English, Playable, RuleSet};
use crowned::store::{SavedGame, from_pdn, to_pdn};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Tags the writer makes from the game itself rather than from its tag list.
const DERIVED: [&str; 4] = ["Result", "GameType", "SetUp", "FEN"];

/// Characters PDN gives a meaning to, line ends, control characters and a few beyond ASCII, with plain ones.
const HOSTILE: &[char] = &[
    '\\', '"', '\n', '\r', '\t', '\u{0}', '\u{1b}', '\u{7f}', ']', '[', '{', '}', '(', ')', '%',
    ';', '*', '.', '$', '!', '?', '-', 'x', '1', '0', '/', ' ', ' ', 'a', 'Z', 'é', '…',
    '\u{feff}', '\u{2028}', '\u{85}', '\u{a0}',
];

/// A text of hostile and ordinary characters; now and then a very long one.
fn hostile_text(max: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(prop::sample::select(HOSTILE), 0..max)
            .prop_map(|chars| chars.into_iter().collect::<String>()),
        1 => (prop::sample::select(HOSTILE), 1000usize..6000)
            .prop_map(|(c, n)| format!("long{}\\\"}}", c.to_string().repeat(n))),
        1 => "[ -~]{0,40}",
    ]
}

/// A tag name: mostly one the reader takes (some of them the roster's and the derived ones), sometimes one
/// it does not, which the writer must leave out rather than write an unreadable file.
fn tag_name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[A-Za-z0-9_]{1,12}",
        2 => prop::sample::select(&[
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN", "GameType", "Opening",
        ][..])
        .prop_map(str::to_string),
        1 => prop::collection::vec(prop::sample::select(HOSTILE), 0..6)
            .prop_map(|chars| chars.into_iter().collect::<String>()),
    ]
}

/// A game of random legal moves, from the start or from a position reached by random play, with random tags
/// and comments, maybe ended by resignation or agreement, and its current point anywhere in it.
fn random_game() -> impl Strategy<Value = Game> {
    (
        (0usize..30, any::<bool>()),
        prop::collection::vec(any::<prop::sample::Index>(), 0..120),
        prop::collection::vec(prop::option::weighted(0.3, hostile_text(50)), 0..121),
        prop::collection::vec((tag_name(), hostile_text(30)), 0..8),
        0u8..4,
        any::<prop::sample::Index>(),
    )
        .prop_map(
            |((setup_plies, set_up), choices, comments, tags, ending, point)| {
                let mut game: Game = Game::new();
                let mut moves = choices.iter();
                if set_up {
                    // The position after some random moves becomes the start of a set-up game.
                    let mut position = *game.start();
                    for choice in moves.by_ref().take(setup_plies) {
                        let legal = position.legal_moves();
                        if legal.is_empty() {
                            break;
                        }
                        position = position.play(&legal[choice.index(legal.len())]);
                    }
                    game = Game::from_position(position);
                }
                for choice in moves {
                    if game.outcome().is_some() {
                        break;
                    }
                    let legal = game.position().legal_moves();
                    game.play(&legal[choice.index(legal.len())]).expect("legal");
                }
                for (ply, comment) in comments.into_iter().enumerate().take(game.len() + 1) {
                    game.set_comment(ply, comment);
                }
                for (name, value) in &tags {
                    game.tags_mut().set(name, value);
                }
                common::declare_ending(&mut game, ending);
                game.go_to(point.index(game.len() + 1));
                game
            },
        )
}

/// A comment as PDN can hold it: braces and all (a `;` comment holds them), white space runs one space, empty
/// is none.
fn written_comment(comment: Option<&str>) -> Option<String> {
    let words: Vec<&str> = comment?.split_whitespace().collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The tags as PDN can hold them: derived tags and names the reader would refuse left out, line ends in values
/// made spaces.
fn written_tags(tags: &crowned::game::Tags) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = tags
        .iter()
        .filter(|(name, _)| !DERIVED.contains(name))
        .filter(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .map(|(name, value)| (name.to_string(), value.replace('\n', " ")))
        .collect();
    tags.sort();
    tags
}

/// `back` is `game` as PDN can hold it.
fn assert_same<R: RuleSet>(game: &Game<R>, back: &Game<R>, context: &str) {
    assert_eq!(game.start(), back.start(), "{context}");
    assert_eq!(game.moves(), back.moves(), "{context}");
    for ply in 0..=game.len() {
        assert_eq!(
            written_comment(game.comment(ply)),
            back.comment(ply).map(str::to_string),
            "comment {ply}: {context}"
        );
    }
    assert_eq!(
        written_tags(game.tags()),
        written_tags(back.tags()),
        "{context}"
    );
    assert_eq!(
        game.final_outcome().map(|o| o.winner()),
        back.final_outcome().map(|o| o.winner()),
        "{context}"
    );
}

/// Fails, showing where, unless two texts are the same (whole texts would make an unreadable failure).
fn same_text(a: &str, b: &str, what: &str) {
    if a != b {
        let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        let around =
            |t: &str| -> String { t.chars().skip(at.saturating_sub(80)).take(160).collect() };
        panic!(
            "{what}: the texts differ at character {at}:\n{:?}\n{:?}",
            around(a),
            around(b)
        );
    }
}

/// Writes `game`, reads it back with the rules `R`, and checks it is the same game and writes the same again.
fn round_trip<R: RuleSet>(game: &Game<R>) -> Game<R> {
    let written = write_game(game);
    let context = written.chars().take(600).collect::<String>();
    let mut parsed = parse_games(&written);
    assert_eq!(parsed.len(), 1, "{context}");
    let text = parsed
        .remove(0)
        .unwrap_or_else(|e| panic!("{e}\n{context}"));
    let back = replay::<R>(&text);
    assert_eq!(back.error, None, "{context}");
    assert_same(game, &back.game, &context);
    same_text(&write_game(&back.game), &written, "writing is stable");
    back.game
}

fn random_players() -> impl Strategy<Value = Players> {
    let player = prop_oneof![
        Just(Player::Human),
        prop::sample::select(&Level::ALL[..]).prop_map(Player::Engine),
    ];
    (player.clone(), player).prop_map(|(black, white)| Players { black, white })
}

/// The autosave format: the game, its current point, its players, its file and its clocks come back.
fn saved_round_trip(game: Game, players: Players, named: bool) {
    let clock = named.then(|| ClockState {
        control: "3+2".parse().expect("valid"),
        left: [
            std::time::Duration::from_millis(game.len() as u64 * 1_234 + 7),
            std::time::Duration::from_millis(98_765),
        ],
    });
    let saved = SavedGame {
        game: game.into(),
        players,
        file: named.then(|| PathBuf::from("club-night.pdn")),
        clock,
    };
    let written = to_pdn(&saved);
    let back = from_pdn(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(back.players, saved.players);
    assert_eq!(back.file, saved.file);
    assert_eq!(back.clock, saved.clock);
    assert_eq!(back.game.ply(), saved.game.ply(), "the current point");
    assert_eq!(back.game.start(), saved.game.start());
    assert_eq!(back.game.moves(), saved.game.moves());
    for ply in 0..=saved.game.len() {
        assert_eq!(
            written_comment(saved.game.comment(ply)),
            back.game.comment(ply).map(str::to_string)
        );
    }
    // The saved record gains the names, event, date and time it lacked, and the time control of its clocks; the
    // rest comes back as written.
    let gained = ["Event", "Date", "Time", "Black", "White", "TimeControl"];
    let kept = |tags: Vec<(String, String)>| -> Vec<(String, String)> {
        tags.into_iter()
            .filter(|(n, _)| !gained.contains(&n.as_str()) && !n.starts_with("Crowned"))
            .collect()
    };
    assert_eq!(
        kept(written_tags(saved.game.tags())),
        kept(written_tags(back.game.tags()))
    );
    same_text(&to_pdn(&back), &written, "saving again is stable");
}

fn generated_cases(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(generated_cases(48))]

    #[test]
    fn generated_games_round_trip(game in random_game()) {
        round_trip(&game);
    }

    #[test]
    fn generated_saved_games_round_trip(
        game in random_game(),
        players in random_players(),
        named in any::<bool>(),
    ) {
        saved_round_trip(game, players, named);
    }
}

proptest! {
    #![proptest_config(generated_cases(20_000))]

    #[test]
    #[ignore = "long mode: cargo test --profile fast --test records pdn_round_trip -- --ignored"]
    fn generated_games_round_trip_long(game in random_game()) {
        round_trip(&game);
    }

    #[test]
    #[ignore = "long mode: cargo test --profile fast --test records pdn_round_trip -- --ignored"]
    fn generated_saved_games_round_trip_long(
        game in random_game(),
        players in random_players(),
        named in any::<bool>(),
    ) {
        saved_round_trip(game, players, named);
    }
}

/// Every `.pdn` file of the shared reference data, or none (with a note) when it is not there.
fn reference_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pdn");
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipped: reference data {} not readable", dir.display());
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pdn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every game of `path` that reads, replayed with the rules of its variant as far as it goes, writes out and
/// reads back as the same game. Returns how many games were compared.
fn file_round_trip(path: &Path) -> usize {
    let bytes = std::fs::read(path).expect("readable");
    let text = String::from_utf8_lossy(&bytes);
    let mut compared = 0;
    for game in parse_games(&text).iter().flatten() {
        compared += usize::from(game_round_trip(game));
    }
    compared
}

/// Round-trips one game of a file under its built-in variant's rules; `false` for a game type this program
/// cannot read, or a defined variant (the reference files hold none).
fn game_round_trip(text: &GameText) -> bool {
    struct RoundTrip<'a>(&'a GameText);
    impl GameVisitor for RoundTrip<'_> {
        type Output = bool;
        fn visit<R: Playable>(self, _: &Game<R>) -> bool {
            round_trip(&replay::<R>(self.0).game);
            true
        }
        fn defined(self, _: &Game<Defined>) -> bool {
            false
        }
    }
    game_type_of(text).is_ok_and(|game_type| AnyGame::new(game_type).visit(RoundTrip(text)))
}

#[test]
fn every_reference_game_round_trips() {
    let files = reference_files();
    let mut compared = 0;
    for path in &files {
        compared += file_round_trip(path);
    }
    if !files.is_empty() {
        // The English archives alone hold well over a thousand games.
        assert!(compared > 1000, "{compared} games compared");
    }
}

#[test]
fn the_game_that_broke_the_autosave_is_refused_where_it_stands() {
    // A backslash before a line end no longer carries a tag value on: the record is refused with its place,
    // so no game can hold a value the writer could not give back.
    let text = "[Event \"a\\\nb\"]\n1. 11-15 *\n";
    let error = parse_games(text)
        .into_iter()
        .next()
        .and_then(Result::err)
        .expect("refused");
    assert_eq!((error.line, error.column), (1, 8));
    // And a game given such a value some other way is still saved readably.
    let mut game: Game<English> = Game::new();
    game.tags_mut().set("Event", "a\\\nb");
    game.tags_mut().set("Site", "\\");
    game.set_comment(0, Some("} {".into()));
    let back = round_trip(&game);
    assert_eq!(back.tags().get("Event"), Some("a\\ b"));
    assert_eq!(back.tags().get("Site"), Some("\\"));
    saved_round_trip(
        game,
        Players {
            black: Player::Human,
            white: Player::Human,
        },
        false,
    );
}
