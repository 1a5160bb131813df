//! `crowned problems`: the problem trainer, and the tools that make problems (proving a file, mining games).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use crowned::app::App;
use crowned::config::Overrides;
use crowned::problems::{
    BUILTIN, Loaded, PROOF_DEPTH, PROOF_NODES, Prover, load_problems, mine::mine_games,
};
use crowned::session::{self, SessionEnd};
use crowned::term;
use crowned::ui::Theme;

use super::{databases, settings};

/// `crowned problems`'s options.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ProblemsArgs {
    /// A PDN file of problems (a FEN and a result, with or without the solution as the main line); the
    /// built-in collection when none is given.
    file: Option<PathBuf>,
    /// What to do instead of opening the trainer.
    #[command(subcommand)]
    command: Option<ProblemsCommand>,
}

/// The tools of `crowned problems`.
#[derive(clap::Subcommand, Debug)]
enum ProblemsCommand {
    /// Prove the problems of a PDN file and write those proved, with their solutions, as PDN; say why the
    /// others are refused.
    Prove {
        /// The PDN file.
        file: PathBuf,
        /// Where to write the proved problems (standard output when not given).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        limits: ProofLimits,
    },
    /// Find problems in games: positions where exactly one move keeps the win or the draw, proved by search
    /// (and the endgame databases when there are some), written as PDN with the solution as the main line.
    Mine {
        /// The PDN file of games.
        file: PathBuf,
        /// Where to write the problems (standard output when not given).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        limits: ProofLimits,
    },
}

/// How hard a proof may work.
#[derive(clap::Args, Debug)]
struct ProofLimits {
    /// Plies a proof searches at most.
    #[arg(long, default_value_t = PROOF_DEPTH, value_parser = clap::value_parser!(u32).range(1..=96))]
    depth: u32,
    /// Positions a proof visits at most.
    #[arg(long, default_value_t = PROOF_NODES)]
    nodes: u64,
    /// Prove without the endgame databases (as the built-in collection is proved when it is opened).
    #[arg(long)]
    no_databases: bool,
}

impl ProofLimits {
    fn prover(&self) -> Prover {
        let egdb = if self.no_databases { None } else { databases() };
        Prover::with_limits(egdb, self.depth, self.nodes)
    }
}

/// `crowned problems`.
pub fn run(args: ProblemsArgs, overrides: &Overrides) -> Result<ExitCode> {
    match args.command {
        Some(ProblemsCommand::Prove {
            file,
            output,
            limits,
        }) => prove(&file, output.as_deref(), &limits),
        Some(ProblemsCommand::Mine {
            file,
            output,
            limits,
        }) => mine(&file, output.as_deref(), &limits),
        None => train(args.file.as_deref(), overrides),
    }
}

/// The most of a problems file read: far more than any collection.
pub(crate) const MAX_PROBLEMS_FILE: u64 = 16 << 20;

fn read(file: &Path) -> Result<String> {
    let bytes = crowned::bounded::read_bounded(file, MAX_PROBLEMS_FILE)
        .with_context(|| format!("cannot read {}", file.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn write_out(output: Option<&Path>, text: &str) -> Result<()> {
    match output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn prove(file: &Path, output: Option<&Path>, limits: &ProofLimits) -> Result<ExitCode> {
    let text = read(file)?;
    let Loaded { problems, refused } = load_problems(&text, &mut limits.prover());
    for (title, why) in &refused {
        eprintln!("refused {title}: {why}");
    }
    let pdn: Vec<String> = problems.iter().map(|p| p.to_pdn()).collect();
    write_out(output, &pdn.join("\n"))?;
    eprintln!(
        "{} problems proved, {} refused",
        problems.len(),
        refused.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn mine(file: &Path, output: Option<&Path>, limits: &ProofLimits) -> Result<ExitCode> {
    let text = read(file)?;
    let mined = mine_games(&text, &mut limits.prover(), &mut |_| {});
    let pdn: Vec<String> = mined.problems.iter().map(|p| p.to_pdn()).collect();
    write_out(output, &pdn.join("\n"))?;
    eprintln!(
        "{} problems in {} positions of {} games ({} unreadable)",
        mined.problems.len(),
        mined.positions,
        mined.games,
        mined.unreadable
    );
    Ok(ExitCode::SUCCESS)
}

fn train(file: Option<&Path>, overrides: &Overrides) -> Result<ExitCode> {
    let egdb = databases();
    let mut prover = Prover::new(egdb.clone());
    let (text, name) = match file {
        Some(path) => (read(path)?, path.display().to_string()),
        None => (BUILTIN.to_string(), "the built-in collection".to_string()),
    };
    let Loaded { problems, refused } = load_problems(&text, &mut prover);
    if problems.is_empty() {
        match refused.first() {
            Some((title, why)) => bail!("{name}: no problem could be proved ({title}: {why})"),
            None => bail!("{name}: no problems in the file"),
        }
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("the trainer needs a terminal (stdin and stdout)");
    }
    let (settings, _, problem) = settings::load(overrides);
    let (app, effects) = App::training(problems, prover);
    let (mut opened, config) = session::open_trainer(
        app,
        effects,
        &settings,
        problem.as_ref(),
        Theme::no_color_from_env(),
    );
    if !refused.is_empty() {
        opened.notices.push(format!(
            "{} problems of {name} could not be proved and are not offered",
            refused.len()
        ));
    }
    let ending = term::run(opened, config, egdb)?;
    Ok(match ending {
        SessionEnd::Quit => ExitCode::SUCCESS,
        SessionEnd::Signal(signal) => ExitCode::from(128 + signal as u8),
        SessionEnd::InputClosed => ExitCode::from(1),
        SessionEnd::EngineFailed => bail!("the engine stopped after an error"),
    })
}
