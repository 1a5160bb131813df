//! `crowned book`: a tiny book built, refused over an existing file, looked up, and played from by the Hub engine.

use crate::cli_support;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cli_support::{TempFile, assert_one_line_error, crowned, stderr, stdout};
use crowned::engine::Limits;
use crowned::engine::book::Book;
use crowned::game::AnyGame;
use crowned::lab::HubEngine;
use crowned::rules::{English, GameType, Position, SquareStyle, Variant, write_move};

fn hub_with_book(book: &str) -> Vec<String> {
    [env!("CARGO_BIN_EXE_crowned"), "hub", "--book", book]
        .map(String::from)
        .to_vec()
}

/// The first move the Hub engine plays from the start, in 50 ms.
fn first_move(command: &[String]) -> String {
    let english = GameType::standard(Variant::English);
    let mut engine = HubEngine::start(command, english).expect("starts");
    let game = AnyGame::new(english);
    let mv = engine
        .play(
            &game,
            &Limits::time(Duration::from_millis(50)),
            &AtomicBool::new(false),
        )
        .expect("a legal move");
    write_move(&Position::<English>::start(), &mv, SquareStyle::Numbers)
}

#[test]
fn a_book_is_built_looked_up_and_played_from() {
    let marker = TempFile::new("book-dir", "");
    let out = marker.0.with_extension("book.txt");
    let out_arg = out.to_string_lossy().into_owned();
    let build = [
        "book",
        "build",
        "--out",
        &out_arg,
        "--depth",
        "3",
        "--positions",
        "4",
        "--threads",
        "1",
    ];
    let built = crowned(&build);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(
        stdout(&built).contains("4 positions written"),
        "{}",
        stdout(&built)
    );
    let text = std::fs::read_to_string(&out).expect("the book");
    let book = Book::from_text(&text).expect("reads back");
    assert_eq!(book.len(), 4);

    // An existing book is never replaced unless asked.
    assert_one_line_error(&build, "--force");
    assert_eq!(std::fs::read_to_string(&out).expect("kept"), text);

    let start = Position::<English>::start();
    let (best, value) = book.best(&start).expect("the start is a root");
    let best = write_move(&start, &best, SquareStyle::Numbers);
    let probe = crowned(&[
        "book",
        "probe",
        "--book",
        &out_arg,
        "B:W21-32:B1-12",
        "W:W21-32:B1-11,16",
    ]);
    assert!(probe.status.success(), "{}", stderr(&probe));
    let lines: Vec<String> = stdout(&probe).lines().map(String::from).collect();
    assert!(
        lines[0].starts_with(&format!("B:W21-32:B1-12: {best}={value}")),
        "{lines:?}"
    );
    assert!(
        lines[1].ends_with("not in the book") || lines[1].contains('='),
        "{lines:?}"
    );

    assert_eq!(first_move(&hub_with_book(&out_arg)), best);
}

#[test]
fn the_hub_engine_plays_what_its_book_says_and_refuses_a_damaged_book() {
    // A legal but poor move the search would not choose: played because the book says so.
    let odd = TempFile::new(
        "odd.txt",
        "# crowned opening book 1 by hand\nB:W21-32:B1-12 12-16=900 11-15=10\n",
    );
    assert_eq!(first_move(&hub_with_book(odd.path())), "12-16");
    let damaged = TempFile::new(
        "damaged.txt",
        "# crowned opening book 1 by hand\nB:W21-32:B1-12 12-16\n",
    );
    assert_one_line_error(&["hub", "--book", damaged.path()], "line 2");
    assert_one_line_error(
        &["hub", "--book", "no-such-book.txt"],
        "cannot read the book",
    );
}
