//! Definitions that cannot be played give an error naming the field, never a panic.

use crate::defined::{BUILTINS, DefinedRules, DefinitionError, MAX_SIDE};

const ENGLISH: &str = include_str!("../builtin/english.toml");

fn error_of(text: &str) -> DefinitionError {
    match DefinedRules::from_toml(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn a_missing_field_is_named_with_its_line() {
    let text = ENGLISH.replace("width = 8\n", "");
    let error = error_of(&text);
    let DefinitionError::Syntax { line, message } = &error else {
        panic!("{error:?}");
    };
    assert!(message.contains("width"), "{message}");
    assert!(line.is_some(), "{error}");
    assert!(error.to_string().starts_with("line "), "{error}");
}

#[test]
fn a_misspelt_field_is_refused() {
    let error = error_of(&ENGLISH.replace("precedence", "precendence"));
    assert!(error.to_string().contains("precendence"), "{error}");
}

#[test]
fn boards_out_of_bounds() {
    for (w, h) in [(0, 0), (100, 100), (8, 0), (MAX_SIDE + 1, 8)] {
        let text = ENGLISH
            .replace("width = 8", &format!("width = {w}"))
            .replace("height = 8", &format!("height = {h}"));
        assert_eq!(
            error_of(&text),
            DefinitionError::BoardSize {
                width: w,
                height: h,
                max: MAX_SIDE
            }
        );
    }
}

#[test]
fn a_promotion_to_an_unknown_kind() {
    let error = error_of(&ENGLISH.replace("to = \"king\"", "to = \"queen\""));
    assert_eq!(
        error,
        DefinitionError::UnknownKind {
            field: "pieces[0].promotion.to".into(),
            name: "queen".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "pieces[0].promotion.to: no piece kind is named \"queen\""
    );
}

#[test]
fn a_start_square_on_a_hole() {
    let text = ENGLISH.replace("width = 8\n", "width = 8\nholes = [\"c3\"]\n").replace(
        "rows = 3\n",
        "rows = 0\n[[start.pieces]]\nside = \"white\"\nkind = \"man\"\nsquares = [\"a1\", \"c3\"]\n",
    );
    let error = error_of(&text);
    assert!(
        matches!(&error, DefinitionError::BadSquare { field, square, .. }
            if field == "start.pieces[0].squares[1]" && square == "c3"),
        "{error:?}"
    );
}

#[test]
fn other_bad_values_are_named() {
    let cases = [
        (ENGLISH.replace("rows = 3", "rows = 5"), "start.rows"),
        (
            ENGLISH.replace("letter = 'k'", "letter = '7'"),
            "pieces[1].letter",
        ),
        (
            ENGLISH.replace("name = \"king\"", "name = \"man\""),
            "pieces[1].name",
        ),
        (
            ENGLISH.replace("{ to = \"king\" }", "{ to = \"king\", row = 9 }"),
            "pieces[0].promotion.row",
        ),
        (
            ENGLISH.replace("height = 8\n", "height = 8\nholes = [\"a8\"]\n"),
            "board.holes[0]",
        ),
        (
            ENGLISH.replace("height = 8\n", "height = 8\nholes = [\"z1\"]\n"),
            "board.holes[0]",
        ),
    ];
    for (text, field) in cases {
        let error = error_of(&text);
        assert!(error.to_string().starts_with(field), "{field}: {error}");
    }
}

/// Every prefix of every built-in, and some bytes changed, is read without a panic (most are errors).
#[test]
fn no_input_panics() {
    for (_, text) in BUILTINS {
        for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
            let _ = DefinedRules::from_toml(&text[..end]);
        }
    }
    for garbage in [
        "",
        "=",
        "[board]\nwidth = -1",
        "name = 3",
        "\u{0}",
        "[[pieces]]\n[[pieces]]",
    ] {
        assert!(DefinedRules::from_toml(garbage).is_err(), "{garbage:?}");
    }
}

#[test]
fn a_piece_worth_more_than_the_most_is_refused() {
    let text = ENGLISH.replacen("letter = ", "value = 4294967295\nletter = ", 1);
    let error = error_of(&text);
    assert!(
        error.to_string().contains("value") && error.to_string().contains("1000"),
        "{error}"
    );
}
