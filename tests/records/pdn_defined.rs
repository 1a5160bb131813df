//! Games of variants defined in files: written as PDN with their definition, read back anywhere, and a bad
//! definition in a file is an error for its game only.

use crowned::game::pdn::{
    DEFINITION_TAG, decode_definition, encode_definition, open_game, parse_games,
};
use crowned::game::{AnyGame, DrawReason, Outcome};
use crowned::rules::defined::register;
use crowned::rules::{AnyPosition, GameType, Variant};

const LEAPERS: &str = include_str!("../../variants/leapers.toml");
const HOLES: &str = include_str!("../../variants/holes.toml");

fn new_game(text: &str) -> AnyGame {
    let id = register(text).expect("the example loads");
    AnyGame::new(GameType::standard(Variant::Defined(id)))
}

/// Plays the first legal move `plies` times, or until the game ends.
fn play_some(game: &mut AnyGame, plies: usize) {
    for step in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let mv = moves[step % moves.len()];
        game.play(&mv).expect("a legal move");
    }
}

#[test]
fn a_defined_game_is_written_with_its_definition_and_reads_back() {
    for text in [LEAPERS, HOLES] {
        let mut game = new_game(text);
        play_some(&mut game, 9);
        game.set_comment(2, Some("a \"quoted\" note".into()));
        game.tags_mut().set("White", "Ada");
        let pdn = game.to_pdn();
        assert!(pdn.contains("[Variant \""), "{pdn}");
        assert!(pdn.contains(DEFINITION_TAG), "{pdn}");
        let parsed = parse_games(&pdn);
        let read = parsed[0].as_ref().expect("its own PDN parses");
        let (back, error) = open_game(read, None);
        assert_eq!(error, None, "{pdn}");
        assert_eq!(
            back.variant(),
            game.variant(),
            "the same definition, so the same id"
        );
        assert_eq!(back.len(), game.len());
        for ply in 0..=game.len() {
            assert_eq!(back.position_at(ply), game.position_at(ply));
        }
        assert_eq!(back.comment(2), Some("a \"quoted\" note"));
        assert_eq!(back.tags().get("White"), Some("Ada"));
        assert_eq!(back.to_pdn(), pdn, "written again, the same text");
    }
}

#[test]
fn a_set_up_defined_game_keeps_its_fen_and_its_outcome() {
    let id = register(HOLES).expect("loads");
    let game_type = GameType::standard(Variant::Defined(id));
    let start = AnyPosition::from_fen(game_type, "B:Wb4:Bc5").expect("valid");
    let mut game = AnyGame::from_position(start);
    let mv = game
        .position()
        .parse_move("c5xa3", Default::default())
        .expect("legal");
    game.play(&mv).expect("legal");
    assert_eq!(
        game.outcome().and_then(|o| o.winner()),
        Some(crowned::rules::Color::Black)
    );
    let pdn = game.to_pdn();
    assert!(pdn.contains("[FEN \"B:Wb4:Bc5\"]"), "{pdn}");
    assert!(pdn.contains("c5xa3"), "{pdn}");
    assert!(
        pdn.contains("1-0"),
        "Black moves first here, so its win is 1-0: {pdn}"
    );
    let parsed = parse_games(&pdn);
    let (back, error) = open_game(parsed[0].as_ref().expect("parses"), None);
    assert_eq!(error, None);
    assert_eq!(back.outcome(), game.outcome());
}

#[test]
fn a_defined_game_is_drawn_by_repetition() {
    // Two kings each, far apart: they walk back and forth until the start comes back a third time.
    let id = register(HOLES).expect("loads");
    let game_type = GameType::standard(Variant::Defined(id));
    let start = AnyPosition::from_fen(game_type, "B:WKa1:BKf6").expect("valid");
    let mut game = AnyGame::from_position(start);
    for text in ["f6-e5", "a1-b2", "e5-f6", "b2-a1"].repeat(2) {
        assert_eq!(game.outcome(), None);
        game.play_text(text).expect("legal");
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition { times: 3 }
        })
    );
}

#[test]
fn definitions_survive_any_text_through_the_tag_escape() {
    for text in [LEAPERS, "a\\nb\n\"c\"\\\\\n", "", "\n\n"] {
        let encoded = encode_definition(text);
        assert!(!encoded.contains('\n'));
        assert_eq!(decode_definition(&encoded).as_deref(), Some(text));
    }
    assert_eq!(decode_definition("bad \\q escape"), None);
}

#[test]
fn a_bad_definition_in_a_file_is_an_error_for_its_game_only() {
    let good = new_game(LEAPERS).to_pdn();
    let broken = good.replace("width = 5", "width = 0");
    let garbage = good.replace("name = ", "nome = ");
    let value = encode_definition(&format!("# {}\n{LEAPERS}", "x".repeat(70_000)));
    // Escaped as PDN escapes a tag value.
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let huge = format!("[{DEFINITION_TAG} \"{value}\"]\n\n*\n");
    let file = format!("{broken}\n{garbage}\n{huge}\n{good}");
    let games = parse_games(&file);
    assert_eq!(games.len(), 4);
    let errors: Vec<Option<String>> = games
        .iter()
        .map(|g| open_game(g.as_ref().expect("parses"), None).1)
        .collect();
    let first = errors[0].as_deref().unwrap_or_default();
    assert!(first.contains("board"), "{first}");
    let second = errors[1].as_deref().unwrap_or_default();
    assert!(second.contains("line"), "names the line: {second}");
    let third = errors[2].as_deref().unwrap_or_default();
    assert!(third.contains("bytes"), "{third}");
    assert_eq!(errors[3], None);
}

#[test]
fn turkish_is_written_with_its_game_type_and_a_file_with_only_that_opens_as_turkish() {
    let id = crowned::rules::defined::load_builtin("turkish")
        .expect("built in")
        .expect("loads");
    let mut game = AnyGame::new(GameType::standard(Variant::Defined(id)));
    play_some(&mut game, 12);
    let pdn = game.to_pdn();
    assert!(pdn.contains("[GameType \"30\"]"), "{pdn}");
    assert_eq!(pdn.matches("[GameType").count(), 1, "{pdn}");
    // Another program's file: the game type alone (in its long form), no definition.
    let moves_only: String = pdn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n");
    let foreign = format!("[GameType \"30,W,8,8,A0,0\"]\n\n{moves_only}");
    let games = parse_games(&foreign);
    let (opened, error) = open_game(games[0].as_ref().expect("parses"), None);
    assert_eq!(error, None, "{foreign}");
    assert_eq!(opened.variant().title(), "Turkish draughts");
    assert_eq!(opened.len(), game.len());
    assert_eq!(opened.position(), game.position());
}

#[test]
fn a_definition_may_not_take_a_built_in_variant_s_game_type() {
    let claimed = LEAPERS.replace("name = \"Leapers\"", "name = \"Leapers\"\ngame_type = 20");
    let error = register(&claimed)
        .expect_err("20 is international draughts")
        .to_string();
    assert!(
        error.contains("game_type") && error.contains("International"),
        "{error}"
    );
    let own = LEAPERS.replace("name = \"Leapers\"", "name = \"Leapers\"\ngame_type = 99");
    assert!(register(&own).is_ok());
}
