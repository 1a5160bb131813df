//! Tests of reading, checking and printing settings.

use super::*;
use crate::engine::{Level, Player, Players};
use crate::keymap::{Context, KEY_COMMANDS, KeyChord};
use crate::rules::{SquareStyle, Variant};
use std::path::PathBuf;

fn user(text: &str) -> Result<Settings, SettingsError> {
    Settings::defaults().overlaid(text, Path::new("/home/u/config.toml"))
}

/// The line and setting of an error, and its message.
fn refused(text: &str) -> (Option<usize>, Option<String>, String) {
    match user(text) {
        Err(SettingsError::Invalid {
            line,
            setting,
            message,
            ..
        }) => (line, setting, message),
        other => panic!("{text:?} should be refused, got {other:?}"),
    }
}

#[test]
fn the_built_in_file_parses_and_sets_everything() {
    let layer: Layer = toml::from_str(DEFAULT_SETTINGS).expect("the built-in file is TOML");
    let players = layer.players.expect("[players]");
    for key in PlayersSettings::KEYS {
        assert!(
            players.contains_key(*key),
            "players.{key} is in the built-in file"
        );
    }
    assert!(layer.engine.expect("[engine]").contains_key("time"));
    let display = layer.display.expect("[display]");
    for key in DisplaySettings::KEYS {
        assert!(
            display.contains_key(*key),
            "display.{key} is in the built-in file"
        );
    }
    let game = layer.game.expect("[game]");
    for key in GameSettings::KEYS
        .iter()
        .chain(&["variant", "size", "rows"])
    {
        assert!(
            game.contains_key(*key),
            "game.{key} is in the built-in file"
        );
    }
    let keys = layer.keys.expect("[keys]");
    for command in KEY_COMMANDS {
        assert!(
            keys.get(command.context.name())
                .is_some_and(|c| c.contains_key(command.name)),
            "keys.{}.{} is in the built-in file",
            command.context,
            command.name
        );
    }
    let defaults = Settings::defaults();
    assert_eq!(
        defaults.keys,
        KeyMap::default(),
        "the file and the key table agree"
    );
    assert_eq!(
        defaults.players.players(),
        Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium)
        }
    );
    assert_eq!(defaults.engine.time, 1.0);
    assert!(defaults.game.autosave);
}

#[test]
fn a_users_file_changes_only_what_it_names() {
    let settings = user(
        "[players]\nwhite = \"hard\"\n[display]\nnotation = \"coordinates\"\npieces = \"ASCII\"\n\
         [game]\nmove-limit = 60\nclock = \"5+3\"\n[keys.board]\nundo = [\"z\", \"Ctrl-z\"]\nflip = \"F2\"\n",
    )
    .expect("valid");
    assert_eq!(settings.game.clock, "5+3".parse().ok());
    assert_eq!(
        Settings::defaults().game.clock,
        None,
        "no clocks unless asked for"
    );
    let defaults = Settings::defaults();
    assert_eq!(settings.players.white, Player::Engine(Level::Hard));
    assert_eq!(settings.players.black, defaults.players.black);
    assert_eq!(settings.display.notation, Some(SquareStyle::Coordinates));
    assert_eq!(settings.display.pieces, PieceStyle::Ascii);
    assert_eq!(settings.game.move_limit, 60);
    assert_eq!(settings.display.theme, defaults.display.theme);
    let z: KeyChord = "z".parse().expect("key");
    let f2: KeyChord = "F2".parse().expect("key");
    assert_eq!(
        settings.keys.keys(Context::Board, "undo").map(<[_]>::len),
        Some(2)
    );
    assert_eq!(settings.keys.keys(Context::Board, "flip"), Some(&[f2][..]));
    assert_eq!(
        settings.keys.command_for(Context::Board, z).map(|c| c.name),
        Some("undo")
    );
    assert_eq!(
        settings.keys.keys(Context::Board, "redo"),
        defaults.keys.keys(Context::Board, "redo"),
        "other commands keep their keys"
    );
    // An empty file, or one of comments, is the defaults.
    assert_eq!(user("").expect("valid"), defaults);
    assert_eq!(user("# nothing\n\n").expect("valid"), defaults);
    // An integer is a number of seconds too.
    assert_eq!(user("[engine]\ntime = 3").expect("valid").engine.time, 3.0);
}

