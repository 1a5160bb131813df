//! Settings written out read back the same, whatever they are; and no settings text, however broken, panics
//! the reader. A quick run in every `cargo test`, a deep one with `cargo test --profile fast -- --ignored`.

use std::path::Path;

use crowned::app::{KEY_COMMANDS, KeyChord, Orientation, PLAYER_CHOICES, Player};
use crowned::config::{PlayersSettings, Settings};
use crowned::rules::{ENGLISH_SIZES, GameType, SquareStyle, Variant};
use crowned::ui::{PieceStyle, ThemeName};
use proptest::prelude::*;

fn player() -> impl Strategy<Value = Player> {
    prop::sample::select(PLAYER_CHOICES.to_vec())
}

/// Keys as the settings file names them: letters, digits, punctuation, named keys, with modifiers.
fn key() -> impl Strategy<Value = KeyChord> {
    let names = prop::sample::select(vec![
        "a",
        "z",
        "U",
        "5",
        "-",
        "+",
        "[",
        "]",
        "?",
        ";",
        "Space",
        "Enter",
        "Tab",
        "BackTab",
        "Backspace",
        "Delete",
        "Insert",
        "Home",
        "End",
        "PageUp",
        "PageDown",
        "Up",
        "Down",
        "Left",
        "Right",
        "F1",
        "F12",
    ]);
    let modifier = prop::sample::select(vec!["", "Ctrl-", "Alt-", "Shift-", "Ctrl-Alt-"]);
    (modifier, names).prop_filter_map("a key the settings accept", |(m, n)| {
        format!("{m}{n}").parse::<KeyChord>().ok()
    })
}

/// Settings with every value drawn from its whole range, and some commands given other keys.
fn settings() -> impl Strategy<Value = Settings> {
    (
        (player(), player()),
        (1e-3..86_400.0f64, 0.0..=600.0f64, 0.0..=1.0f64),
        (
            prop::sample::select(ThemeName::ALL.to_vec()),
            prop::sample::select(PieceStyle::ALL.to_vec()),
            prop::option::of(prop::sample::select(SquareStyle::ALL.to_vec())),
            prop::sample::select(Orientation::ALL.to_vec()),
        ),
        (any::<bool>(), any::<bool>(), any::<bool>(), 1..=1000u32),
        prop::collection::vec(
            (0..KEY_COMMANDS.len(), prop::collection::vec(key(), 0..3)),
            0..6,
        ),
        game_type(),
    )
        .prop_map(
            |(
                (black, white),
                (time, pace, step),
                (theme, pieces, notation, orientation),
                flags,
                keys,
                game_type,
            )| {
                let mut s = Settings::defaults();
                s.players = PlayersSettings { black, white };
                s.engine.time = time;
                s.engine.pace = pace;
                s.display.animation_step = step;
                s.display.theme = theme;
                s.display.pieces = pieces;
                s.display.notation = notation;
                s.display.orientation = orientation;
                s.game_type = game_type;
                (
                    s.display.square_numbers,
                    s.display.legal_moves,
                    s.game.autosave,
                    s.game.move_limit,
                ) = flags;
                for (index, chords) in keys {
                    let command = &KEY_COMMANDS[index];
                    let mut bound = s.keys.clone();
                    // A binding the settings would refuse (a reserved key, two commands on one key) is skipped.
                    if bound.bind(command.context, command.name, &chords).is_ok()
                        && bound.check().is_ok()
                    {
                        s.keys = bound;
                    }
                }
                s
            },
        )
}

/// Any variant on its own board, or English rules on any board, with any rows of men the board allows.
fn game_type() -> impl Strategy<Value = GameType> {
    let standard = prop::sample::select(Variant::ALL.to_vec()).prop_map(GameType::standard);
    let english =
        (prop::sample::select(ENGLISH_SIZES.to_vec()), 1..7u8).prop_map(|(size, rows)| {
            GameType::new(
                Variant::English,
                Some(size),
                Some(1 + rows % (size / 2 - 1)),
            )
            .expect("rows the board allows")
        });
    prop_oneof![standard, english]
}

fn round_trip(settings: &Settings) -> Result<(), TestCaseError> {
    let text = settings.to_toml();
    let back = Settings::defaults()
        .overlaid(&text, Path::new("config.toml"))
        .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&back, settings, "{}", text);
    Ok(())
}

fn never_panics(text: &str) {
    // Broken settings are an error with a reason, never a panic; whatever is accepted prints and reads back.
    if let Ok(settings) = Settings::defaults().overlaid(text, Path::new("config.toml")) {
        let again = Settings::defaults().overlaid(&settings.to_toml(), Path::new("config.toml"));
        assert_eq!(again.ok().as_ref(), Some(&settings), "{text}");
    }
}

/// Text that looks like a settings file: real section and key names, values of every kind, and junk.
fn settings_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        prop::sample::select(vec![
            "[players]",
            "[engine]",
            "[display]",
            "[game]",
            "[keys.board]",
            "[keys.history]",
            "[keys.setup]",
            "[keys]",
            "[[display]]",
        ])
        .prop_map(String::from),
        (
            prop::sample::select(vec![
                "black",
                "white",
                "time",
                "pace",
                "theme",
                "pieces",
                "square-numbers",
                "notation",
                "orientation",
                "legal-moves",
                "animation-step",
                "autosave",
                "move-limit",
                "undo",
                "quit",
                "flip",
                "help",
            ]),
            prop_oneof![
                Just("\"max\"".to_string()),
                Just("\"wood\"".to_string()),
                Just("[\"u\", \"Ctrl-z\"]".to_string()),
                Just("[\"Ctrl-c\"]".to_string()),
                any::<f64>().prop_map(|f| f.to_string()),
                any::<i64>().prop_map(|i| i.to_string()),
                any::<bool>().prop_map(|b| b.to_string()),
                "\"[^\"\\\\]{0,12}\"",
            ],
        )
            .prop_map(|(k, v)| format!("{k} = {v}")),
        ".{0,40}",
    ];
    prop::collection::vec(line, 0..12).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn settings_print_and_read_back_the_same(s in settings()) {
        round_trip(&s)?;
    }

    #[test]
    fn no_settings_text_panics_the_reader(text in settings_text()) {
        never_panics(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(50_000))]

    #[test]
    #[ignore = "deep run: cargo test --profile fast -- --ignored"]
    fn deep_settings_print_and_read_back_the_same(s in settings()) {
        round_trip(&s)?;
    }

    #[test]
    #[ignore = "deep run: cargo test --profile fast -- --ignored"]
    fn deep_no_settings_text_panics_the_reader(text in settings_text()) {
        never_panics(&text);
    }
}
