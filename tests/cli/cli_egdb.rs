//! `crowned egdb`: a small build into the data directory, resumed, listed and probed, and the engine of the
//! same home finding it.

use crate::cli_support;

use cli_support::{TempFile, assert_one_line_error, crowned, crowned_in, stderr, stdout};

#[test]
fn builds_beyond_the_supported_sizes_are_refused() {
    assert_one_line_error(&["egdb", "build", "--pieces", "1"], "--pieces");
    assert_one_line_error(&["egdb", "build", "--pieces", "9"], "--pieces");
    let out = crowned(&["egdb", "probe"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_small_database_is_built_found_probed_and_used_by_think() {
    let marker = TempFile::new("egdb-home", "");
    let home = marker.0.with_file_name("home");

    // Before any build the engine plays on without tables, and saying so is an error for `info` alone.
    let none = crowned_in(&home, &["egdb", "info"]);
    assert_eq!(none.status.code(), Some(2), "{}", stderr(&none));
    assert!(
        stderr(&none).contains("no endgame database in"),
        "{}",
        stderr(&none)
    );
    assert_eq!(stderr(&none).lines().count(), 1, "{}", stderr(&none));

    let built = crowned_in(&home, &["egdb", "build", "--pieces", "3", "--threads", "2"]);
    assert!(built.status.success(), "{}", stderr(&built));
    let log = stderr(&built);
    assert!(log.contains("3 pieces: 196032 positions"), "{log}");
    assert!(log.contains("0m1k-0m1k"), "{log}");

    // Run again: every table is already there.
    let again = crowned_in(&home, &["egdb", "build", "--pieces", "3"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("already built"),
        "{}",
        stderr(&again)
    );
    assert!(!stderr(&again).contains("wins,"), "{}", stderr(&again));

    let info = crowned_in(&home, &["egdb", "info"]);
    assert!(
        stdout(&info).contains("up to 3 pieces"),
        "{}",
        stdout(&info)
    );

    let probe = crowned_in(&home, &["egdb", "probe", "B:WK32:BK1,K5", "W:W18:BK1,K14"]);
    assert!(probe.status.success(), "{}", stderr(&probe));
    let said = stdout(&probe);
    assert!(
        said.contains("B:WK32:BK1,K5: Black wins; the next conversion in 31 plies"),
        "{said}"
    );
    assert!(said.contains("W:W18:BK1,K14: draw"), "{said}");
    let bad = crowned_in(&home, &["egdb", "probe", "B:W99:B1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("not a position"), "{}", stderr(&bad));

    let verify = crowned_in(&home, &["egdb", "verify", "--positions", "2000"]);
    assert!(
        stdout(&verify).starts_with("2000 random 3-piece positions agree with their moves"),
        "{}",
        stdout(&verify)
    );

    // The engine of this home plays the won ending from the tables.
    let think = crowned_in(&home, &["think", "--fen", "B:WK32:BK1,K5", "--depth", "6"]);
    assert!(stdout(&think).contains("score dbwin"), "{}", stdout(&think));
    let _ = std::fs::remove_dir_all(&home);
    assert!(std::path::Path::new(marker.path()).exists());
}

#[test]
fn international_tables_are_built_beside_englishs_and_used_by_think() {
    let marker = TempFile::new("wld-home", "");
    let home = marker.0.with_file_name("home");
    let international = ["--variant", "international"];
    let none = crowned_in(&home, &["egdb", "info", international[0], international[1]]);
    assert_eq!(none.status.code(), Some(2), "{}", stderr(&none));
    assert!(
        stderr(&none).contains("no international tables"),
        "{}",
        stderr(&none)
    );

    let draw = [
        "think",
        "--variant",
        "international",
        "--fen",
        "W:W33,K48:B18,K3",
        "--depth",
        "10",
    ];
    let blind = crowned_in(&home, &draw);
    assert!(blind.status.success(), "{}", stderr(&blind));

    let args = [
        "egdb",
        "build",
        "--variant",
        "international",
        "--pieces",
        "3",
        "--threads",
        "2",
    ];
    let built = crowned_in(&home, &args);
    assert!(built.status.success(), "{}", stderr(&built));
    let log = stderr(&built);
    assert!(log.contains("0m1k-0m1k") && log.contains("draws"), "{log}");
    let again = crowned_in(&home, &args);
    assert!(
        stderr(&again).contains("already built"),
        "{}",
        stderr(&again)
    );
    assert!(!stderr(&again).contains("draws"), "{}", stderr(&again));

    let info = crowned_in(&home, &["egdb", "info", "--variant", "international"]);
    assert!(info.status.success(), "{}", stderr(&info));
    assert!(
        stdout(&info).contains("up to 3 pieces"),
        "{}",
        stdout(&info)
    );
    // English draughts' own databases are not there.
    let english = crowned_in(&home, &["egdb", "info"]);
    assert_eq!(english.status.code(), Some(2), "{}", stderr(&english));

    // The engine of this home knows the four-piece position's exchanges into three pieces: a draw, seen with
    // far fewer nodes than without the tables (6.5 times fewer with the third 10x10 network, 10 with the second:
    // how many the blind search needs depends on the evaluation).
    let seen = crowned_in(&home, &draw);
    let nodes = |out: &std::process::Output| -> u64 {
        let text = stdout(out);
        let after = text.split(" nodes ").nth(1).unwrap_or_default();
        after
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("no node count in {text}"))
    };
    assert!(stdout(&seen).contains("score 0 "), "{}", stdout(&seen));
    assert!(
        nodes(&seen) * 4 < nodes(&blind),
        "{} against {}",
        stdout(&seen),
        stdout(&blind)
    );

    // Rule sets without tables, and steps for English draughts only, are refused with the reason.
    assert_one_line_error(
        &["egdb", "build", "--variant", "frisian", "--pieces", "3"],
        "not for frisian",
    );
    assert_one_line_error(
        &["egdb", "probe", "--variant", "international", "W:W33:BK3"],
        "English draughts' databases",
    );
    let _ = std::fs::remove_dir_all(&home);
}
