//! Move generation speed: perft from the start position.
//!
//! `cargo bench --bench perft` reports the time per walk; leaves per second are shown as the throughput. The
//! plain counter, which plays every leaf through the public API, is measured in the same run as the baseline.
//! Turkish draughts' generators (fast and general) are measured beside international draughts' (`turkish::`).

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

/// Turkish draughts, built in as a definition: its fast generator and the general one, with international
/// draughts' fast generator in the same run for scale (the aim is a Turkish generator within a few times of it).
mod turkish {
    use crowned::rules::defined::{DefinedPosition, builtin, perft, perft_general};
    use crowned::rules::{Duplicates, International, Position, perft as fast_perft};
    use divan::{Bencher, counter::ItemsCount};

    #[divan::bench(args = [6, 7], sample_count = 3, sample_size = 1)]
    fn turkish_fast(bencher: Bencher, depth: u32) {
        let rules = builtin("turkish").expect("built in");
        let start = DefinedPosition::start(&rules);
        let leaves = perft(&rules, &start, depth);
        bencher
            .counter(ItemsCount::new(leaves))
            .bench(|| perft(&rules, divan::black_box(&start), depth));
    }

    #[divan::bench(args = [5], sample_count = 3, sample_size = 1)]
    fn turkish_general(bencher: Bencher, depth: u32) {
        let rules = builtin("turkish").expect("built in");
        let start = DefinedPosition::start(&rules);
        let leaves = perft_general(&rules, &start, depth);
        bencher
            .counter(ItemsCount::new(leaves))
            .bench(|| perft_general(&rules, divan::black_box(&start), depth));
    }

    #[divan::bench(args = [7, 8], sample_count = 3, sample_size = 1)]
    fn international_fast(bencher: Bencher, depth: u32) {
        let start = Position::<International>::start();
        let leaves = fast_perft(&start, depth, Duplicates::Keep);
        bencher
            .counter(ItemsCount::new(leaves))
            .bench(|| fast_perft(divan::black_box(&start), depth, Duplicates::Keep));
    }
}
