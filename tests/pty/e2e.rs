//! The real binary in a pseudo-terminal: keystrokes in, the screen read back through a terminal emulator
//! (vt100), and the terminal checked to be restored however the program ends.

use crate::common;
use crate::pty;

use std::thread;
use std::time::{Duration, Instant};

use common::screen::first_line_has_two_moves;
use pty::{COLS, ROWS, Session, temp_home};

const UP: &str = "\x1b[A";
const RIGHT: &str = "\x1b[C";

#[test]
fn play_against_the_engine_and_quit_cleanly() {
    let mut s = Session::start(&["--black", "human", "--white", "random", "--time", "0.1"]);
    s.wait_for("Black to play");
    assert!(s.contents().contains("engine (random)"));
    // A typed move; the engine answers on its own thread and the turn comes back.
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.wait_for_reply();
    s.wait_for("Black to play");
    // Quitting a game in progress asks first, a yes/no question like the others: y quits.
    s.send("q");
    s.wait_for("y or q: quit, n: play on");
    s.send("y");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

impl Session {
    /// Waits until the engine's reply to 11-15 is in the move list; fails the test after 20 seconds (an engine
    /// that never answers has stalled).
    fn wait_for_reply(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !first_line_has_two_moves(&self.contents()) {
            assert!(
                Instant::now() < deadline,
                "no reply, the engine stalled:\n{}",
                self.contents()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn move_by_cursor_browse_and_read_the_help() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("White to play");
    // The cursor starts on the middle one of White's movable men, 23; up (to 18, towards the middle) and right
    // is 19.
    s.send(" ");
    s.wait_for("23 selected");
    s.send(&format!("{UP}{RIGHT} "));
    s.wait_for("1. 11-15     23-19");
    s.wait_for("Black to play");
    // A wrong attempt changes nothing and says why.
    s.send("22-17\r");
    s.wait_for("no black piece on 22");
    s.escape();
    // Browse back and return.
    s.send("[");
    s.wait_for("after 1. 11-15");
    s.escape();
    s.wait_for("Black to play");
    // Undo takes back one move when both players are human; redo puts it back.
    s.send("u");
    s.wait_for("White to play");
    s.send("U");
    s.wait_for("Black to play");
    // Help opens and any key closes it.
    s.send("?");
    // At 80x24 the help is taller than the screen: it scrolls, and says so.
    s.wait_for("Up/Down scroll · Tab rules · other keys close");
    s.wait_for("move the cursor");
    s.send("\x1b[6~");
    s.wait_gone("move the cursor");
    // Page by page to the list of commands at the end.
    s.send("\x1b[6~\x1b[6~");
    s.wait_for("Commands:");
    s.send("x");
    s.wait_gone("other keys close");
    s.send("q");
    s.wait_for("y or q: quit, n: play on");
    // The quit key confirms too.
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn sighup_and_sigterm_restore_the_terminal() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    // portable-pty's kill sends SIGHUP (what a dropped SSH connection sends), then SIGKILL if that fails.
    s.child.kill().expect("SIGHUP delivered");
    assert_eq!(s.wait_exit(), 128 + 1);
    s.assert_restored();

    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    s.signal(libc::SIGTERM);
    assert_eq!(s.wait_exit(), 128 + 15);
    s.assert_restored();
}

#[test]
fn a_small_window_asks_to_be_enlarged_and_the_game_survives() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    // The pty shrinks; the program gets SIGWINCH and redraws.
    s.resize(10, 40);
    s.wait_for("Enlarge the window");
    s.resize(ROWS, COLS);
    s.wait_for("1. 11-15");
    s.wait_for("White to play");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn clicking_with_the_mouse_plays_a_move() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    // At 80x24 the squares are 5x2 cells from column 3, row 1; square 9 is on diagram row 2, column 1 and
    // square 13 on row 3, column 0. Clicks are sent as SGR mouse reports (1-based), press then release.
    s.send("\x1b[<0;9;6M\x1b[<0;9;6m");
    s.wait_for("9 selected");
    s.send("\x1b[<0;4;8M\x1b[<0;4;8m");
    s.wait_for("1. 9-13");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

/// The text of the one game filed among the saved games of `home`.
fn the_game_filed(home: &std::path::Path) -> String {
    let filed: Vec<_> = std::fs::read_dir(home.join("data/games"))
        .expect("games filed")
        .filter_map(Result::ok)
        .collect();
    assert_eq!(filed.len(), 1);
    std::fs::read_to_string(filed[0].path()).expect("readable")
}

#[test]
fn a_clocked_game_runs_both_clocks_and_is_lost_when_a_flag_falls() {
    let home = temp_home("clock");
    // Three seconds each and a second back for each move.
    let args = ["--black", "human", "--white", "human", "--clock", "0.05+1"];
    let mut s = Session::start_in(&home, &args);
    s.wait_for("Black to play");
    // No clock runs before each side has made its first move, which is not timed.
    s.wait_for(" 0:03");
    assert!(!s.contents().contains(">0:"), "{}", s.contents());
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.send("23-19\r");
    s.wait_for("23-19");
    // From Black's second move, Black's clock runs (marked), White's waits at its full time.
    s.wait_for(">0:0");
    s.send("8-11\r");
    s.wait_for("2. 8-11");
    // White does not move: its clock runs down, and the game ends on time without a key being pressed.
    s.wait_for("Black wins on time");
    let screen = s.contents();
    assert!(screen.contains(" 0:00"), "{screen}");
    assert!(
        !screen.contains(">0:"),
        "no clock runs after the fall: {screen}"
    );
    s.send("q");
    assert_eq!(s.wait_exit(), 0, "a finished game quits at once");
    s.assert_restored();
    // The finished game is filed with its time control and result.
    let text = the_game_filed(&home);
    assert!(text.contains("[TimeControl \"3+1\"]"), "in seconds: {text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_clocked_game_left_is_resumed_with_its_clocks() {
    let home = temp_home("clock-resume");
    let args = ["--white", "human", "--clock", "10+0"];
    let mut s = Session::start_in(&home, &args);
    s.wait_for("Black to play");
    // Each side's first move is not timed; Black then spends a second on its second move.
    s.send("11-15\r23-19\r");
    s.wait_for("1. 11-15     23-19");
    thread::sleep(Duration::from_millis(1_200));
    s.send("8-11\r");
    s.wait_for("2. 8-11");
    s.wait_for(">10:00");
    // White thinks a while before the game is left: that time is kept too.
    s.wait_for(">9:5");
    s.send("qq");
    assert_eq!(s.wait_exit(), 0);

    let mut s = Session::start_in(&home, &args);
    s.wait_for("Resume?");
    s.send("y");
    s.wait_gone("Resume?");
    s.wait_for("White to play");
    // The time each side spent stays spent (White's second too: the game was saved as it was left), and
    // White's clock runs again.
    assert!(!s.contents().contains("10:00"), "{}", s.contents());
    assert!(s.contents().contains(" 9:5"), "{}", s.contents());
    s.wait_for(">9:5");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    let _ = std::fs::remove_dir_all(&home);
}

/// The names of the saved games' files under `home`, sorted.
fn saved_names(home: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(home.join("data/games"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_finished_game_stays_one_file_through_undo_redo_and_a_name() {
    let home = temp_home("one-file");
    let args = ["--black", "human", "--white", "human", "--fen", "B:W18:B14"];
    let mut s = Session::start_in(&home, &args);
    s.wait_for("Black to play");
    s.send("14x23\r");
    s.wait_for("Black wins");
    let filed = saved_names(&home);
    assert_eq!(filed.len(), 1, "{filed:?}");
    // Taken back: the move list no longer says how it ended. Played again: the same file.
    s.send("u");
    s.wait_gone("Black wins");
    s.send("\x12");
    s.wait_for("Black wins");
    assert_eq!(saved_names(&home), filed);
    s.send(":save firstgame\r");
    s.wait_for("firstgame.pdn");
    assert_eq!(saved_names(&home), ["firstgame.pdn"]);
    // The list of saved games shows the name.
    s.send("o");
    s.wait_for("Saved games (1 game)");
    assert!(s.contents().contains("firstgame"), "{}", s.contents());
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_killed_game_is_offered_again_and_resumes_every_move() {
    let home = temp_home("resume");
    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("Black to play");
    s.send("11-15\r23-19\r8-11\r");
    s.wait_for("2. 8-11");
    // Undo one move: the redo line and the current point must come back too.
    s.send("u");
    s.wait_for("Black to play");
    assert!(home.join("data/autosave.pdn").exists());
    s.signal(libc::SIGKILL);
    let _ = s.wait_exit();

    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("Resume?");
    s.wait_for("1 move played");
    s.send("y");
    s.wait_gone("Resume?");
    s.wait_for("1. 11-15     23-19");
    s.wait_for("Black to play");
    s.send("U");
    s.wait_for("2. 8-11");
    s.send(":save my game\r");
    s.wait_for("saved as");
    let named = home.join("data/games/my-game.pdn");
    let text = std::fs::read_to_string(&named).expect("saved under the name typed");
    assert!(text.contains("11-15 23-19 2. 8-11"), "{text}");
    std::fs::remove_file(named).expect("removed");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);

    // Declining files the unfinished game and starts afresh.
    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("Resume?");
    s.send("n");
    // Ctrl-c is acted on ahead of keys still waiting: the answer must have been taken first.
    s.wait_gone("Resume?");
    s.wait_for("no moves yet");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    let text = the_game_filed(&home);
    assert!(text.contains("11-15 23-19 2. 8-11"), "{text}");
    assert!(
        !home.join("data/autosave.pdn").exists(),
        "the new game has no moves yet"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_settings_file_is_followed_and_a_broken_one_is_reported() {
    let home = temp_home("settings");
    let settings = home.join("config/config.toml");
    std::fs::create_dir_all(home.join("config")).expect("config dir");
    std::fs::write(
        &settings,
        "[players]\nwhite = \"human\"\n[display]\nnotation = \"coordinates\"\n[game]\nautosave = false\n\
         [keys.board]\nundo = [\"x\"]\n",
    )
    .expect("settings written");
    let mut s = Session::start_in(&home, &[]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    // The move list writes coordinates; square numbers are still typed as ever.
    s.wait_for("1. f6-e5");
    s.wait_for("White to play");
    // u no longer undoes; x does.
    s.send("u");
    s.send("x");
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("White to play");
    assert!(
        !home.join("data/autosave.pdn").exists(),
        "nothing is saved with autosave off"
    );
    // The settings screen writes its change into the file, keeping the rest of it.
    s.send("O");
    s.wait_for("Settings · kept in config.toml");
    s.send("\x1b[C");
    s.wait_for("display.theme = wood: kept in config.toml");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    assert!(
        !home.join("data").exists(),
        "no game file was written at all"
    );
    let kept = std::fs::read_to_string(&settings).expect("the settings file");
    assert!(kept.contains("theme = \"wood\""), "{kept}");
    assert!(kept.contains("undo = [\"x\"]"), "{kept}");

    let broken = b"[players]\nwhite = \"human\"\n[engine]\ntime = -1\n";
    std::fs::write(&settings, broken).expect("settings written");
    let mut s = Session::start_in(&home, &[]);
    s.wait_for("config.toml: line 4: engine.time:");
    // The game runs on the defaults: the engine plays White.
    assert!(s.contents().contains("engine (medium)"), "{}", s.contents());
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    // A change on the settings screen holds for now; the file with a mistake is not written.
    s.send("O");
    s.wait_for("Settings ·");
    s.send("\x1b[C");
    s.wait_for("mend the file first");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    assert_eq!(
        std::fs::read(&settings).expect("still there"),
        broken,
        "the broken file is left as it was"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_pdn_file_with_an_illegal_move_is_replayed_up_to_it_and_continued() {
    let home = temp_home("replay");
    std::fs::create_dir_all(&home).expect("scratch home");
    let file = home.join("broken.pdn");
    std::fs::write(
        &file,
        "[Event \"Club night\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\
         1. 11-15 23-19 2. 8-11 19-16 3. 12-16 *\n\n\
         [Event \"Second\"]\n[Black \"Cy\"]\n[White \"Di\"]\n[Result \"1-0\"]\n1. 9-13 22-18 1-0\n",
    )
    .expect("file written");
    let path = file.to_str().expect("a UTF-8 path");
    let mut s = Session::start_in(&home, &["--white", "human", path]);
    // Two games: a list to choose from, the broken one flagged.
    s.wait_for("broken.pdn (2 games)");
    s.wait_for("Ann");
    s.wait_for("! move 3 12-16");
    s.send("\r");
    s.wait_for("Moves · broken.pdn, game 1");
    s.wait_for("the record stops after 2... 19-16");
    // Step through to the end, where the error is shown again.
    s.send("\x1b[F");
    s.wait_for("The record stops here");
    s.wait_for("2. 8-11      19-16");
    // Back one move and continue from there as a new game between humans: White to move after 2. 8-11.
    s.send("\x1b[D");
    s.wait_for("after 2. 8-11 of 2 moves");
    s.send("c");
    s.wait_for("continuing broken.pdn, game 1 from after 2. 8-11");
    s.send("22-18\r");
    s.wait_for("22-18");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    // The continued game is the player's: it is in the autosave.
    let saved = std::fs::read_to_string(home.join("data/autosave.pdn")).expect("autosaved");
    assert!(saved.contains("8-11 22-18"), "{saved}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn undo_or_redo_with_nothing_to_do_never_stalls_the_engine() {
    // Playing Black: a move, then redo at once while White thinks. White still answers.
    let mut s = Session::start(&["--white", "max", "--time", "0.5"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.send("U");
    s.wait_for("nothing to redo");
    s.wait_for_reply();
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);

    // Playing White: undo at the very start while Black thinks. Black still moves.
    let mut s = Session::start(&["--black", "max", "--white", "human", "--time", "0.5"]);
    s.wait_for("the engine (max) is thinking");
    s.send("u");
    s.wait_for("nothing to undo");
    s.wait_for("White to play");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn keys_do_nothing_while_the_window_is_too_small() {
    let mut s = Session::start(&["--white", "random"]);
    s.wait_for("Black to play");
    s.resize(14, 50);
    s.wait_for("Enlarge the window");
    // Typed blind, this would play a move and the engine would answer.
    s.send("11-15\r");
    s.send(" ");
    thread::sleep(Duration::from_millis(300));
    s.resize(ROWS, COLS);
    s.wait_for("Black to play");
    s.wait_for("no moves yet");
    // Ctrl-c still quits from the small screen.
    s.resize(14, 50);
    s.wait_for("Enlarge the window");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn moves_step_along_their_path_and_a_key_ends_the_animation() {
    let home = temp_home("animation");
    // The longest step the settings allow, so that the steps can be seen from here.
    std::fs::create_dir_all(home.join("config")).expect("config dir");
    std::fs::write(
        home.join("config/config.toml"),
        "[display]\nanimation-step = 1.0\n",
    )
    .expect("settings written");
    let mut s = Session::start_in(&home, &["--white", "random"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    // The engine answers at once, but the board shows the player's move, then the engine's, a step at a time:
    // until the last step the move's end is not marked.
    s.wait_for_reply();
    assert!(
        !s.contents().contains('‹'),
        "the engine's move is still being shown:\n{}",
        s.contents()
    );
    s.wait_for("‹○›");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);

    // A key shows the move at once: with a second a step, Esc ends the animation long before.
    let mut s = Session::start_in(&home, &["--white", "human"]);
    // The game left behind is offered first (one move each: "1 move played").
    s.wait_for("1 move played");
    s.send("n");
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.escape();
    let asked = Instant::now();
    s.wait_for("‹●›");
    assert!(
        asked.elapsed() < Duration::from_millis(900),
        "the key did not end the animation"
    );
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    let _ = std::fs::remove_dir_all(&home);
}
