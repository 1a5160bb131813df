//! Tests of cutting PDN text into pieces.

use super::*;
use crate::pdn::parse::{parse_games, parse_piece};

/// Chunk limits the streamed reader is tried with: tiny ones put chunk ends inside words, comments and
/// characters.
const LIMITS: [usize; 6] = [4, 5, 7, 13, 64, CHUNK_BYTES];

/// The pieces of `bytes` streamed in chunks of at most `limit`.
fn streamed(bytes: &[u8], limit: usize) -> Vec<PdnPiece<String>> {
    PdnPieces::with_chunk_limit(bytes, limit)
        .map(|p| p.expect("reads"))
        .collect()
}

/// The pieces of `text` as (text, line, column), the same whether cut from memory or streamed in chunks of
/// any size.
fn cuts(text: &str) -> Vec<(String, usize, usize)> {
    let from_str: Vec<_> = pieces_of_str(text)
        .map(|p| (p.text.to_string(), p.line, p.column))
        .collect();
    for limit in LIMITS {
        let streamed: Vec<_> = streamed(text.as_bytes(), limit)
            .into_iter()
            .map(|p| (p.text, p.line, p.column))
            .collect();
        assert_eq!(from_str, streamed, "both ways cut alike (limit {limit})");
    }
    from_str
}

/// The pieces of `text` as (text, line).
fn split(text: &str) -> Vec<(String, usize)> {
    cuts(text).into_iter().map(|(t, l, _)| (t, l)).collect()
}

/// The texts of the pieces.
fn texts(text: &str) -> Vec<String> {
    cuts(text).into_iter().map(|(t, _, _)| t).collect()
}

/// Cutting changes nothing in how the text reads: its games, their places and their errors are those of the
/// whole text parsed at once.
fn reads_alike(text: &str) {
    assert_eq!(parse_games(text), parse_piece(text, 1, 1, 1), "{text}");
}

#[test]
fn games_are_cut_where_their_tags_start() {
    let text = "[Event \"1\"]\n[Site \"s\"]\n1. 11-15 *\n\n[Event \"2\"]\n1. 9-13 1-0\n";
    assert_eq!(
        split(text),
        [
            ("[Event \"1\"]\n[Site \"s\"]\n1. 11-15 *\n\n".to_string(), 1),
            ("[Event \"2\"]\n1. 9-13 1-0\n".to_string(), 5)
        ]
    );
    // Without a result, the next game's tags end a game.
    let text = "[Event \"1\"]\n1. 11-15\n\n  [Event \"2\"]\n1. 9-13 {c} [Event \"3\"]\n*";
    assert_eq!(
        cuts(text),
        [
            ("[Event \"1\"]\n1. 11-15\n\n  ".to_string(), 1, 1),
            ("[Event \"2\"]\n1. 9-13 {c} ".to_string(), 4, 3),
            ("[Event \"3\"]\n*".to_string(), 5, 13)
        ]
    );
    reads_alike(text);
}

#[test]
fn no_cut_inside_comments_tag_values_or_escape_lines() {
    for text in [
        "1. 11-15 {a comment\n[Event \"not a tag\"]\n} *\n",
        "1. 11-15 *\n%[Event \"hidden\"]\n",
        "[Event \"x\"]\n\n[Site \"y\"]\n1. 11-15 *\n",
        "[Event \"{\"]\n[Site \"y\"]\n1. 11-15 *\n",
        "[Event \"a\\\"{\"]\n[Site \"y\"]\n1. 11-15 *\n",
        "1. 11-15 ; a { in a line comment\n23-19 *\n",
    ] {
        assert_eq!(split(text).len(), 1, "{text}");
    }
    // A game whose tags start on the line its previous game ends keeps its other tags.
    assert_eq!(
        texts("1. 11-15 0-1 [Event \"b\"]\n[Date \"d\"]\n1. 9-13 *\n[Event \"c\"]\n*\n"),
        [
            "1. 11-15 0-1 ",
            "[Event \"b\"]\n[Date \"d\"]\n1. 9-13 *\n",
            "[Event \"c\"]\n*\n"
        ]
    );
    // A tag's line end closes it even when the tag is broken.
    assert_eq!(split("[Event \"x\n1. 11-15 *\n[Event \"y\"]\n*\n").len(), 2);
}

