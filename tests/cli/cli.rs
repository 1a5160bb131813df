//! The `crowned` binary: output formats, errors and exit codes.

use crate::cli_support;

use std::path::PathBuf;
use std::process::{Command, Output};

use cli_support::{TempFile, assert_one_line_error, crowned, crowned_in, stderr, stdout};

#[test]
fn perft_prints_one_line_per_depth() {
    let out = crowned(&["perft", "--depth", "6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "perft 1 7\nperft 2 49\nperft 3 302\nperft 4 1469\nperft 5 7361\nperft 6 36768\n"
    );
    assert!(stderr(&out).contains("leaves/s"), "{}", stderr(&out));
}

#[test]
fn perft_counts_every_variant_and_board() {
    // Published start counts: international and Italian from the shared tables, Canadian from the FMJD forum
    // (see tests/perft.rs), Frisian as given for dctl (see tests/frisian.rs); English 10x10 with three rows has no
    // table, so only the shape is checked.
    let cases: [(&[&str], &str); 6] = [
        (
            &["--variant", "international"],
            "perft 1 9\nperft 2 81\nperft 3 658\nperft 4 4265\n",
        ),
        (
            &["--variant", "russian"],
            "perft 1 7\nperft 2 49\nperft 3 302\nperft 4 1469\n",
        ),
        (
            &["--variant", "italian"],
            "perft 1 7\nperft 2 49\nperft 3 302\nperft 4 1469\n",
        ),
        (
            &["--variant", "canadian"],
            "perft 1 11\nperft 2 121\nperft 3 1222\nperft 4 10053\n",
        ),
        (
            &["--variant", "frisian"],
            "perft 1 9\nperft 2 81\nperft 3 658\nperft 4 3880\n",
        ),
        (&["--variant", "english", "--size", "10", "--rows", "3"], ""),
    ];
    for (args, expected) in cases {
        let mut all = vec!["perft", "--depth", "4"];
        all.extend_from_slice(args);
        let out = crowned(&all);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.lines().count(), 4, "{args:?}: {text}");
        if !expected.is_empty() {
            assert_eq!(text, expected, "{args:?}");
        }
    }
    assert_one_line_error(
        &["perft", "--depth", "2", "--variant", "shogi"],
        "unknown variant",
    );
    assert_one_line_error(
        &[
            "perft",
            "--depth",
            "2",
            "--variant",
            "international",
            "--size",
            "8",
        ],
        "10x10 only",
    );
    assert_one_line_error(&["perft", "--depth", "2", "--size", "16"], "not 16x16");
    assert_one_line_error(
        &["perft", "--depth", "2", "--size", "8", "--rows", "4"],
        "1 to 3 rows",
    );
}

#[test]
fn perft_prints_each_depth_as_soon_as_it_is_known() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    // Depths 1-9 are known after a walk to depth 9, long before the walk to depth 11 ends; an optimised build
    // is about fifty times faster, so it is given depth 14 (depths 1-12 first).
    let depth = if cfg!(debug_assertions) { "11" } else { "14" };
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["perft", "--depth", depth])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first: Vec<String> = lines.take(9).map(|l| l.expect("a line")).collect();
    let still_running = child.try_wait().expect("status").is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        first,
        [
            "perft 1 7",
            "perft 2 49",
            "perft 3 302",
            "perft 4 1469",
            "perft 5 7361",
            "perft 6 36768",
            "perft 7 179740",
            "perft 8 845931",
            "perft 9 3963680"
        ]
    );
    assert!(still_running, "the lines came only at the end");
}

#[test]
fn perft_from_a_fen_with_divide_and_no_dup() {
    // A king that can circle four men either way: two routes, one move.
    let circling = [
        "perft",
        "--depth",
        "1",
        "--fen",
        "B:W10,11,18,19:BK14",
        "--divide",
    ];
    for (extra, expected) in [
        (None, "perft 1 2\n14x7x16x23x14 1\n14x23x16x7x14 1\n"),
        (Some("--no-dup"), "perft 1 1\n14x14 1\n"),
    ] {
        let args: Vec<&str> = circling.iter().copied().chain(extra).collect();
        let out = crowned(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), expected);
    }
}

