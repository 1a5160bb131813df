//! PDN reading speed on the Tinsley collection (724 games) from the shared reference data.
//!
//! `cargo bench --bench pdn` reports games per second for reading the syntax alone and for reading and
//! replaying every game with the rules, for opening the file for replay as `crowned FILE.pdn` does, and for
//! writing the replayed games back out.

use std::path::PathBuf;

use crowned::game::pdn::{check_games, parse_games, replay_english, write_game};
use crowned::store::games_in_text;
use divan::{Bencher, counter::ItemsCount};

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
