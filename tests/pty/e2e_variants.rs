//! The real binary in a pseudo-terminal playing the other variants: whole games between two engines in
//! international, Russian and Canadian draughts, English rules on 10x10, Frisian, Frysk!, antidraughts,
//! breakthrough, Turkish and defined variants from files (holes and a fairy piece), and an international record
//! opened from a file under its own rules.

use crate::pty;

use pty::{Session, temp_home};

/// Plays a whole game between the random level on both sides, shown as fast as it comes, and quits.
fn whole_game(args: &[&str], move_in_list: impl Fn(&str) -> bool) {
    let saved = whole_game_saved(args, move_in_list);
    assert!(saved.contains("[GameType"), "{saved}");
}

/// [`whole_game`], giving back the saved game's PDN, which is checked to replay to the same finished game.
fn whole_game_saved(args: &[&str], move_in_list: impl Fn(&str) -> bool) -> String {
    let mut all = args.to_vec();
    all.extend([
        "--black",
        "random",
        "--white",
        "random",
        "--pace",
        "0",
        "--no-animation",
    ]);
    let home = temp_home("variant");
    let mut s = Session::start_in(&home, &all);
    s.wait_for("Board · game over");
    let screen = s.contents();
    assert!(
        screen.lines().any(move_in_list),
        "the move list is in the variant's notation:\n{screen}"
    );
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    // The finished game was filed among the saved games with its game type.
    let saved = std::fs::read_dir(home.join("data/games"))
        .expect("saved games")
        .filter_map(Result::ok)
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    // The saved file replays, on its own, to a finished game.
    let games = crowned::game::pdn::parse_games(&saved);
    let (game, error) = crowned::game::pdn::open_game(games[0].as_ref().expect("parses"), None);
    assert_eq!(error, None, "{saved}");
    assert!(game.outcome().is_some(), "{saved}");
    let _ = std::fs::remove_dir_all(&home);
    saved
}

/// The first move of a numbered line of the move list (`45. 37-32  8-13` gives `37-32`; from move 100 on the
/// number touches the pane's border, `│122. 37-31`).
fn first_move(line: &str) -> Option<&str> {
    let mut words = line
        .split(|c: char| c.is_whitespace() || c == '│' || c == '┃')
        .filter(|w| !w.is_empty());
    let is_number = |w: &str| {
        w.strip_suffix('.')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    words.find(|w| is_number(w))?;
    words.next()
}

/// Whether a line of the move list has a move written in numbers (`32-28`, `41x30`).
fn numbered(line: &str) -> bool {
    first_move(line).is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()) && w.len() > 2)
}

#[test]
fn international_draughts_is_played_to_the_end() {
    whole_game(&["--variant", "international"], numbered);
}

#[test]
fn russian_draughts_is_played_to_the_end_in_coordinates() {
    whole_game(&["--variant", "russian"], |line| {
        first_move(line).is_some_and(|w| w.starts_with(|c: char| ('a'..='h').contains(&c)))
    });
}

#[test]
fn canadian_draughts_is_played_to_the_end() {
    whole_game(&["--variant", "canadian"], numbered);
}

#[test]
fn english_rules_on_10x10_are_played_to_the_end() {
    whole_game(&["--size", "10"], numbered);
}

#[test]
fn frisian_is_played_to_the_end() {
    whole_game(&["--variant", "frisian"], numbered);
}

#[test]
fn frysk_is_played_to_the_end() {
    whole_game(&["--variant", "frysk"], numbered);
}

#[test]
fn antidraughts_is_played_to_the_end() {
    whole_game(&["--variant", "antidraughts"], numbered);
}

#[test]
fn breakthrough_is_played_to_the_end() {
    whole_game(&["--variant", "breakthrough"], numbered);
}

/// Whether a line of the move list has a move written in coordinates (`e3-e4`).
fn in_coordinates(line: &str) -> bool {
    first_move(line).is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase()))
}

#[test]
fn turkish_is_played_to_the_end_in_coordinates() {
    let saved = whole_game_saved(&["--variant", "turkish"], in_coordinates);
    assert!(saved.contains("[Variant \"Turkish"), "{saved}");
}

#[test]
fn a_variant_with_holes_and_frogs_is_played_to_the_end() {
    let pond = format!("{}/variants/pond.toml", env!("CARGO_MANIFEST_DIR"));
    let saved = whole_game_saved(&["--variant-file", &pond], in_coordinates);
    assert!(saved.contains("[Variant \"Frog pond\"]"), "{saved}");
    assert!(saved.contains("[VariantDefinition \""), "{saved}");
}

#[test]
fn an_international_record_opens_under_its_own_rules() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/pdn/conformance/succeed/wk2003.pdn"
    );
    let mut s = Session::start(&[file]);
    s.wait_for("wk2003.pdn (");
    s.send("\r");
    s.wait_for("Moves · wk2003.pdn, game 1");
    s.wait_for("1. 32-28");
    // The whole record replays: its last move is in the list and nothing stops it short.
    s.send("\x1b[F");
    s.wait_for("23x12");
    assert!(!s.contents().contains("stops"), "{}", s.contents());
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn move_list_lines_are_read_at_any_move_number() {
    assert_eq!(first_move("┃9   ┃│ 45. 37-32     8-13   │"), Some("37-32"));
    assert_eq!(first_move("┃10  ┃│122. 37-31     3-8    │"), Some("37-31"));
    assert_eq!(first_move("┃10  ┃│ ● Black engine (random)│"), None);
    assert!(numbered("┃1   ┃│127. 17x8               │"));
}

#[test]
fn a_variant_from_a_file_is_played_to_the_end_and_saved_with_its_definition() {
    let steps = format!("{}/variants/first-steps.toml", env!("CARGO_MANIFEST_DIR"));
    let home = temp_home("defined");
    let mut s = Session::start_in(
        &home,
        &[
            "--variant-file",
            &steps,
            "--black",
            "random",
            "--white",
            "random",
            "--pace",
            "0",
            "--no-animation",
        ],
    );
    s.wait_for("Board · game over");
    let screen = s.contents();
    // Moves by coordinates, as the definition's squares are named.
    assert!(
        screen
            .lines()
            .any(|l| first_move(l).is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase()))),
        "{screen}"
    );
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    let saved = std::fs::read_dir(home.join("data/games"))
        .expect("saved games")
        .filter_map(Result::ok)
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(saved.contains("[Variant \"First steps\"]"), "{saved}");
    assert!(saved.contains("[VariantDefinition \""), "{saved}");
    // The saved file replays with nothing else at hand.
    let games = crowned::game::pdn::parse_games(&saved);
    let (game, error) = crowned::game::pdn::open_game(games[0].as_ref().expect("parses"), None);
    assert_eq!(error, None);
    assert!(game.outcome().is_some());
    let _ = std::fs::remove_dir_all(&home);
}
