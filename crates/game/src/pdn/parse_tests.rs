//! Tests of the PDN syntax reader.

use super::*;

fn one(text: &str) -> GameText {
    let mut games = parse_games(text);
    assert_eq!(games.len(), 1, "{games:?}");
    games.remove(0).expect("parses")
}

fn moves(g: &GameText) -> Vec<&str> {
    g.moves.iter().map(|m| m.text.as_str()).collect()
}

fn error(text: &str) -> String {
    parse_games(text)
        .into_iter()
        .find_map(Result::err)
        .map(|e| e.to_string())
        .unwrap_or_else(|| panic!("{text:?} was accepted"))
}

#[test]
fn tags_moves_and_result() {
    let g = one(
        "[Event \"Test\"]\r\n[White \"A \\\"B\\\" C\"]\r\n\r\n1. 11-15 23-19 2. 8-11 22-17 1/2-1/2\r\n",
    );
    assert_eq!(g.tags.get("Event"), Some("Test"));
    assert_eq!(g.tags.get("White"), Some("A \"B\" C"));
    assert_eq!(moves(&g), ["11-15", "23-19", "8-11", "22-17"]);
    assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
    assert_eq!((g.moves[2].line, g.moves[2].column), (4, 19));
    assert_eq!(g.event(), "Test");
}

#[test]
fn move_numbers_in_every_form() {
    for text in [
        "1.11-15 23-19 2.8-11 *",
        "01. 11-15 23-19 02. 8-11 *",
        "1. 11-15 1... 23-19 2. 8-11 *",
        "1. 11-15 1. ... 23-19 2. 8-11 *",
        "11-15 23-19 8-11 *",
        "1. 11-15 23-19 2. 8-11 …",
    ] {
        let g = one(text);
        assert_eq!(moves(&g), ["11-15", "23-19", "8-11"], "{text}");
    }
}

#[test]
fn comments_annotations_and_variations() {
    let g = one(
        "{intro} 1. 11-15 {first} {second} 23-19! 2. 8-11 $14 (2. 9-13 {side (line)} (2. 10-14)) 22-17 (!?) *",
    );
    assert_eq!(moves(&g), ["11-15", "23-19", "8-11", "22-17"]);
    assert_eq!(g.intro.as_deref(), Some("intro"));
    assert_eq!(g.moves[0].comment.as_deref(), Some("first second"));
    assert_eq!(g.moves[1].annotations, ["!"]);
    assert_eq!(g.moves[2].annotations, ["$14"]);
    assert_eq!(g.moves[3].annotations, ["!?"]);
}

#[test]
fn several_games_and_line_comments() {
    let games = parse_games(
        "% a file\n[Event \"1\"]\n1. 11-15 *\n\n[Event \"2\"]\n1. 9-13 1-0\n1. 10-14\n",
    );
    assert_eq!(games.len(), 3);
    assert!(games.iter().all(Result::is_ok));
    let third = games[2].as_ref().expect("ok");
    assert_eq!(third.result, None, "a file may end without a result");
    assert_eq!(third.line, 7);
}

#[test]
fn a_game_without_result_ends_at_the_next_tags() {
    let games = parse_games("[Event \"1\"]\n1. 11-15\n[Event \"2\"]\n1. 9-13 *");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].as_ref().map(|g| g.result.clone()), Ok(None));
}

#[test]
fn a_remark_glued_to_a_move_becomes_its_comment() {
    let g = one("14. 10x19 24x15 15. 11x18x25 8-11Redoverstepped. 0-1");
    assert_eq!(moves(&g), ["10x19", "24x15", "11x18x25", "8-11"]);
    assert_eq!(g.moves[3].comment.as_deref(), Some("Redoverstepped."));
    assert_eq!(g.result.as_deref(), Some("0-1"));
}

#[test]
fn coordinates_and_alphanumeric_moves() {
    assert_eq!(
        moves(&one("1.a3b4 c3-d4 c3xe5xg3 *")),
        ["a3b4", "c3-d4", "c3xe5xg3"]
    );
}

#[test]
fn errors_are_located() {
    assert_eq!(
        error("1. 33-29 19-23 2. 35-30 { nested { comment } }"),
        "game 1: line 1, column 34: a comment cannot hold another '{' (the comment opened at line 1, column 25)"
    );
    assert_eq!(
        error("[Event \"E\"]\n1. 11-15 . 1-0"),
        "game 1 \"E\": line 2, column 10: expected a move, found \".\""
    );
    assert_eq!(
        error("[Result \"4-6\"]\n1. 11-15 4-6"),
        "game 1: line 1, column 9: the Result tag must be 1-0, 0-1, 1/2-1/2 or * (or 2-0, 0-2, 1-1), not \"4-6\""
    );
    assert_eq!(
        error("1. 11-15 {open"),
        "game 1: line 1, column 10: this comment never ends: expected '}'"
    );
    assert_eq!(
        error("1. 11-15 (9-13"),
        "game 1: line 1, column 10: this variation never ends: expected ')'"
    );
    assert_eq!(
        error("1. 11-15 (9-13 1-0) *"),
        "game 1: line 1, column 16: a result cannot stand inside the variation opened at line 1, column 10"
    );
    assert_eq!(
        error("[Event"),
        "game 1: line 1, column 7: expected the quoted value of tag Event, found the end of the file"
    );
    assert_eq!(
        error("[\"x\"]"),
        "game 1: line 1, column 2: expected a tag name after '[', found '\"'"
    );
    assert_eq!(
        error("[Event \"x"),
        "game 1: line 1, column 8: the value of tag Event never ends"
    );
    assert_eq!(
        error("[Event \"x\"\n"),
        "game 1: line 1, column 11: expected ']' to close the tag opened at column 1, found the end of the line"
    );
    assert_eq!(
        error("1. 11-15 $ *"),
        "game 1: line 1, column 10: expected a number after '$'"
    );
    assert_eq!(
        error("1. Bianco *"),
        "game 1: line 1, column 4: expected a move, a move number or a result, found \"Bianco\""
    );
    assert_eq!(
        error("1. 11-15 ] *"),
        "game 1: line 1, column 10: expected a move, a move number or a result, found ']'"
    );
    assert_eq!(
        error("1. 11-15 12 *"),
        "game 1: line 1, column 10: expected a move, a move number or a result, found \"12\""
    );
}