#[test]
fn the_capture_effect_is_read_and_a_bad_one_refused_with_its_line() {
    assert_eq!(
        Settings::defaults().display.capture_effect,
        CaptureEffect::None
    );
    let settings = user("[display]\ncapture-effect = \"explode\"\n").expect("valid");
    assert_eq!(settings.display.capture_effect, CaptureEffect::Explode);
    assert!(
        settings.to_toml().contains("capture-effect = \"explode\""),
        "--print-config shows it"
    );
    let (line, setting, message) =
        refused("[display]\ntheme = \"classic\"\n\ncapture-effect = \"fireworks\"\n");
    assert_eq!(line, Some(4));
    assert_eq!(setting.as_deref(), Some("display.capture-effect"));
    assert!(message.contains("none and explode"), "{message}");
    let (line, _, message) = refused("[display]\ncapture-effect = true\n");
    assert_eq!(line, Some(2));
    assert!(message.contains("a word, not true"), "{message}");
}

#[test]
fn mistakes_name_the_line_and_the_setting() {
    let cases: &[(&str, usize, &str, &str)] = &[
        (
            "[engine]\ntime = \"fast\"\n",
            2,
            "engine.time",
            "a number of seconds, not \"fast\"",
        ),
        ("[engine]\n\ntime = -1\n", 3, "engine.time", "above 0"),
        ("[engine]\ntime = nan\n", 2, "engine.time", "above 0"),
        ("[engine]\ntime = inf\n", 2, "engine.time", "above 0"),
        (
            "[engine]\ntme = 2\n",
            2,
            "engine.tme",
            "unknown setting `tme`",
        ),
        (
            "[colours]\nboard = 1\n",
            1,
            "colours",
            "unknown setting `colours`",
        ),
        (
            "[players]\nblack = \"genius\"\n",
            2,
            "players.black",
            "unknown player \"genius\"",
        ),
        (
            "[players]\nwhite = 3\n",
            2,
            "players.white",
            "a player, not 3",
        ),
        (
            "[display]\ntheme = \"neon\"\n",
            2,
            "display.theme",
            "unknown theme",
        ),
        (
            "[display]\npieces = \"emoji\"\n",
            2,
            "display.pieces",
            "unknown piece style",
        ),
        (
            "[display]\nnotation = \"algebraic\"\n",
            2,
            "display.notation",
            "unknown notation",
        ),
        (
            "[display]\norientation = \"up\"\n",
            2,
            "display.orientation",
            "unknown orientation",
        ),
        (
            "[display]\nlegal-moves = \"yes\"\n",
            2,
            "display.legal-moves",
            "true or false, not \"yes\"",
        ),
        (
            "[game]\nmove-limit = 0\n",
            2,
            "game.move-limit",
            "from 1 to 1000",
        ),
        ("[game]\nmove-limit = -5\n", 2, "game.move-limit", "not -5"),
        (
            "[game]\nmove-limit = 99999999999\n",
            2,
            "game.move-limit",
            "from 1 to 1000",
        ),
        (
            "[game]\nautosave = 1\n",
            2,
            "game.autosave",
            "true or false, not 1",
        ),
        ("[game]\nclock = \"5\"\n", 2, "game.clock", "or none"),
        (
            "[game]\nclock = \"0+0\"\n",
            2,
            "game.clock",
            "not a time control",
        ),
        (
            "[game]\nclock = 5\n",
            2,
            "game.clock",
            "a time control, not 5",
        ),
        (
            "[keys.board]\nundo = [\"Ctrl-\"]\n",
            2,
            "keys.board.undo",
            "is not a key",
        ),
        (
            "[keys.board]\nundo = [1]\n",
            2,
            "keys.board.undo",
            "invalid type",
        ),
        (
            "[keys.board]\nundoo = [\"x\"]\n",
            2,
            "keys.board.undoo",
            "no board command \"undoo\"",
        ),
        (
            "[keys.settings]\nclear = [\"c\"]\n",
            1,
            "keys.settings",
            "no \"settings\" keys",
        ),
        (
            "[keys.board]\nundo = [\"7\"]\n",
            2,
            "keys.board.undo",
            "digits and :",
        ),
        (
            "[keys.board]\nquit = [\"Ctrl-c\"]\n",
            2,
            "keys.board.quit",
            "Ctrl-c",
        ),
        (
            "[keys.board]\n# a comment\nredo = [\"u\"]\n",
            3,
            "keys.board.redo",
            "u is bound to both undo and redo",
        ),
        ("[engine]\ntime = 1.0.0\n", 2, "engine.time", ""),
        ("[players]\nblack = \"human\n", 2, "players.black", ""),
        ("[engine\ntime = 1\n", 1, "engine", ""),
        ("[engine]\ntime 2\n", 2, "engine.time", ""),
        ("keys = 3\n", 1, "keys", "invalid type"),
    ];
    for &(text, line, setting, message) in cases {
        let (l, s, m) = refused(text);
        assert_eq!(l, Some(line), "{text:?}: {m}");
        assert_eq!(s.as_deref(), Some(setting), "{text:?}: {m}");
        assert!(m.contains(message), "{text:?}: {m}");
        assert!(!m.contains('\n'), "{text:?}: {m}");
    }
}

