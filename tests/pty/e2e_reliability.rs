//! Reliability in a pseudo-terminal: a megabyte pasted and a signal on top of it, two programs on one set of
//! files, an autosave that cannot be read.

use crate::pty;

use std::io::Write;
use std::thread;
use std::time::{Duration, Instant};

use pty::{Session, temp_home};

/// A bracketed paste of `size` bytes of move-like text, written on a thread of its own (the pty takes a few
/// kilobytes at a time, as fast as the program reads them). The thread gives the writer back when it is done.
fn paste_in_background(s: &mut Session, size: usize) -> thread::JoinHandle<Box<dyn Write + Send>> {
    let mut writer = std::mem::replace(&mut s.writer, Box::new(std::io::sink()));
    let body = "11-15 23-19 ".repeat(size / 12 + 1);
    thread::spawn(move || {
        // Errors are expected once the program has ended and the pty is gone.
        let _ = writer.write_all(b"\x1b[200~");
        let _ = writer.write_all(&body.as_bytes()[..size]);
        let _ = writer.write_all(b"\x1b[201~");
        let _ = writer.flush();
        writer
    })
}

/// Sends `signal` and returns how long the program took to end, with its exit code.
fn time_to_end(s: &mut Session, signal: i32) -> (Duration, u32) {
    let sent = Instant::now();
    s.signal(signal);
    let (ended, code) = s.wait_end();
    (ended - sent, code)
}

#[test]
fn a_megabyte_paste_is_refused_at_once_and_sigterm_still_ends_the_program() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    s.send(":");
    let started = Instant::now();
    let paste = paste_in_background(&mut s, 1 << 20);
    s.wait_for("paste refused");
    eprintln!("1 MB paste refused after {:?}", started.elapsed());
    s.writer = paste.join().expect("paste written");
    // The game goes on: the box holds what was typed before the paste.
    s.escape();
    s.send("11-15\r");
    s.wait_for("1. 11-15");

    // A second paste, and SIGTERM while it is still arriving: the signal does not wait behind it.
    let _paste = paste_in_background(&mut s, 1 << 20);
    thread::sleep(Duration::from_millis(20));
    let (took, code) = time_to_end(&mut s, libc::SIGTERM);
    eprintln!("SIGTERM during a 1 MB paste: ended after {took:?}");
    assert_eq!(code, 128 + 15);
    // The goal is 200 ms; the bound leaves room for a loaded test machine.
    assert!(took < Duration::from_secs(2), "took {took:?}");
    s.assert_restored();
}

#[test]
fn two_programs_on_one_home_each_keep_their_own_game() {
    let home = temp_home("two");
    let mut first = Session::start_in(&home, &["--white", "human"]);
    first.wait_for("Black to play");
    first.send("11-15\r");
    first.wait_for("1. 11-15");

    // A second program while the first runs: the first one's game is not offered; it is told why.
    let mut second = Session::start_in(&home, &["--white", "human"]);
    second.wait_for("open in another crowned");
    assert!(!second.contents().contains("Resume?"));
    second.send("9-13\r");
    second.wait_for("1. 9-13");
    // Both go on, each saving its own game.
    first.send("23-19\r");
    first.wait_for("1. 11-15     23-19");

    // The first dies without a word: its lock dies with it, and its game is offered to the next program.
    first.signal(libc::SIGKILL);
    let _ = first.wait_exit();
    let mut third = Session::start_in(&home, &["--white", "human"]);
    third.wait_for("Resume?");
    third.send("y");
    third.wait_for("1. 11-15     23-19");
    third.wait_for("Black to play");

    // The second quits; a fourth program gets its game back, move for move.
    second.send("\x03");
    assert_eq!(second.wait_exit(), 0);
    let mut fourth = Session::start_in(&home, &["--white", "human"]);
    fourth.wait_for("Resume?");
    fourth.send("y");
    fourth.wait_for("1. 9-13");
    fourth.wait_for("White to play");

    for s in [&mut third, &mut fourth] {
        s.send("\x03");
        assert_eq!(s.wait_exit(), 0);
        s.assert_restored();
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn an_unreadable_autosave_is_moved_aside_and_the_new_game_still_saved() {
    let home = temp_home("unreadable");
    std::fs::create_dir_all(home.join("data")).expect("made");
    std::fs::write(home.join("data/autosave.pdn"), b"\xff\xfe\x00 broken").expect("written");
    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("kept as");
    let kept = home.join("data/autosave-unreadable.pdn");
    assert_eq!(
        std::fs::read(&kept).expect("moved aside, bytes intact"),
        b"\xff\xfe\x00 broken"
    );
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    // The new game is protected as usual.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !home.join("data/autosave.pdn").exists() {
        assert!(
            Instant::now() < deadline,
            "the new game was never autosaved"
        );
        thread::sleep(Duration::from_millis(20));
    }
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    let _ = std::fs::remove_dir_all(&home);
}
