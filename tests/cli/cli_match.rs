//! `crowned match`: the tally, the PDN file written game by game, and what an existing file or Ctrl-c does to it.

use crate::cli_support;

use std::process::Command;

use cli_support::{TempFile, assert_one_line_error, crowned, stderr, stdout};

/// The arguments of a quick match between the weak levels.
fn quick_match(games: &str) -> Vec<&str> {
    vec![
        "match", "--a", "easy", "--b", "random", "--games", games, "--time", "0.01",
    ]
}

#[test]
fn match_prints_the_tally_last_and_writes_pdn() {
    let folder = TempFile::new("match-dir", "");
    let out_path = folder.0.with_file_name("match.pdn");
    let out_text = out_path.to_str().expect("UTF-8 temp path");
    let mut args = quick_match("2");
    args.extend(["--pdn", out_text]);
    let out = crowned(&args);
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
    // Piped stderr gets one plain line per game and no progress bar.
    assert_eq!(stderr(&out).lines().count(), 2);
    assert!(
        stderr(&out).lines().all(|l| l.starts_with("game ")),
        "{}",
        stderr(&out)
    );
    let pdn = std::fs::read_to_string(&out_path).expect("written");
    let check = crowned(&["pdn", "check", out_text]);
    assert_eq!(stdout(&check), "games 2 ok 2 errors 0\n", "{pdn}");
    assert!(pdn.contains("[Black \"crowned easy\"]"), "{pdn}");
}

#[test]
fn match_refuses_an_existing_pdn_file_without_force() {
    let old = "[Event \"precious\"]\n1. 11-15 *\n";
    let existing = TempFile::new("kept.pdn", old);
    let mut args = quick_match("1");
    args.extend(["--pdn", existing.path()]);
    assert_one_line_error(&args, "already exists; choose another file or add --force");
    assert_eq!(std::fs::read_to_string(&existing.0).expect("kept"), old);

    // --force replaces it with the new games.
    args.push("--force");
    let out = crowned(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let check = crowned(&["pdn", "check", existing.path()]);
    assert_eq!(stdout(&check), "games 1 ok 1 errors 0\n");
    assert_one_line_error(
        &["match", "--a", "easy", "--b", "random", "--force"],
        "--pdn",
    );
}

#[cfg(unix)]
#[test]
fn match_never_writes_through_a_symlink() {
    let victim_text = "not a game file\n";
    let victim = TempFile::new("victim.txt", victim_text);
    let folder = victim.0.parent().expect("folder");
    let out_path = folder.join("out.pdn");
    let out_text = out_path.to_str().expect("UTF-8 temp path");
    // A link where an old version of the program put its temporary file.
    std::os::unix::fs::symlink(&victim.0, folder.join("out.pdn.tmp")).expect("symlink");
    let mut args = quick_match("1");
    args.extend(["--pdn", out_text]);
    let out = crowned(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&victim.0).expect("victim"),
        victim_text
    );

    // A link at the output itself is refused, dangling or not, and replaced (not followed) with --force.
    std::fs::remove_file(&out_path).expect("remove");
    std::os::unix::fs::symlink(&victim.0, &out_path).expect("symlink");
    assert_one_line_error(&args, "already exists");
    args.push("--force");
    let out = crowned(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&victim.0).expect("victim"),
        victim_text
    );
    let meta = std::fs::symlink_metadata(&out_path).expect("out");
    assert!(meta.file_type().is_file(), "{meta:?}");
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(folder)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[cfg(unix)]
#[test]
fn force_replaces_the_old_file_only_once_a_game_is_written() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let old = "[Event \"precious\"]\n1. 11-15 *\n";
    let existing = TempFile::new("replaced-late.pdn", old);
    let nowhere = std::env::temp_dir().join(format!("crowned-cli-late-{}", std::process::id()));
    // Games long enough to stop the match during the first.
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args([
            "match", "--a", "max", "--b", "max", "--time", "2", "--games", "2",
        ])
        .args(["--force", "--pdn", existing.path()])
        .env("CROWNED_HOME", nowhere)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    assert_eq!(
        std::fs::read_to_string(&existing.0).expect("still there"),
        old,
        "the old file is whole while no game is finished"
    );
    // SAFETY: kill only sends a signal to the child started above.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0);
    let said: Vec<String> = BufReader::new(child.stderr.take().expect("stderr"))
        .lines()
        .map_while(Result::ok)
        .collect();
    let out = child.wait_with_output().expect("the match ends");
    assert_eq!(out.status.code(), Some(130), "{said:?}");
    assert_eq!(
        std::fs::read_to_string(&existing.0).expect("kept"),
        old,
        "stopped before a game ended, the match leaves the old file as it was: {said:?}"
    );
    // Its new file went with it.
    let folder = existing.0.parent().expect("folder");
    let stem = existing
        .0
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let left: Vec<String> = std::fs::read_dir(folder)
        .expect("folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&format!(".{stem}")))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_a_match_keeps_every_finished_game() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let folder = TempFile::new("interrupted", "");
    let out_path = folder.0.with_file_name("interrupted.pdn");
    let nowhere = std::env::temp_dir().join(format!("crowned-cli-nowhere-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args([
            "match", "--a", "medium", "--b", "medium", "--time", "0.02", "--games", "200",
        ])
        .arg("--pdn")
        .arg(&out_path)
        .env("CROWNED_HOME", nowhere)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let first = lines.next().expect("a line").expect("text");
    assert!(first.starts_with("game 1/200 "), "{first}");
    // The first game is on disk as soon as it is reported, before the match ends.
    let check = crowned(&["pdn", "check", out_path.to_str().expect("UTF-8")]);
    assert!(stdout(&check).ends_with("errors 0\n"), "{}", stdout(&check));
    // SAFETY: kill only sends a signal to the child started above.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0);
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let out = child.wait_with_output().expect("the match ends");
    assert_eq!(out.status.code(), Some(130), "{rest:?}");
    let games = rest.iter().filter(|l| l.starts_with("game ")).count() + 1;
    assert!(games < 200, "{rest:?}");
    let closing = rest.last().expect("a last line");
    assert!(
        closing.contains(&format!("interrupted after {games} of 200 games")),
        "{rest:?}"
    );
    // The tally counts the finished games, and the file holds exactly those, complete and readable.
    let printed = stdout(&out);
    let tally = printed.lines().last().unwrap_or("");
    let counts: usize = tally
        .split_whitespace()
        .filter_map(|w| w.parse::<usize>().ok())
        .sum();
    assert_eq!(counts, games, "{tally}");
    let check = crowned(&["pdn", "check", out_path.to_str().expect("UTF-8")]);
    assert_eq!(
        stdout(&check),
        format!("games {games} ok {games} errors 0\n")
    );
}