#[test]
fn a_conflict_made_by_the_file_names_the_binding_it_made() {
    // Flip is bound to u on line 3: undo keeps u from the defaults, so flip is the culprit.
    let (line, setting, message) = refused("[keys.board]\nredo = [\"U\"]\nflip = [\"u\"]\n");
    assert_eq!(
        (line, setting.as_deref()),
        (Some(3), Some("keys.board.flip"))
    );
    assert_eq!(
        message,
        "u is bound to both undo and flip in the board keys"
    );
    // Moving undo away first makes it fine.
    user("[keys.board]\nundo = [\"x\"]\nflip = [\"u\"]\n").expect("valid");
    // The same key in two contexts is fine.
    user("[keys.dialog]\ncancel = [\"u\"]\n").expect("valid");
}

#[test]
fn the_first_mistake_in_the_file_is_reported() {
    let (line, setting, _) =
        refused("[display]\ntheme = \"neon\"\n[players]\nblack = \"genius\"\n");
    assert_eq!((line, setting.as_deref()), (Some(2), Some("display.theme")));
}

#[test]
fn the_error_names_the_file() {
    let error = user("[engine]\ntime = 0\n").expect_err("refused");
    let text = error.to_string();
    assert!(
        text.starts_with("/home/u/config.toml: line 2: engine.time: "),
        "{text}"
    );
    assert!(
        error
            .brief()
            .starts_with("config.toml: line 2: engine.time: "),
        "{}",
        error.brief()
    );
    assert_eq!(error.line(), Some(2));
    assert_eq!(error.setting(), Some("engine.time"));
}

#[test]
fn printed_settings_read_back_the_same() {
    let mut settings = user(
        "[players]\nblack = \"max\"\n[engine]\ntime = 0.25\n[display]\norientation = \"white-bottom\"\n\
         [keys.board]\nredo = [\"Ctrl-r\", \"Shift-F3\", \"Space\"]\npick = [\"Enter\"]\n",
    )
    .expect("valid");
    settings.override_with(&Overrides {
        display: DisplayFlags {
            legal_moves: Some(false),
            ..DisplayFlags::default()
        },
        game: GameFlags {
            autosave: Some(false),
            ..GameFlags::default()
        },
        ..Overrides::default()
    });
    let printed = settings.to_toml();
    assert!(printed.contains("[keys.board]"), "{printed}");
    assert!(printed.contains("move-limit = 40"), "{printed}");
    let back = Settings::placeholder()
        .overlaid(&printed, Path::new("printed"))
        .expect("the printed settings are valid");
    assert_eq!(back, settings);
    assert_eq!(
        Settings::defaults().to_toml(),
        Settings::placeholder()
            .overlaid(DEFAULT_SETTINGS, Path::new("d"))
            .expect("valid")
            .to_toml()
    );
}

