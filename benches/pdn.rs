//! PDN reading speed on the Tinsley collection (724 games) from the shared reference data, and on generated
//! files of the shapes that once made reading quadratic.
//!
//! `cargo bench --bench pdn` reports games per second for reading the syntax alone and for reading and
//! replaying every game with the rules, for opening the file for replay as `crowned FILE.pdn` does, and for
//! writing the replayed games back out; then bytes per second for 2 MB of comments after one move, for
//! 100,000 distinct tags, and for many games checked as a stream, as `crowned pdn check` reads a file.

use std::path::PathBuf;

use crowned::game::pdn::{check_games, check_reader, parse_games, replay_english, write_game};
use crowned::store::games_in_text;
use divan::{
    Bencher,
    counter::{BytesCount, ItemsCount},
};

fn main() {
    divan::main();
}

fn tinsley() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pdn/tinsley.pdn");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!("skipped: {} not readable: {e}", path.display());
            None
        }
    }
}

#[divan::bench(sample_count = 20)]
fn parse_only(bencher: Bencher) {
    let Some(text) = tinsley() else { return };
    let games = parse_games(&text).len();
    bencher
        .counter(ItemsCount::new(games))
        .bench(|| parse_games(divan::black_box(&text)));
}

#[divan::bench(sample_count = 20)]
fn parse_and_replay(bencher: Bencher) {
    let Some(text) = tinsley() else { return };
    let games = parse_games(&text).len();
    bencher
        .counter(ItemsCount::new(games))
        .bench(|| check_games(divan::black_box(&text)));
}

#[divan::bench(sample_count = 20)]
fn write(bencher: Bencher) {
    let Some(text) = tinsley() else { return };
    let replayed: Vec<_> = parse_games(&text)
        .iter()
        .flatten()
        .map(|g| replay_english(g).game)
        .collect();
    bencher.counter(ItemsCount::new(replayed.len())).bench(|| {
        replayed
            .iter()
            .map(write_game)
            .map(|t| t.len())
            .sum::<usize>()
    });
}

/// What `crowned FILE.pdn` does before the list appears: every game read, its variant found and replayed.
/// Compare with `parse_and_replay` (the same games, the rules alone) in the same run.
#[divan::bench(sample_count = 20)]
fn open_for_replay(bencher: Bencher) {
    let Some(text) = tinsley() else { return };
    let games = parse_games(&text).len();
    bencher
        .counter(ItemsCount::new(games))
        .bench(|| games_in_text(divan::black_box(&text), "tinsley.pdn"));
}

/// One move followed by 500,000 comments: 2 MB.
fn many_comments() -> String {
    format!("[Event \"c\"]\n1. 11-15 {}*\n", "{c} ".repeat(500_000))
}

/// One game with 100,000 distinct tags: 1.3 MB.
fn many_tags() -> String {
    let mut text: String = (0..100_000).map(|i| format!("[T{i} \"v\"]\n")).collect();
    text.push_str("1. 11-15 *\n");
    text
}

/// 20,000 short games, each with its tags.
fn many_games() -> String {
    (0..20_000)
        .map(|i| format!("[Event \"{i}\"]\n[Result \"*\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n"))
        .collect()
}

fn check_stream(text: &str) -> usize {
    let mut games = 0;
    let _ = check_reader(text.as_bytes(), |_, _| games += 1);
    games
}

#[divan::bench(sample_count = 5)]
fn comments_2mb_after_one_move(bencher: Bencher) {
    let text = many_comments();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| check_stream(divan::black_box(&text)));
}

#[divan::bench(sample_count = 5)]
fn distinct_tags_100k(bencher: Bencher) {
    let text = many_tags();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| check_stream(divan::black_box(&text)));
}

#[divan::bench(sample_count = 5)]
fn many_games_streamed(bencher: Bencher) {
    let text = many_games();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| check_stream(divan::black_box(&text)));
}

/// The same games opened for replay, as the list of a big file is made.
#[divan::bench(sample_count = 5)]
fn many_games_listed(bencher: Bencher) {
    let text = many_games();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| games_in_text(divan::black_box(&text), "many.pdn").len());
}
