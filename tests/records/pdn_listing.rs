//! The list of a file's games holds each game's text and what the list shows, and replays a game only when it
//! is chosen: the chosen game is the one reading the file whole would give.

use std::path::PathBuf;

use crowned::game::pdn::{open_game, parse_games};
use crowned::store::{games_in_text, read_games_file};

#[test]
fn a_listed_game_opens_as_the_game_read_whole() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/pdn/conformance/succeed/Tricks_traps_and_shots.pdn");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: reference data {} not readable", path.display());
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    let whole: Vec<_> = parse_games(&text).into_iter().collect();
    let listed = read_games_file(&path).expect("reads");
    assert_eq!(listed.len(), whole.len());
    assert_eq!(listed, games_in_text(&text, "Tricks_traps_and_shots.pdn"));
    for (entry, parsed) in listed.into_iter().zip(whole) {
        let Ok(parsed) = parsed else {
            assert!(entry.error.is_some());
            continue;
        };
        let (game, error) = open_game(&parsed, None);
        assert_eq!(entry.error, error, "{}", entry.source);
        assert_eq!(entry.game.len(), game.len());
        assert_eq!(entry.game.tags(), game.tags());
        assert_eq!(entry.game.start(), &game.start());
        let opened = entry.game.into_game();
        assert_eq!(opened.moves(), game.moves());
        assert_eq!(opened.ply(), game.ply());
        for ply in 0..=game.len() {
            assert_eq!(opened.comment(ply), game.comment(ply));
        }
    }
}

#[test]
fn a_file_that_is_not_utf8_is_listed_with_replacement_characters() {
    let path = std::env::temp_dir().join(format!("crowned-listing-{}.pdn", std::process::id()));
    std::fs::write(
        &path,
        b"[Event \"caf\xe9\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 9-13 23-19 *\n",
    )
    .expect("written");
    let listed = read_games_file(&path).expect("reads");
    let _ = std::fs::remove_file(&path);
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].tag("Event"), "caf\u{fffd}");
    assert_eq!(
        listed[1].source,
        format!(
            "{}, game 2",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("")
        )
    );
    assert_eq!(listed[1].clone().game.into_game().len(), 2);
}