#[test]
fn byte_order_marks_and_bad_bytes() {
    assert_eq!(
        split("\u{feff}[Event \"1\"]\n*\n"),
        [("[Event \"1\"]\n*\n".to_string(), 1)]
    );
    let bytes = b"[Event \"caf\xe9\"]\n1. 11-15 *\n[Event \"b\"]\n*";
    for limit in LIMITS {
        let pieces = streamed(bytes, limit);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].text, "[Event \"caf\u{fffd}\"]\n1. 11-15 *\n");
        assert_eq!(pieces[0].bytes_read, 26);
        assert_eq!(pieces[1].bytes_read, bytes.len() as u64);
    }
    assert!(split("").is_empty());
}

#[test]
fn untagged_games_back_to_back_are_cut_at_their_results() {
    let text =
        "1. 11-15 23-19 1-0\n1. 9-13 22-18 0-1\r\n1. 10-14 *\n1. 12-16 1/2-1/2\n1. 11-16 2-0";
    assert_eq!(
        split(text),
        [
            ("1. 11-15 23-19 1-0\n".to_string(), 1),
            ("1. 9-13 22-18 0-1\r\n".to_string(), 2),
            ("1. 10-14 *\n".to_string(), 3),
            ("1. 12-16 1/2-1/2\n".to_string(), 4),
            ("1. 11-16 2-0".to_string(), 5),
        ]
    );
    reads_alike(text);
}

#[test]
fn several_games_on_one_line_are_cut_between_them() {
    let text = "11-15 23-19 1-0 9-14 22-17 0-1";
    assert_eq!(
        cuts(text),
        [
            ("11-15 23-19 1-0 ".to_string(), 1, 1),
            ("9-14 22-17 0-1".to_string(), 1, 17)
        ]
    );
    reads_alike(text);
    // A comment after a result opens the next game, as the parser reads it.
    let text = "1. 11-15 *1. 9-13 0-2 {next} 1-1\n1. 10-14 1-1";
    assert_eq!(
        cuts(text),
        [
            ("1. 11-15 *".to_string(), 1, 1),
            ("1. 9-13 0-2 ".to_string(), 1, 11),
            ("{next} 1-1\n".to_string(), 1, 23),
            ("1. 10-14 1-1".to_string(), 2, 1),
        ]
    );
    reads_alike(text);
    let games = parse_games(text);
    assert_eq!(games.len(), 4);
    assert_eq!(
        games[2].as_ref().map(|g| g.intro.as_deref()),
        Ok(Some("next"))
    );
}

#[test]
fn results_in_comments_variations_tags_and_remarks_do_not_cut() {
    for text in [
        "1. 11-15 {1-0 * 0-1} 23-19 1-0",
        "1. 11-15 (23-19 1-0) (23-18 (9-13 *) 2-0) 22-18 0-1",
        "1. 11-15 (!?) 23-19 (!) *",
        "1. 11-15 ; 1-0 * { 0-1\n23-19 *",
        "[Result \"1-0\"]\n[Event \"*\"]\n1. 11-15 *",
        "1. 11-15 8-11Redoverstepped.1-0 23-19 *",
        "%1-0 *\n1. 11-15 *",
        "1. 11-15 $1 $10 23-19 *",
    ] {
        assert_eq!(split(text).len(), 1, "{text}");
    }
    for text in [
        "1. 11-15 {1-0 * 0-1} 23-19 1-0 9-13 *",
        "1. 11-15 (23-19 24-20) (23-18 (9-13 22-17) 21-17) 22-18 0-1 9-13 *",
        "1. 11-15 ; 1-0 * { 0-1\n23-19 * 9-13 *",
        "1. 11-15 8-11Redoverstepped.1-0 23-19 * 9-13 *",
    ] {
        assert_eq!(split(text).len(), 2, "{text}");
        reads_alike(text);
    }
}

#[test]
fn only_a_whole_result_word_cuts() {
    // Moves and words that hold a result's characters: `1-10` is a move on a 10x10 board, `0-0` is no result.
    let text = "1. 11-15 1-10 21-0 1-01 11-0 0-0 a1-0 1-0x2 1/2 1/2-1/2-1 2-00 01-0 *";
    assert_eq!(split(text).len(), 1);
    for result in RESULTS {
        let text = format!("1. 11-15 {result} 1. 9-13 *");
        assert_eq!(split(&text).len(), 2, "{text}");
        reads_alike(&text);
        // Glued to what follows (not a word character), it still ends the game.
        let text = format!("1. 11-15 {result}{{c}} 1.{result}\n1...9-13 *");
        assert_eq!(split(&text).len(), 3, "{text}");
        reads_alike(&text);
    }
    // `*` ends a game even glued to a move.
    assert_eq!(texts("1. 11-15*1. 9-13*"), ["1. 11-15*", "1. 9-13*"]);
}