/// A defined variant, by its built-in name or from a file, plays a match between the engine's levels from random
/// openings, and every game saved carries its definition, so `pdn check` replays it.
#[test]
fn match_plays_defined_variants_and_saves_their_definitions() {
    let root = env!("CARGO_MANIFEST_DIR");
    let steps = format!("{root}/variants/first-steps.toml");
    for rules in [["--variant", "turkish"], ["--variant-file", steps.as_str()]] {
        let folder = TempFile::new("defined-match-dir", "");
        let out_path = folder.0.with_file_name(format!("defined-{}.pdn", rules[0]));
        let out_text = out_path.to_str().expect("UTF-8 temp path");
        let mut args = vec![
            "match", "--a", "max", "--b", "medium", "--games", "2", "--time", "0.01", "--pdn",
            out_text, "--force",
        ];
        args.extend(rules);
        let out = crowned(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let last = stdout(&out).lines().last().unwrap_or("").to_string();
        assert!(last.starts_with("a ") && last.contains(" draws "), "{last}");
        let pdn = std::fs::read_to_string(&out_path).expect("written");
        assert_eq!(pdn.matches("[VariantDefinition ").count(), 2, "{pdn}");
        // Read back with no rules given: the definition in the file is enough.
        let check = crowned(&["pdn", "check", out_text]);
        assert_eq!(stdout(&check), "games 2 ok 2 errors 0\n", "{pdn}");
        let _ = std::fs::remove_file(&out_path);
    }
    // Another engine cannot be told a defined variant: refused in one line before any game.
    assert_one_line_error(
        &[
            "match",
            "--variant",
            "turkish",
            "--a",
            "max",
            "--b-hub",
            "crowned hub",
            "--games",
            "2",
        ],
        "the Hub protocol names the built-in variants only",
    );
}