#[test]
fn hostile_nesting_is_refused_without_harm() {
    let deep = format!("1. 11-15 {} *", "(".repeat(100_000));
    assert!(error(&deep).contains("variations are nested more than 64 deep"));
    let fine = format!("1. 11-15 {}9-13{} *", "(".repeat(10), ")".repeat(10));
    assert_eq!(moves(&one(&fine)), ["11-15"]);
}

#[test]
fn one_bad_game_does_not_stop_the_others() {
    let games = parse_games(
        "[Event \"good\"]\n1. 11-15 *\n\n[Event \"bad\"]\n[Site \"x\"]\n1. 11-15 . *\n\n[Event \"after\"]\n1. 9-13 *\n",
    );
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok());
    assert_eq!(games[1].as_ref().map_err(|e| e.game), Err(2));
    assert_eq!(games[2].as_ref().map(|g| g.event()), Ok("after"));
    // A bad tag skips the rest of that game's tags too.
    let games = parse_games("[Event \"bad\" x]\n[Site \"s\"]\n1. 11-15 *\n[Event \"next\"]\n*");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].as_ref().map(|g| g.event()), Ok("next"));
}

#[test]
fn move_shapes() {
    for ok in [
        "11-15", "22x15", "15x24x31", "c3-d4", "c3xe5xg3", "a3b4", "5:14", "32X28",
    ] {
        assert!(looks_like_move(ok), "{ok}");
    }
    for bad in [
        "11", "11-", "-15", "x", "11--15", "Bianco", "c-d", "11-15-", "1/2",
    ] {
        assert!(!looks_like_move(bad), "{bad}");
    }
}

#[test]
fn a_backslash_does_not_carry_a_tag_value_to_the_next_line() {
    // No writer could give such a value back: it is refused where it is, and the next game still reads.
    for text in [
        "[Event \"a\\\nb\"]\n1. 11-15 *\n[Event \"next\"]\n*",
        "[Event \"a\\\r\nb\"]\n1. 11-15 *\n[Event \"next\"]\n*",
    ] {
        let games = parse_games(text);
        assert_eq!(
            games[0].as_ref().map_err(|e| e.to_string()),
            Err("game 1: line 1, column 8: the value of tag Event never ends: a backslash cannot carry it \
                 on to the next line"
                .to_string())
        );
        assert_eq!(
            games
                .last()
                .and_then(|g| g.as_ref().ok())
                .map(GameText::event),
            Some("next")
        );
    }
    // Other escapes are as before: a quote, a backslash, and any other backslash kept as written.
    let g = one(r#"[Site "C:\games \"x\" \\"] *"#);
    assert_eq!(g.tags.get("Site"), Some(r#"C:\games "x" \"#));
}

#[test]
fn many_comments_after_one_move_are_joined_in_order() {
    let text = format!("1. 11-15 {} {{last}} *", "{c} ".repeat(10_000));
    let g = one(&text);
    let comment = g.moves[0].comment.as_deref().expect("a comment");
    assert_eq!(comment.len(), 10_000 * 2 + 4);
    assert!(comment.starts_with("c c ") && comment.ends_with("c last"));
}

#[test]
fn many_tags_keep_their_order_and_a_repeated_name_its_last_value() {
    let mut text: String = (0..20_000).map(|i| format!("[T{i} \"{i}\"]\n")).collect();
    text.push_str("[T5 \"again\"]\n*");
    let g = one(&text);
    assert_eq!(g.tags.iter().count(), 20_000);
    assert_eq!(g.tags.get("T5"), Some("again"));
    assert_eq!(g.tags.iter().nth(6), Some(("T6", "6")));
}

#[test]
fn messages_quote_only_an_excerpt_of_a_huge_token() {
    let huge = "B".repeat(1_000_000);
    for text in [
        format!("1. {huge} *"),
        format!("[Result \"{huge}\"] *"),
        format!("1. 11-15 {} *", ".".repeat(1_000_000)),
        format!("[Event \"{huge}\"]\n1. 11-15 . *"),
        format!("[{huge}"),
        format!("[{huge} \"x"),
    ] {
        let message = error(&text);
        assert!(message.len() < 300, "{}", &message[..300]);
        assert!(message.contains("… (1000000 characters)"), "{message}");
    }
    // A control character found in the wrong place is shown escaped.
    assert!(error("1. 11-15 \u{1b} *").contains("found '\\u{1b}'"));
}
