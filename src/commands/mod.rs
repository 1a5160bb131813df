//! The subcommands of the binary, one module each: its arguments and its run. Here, what several share.

use anyhow::{Context, Result};
use std::path::Path;
use std::sync::Arc;

use crowned::config::check_seconds;
use crowned::engine::egdb::Egdb;
use crowned::rules::{AnyPosition, GameType, Variant, excerpt};
use crowned::store::Store;
use crowned::store::{load_file, variant_by_name};

pub mod bench;
pub mod bench_arena;
mod bench_chaos;
pub mod bench_serve;
pub mod bench_tables;
pub mod book;
pub mod egdb;
pub mod hub;
pub mod matches;
pub mod pdn;
pub mod perft;
pub mod play;
pub mod problems;
pub mod progress;
pub mod serve;
mod serve_check;
mod serve_conduct;
pub mod settings;
pub mod show;
pub mod think;
pub mod tune;
pub mod variant;

/// The rules and the position that the global options set up (`--variant`, `--size`, `--rows`, `--fen`), for
/// the commands that work under rules or on a position.
#[derive(Debug)]
pub struct BoardOptions {
    /// The rules and board the command line names; English 8x8 when it names none.
    pub game_type: GameType,
    /// Whether the command line named a variant, a size or rows.
    named: bool,
    /// `--fen`, read only when a command asks for the position: the game reads it under the settings' variant
    /// when the command line names none.
    fen: Option<String>,
}

impl BoardOptions {
    /// Checks the rules the options name; the FEN waits until a command asks for the position.
    pub fn new(
        variant: Option<Variant>,
        size: Option<u8>,
        rows: Option<u8>,
        fen: Option<String>,
    ) -> Result<BoardOptions> {
        Ok(BoardOptions {
            game_type: GameType::new(variant.unwrap_or(Variant::English), size, rows)?,
            named: variant.is_some() || size.is_some() || rows.is_some(),
            fen,
        })
    }

    /// The rules the command line named, if it named any.
    pub fn named(&self) -> Option<GameType> {
        self.named.then_some(self.game_type)
    }

    /// The text of `--fen`, if it was given.
    pub fn fen(&self) -> Option<&str> {
        self.fen.as_deref()
    }

    /// The position of `--fen` (or the start) under the rules of the command line.
    pub fn position(&self) -> Result<AnyPosition> {
        self.position_as(self.game_type)
    }

    /// The position of `--fen` (or the start) under `game_type`.
    pub fn position_as(&self, game_type: GameType) -> Result<AnyPosition> {
        Ok(match &self.fen {
            Some(text) => AnyPosition::from_fen(game_type, text)
                .with_context(|| format!("bad FEN {:?} for {game_type}", excerpt(text)))?,
            None => AnyPosition::start(game_type),
        })
    }
}

/// The variant the command line names: `--variant-file`'s definition, a built-in `--variant` (Turkish among
/// them, played from its definition), or a definition `NAME.toml` in the variants folder beside the settings file. A definition that does not load is an error
/// naming its file and line.
pub fn variant_named(name: Option<&str>, file: Option<&Path>) -> Result<Option<Variant>> {
    if let Some(file) = file {
        return Ok(Some(Variant::Defined(load_file(file)?)));
    }
    let Some(name) = name else {
        return Ok(None);
    };
    let folder = Store::locate().ok().map(|s| s.variants_dir());
    Ok(Some(variant_by_name(name, folder.as_deref())?))
}

/// The endgame databases of this user's store, if they were built: what the engines of every command that
/// plays probe. A missing store or database means none.
pub fn databases() -> Option<Arc<Egdb>> {
    databases_keeping_outcomes(false)
}

/// The endgame databases of the data dir, their outcomes kept in memory for the search when `keep_outcomes`
/// (see [`crowned::engine::egdb::open_in`]).
pub fn databases_keeping_outcomes(keep_outcomes: bool) -> Option<Arc<Egdb>> {
    let store = Store::locate().ok()?;
    crowned::engine::egdb::open_in(&store.egdb_dir(), keep_outcomes)
}

/// The most of a network file read: many times the size of any network this program trains.
const MAX_NETWORK_FILE: u64 = 64 << 20;

/// The bytes of a network file (a regular file of at most [`MAX_NETWORK_FILE`]).
pub(crate) fn read_network_file(path: &Path) -> Result<Vec<u8>> {
    crowned::bounded::read_bounded(path, MAX_NETWORK_FILE)
        .with_context(|| format!("cannot read {}", path.display()))
}

/// Reads the network file at `path`, for whichever family of rules it is.
pub fn read_network(path: &Path) -> Result<crowned::engine::nnue::Network> {
    let bytes = read_network_file(path)?;
    crowned::engine::nnue::Network::from_bytes(&bytes).with_context(|| path.display().to_string())
}

/// Reads the network file at `path` and makes it the one every engine of this process evaluates its family's
/// positions with (English, international or Russian draughts), in place of the one compiled in (`--network` of `crowned hub`): a newly trained network can then be matched without a build.
pub fn play_with_network_file(path: &Path) -> Result<()> {
    crowned::engine::nnue::play_with(read_network(path)?)?;
    Ok(())
}

/// The cores this process may run on, the threads a command uses when its `--threads` is not given (1 when the
/// system cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A number of seconds: positive and finite.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) => check_seconds(s),
        Err(_) => Err(format!("{text:?} is not a number of seconds")),
    }
}