#[test]
fn overrides_win() {
    let mut settings = user("[engine]\ntime = 5\n[display]\ntheme = \"wood\"\n").expect("valid");
    settings.override_with(&Overrides {
        engine: EngineFlags {
            time: Some(0.5),
            ..EngineFlags::default()
        },
        players: PlayersFlags {
            black: Some(Player::Engine(Level::Easy)),
            ..PlayersFlags::default()
        },
        ..Overrides::default()
    });
    assert_eq!(settings.engine.time, 0.5);
    assert_eq!(settings.display.theme, ThemeName::Wood);
    assert_eq!(settings.players.black, Player::Engine(Level::Easy));
    assert_eq!(settings.think_time(), Duration::from_millis(500));
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crowned-config-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn files_missing_unreadable_and_not_text() {
    let dir = scratch("files");
    let path = dir.join("config.toml");
    assert_eq!(
        Settings::load(&path).expect("missing is fine"),
        Settings::defaults()
    );

    std::fs::create_dir(&path).expect("a directory in the file's place");
    let (settings, error) = Settings::load_or_defaults(&path);
    assert_eq!(settings, Settings::defaults());
    assert!(
        matches!(error, Some(SettingsError::Unreadable { .. })),
        "{error:?}"
    );
    std::fs::remove_dir(&path).expect("removed");

    std::fs::write(&path, b"[engine]\ntime = 2\n# caf\xe9\n").expect("written");
    let error = Settings::load(&path).expect_err("not UTF-8");
    assert!(
        matches!(error, SettingsError::NotText { line: 3, .. }),
        "{error:?}"
    );

    std::fs::write(&path, vec![b'#'; MAX_FILE_SIZE as usize + 1]).expect("written");
    let error = Settings::load(&path).expect_err("too large");
    assert!(matches!(error, SettingsError::TooLarge { .. }), "{error:?}");

    std::fs::write(&path, "[engine]\ntime = 2\n").expect("written");
    assert_eq!(Settings::load(&path).expect("valid").engine.time, 2.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_variant_board_and_rows_are_read_together() {
    let russian = user("[game]\nvariant = \"Russian\"\n").expect("valid");
    assert_eq!(russian.game_type, GameType::standard(Variant::Russian));
    let ten = user("[game]\nsize = 10\n").expect("valid");
    assert_eq!(
        ten.game_type,
        GameType::new(Variant::English, Some(10), None).expect("valid")
    );
    assert_eq!(ten.game_type.rows, 4);
    let two = user("[game]\nsize = 12\nrows = 2\n").expect("valid");
    assert_eq!((two.game_type.size, two.game_type.rows), (12, 2));
    for (text, setting, words) in [
        ("[game]\nvariant = \"shogi\"\n", "game.variant", "shogi"),
        ("[game]\nsize = 9\n", "game.size", "9"),
        (
            "[game]\nvariant = \"international\"\nsize = 8\n",
            "game.size",
            "8",
        ),
        ("[game]\nrows = 4\n", "game.rows", "4"),
        ("[game]\nsize = -3\n", "game.size", "out of range"),
    ] {
        let (_, found, message) = refused(text);
        assert_eq!(found.as_deref(), Some(setting), "{text}");
        assert!(message.contains(words), "{text}: {message}");
    }
    let auto = user("[display]\nnotation = \"auto\"\n").expect("valid");
    assert_eq!(auto.display.notation, None);
}

#[test]
fn the_server_table_is_read_checked_and_printed() {
    let defaults = Settings::defaults().server;
    assert_eq!(
        defaults,
        ServerSettings {
            listen: "127.0.0.1:2222".parse().expect("address"),
            host_key: None,
            authorized_keys: None,
            guests: false,
            max_sessions: 500,
            max_per_address: 20,
            max_strangers: 100,
            max_strangers_per_address: 10,
            sign_in_deadline: 20,
            client_stall: 60,
            idle_timeout: 1800,
            seat_grace: 180,
            engine_threads: 1,
            engine_megabytes: 64,
            variant_files: Vec::new(),
            tournaments: Vec::new(),
            records: None,
            node_name: None,
            lease_term: 10,
            events_per_key: 5,
            events_per_address: 10,
            players_events: 100,
            web: None,
            web_cert: None,
            web_key: None,
            metrics: None,
            web_proxies: Vec::new(),
        }
    );
    let mine = user(
        "[server]\nlisten = \"[::1]:2022\"\nhost-key = \"/srv/crowned/key\"\nmax-sessions = 50\n\
         engine-threads = 2\nguests = true\nauthorized-keys = \"/srv/keys\"\n\
         variant-files = [\"/srv/holes.toml\", \"frogs.toml\"]\n\
         records = \"postgres://crowned@db.example:5433/records\"\n\
         node-name = \"Eu-1\"\nlease-term = 30\nevents-per-key = 0\nplayers-events = 20\n",
    )
    .expect("valid");
    assert_eq!(
        mine.server.node_name.as_ref().map(ToString::to_string),
        Some("eu-1".to_string())
    );
    assert_eq!(mine.server.lease_term, 30);
    assert_eq!(
        (
            mine.server.events_per_key,
            mine.server.events_per_address,
            mine.server.players_events
        ),
        (0, 10, 20)
    );
    assert_eq!(mine.server.listen, "[::1]:2022".parse().expect("address"));
    assert_eq!(
        mine.server.host_key,
        Some(PathBuf::from("/srv/crowned/key"))
    );
    assert_eq!(
        (mine.server.max_sessions, mine.server.engine_threads),
        (50, 2)
    );
    assert_eq!(mine.server.max_per_address, 20);
    assert!(mine.server.guests);
    assert_eq!(
        mine.server.authorized_keys,
        Some(PathBuf::from("/srv/keys"))
    );
    assert_eq!(
        mine.server.variant_files,
        [
            PathBuf::from("/srv/holes.toml"),
            PathBuf::from("frogs.toml")
        ]
    );
    assert_eq!(
        mine.server
            .records
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("postgres://crowned@db.example:5433/records")
    );
    let back = Settings::placeholder()
        .overlaid(&mine.to_toml(), Path::new("printed"))
        .expect("the printed settings are valid");
    assert_eq!(back.server, mine.server);
    // A password in the records' URL is never printed.
    let secret = user("[server]\nrecords = \"postgres://crowned:s3cret-pw@db.example/records\"\n")
        .expect("valid");
    let printed = secret.to_toml();
    assert!(!printed.contains("s3cret-pw"), "{printed}");
    assert!(
        printed.contains("postgres://crowned@db.example/records"),
        "{printed}"
    );
    for (text, setting, words) in [
        (
            "[server]\nlisten = \"everywhere\"\n",
            "server.listen",
            "not an address",
        ),
        (
            "[server]\nmax-sessions = 0\n",
            "server.max-sessions",
            "from 1 to",
        ),
        (
            "[server]\nnode-name = \"eu 1\"\n",
            "server.node-name",
            "letters, digits",
        ),
        (
            "[server]\nlease-term = 1\n",
            "server.lease-term",
            "from 2 to 600",
        ),
        (
            "[server]\nidle-timeout = -5\n",
            "server.idle-timeout",
            "not -5",
        ),
        (
            "[server]\nengine-megabytes = 100000000\n",
            "server.engine-megabytes",
            "65536",
        ),
        (
            "[server]\nrecords = \"mysql://ann:s3cret-pw@db/records\"\n",
            "server.records",
            "postgres://",
        ),
        (
            "[server]\nevents-per-address = -1\n",
            "server.events-per-address",
            "from 0 to 10000",
        ),
        (
            "[server]\nport = 22\n",
            "server.port",
            "unknown setting `port`",
        ),
    ] {
        let (_, found, message) = refused(text);
        assert_eq!(found.as_deref(), Some(setting), "{text}");
        assert!(message.contains(words), "{text}: {message}");
    }
}

#[test]
fn a_variant_setting_may_name_a_definition_and_is_written_back_as_named() {
    let turkish = user("[game]\nvariant = \"turkish\"\n").expect("Turkish is built in");
    assert!(matches!(turkish.game_type.variant, Variant::Defined(_)));
    assert_eq!(turkish.game_type.variant.title(), "Turkish draughts");
    assert!(
        turkish.to_toml().contains("variant = \"turkish\""),
        "{}",
        turkish.to_toml()
    );
    // A definition of the user's own, beside the settings file.
    let home = std::env::temp_dir().join(format!("crowned-config-variants-{}", std::process::id()));
    let folder = home.join("variants");
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    std::fs::write(
        folder.join("pond.toml"),
        include_str!("../../../variants/pond.toml"),
    )
    .expect("written");
    std::fs::write(
        folder.join("broken.toml"),
        "name = \"Broken\"\n[board]\nwidth = 99\n",
    )
    .expect("written");
    let settings_file = home.join("config.toml");
    let pond = Settings::defaults()
        .overlaid("[game]\nvariant = \"pond\"\n", &settings_file)
        .expect("pond.toml is in the folder");
    assert_eq!(pond.game_type.variant.title(), "Frog pond");
    let printed = pond.to_toml();
    assert!(printed.contains("variant = \"pond\""), "{printed}");
    let again = Settings::defaults()
        .overlaid(&printed, &settings_file)
        .expect("what is printed reads back");
    assert_eq!(again, pond);
    // A broken definition is refused with its own file named, and an unknown name with where it was looked for.
    let broken = Settings::defaults()
        .overlaid("[game]\nvariant = \"broken\"\n", &settings_file)
        .expect_err("broken")
        .to_string();
    assert!(
        broken.contains("game.variant") && broken.contains("broken.toml"),
        "{broken}"
    );
    let unknown = Settings::defaults()
        .overlaid("[game]\nvariant = \"nowhere\"\n", &settings_file)
        .expect_err("unknown")
        .to_string();
    assert!(
        unknown.contains("turkish") && unknown.contains("variants"),
        "{unknown}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_game_type_s_settings_are_checked_for_their_type_and_are_no_unknown_setting() {
    for (text, setting, message) in [
        (
            "[game]\nsize = \"big\"\n",
            "game.size",
            "a whole number, not \"big\"",
        ),
        (
            "[game]\nrows = 2.5\n",
            "game.rows",
            "a whole number, not 2.5",
        ),
        (
            "[game]\nvariant = 7\n",
            "game.variant",
            "a variant's name, not 7",
        ),
        (
            "[game]\nvariants = \"english\"\n",
            "game.variants",
            "`autosave`, `move-limit`, `clock`, `variant`, `size`, `rows`",
        ),
    ] {
        let (line, s, m) = refused(text);
        assert_eq!(line, Some(2), "{text:?}: {m}");
        assert_eq!(s.as_deref(), Some(setting), "{text:?}: {m}");
        assert!(m.contains(message), "{text:?}: {m}");
    }
    let international =
        user("[game]\nvariant = \"international\"\nclock = \"3+2\"\n").expect("valid");
    assert_eq!(international.game_type.size, 10);
    let printed = international.to_toml();
    let game = &printed[printed.find("[game]").expect("a [game] table")..];
    let order: Vec<&str> = game
        .lines()
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split(" = ").next())
        .collect();
    assert_eq!(
        order,
        ["autosave", "move-limit", "variant", "size", "rows", "clock"]
    );
}
