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
    assert_one_line_error(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn without_arguments_shows_the_start() {
    let out = crowned(&[]);
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
    let out = crowned(&["--fen", "W:W29:B25,22,18"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("White has no legal move and loses."));
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
