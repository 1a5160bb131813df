//! Writing games as canonical PDN 3.0.

use super::defined::defined_tags;
use super::game_type::game_type_tag;
use super::replay::result_token;
use crate::record::Game;
use crate::tags::{ROSTER, Tags};
use crowned_rules::{GamePosition, Rules, Variant};

/// Lines of move text stay shorter than this.
const LINE_LIMIT: usize = 80;

/// Tags the writer produces itself, from the game rather than from its tag list.
pub(super) const DERIVED: [&str; 4] = ["Result", "GameType", "SetUp", "FEN"];

/// A game as PDN: the tags (the seven-tag roster first where known, the result always, `GameType`, and `SetUp`
/// and `FEN` for a set-up start), then the moves with their numbers and comments, then the result, in lines
/// shorter than 80 columns. Captures are written from start to end unless that would be ambiguous.
///
/// Whatever the reader gives, this writes so that reading it again gives the same game. What PDN cannot hold
/// is written as near as it can be: a line end in a tag value as a space (values are one line), runs of white
/// space in a comment as one space, an empty comment not at all, and a tag whose name is not letters, digits
/// and `_` not at all. A comment holding a brace is written as a `;` comment, which runs to the end of its line.
///
/// A defined variant's game carries its definition (the `Variant` and `Definition` tags), so that it reads back
/// where the definition was never loaded.
pub fn write_game<R: Rules>(game: &Game<R>) -> String {
    let mut out = String::new();
    let start = game.start();
    let result = result_token(start, game.final_outcome());
    let mut own = match start.variant() {
        Variant::Defined(id) => defined_tags(id),
        _ => vec![("GameType", game_type_tag(start.game_type()))],
    };
    if game.is_set_up() {
        own.extend([("SetUp", "1".to_string()), ("FEN", start.to_fen())]);
    }
    push_tags(&mut out, game.tags(), result, &own);
    wrap(&move_tokens(game, result), &mut out);
    out
}

/// The tag section and the blank line after it: the seven-tag roster where known with the result always, then
/// the tags the writer makes from the game itself (`own`: its game type, a set-up start...), then the game's
/// other tags, less any the writer makes and any the reader would not take as a tag name.
pub(super) fn push_tags(out: &mut String, tags: &Tags, result: &str, own: &[(&str, String)]) {
    for name in ROSTER {
        let value = if name == "Result" {
            Some(result)
        } else {
            tags.get(name)
        };
        if let Some(value) = value {
            push_tag(out, name, value);
        }
    }
    for (name, value) in own {
        push_tag(out, name, value);
    }
    for (name, value) in tags.iter() {
        let made = ROSTER.contains(&name)
            || DERIVED.contains(&name)
            || own.iter().any(|(own, _)| *own == name);
        if !made && is_tag_name(name) {
            push_tag(out, name, value);
        }
    }
    out.push('\n');
}

/// Several games, separated by blank lines.
pub fn write_games<R: Rules>(games: &[Game<R>]) -> String {
    games.iter().map(write_game).collect::<Vec<_>>().join("\n")
}

/// Whether the reader takes `name` as a tag name.
pub(super) fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Writes `[name "value"]`: a quote and a backslash are escaped (the only escapes PDN has), and a line end,
/// which a value cannot hold, becomes a space. Every other character is written as it is, as the reader keeps
/// it.
pub(super) fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// The move text as words to be wrapped: numbers, moves, comment words and the result.
fn move_tokens<R: Rules>(game: &Game<R>, result: &str) -> Vec<String> {
    let mut words = Vec::new();
    push_comment(&mut words, game.comment(0));
    let start_side = game.start().side_to_move();
    let first = game.start().first_to_move();
    let notation = game.start().variant().notation();
    let mut number_next = true;
    for ply in 1..=game.len() {
        let first_mover_moves = (ply % 2 == 1) == (start_side == first);
        let half = ply - 1 + usize::from(start_side != first);
        let number = half / 2 + 1;
        if first_mover_moves {
            words.push(format!("{number}."));
        } else if number_next {
            words.push(format!("{number}..."));
        }
        // A move text exists for every recorded move.
        if let Some(text) = game.move_text(ply, notation) {
            // A mark is written on the move, as annotators write it: `11-15?!`.
            match game.mark(ply) {
                Some(mark) => words.push(format!("{text}{mark}")),
                None => words.push(text),
            }
        }
        // After a comment the next move carries its number again, as PDN writers do.
        number_next = push_comment(&mut words, game.comment(ply));
    }
    words.push(result.to_string());
    words
}