#[test]
fn divide_lists_root_moves() {
    let out = crowned(&["perft", "--depth", "3", "--divide"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3 + 7);
    assert_eq!(lines[3], "9-13 48");
    let sum: u64 = lines[3..]
        .iter()
        .map(|l| {
            l.rsplit(' ')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(sum, 302);
}

#[test]
fn bad_input_gives_one_line_and_exit_code_2() {
    assert_one_line_error(&["perft", "--depth", "0"], "0 is not in 1..=28");
    assert_one_line_error(&["perft", "--depth", "x"], "invalid value 'x'");
    assert_one_line_error(&["perft", "--depth", "-3"], "unexpected argument '-3'");
    assert_one_line_error(&["perft", "--depth", "99"], "99 is not in 1..=28");
    assert_one_line_error(&["perft"], "--depth");
    assert_one_line_error(
        &["perft", "--depth", "2", "--fen", "B:W33:B1"],
        "square 33 is off the board",
    );
    assert_one_line_error(
        &["perft", "--depth", "2", "--fen", "B:W5:B5"],
        "square 5 is given to both sides",
    );
    assert_one_line_error(
        &["perft", "--depth", "2", "--fen", ""],
        "the position is empty",
    );
    assert_one_line_error(&["--fen", "Q:W1"], "the side to move must be B or W");
    // Every command that takes a position checks it the same way.
    for command in ["perft --depth 2", "think --depth 2", "show"] {
        let mut args: Vec<&str> = command.split(' ').collect();
        args.extend(["--fen", "B:WK1-16:BK17-32"]);
        assert_one_line_error(&args, "Black has 16 pieces; a side has at most 12");
        let mut args: Vec<&str> = command.split(' ').collect();
        args.extend(["--fen", "B:W1,21:B12"]);
        assert_one_line_error(&args, "the White man on 1 stands on its crowning row");
    }
    // A long bad FEN is quoted short, and an overlong number is called too long.
    let long = format!("B:W{}:B1", "9".repeat(100_000));
    let out = crowned(&["show", "--fen", &long]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).len() < 300, "{}", stderr(&out).len());
    assert!(
        stderr(&out).contains("is too long to be a square number"),
        "{}",
        stderr(&out)
    );
    assert_one_line_error(
        &["frobnicate"],
        "frobnicate: no such file, and not a command",
    );
}

#[test]
fn show_prints_the_start() {
    let out = crowned(&["show"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Black to move"), "{text}");
    assert!(
        text.contains("Legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16"),
        "{text}"
    );
    assert!(!text.contains("not built"), "the game exists: {text}");
}

#[test]
fn a_lost_position_says_so() {
    let out = crowned(&["show", "--fen", "W:W29:B25,22,18"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("White has no legal move and loses."));
}

#[test]
fn the_game_without_a_terminal_says_so_instead_of_drawing() {
    let out = crowned(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).contains("the game needs a terminal"),
        "{}",
        stderr(&out)
    );
    assert_one_line_error(&["--white", "genius"], "unknown player");
    assert_one_line_error(&["--theme", "neon"], "unknown theme");
    assert_one_line_error(&["--clock", "5 minutes"], "not a time control");
    assert_one_line_error(&["--clock"], "--clock");
}

#[test]
fn help_and_version_succeed() {
    let out = crowned(&["--help"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("perft"));
    for flag in [
        "--black",
        "--white",
        "--time",
        "--theme",
        "--ascii",
        "--no-numbers",
        "--notation",
        "--orientation",
        "--no-legal-moves",
        "--no-autosave",
        "--move-limit",
        "--print-config",
    ] {
        assert!(stdout(&out).contains(flag), "--help lists {flag}");
    }
    let out = crowned(&["--version"]);
    assert!(out.status.success());
    assert!(stdout(&out).starts_with("crowned "));
}

#[test]
fn every_default_the_help_names_is_the_default_in_effect() {
    let help = stdout(&crowned(&["--help"]));
    let printed = stdout(&crowned(&["--print-config"]));
    // `[setting display.notation, built in: auto]`, wherever clap broke the line.
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut checked = 0;
    for part in help.split("[setting ").skip(1) {
        let Some((setting, rest)) = part.split_once(", built in: ") else {
            continue;
        };
        let Some((value, _)) = rest.split_once(']') else {
            continue;
        };
        let Some((section, key)) = setting.split_once('.') else {
            panic!("{setting} names no section");
        };
        // The value under its section in the settings in effect, quotes taken off.
        let in_effect = printed
            .split(&format!("[{section}]"))
            .nth(1)
            .and_then(|rest| {
                rest.lines()
                    .find_map(|line| line.strip_prefix(&format!("{key} = ")))
            })
            .map(|v| v.trim_matches('"').to_string());
        let Some(in_effect) = in_effect else {
            continue;
        };
        // Numbers print as 1.0 where the help says 1.
        let same = in_effect == value
            || in_effect
                .parse::<f64>()
                .ok()
                .zip(value.parse::<f64>().ok())
                .is_some_and(|(a, b)| a == b);
        assert!(
            same,
            "--help says {setting} is {value}, but it is {in_effect}"
        );
        checked += 1;
    }
    assert!(checked >= 6, "{checked} defaults checked");
}

#[test]
fn pdn_check_reports_problem_games_and_a_summary() {
    let good = TempFile::new("good.pdn", "[Event \"fine\"]\n1. 11-15 23-19 *\n");
    let out = crowned(&["pdn", "check", good.path()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "games 1 ok 1 errors 0\n");

    let bad = TempFile::new(
        "bad.pdn",
        "[Event \"one\"]\n1. 11-15 23-19 *\n\n[Event \"two\"]\n1. 11-15 22-19 *\n\n[Event \"three\"]\n1. 11-15 . *\n",
    );
    let out = crowned(&["pdn", "check", bad.path()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "game 2 \"two\": move 1... 22-19: 22-19 is not a legal move (this piece can play 22-17 or 22-18)\n\
         game 3 \"three\": line 8, column 10: expected a move, found \".\"\n\
         games 3 ok 1 errors 2\n"
    );

    let out = crowned(&["pdn", "check", good.path(), bad.path()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("{}: game 2 \"two\"", bad.path())),
        "{text}"
    );
    assert!(text.ends_with("games 4 ok 2 errors 2\n"), "{text}");
}

#[test]
fn pdn_check_on_an_unreadable_file_exits_2() {
    let good = TempFile::new("fine.pdn", "1. 11-15 *\n");
    let out = crowned(&["pdn", "check", "/nonexistent/crowned/none.pdn", good.path()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot read /nonexistent/crowned/none.pdn"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out).lines().last(), Some("games 1 ok 1 errors 0"));
    assert_one_line_error(&["pdn", "check"], "FILE");
}

#[test]
fn pdn_check_on_the_tinsley_collection() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/pdn/tinsley.pdn"
    );
    if !std::path::Path::new(path).exists() {
        eprintln!("skipped: {path} not found");
        return;
    }
    let out = crowned(&["pdn", "check", path]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "game 541 \"Petal 1981, game 18\": move 62 32-28: there is no black piece on 32\n\
         games 724 ok 723 errors 1\n"
    );
}

#[test]
fn think_prints_progress_and_a_bestmove_line() {
    let out = crowned(&["think", "--depth", "6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text.lines().last().expect("a line");
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 8, "{line}");
    assert_eq!(
        (words[0], words[2], words[4], words[6]),
        ("bestmove", "score", "depth", "nodes")
    );
    assert!(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"].contains(&words[1]),
        "{line}"
    );
    assert_eq!(words[5], "6");
    assert!(words[7].parse::<u64>().is_ok(), "{line}");
    assert_eq!(
        stderr(&out)
            .lines()
            .filter(|l| l.starts_with("depth "))
            .count(),
        6
    );
}

#[test]
fn think_reports_wins_losses_and_no_move() {
    let out = crowned(&["think", "--fen", "B:W18:B14", "--depth", "4"]);
    assert!(
        stdout(&out).starts_with("bestmove 14x23 score win1 depth "),
        "{}",
        stdout(&out)
    );
    let out = crowned(&["think", "--fen", "W:W29:B25,22,18", "--time", "0.1"]);
    assert_eq!(stdout(&out), "bestmove none\n");
    for level in ["random", "easy", "medium", "hard"] {
        let out = crowned(&["think", "--level", level, "--depth", "3"]);
        assert!(stdout(&out).starts_with("bestmove "), "{level}");
    }
    assert_one_line_error(&["think", "--level", "genius"], "unknown level");
    assert_one_line_error(&["think", "--time", "0"], "seconds");
    assert_one_line_error(&["think", "--time", "soon"], "seconds");
    assert_one_line_error(
        &["think", "--time", "1", "--depth", "3"],
        "cannot be used with",
    );
}

/// A scratch home for the program's files, removed when dropped.
struct Home(PathBuf);

impl Home {
    fn new(name: &str) -> Home {
        let dir =
            std::env::temp_dir().join(format!("crowned-cli-home-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("config")).expect("scratch home");
        Home(dir)
    }

    fn settings_file(&self) -> PathBuf {
        self.0.join("config").join("config.toml")
    }

    fn run(&self, args: &[&str]) -> Output {
        crowned_in(&self.0, args)
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The settings printed, without the comment that says where they come from.
fn printed(out: &Output) -> toml::Table {
    stdout(out).parse().expect("--print-config prints TOML")
}

fn defaults() -> toml::Table {
    include_str!("../../config/default.toml")
        .parse()
        .expect("default.toml is TOML")
}

#[test]
fn print_config_shows_the_defaults_in_the_shape_of_default_toml() {
    let home = Home::new("defaults");
    let out = home.run(&["--print-config"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert_eq!(printed(&out), defaults());
    let text = stdout(&out);
    assert!(
        text.starts_with("# ") && text.contains("config.toml"),
        "says where the settings file is: {text}"
    );
    assert!(
        !home.settings_file().exists(),
        "printing the settings writes nothing"
    );
}

#[test]
fn print_config_lays_the_file_over_the_defaults_and_the_options_over_both() {
    let home = Home::new("layers");
    std::fs::write(
        home.settings_file(),
        "[players]\nwhite = \"hard\"\nblack = \"easy\"\n\n[display]\nnotation = \"coordinates\"\n\
         theme = \"wood\"\n\n[game]\nmove-limit = 60\n\n[keys.board]\nundo = [\"z\", \"Ctrl-z\"]\n",
    )
    .expect("settings written");
    let out = home.run(&[
        "--print-config",
        "--white",
        "max",
        "--move-limit",
        "25",
        "--no-autosave",
        "--ascii",
        "--orientation",
        "white-bottom",
        "--clock",
        "30s",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let mut expected = defaults();
    let mut set = |table: &str, key: &str, value: toml::Value| {
        let section = expected
            .get_mut(table)
            .and_then(toml::Value::as_table_mut)
            .expect("section");
        section.insert(key.to_string(), value);
    };
    // The options win over the file, which wins over the defaults.
    set("players", "white", "max".into());
    set("players", "black", "easy".into());
    set("display", "notation", "coordinates".into());
    set("display", "theme", "wood".into());
    set("display", "pieces", "ascii".into());
    set("display", "orientation", "white-bottom".into());
    set("game", "move-limit", 25.into());
    set("game", "autosave", false.into());
    set("game", "clock", "30s".into());
    let undo: toml::Value = vec!["z", "Ctrl-z"].into();
    if let Some(board) = expected
        .get_mut("keys")
        .and_then(|k| k.get_mut("board"))
        .and_then(toml::Value::as_table_mut)
    {
        board.insert("undo".to_string(), undo);
    }
    assert_eq!(printed(&out), expected);
}

/// A settings file that is not used: the message on stderr names the file, the line and the setting, the
/// defaults are printed, and the file is left exactly as it was.
fn assert_refused(home: &Home, contents: &[u8], line: usize, setting: &str, reason: &str) {
    let file = home.settings_file();
    std::fs::write(&file, contents).expect("settings written");
    let out = home.run(&["--print-config"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let location = if setting.is_empty() {
        format!("{}: line {line}: ", file.display())
    } else {
        format!("{}: line {line}: {setting}: ", file.display())
    };
    assert!(err.contains(&location), "{setting}: {err}");
    assert!(err.contains(reason), "{setting}: {err}");
    assert!(err.contains("the default settings are used"), "{err}");
    assert_eq!(
        printed(&out),
        defaults(),
        "{setting}: the defaults are used"
    );
    assert_eq!(
        std::fs::read(&file).expect("still there"),
        contents,
        "{setting}: the file is untouched"
    );
}

#[test]
fn a_broken_settings_file_is_reported_and_the_defaults_used() {
    let home = Home::new("broken");
    assert_refused(
        &home,
        b"[engine]\ntime = \"fast\"\n",
        2,
        "engine.time",
        "a number of seconds, not \"fast\"",
    );
    assert_refused(
        &home,
        b"# mine\n[display]\ntheme = \"wood\"\ncolour = \"red\"\n",
        4,
        "display.colour",
        "unknown setting `colour`",
    );
    assert_refused(
        &home,
        b"[players]\nblack = \"human\nwhite = \"hard\"\n",
        2,
        "players.black",
        "",
    );
    assert_refused(
        &home,
        b"[players]\nwhite = \"grandmaster\"\n",
        2,
        "players.white",
        "unknown player",
    );
    assert_refused(
        &home,
        b"[game]\nmove-limit = 0\n",
        2,
        "game.move-limit",
        "from 1 to 1000",
    );
    assert_refused(
        &home,
        b"[keys.board]\nundo = [\"Ctrl-Banana\"]\n",
        2,
        "keys.board.undo",
        "\"Ctrl-Banana\" is not a key",
    );
    assert_refused(
        &home,
        b"[keys.board]\nundo = [\"x\"]\n\nflip = [\"x\"]\n",
        4,
        "keys.board.flip",
        "x is bound to both undo and flip",
    );
    assert_refused(
        &home,
        b"[engine]\ntime = 2\n# caf\xe9\n",
        3,
        "",
        "not UTF-8",
    );
}

#[test]
fn an_unreadable_settings_file_is_reported_and_the_defaults_used() {
    let home = Home::new("unreadable");
    let file = home.settings_file();
    // A directory where the file should be cannot be read, even by root.
    std::fs::create_dir(&file).expect("a directory in the file's place");
    let out = home.run(&["--print-config"]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: cannot be read", file.display())),
        "{err}"
    );
    assert_eq!(printed(&out), defaults());
    assert!(file.is_dir(), "left as it was");
    std::fs::remove_dir(&file).expect("removed");

    // Without permission to read it (root reads anything, so this part needs another user).
    if unsafe { libc::geteuid() } != 0 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(&file, "[engine]\ntime = 2\n").expect("written");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        let out = home.run(&["--print-config"]);
        let err = stderr(&out);
        assert!(err.contains("cannot be read"), "{err}");
        assert!(err.contains("ermission denied"), "{err}");
        assert_eq!(printed(&out), defaults());
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
}

#[test]
fn options_are_checked_like_the_settings() {
    assert_one_line_error(&["--move-limit", "0"], "a number from 1 to 1000, not 0");
    assert_one_line_error(&["--time", "0"], "above 0");
    assert_one_line_error(&["--notation", "algebraic"], "unknown notation");
    assert_one_line_error(&["--orientation", "up"], "unknown orientation");
}
