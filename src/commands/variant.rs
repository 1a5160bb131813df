//! `crowned variant`: draughts variants written as definitions (TOML files, see `variants/` for examples): check
//! one, count its move tree with the general generator (or Turkish draughts' fast one), list the built-in ones.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use crowned::rules::defined::{
    BUILTINS, DefinedPosition, DefinedRules, builtin, legal_moves, perft, perft_general,
};

/// The largest definition file read: a definition is a page of text, and a bigger file is not one.
const MAX_DEFINITION_BYTES: u64 = 1 << 20;

/// The deepest perft asked of the general generator, which is written for clarity rather than speed.
const MAX_PERFT_DEPTH: u32 = 12;

/// `crowned variant`'s commands.
#[derive(clap::Args, Debug)]
pub struct VariantArgs {
    #[command(subcommand)]
    command: VariantCommand,
}

#[derive(clap::Subcommand, Debug)]
enum VariantCommand {
    /// Read a definition and say what is wrong with it (the line or the field), or show its start and moves.
    Check {
        /// The definition: a TOML file, or the name of a built-in one (see `crowned variant list`).
        definition: String,
    },
    /// Count the leaves of a definition's move tree to each depth from 1 to DEPTH, with the general generator
    /// (Turkish draughts' fast one for a definition that moves as it does, unless --general).
    Perft {
        /// The definition: a TOML file, or the name of a built-in one.
        definition: String,
        /// How many plies deep to count.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// Count with the general generator even where a fast one plays the definition (Turkish draughts), to
        /// compare the two.
        #[arg(long)]
        general: bool,
    },
    /// List the built-in variants written as definitions.
    List,
}

/// Runs one of `crowned variant`'s commands.
pub fn run(args: VariantArgs) -> Result<ExitCode> {
    match args.command {
        VariantCommand::Check { definition } => {
            let rules = load(&definition)?;
            let start = DefinedPosition::start(&rules);
            let kinds: Vec<String> = rules
                .kinds
                .iter()
                .map(|k| format!("{} ({} {})", printable(&k.name), k.glyph, k.letter))
                .collect();
            let squares = rules.playable.iter().filter(|&&p| p).count();
            println!(
                "{}: {}x{} board, {squares} squares to play on; pieces: {}",
                printable(&rules.name),
                rules.width,
                rules.height,
                kinds.join(", ")
            );
            print!("{}", start.diagram(&rules));
            let moves = legal_moves(&rules, &start).len();
            println!("{} to move, {moves} legal moves", start.side);
        }
        VariantCommand::Perft {
            definition,
            depth,
            general,
        } => {
            let rules = load(&definition)?;
            let start = DefinedPosition::start(&rules);
            let count = if general { perft_general } else { perft };
            if rules.has_fast_turkish() {
                let which = if general { "general" } else { "fast Turkish" };
                eprintln!("counted by the {which} generator");
            }
            for d in 1..=depth {
                let began = Instant::now();
                let leaves = count(&rules, &start, d);
                let seconds = began.elapsed().as_secs_f64();
                println!(
                    "perft {d} {leaves} ({seconds:.3} s, {:.2} M leaves/s)",
                    leaves as f64 / seconds.max(1e-9) / 1e6
                );
            }
        }
        VariantCommand::List => {
            for (name, text) in BUILTINS {
                let title =
                    DefinedRules::from_toml(text).map_or_else(|e| e.to_string(), |r| r.name);
                println!("{name:<14} {title}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A name from a definition as it may be printed: the file is anyone's, and its names must not move the
/// terminal's cursor or change its colours (filtered as the server filters every name).
fn printable(name: &str) -> String {
    crowned::serve::text::clean_line(name, 80)
}

/// A definition from a file, or the built-in one of that name when no such file exists.
fn load(definition: &str) -> Result<DefinedRules> {
    let path = Path::new(definition);
    if !path.exists() && BUILTINS.iter().any(|(name, _)| *name == definition) {
        return Ok(builtin(definition)?);
    }
    let text = read_bounded(path)?;
    DefinedRules::from_toml(&text).with_context(|| path.display().to_string())
}

/// The text of a file of at most [`MAX_DEFINITION_BYTES`].
fn read_bounded(path: &Path) -> Result<String> {
    let file = crowned::bounded::open_regular(path).with_context(|| {
        let names: Vec<&str> = BUILTINS.iter().map(|(name, _)| *name).collect();
        format!(
            "{}: no such definition file (built in: {})",
            path.display(),
            names.join(", ")
        )
    })?;
    let mut text = String::new();
    file.take(MAX_DEFINITION_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("{}: not a text file", path.display()))?;
    if text.len() as u64 > MAX_DEFINITION_BYTES {
        bail!(
            "{}: more than {} KiB: not a variant definition",
            path.display(),
            MAX_DEFINITION_BYTES / 1024
        );
    }
    Ok(text)
}
