//! `think`, `match` and `bench` under every variant's rules, in each variant's notation.

use crate::cli_support;

use cli_support::{TempFile, assert_one_line_error, crowned, stderr, stdout};

/// The words of the `bestmove` line: move, score, depth, nodes.
fn bestmove(args: &[&str]) -> (String, String) {
    let out = crowned(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words.len(), 8, "{args:?}: {text}");
    assert_eq!(
        (words[0], words[2], words[4], words[6]),
        ("bestmove", "score", "depth", "nodes")
    );
    (words[1].to_string(), words[3].to_string())
}

#[test]
fn think_answers_in_the_notation_of_each_variant() {
    // International: White moves first, from 31-35, written in numbers.
    let (mv, _) = bestmove(&["think", "--variant", "international", "--depth", "4"]);
    let openers = [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ];
    assert!(openers.contains(&mv.as_str()), "{mv}");
    // Russian: coordinates, White first from the third row.
    let (mv, _) = bestmove(&["think", "--variant", "russian", "--depth", "4"]);
    let bytes = mv.as_bytes();
    assert!(
        mv.len() == 5 && bytes[1] == b'3' && bytes[2] == b'-' && bytes[4] == b'4',
        "{mv}"
    );
    // A flying king takes the last man from across the board: a win in one.
    let (mv, score) = bestmove(&[
        "think",
        "--variant",
        "international",
        "--fen",
        "W:WK46:B28",
        "--depth",
        "3",
    ]);
    assert!(mv.starts_with("46x"), "{mv}");
    assert_eq!(score, "win1");
    // English on 10x10 and the 12x12 Canadian board, every level.
    for level in ["random", "easy", "medium", "hard", "max"] {
        for rules in [["--variant", "canadian"], ["--size", "10"]] {
            let mut args = vec!["think", "--level", level, "--depth", "3"];
            args.extend(rules);
            let (mv, _) = bestmove(&args);
            assert!(mv.contains('-') || mv.contains('x'), "{args:?}: {mv}");
        }
    }
    // The principal variation on stderr is in the variant's notation too.
    let out = crowned(&["think", "--variant", "brazilian", "--depth", "3"]);
    let progress = stderr(&out);
    let last = progress.lines().last().unwrap_or("");
    let pv = last.split(" pv ").nth(1).unwrap_or("");
    assert!(
        !pv.is_empty() && pv.split(' ').all(|m| m.as_bytes()[0].is_ascii_lowercase()),
        "{progress}"
    );
    assert_one_line_error(
        &[
            "think",
            "--variant",
            "thai",
            "--fen",
            "W:W99:B1",
            "--depth",
            "2",
        ],
        "bad FEN",
    );
}