#[test]
fn blanks_after_a_game_stay_with_it() {
    let text = "1. 11-15 1-0  \n\n% a note\n  1. 9-13 *\n\n";
    assert_eq!(
        cuts(text),
        [
            ("1. 11-15 1-0  \n\n% a note\n  ".to_string(), 1, 1),
            ("1. 9-13 *\n\n".to_string(), 4, 3),
        ]
    );
    reads_alike(text);
}

#[test]
fn errors_are_placed_as_in_the_whole_text() {
    for text in [
        "1. 11-15 1-0 1. 9-13 . *",
        "1. 11-15 0-1 [Event \"b\" x]\n1. 9-13 *",
        "1. 11-15 1-0   {never closed",
        "1. 11-15 1-0 (9-13\n",
    ] {
        reads_alike(text);
        assert!(parse_games(text).iter().any(Result::is_err), "{text}");
    }
}

#[test]
fn reading_starts_again_after_a_bad_game_at_its_result() {
    // The parser skips a bad game's text to the next tag line, but no further than its piece: the games after
    // its result still read, tags or not.
    let games = parse_games("1. 11-15 . 23-19 1-0 1. 9-13 *\n1. 10-14 0-1\n");
    assert_eq!(games.len(), 3);
    assert!(games[0].is_err());
    assert_eq!(
        games[1]
            .as_ref()
            .map(|g| (g.index, g.line, g.moves[0].column)),
        Ok((2, 1, 25))
    );
    assert!(games[2].is_ok());
}

#[test]
fn characters_cut_by_a_chunk_end_are_whole() {
    let bytes = "1. 11-15 {café €} 1-0 {𝄞 \u{2026}} 0-1 9-13 {ü} *".as_bytes();
    let text = std::str::from_utf8(bytes).expect("UTF-8");
    let expected = texts(text);
    assert_eq!(expected.len(), 3);
    let mut bad = bytes.to_vec();
    bad.splice(12..12, *b"\xe2\x82 \xff\xc3");
    let lossy = String::from_utf8_lossy(&bad);
    for limit in LIMITS {
        let pieces = streamed(&bad, limit);
        let joined: String = pieces.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(joined, lossy, "limit {limit}");
        assert_eq!(pieces.len(), 3);
        // Where a piece ends in the stream counts the bytes as they were, not as they were decoded.
        let first_end = bytes
            .windows(4)
            .position(|w| w == b"1-0 ")
            .map(|i| i + 4 + 5)
            .expect("there");
        assert_eq!(pieces[0].bytes_read, first_end as u64, "limit {limit}");
        assert_eq!(pieces[2].bytes_read, bad.len() as u64);
    }
}

#[test]
fn one_long_line_of_games_is_read_a_game_at_a_time() {
    let game = "1. 11-15 23-19 2. 8-11 22-17 1-0 ";
    let text = game.repeat(10_000);
    let pieces = streamed(text.as_bytes(), CHUNK_BYTES);
    assert_eq!(pieces.len(), 10_000);
    assert!(pieces.iter().all(|p| p.text == game));
    assert_eq!(pieces[9_999].column, 9_999 * game.len() + 1);
}

#[test]
fn a_piece_that_never_ends_is_let_go_as_it_is_read() {
    let endless = "11-15 23-19 ".repeat(MAX_PIECE_BYTES / 12 + 1);
    let text = format!("[Event \"a\"]\n1. {endless}*\n\n[Event \"b\"]\n1. 9-13 *\n");
    let pieces = streamed(text.as_bytes(), CHUNK_BYTES);
    assert_eq!(pieces.len(), 2);
    assert!(pieces[0].too_long);
    assert!(pieces[0].text.is_empty());
    let games = pieces[0].games(1);
    assert_eq!(games.len(), 1);
    let error = games[0].as_ref().expect_err("too long");
    assert_eq!((error.game, error.line, error.column), (1, 1, 1));
    assert!(error.message.contains("more than 1 MiB"), "{error}");
    assert!(!pieces[1].too_long);
    let after: Vec<_> = pieces[1].games(2).into_iter().flatten().collect();
    assert_eq!(after.len(), 1);
    assert_eq!(
        (after[0].index, after[0].line, after[0].event()),
        (2, 4, "b")
    );
    assert_eq!(pieces[1].bytes_read, text.len() as u64);
}
