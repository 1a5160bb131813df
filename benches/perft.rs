//! Move generation speed: perft from the start position.
//!
//! `cargo bench --bench perft` reports the time per walk; leaves per second are shown as the throughput. The
//! plain counter, which plays every leaf through the public API, is measured in the same run as the baseline.

use crowned::rules::{Duplicates, Position, perft, perft_by_depth, perft_by_playing};
use divan::{Bencher, counter::ItemsCount};

fn main() {
    divan::main();
}

/// Leaves at each depth of the start position (published, OEIS A133046).
const LEAVES: [u64; 13] = [
    1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673,
];

#[divan::bench(args = [9, 10, 11, 12], sample_count = 3, sample_size = 1)]
fn fast(bencher: Bencher, depth: u32) {
    let start: Position = Position::start();
    bencher
        .counter(ItemsCount::new(LEAVES[depth as usize]))
        .bench(|| perft(divan::black_box(&start), depth, Duplicates::Keep));
}

/// The whole `crowned perft --depth 12` computation: every depth from 1 to 12 in one walk.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn all_depths_to_12(bencher: Bencher) {
    let start: Position = Position::start();
    bencher
        .counter(ItemsCount::new(LEAVES[12]))
        .bench(|| perft_by_depth(divan::black_box(&start), 12, Duplicates::Keep));
}

#[divan::bench(args = [9], sample_count = 3, sample_size = 1)]
fn plain_baseline(bencher: Bencher, depth: u32) {
    let start: Position = Position::start();
    bencher
        .counter(ItemsCount::new(LEAVES[depth as usize]))
        .bench(|| perft_by_playing(divan::black_box(&start), depth, Duplicates::Keep));
}
