//! The `crowned` binary: output formats, errors and exit codes.

use std::process::{Command, Output};

fn crowned(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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

fn assert_one_line_error(args: &[&str], expected: &str) {
    let out = crowned(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(stdout(&out).is_empty(), "{args:?}");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(expected), "{args:?}: {err}");
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
    assert_one_line_error(&["frobnicate"], "frobnicate: no such file, and not a command");
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
    assert_one_line_error(&["--white", "genius"], "unknown level");
    assert_one_line_error(&["--theme", "neon"], "unknown theme");
}

#[test]
fn help_and_version_succeed() {
    let out = crowned(&["--help"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("perft"));
    let out = crowned(&["--version"]);
    assert!(out.status.success());
    assert!(stdout(&out).starts_with("crowned "));
}

/// A file in a fresh temporary folder, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let dir = std::env::temp_dir().join(format!("crowned-cli-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::write(&path, contents).expect("temp file");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
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

#[test]
fn match_prints_the_tally_last_and_writes_pdn() {
    let out_file = TempFile::new("match.pdn", "");
    let out = crowned(&[
        "match",
        "--a",
        "easy",
        "--b",
        "random",
        "--games",
        "2",
        "--time",
        "0.01",
        "--pdn",
        out_file.path(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let last = stdout(&out).lines().last().unwrap_or("").to_string();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(
        (words[0], words[2], words[4]),
        ("a", "b", "draws"),
        "{last}"
    );
    let total: usize = [words[1], words[3], words[5]]
        .iter()
        .map(|n| n.parse::<usize>().expect("count"))
        .sum();
    assert_eq!(total, 2);
    assert_eq!(stderr(&out).lines().count(), 2);
    let pdn = std::fs::read_to_string(&out_file.0).expect("written");
    let check = crowned(&["pdn", "check", out_file.path()]);
    assert_eq!(stdout(&check), "games 2 ok 2 errors 0\n", "{pdn}");
    assert!(pdn.contains("[Black \"crowned easy\"]"), "{pdn}");
}