#[test]
fn a_variant_match_starts_from_random_openings_and_files_its_games() {
    let folder = TempFile::new("variant-match", "");
    let out_path = folder.0.with_file_name("international.pdn");
    let out_text = out_path.to_str().expect("UTF-8 temp path");
    let args = [
        "match",
        "--variant",
        "international",
        "--a",
        "easy",
        "--b",
        "random",
        "--games",
        "2",
        "--time",
        "0.01",
        "--seed",
        "5",
        "--pdn",
        out_text,
    ];
    let out = crowned(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<String> = stderr(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    // One opening with both colours: four random plies on 10x10, in numbers.
    let opening = |line: &str| line.split(" (a:").next().unwrap_or("").to_string();
    assert_eq!(
        opening(&lines[0]).replace("game 1/2 ", ""),
        opening(&lines[1]).replace("game 2/2 ", "")
    );
    assert_eq!(opening(&lines[0]).split(' ').count(), 2 + 4, "{}", lines[0]);
    let pdn = std::fs::read_to_string(&out_path).expect("written");
    assert_eq!(pdn.matches("[GameType \"20\"]").count(), 2, "{pdn}");
    assert!(
        pdn.contains("[Event \"crowned match (international): easy against random\"]"),
        "{pdn}"
    );
    // The file is read back under its own rules, with no --variant.
    let check = crowned(&["pdn", "check", out_text]);
    assert_eq!(stdout(&check), "games 2 ok 2 errors 0\n", "{pdn}");
    // The same seed plays the same match.
    let _ = std::fs::remove_file(&out_path);
    let again = crowned(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&out_path).expect("written"), pdn);
}

#[test]
fn english_on_another_board_plays_matches_too_and_the_deck_stays_english() {
    let out = crowned(&[
        "match", "--size", "10", "--a", "random", "--b", "random", "--games", "2", "--time", "0.01",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let tally = printed.lines().last().unwrap_or("");
    let words: Vec<&str> = tally.split_whitespace().collect();
    assert_eq!(
        (words[0], words[2], words[4]),
        ("a", "b", "draws"),
        "{printed}"
    );
    let deck = TempFile::new("deck.json", "{}");
    assert_one_line_error(
        &[
            "match",
            "--variant",
            "russian",
            "--a",
            "easy",
            "--b",
            "random",
            "--openings",
            deck.path(),
        ],
        "random openings",
    );
}

#[test]
fn bench_measures_any_variant() {
    for rules in [["--variant", "canadian"], ["--variant", "thai"]] {
        let mut args = vec!["bench", "--depth", "3", "--time", "0.05"];
        args.extend(rules);
        let out = crowned(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[0], format!("rules: {}", rules[1]));
        // The start and sixteen openings.
        assert!(
            lines[1].starts_with("search: 17 positions to depth 3: "),
            "{text}"
        );
        assert!(
            lines[3].starts_with("start position, 0.1 s: depth "),
            "{text}"
        );
    }
    // International draughts has a network: the same search with the hand-written evaluation is measured too.
    let out = crowned(&[
        "bench",
        "--depth",
        "3",
        "--time",
        "0.05",
        "--variant",
        "international",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[3].starts_with(
            "the same search with the hand-written evaluation instead of the network: "
        ),
        "{text}"
    );
}

#[test]
fn a_variant_definition_is_checked_counted_and_its_mistakes_named() {
    // The examples shipped beside the program, read by the same command a player uses on their own.
    let root = env!("CARGO_MANIFEST_DIR");
    let holes = format!("{root}/variants/holes.toml");
    let out = crowned(&["variant", "check", &holes]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("16 squares to play on"),
        "{}",
        stdout(&out)
    );
    // The holes are drawn as holes, not as squares no one plays on.
    assert!(stdout(&out).contains('#'), "{}", stdout(&out));
    let leapers = format!("{root}/variants/leapers.toml");
    let out = crowned(&["variant", "perft", &leapers, "--depth", "3"]);
    let counts: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(counts, ["perft 1 2", "perft 2 4", "perft 3 10"]);
    // A built-in by name: the general generator counts English as the published table does.
    let out = crowned(&["variant", "perft", "english", "--depth", "4"]);
    assert!(stdout(&out).contains("perft 4 1469"), "{}", stdout(&out));
    // And checked by name: Turkish plays every square, and has 8 first moves (pydraughts' count).
    let out = crowned(&["variant", "check", "turkish"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(shown.contains("64 squares to play on"), "{shown}");
    assert!(shown.contains("White to move, 8 legal moves"), "{shown}");
    let listed = stdout(&crowned(&["variant", "list"]));
    assert!(listed.contains("antidraughts") && listed.contains("breakthrough"));
    assert!(listed.contains("turkish"), "{listed}");
    // Mistakes: one line naming the file and the line or field.
    let missing = TempFile::new("missing.toml", "name = \"x\"\n[board]\nwidth = 8\n");
    assert_one_line_error(
        &["variant", "check", missing.path()],
        "line 2: missing field `height`",
    );
    let unclosed = TempFile::new("unclosed.toml", "name = \"x\"\n[board\n");
    assert_one_line_error(&["variant", "check", unclosed.path()], "line 2:");
    assert_one_line_error(
        &["variant", "check", "no-such-file.toml"],
        "no such definition file",
    );
}

#[test]
fn a_defined_variant_is_played_from_its_file_or_by_name_from_the_variants_folder() {
    let root = env!("CARGO_MANIFEST_DIR");
    let steps = format!("{root}/variants/first-steps.toml");
    let out = crowned(&["show", "--variant-file", &steps]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(
        shown.contains("FEN B:Wb2,d2,f2,a1,c1,e1:Bb6,d6,f6,a5,c5,e5"),
        "{shown}"
    );
    assert!(shown.contains("a5-b4"), "{shown}");
    // The engine answers in coordinates.
    let out = crowned(&["think", "--variant-file", &steps, "--depth", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("bestmove "), "{}", stdout(&out));
    // By name, from the folder beside the settings file.
    let home = std::env::temp_dir().join(format!("crowned-defined-cli-{}", std::process::id()));
    let folder = home.join("config").join("variants");
    std::fs::create_dir_all(&folder).expect("a folder");
    std::fs::copy(&steps, folder.join("steps.toml")).expect("copied");
    let out = cli_support::crowned_in(&home, &["perft", "--variant", "steps", "--depth", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("perft 1 5"), "{}", stdout(&out));
    // A broken file is named with its line.
    let broken = TempFile::new(
        "broken.toml",
        &std::fs::read_to_string(&steps)
            .expect("read")
            .replace("to = \"king\"", "to = \"kng\""),
    );
    assert_one_line_error(
        &["show", "--variant-file", broken.path()],
        "no piece kind is named \"kng\"",
    );
    let out = crowned(&["show", "--variant-file", broken.path()]);
    assert!(stderr(&out).contains("broken.toml:"), "{}", stderr(&out));
    // A device is refused unread, and the reason is said once.
    let device = crowned(&["show", "--variant-file", "/dev/null"]);
    assert_eq!(device.status.code(), Some(2), "{}", stderr(&device));
    assert_eq!(
        stderr(&device).matches("not a regular file").count(),
        1,
        "{}",
        stderr(&device)
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn turkish_is_played_by_name_from_its_built_in_definition() {
    // White moves first: a man from the third row steps forward (to the fourth) or sideways (along the third).
    let (mv, _) = bestmove(&["think", "--variant", "turkish", "--depth", "3"]);
    let bytes = mv.as_bytes();
    assert!(
        mv.len() == 5 && bytes[1] == b'3' && bytes[2] == b'-' && matches!(bytes[4], b'3' | b'4'),
        "{mv}"
    );
}

#[test]
fn bench_measures_a_defined_variant() {
    let out = crowned(&[
        "bench",
        "--variant",
        "turkish",
        "--depth",
        "2",
        "--time",
        "0.05",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], "rules: Turkish draughts (defined)");
    assert!(
        lines[1].starts_with("search: 17 positions to depth 2: "),
        "{text}"
    );
    assert!(
        lines[2].starts_with(
            "reference, medium on the same positions (the full search to three plies)"
        ),
        "{text}"
    );
    assert!(
        lines[3].starts_with("start position, 0.1 s: depth "),
        "{text}"
    );
}

#[test]
fn a_device_named_as_a_file_is_refused_at_once() {
    for args in [
        &["show", "--variant-file", "/dev/zero"][..],
        &["variant", "check", "/dev/zero"],
        &["problems", "prove", "/dev/zero"],
        &["pdn", "check", "/dev/zero"],
    ] {
        let out = crowned(args);
        assert!(!out.status.success(), "{args:?} succeeds");
        let error = stderr(&out);
        assert!(error.contains("not a regular file"), "{args:?}: {error}");
    }
}

#[test]
fn variant_check_prints_a_definition_s_names_without_their_control_characters() {
    let english = include_str!("../../crates/rules/src/defined/builtin/english.toml");
    let hostile = english
        .replacen(
            "name = \"English draughts\"",
            "name = \"Evil\\u001b[2J\\u001b]0;owned\\u0007 rules\"",
            1,
        )
        .replacen("name = \"man\"", "name = \"m\\u001b[31man\"", 1);
    let path = std::env::temp_dir().join(format!("crowned-hostile-{}.toml", std::process::id()));
    std::fs::write(&path, hostile).expect("written");
    let out = crowned(&["variant", "check", path.to_str().expect("a path")]);
    let _ = std::fs::remove_file(&path);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(
        text.starts_with("Evil[2J]0;owned rules: 8x8 board"),
        "{text:?}"
    );
}