/// Adds a comment as words, braces on the first and last. A comment holding a brace, which a `{}` comment
/// cannot, is written as PDN's other kind, a `;` comment to the end of the line, in one piece. Returns whether
/// anything was written.
pub(super) fn push_comment(words: &mut Vec<String>, comment: Option<&str>) -> bool {
    let Some(comment) = comment else {
        return false;
    };
    let parts: Vec<&str> = comment.split_whitespace().collect();
    if comment.contains(['{', '}']) && !parts.is_empty() {
        words.push(format!("; {}", parts.join(" ")));
        return true;
    }
    match parts.as_slice() {
        // The reader drops an empty comment, so nothing is written for one.
        [] => return false,
        [only] => words.push(format!("{{{only}}}")),
        [first, middle @ .., last] => {
            words.push(format!("{{{first}"));
            words.extend(middle.iter().map(|w| w.to_string()));
            words.push(format!("{last}}}"));
        }
    }
    true
}

/// Lays words out in lines shorter than [`LINE_LIMIT`] (a single longer word gets a line of its own).
pub(super) fn wrap(words: &[String], out: &mut String) {
    // The width of the line so far, in characters, kept as a count so that long lines are not counted again.
    let mut width = 0;
    for word in words {
        let length = word.chars().count();
        if width > 0 && width + 1 + length >= LINE_LIMIT {
            out.push('\n');
            width = 0;
        }
        if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += length;
        if word.starts_with(';') {
            // A `;` comment runs to the end of its line: nothing more may follow it there.
            out.push('\n');
            width = 0;
        }
    }
    if width > 0 || words.is_empty() {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::{parse_games, replay_english};
    use crowned_rules::English;

    fn game(moves: &str) -> Game {
        let mut g: Game = Game::new();
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g
    }

    #[test]
    fn tags_in_roster_order_then_the_rest() {
        let mut g = game("11-15 23-19");
        g.tags_mut().set("Opening", "Old Faithful");
        g.tags_mut().set("White", "Tinsley \"the\" champion");
        g.tags_mut().set("Event", "Test");
        g.tags_mut().set("Result", "1-0");
        let text = write_game(&g);
        assert_eq!(
            text,
            "[Event \"Test\"]\n[White \"Tinsley \\\"the\\\" champion\"]\n[Result \"*\"]\n[GameType \"21\"]\n\
             [Opening \"Old Faithful\"]\n\n1. 11-15 23-19 *\n"
        );
    }

    #[test]
    fn set_up_positions_start_with_the_second_mover_numbered() {
        let mut g: Game = Game::from_fen("W:W18,30:B14,5").expect("valid");
        g.play_text("18x9").expect("legal");
        g.play_text("5x14").expect("legal");
        g.resign(crowned_rules::Color::White).expect("not over");
        let text = write_game(&g);
        assert!(
            text.contains(
                "[Result \"1-0\"]\n[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"W:W18,30:B5,14\"]\n"
            ),
            "{text}"
        );
        assert!(text.ends_with("\n1... 18x9 2. 5x14 1-0\n"), "{text}");
    }

    #[test]
    fn comments_and_long_games_wrap_under_80_columns() {
        // The start of Tinsley's first game in the reference collection.
        let mut g = game(
            "11-15 23-18 8-11 27-23 4-8 23-19 10-14 19x10 14x23 26x19 7x14 24-20 6-10 30-26 11-15 \
             28-24 14-18 20-16 18-23 16-11 23x30 11x4",
        );
        g.set_comment(
            2,
            Some("a long remark about this position that will need to wrap across lines".into()),
        );
        let text = write_game(&g);
        assert!(
            text.lines().all(|l| l.chars().count() < LINE_LIMIT),
            "{text}"
        );
        assert!(text.contains("{a long remark"), "{text}");
        assert!(text.contains("lines} 2. 8-11"), "{text}");
        let back = replay_english(&parse_games(&text).remove(0).expect("parses"));
        assert_eq!(back.error, None);
        assert_eq!(back.game.moves(), g.moves());
        assert_eq!(back.game.comment(2), g.comment(2));
    }

    #[test]
    fn a_comment_before_a_second_movers_move_repeats_the_number() {
        let mut g = game("11-15 23-19 8-11");
        g.set_comment(1, Some("book".into()));
        g.set_comment(0, Some("{start}".into()));
        let text = write_game(&g);
        // A comment holding braces is a `;` comment, to the end of its line.
        assert!(
            text.ends_with("\n; {start}\n1. 11-15 {book} 1... 23-19 2. 8-11 *\n"),
            "{text}"
        );
        let back = replay_english(&parse_games(&text)[0].clone().expect("parses")).game;
        assert_eq!(back.comment(0), Some("{start}"));
        assert_eq!(back.comment(1), Some("book"));
    }

    #[test]
    fn several_games() {
        let text = write_games(&[game("11-15"), game("9-13")]);
        let games = parse_games(&text);
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(Result::is_ok));
        assert_eq!(write_games::<English>(&[]), "");
    }
}
