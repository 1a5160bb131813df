//! The subcommands of the binary, one module each.

pub mod bench;
pub mod bench_serve;
pub mod bench_tables;
pub mod egdb;
pub mod matches;
pub mod pdn;
pub mod perft;
pub mod play;
pub mod progress;
pub mod serve;
pub mod show;
pub mod think;
pub mod tune;

/// The cores this process may run on, the threads a command uses when its `--threads` is not given (1 when the
/// system cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
