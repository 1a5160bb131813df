//! `crowned tune`: positions from self-play, and the evaluation's weights fitted to them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use crowned::engine::EVAL_WEIGHTS;
use crowned::lab::tune::{self, FitConfig, NetConfig, Sample};
use crowned::store::create_new;

use super::progress::TerminalProgress;
use super::{BoardOptions, cores};
use crowned::engine::{EngineRules, nnue};
use crowned::rules::defined::DefinedId;
use crowned::rules::{English, GameType, International, Playable, RulesVisitor, Russian, Variant};

/// `crowned tune`'s options: the step to take.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    step: TuneStep,
}

/// The steps of `crowned tune`.
#[derive(Subcommand, Debug)]
pub enum TuneStep {
    /// Play self-play games (ballot openings chosen by --seed, the full search at a fixed depth on both sides,
    /// a random move now and then early on) and write their quiet positions with each game's result to OUT,
    /// one `FEN;result` line each (result for Black: 1, 0.5 or 0).
    Data(DataArgs),
    /// Fit the weights to positions: files written by `tune data`, and PDN files of finished English games
    /// (by their .pdn extension), starting from the weights compiled in. Writes the Rust source of
    /// crates/engine/src/eval_weights.rs to --out, or to standard output.
    Fit(FitArgs),
    /// Train the network evaluation on positions (files written by `tune data`, and PDN files of finished
    /// English games) and write the network file to --out: English draughts' is compiled in as
    /// crates/engine/src/nnue/weights.nnue, international draughts' (`--variant international`) as
    /// crates/engine/src/nnue/international.nnue, Russian draughts' (`--variant russian`) as
    /// crates/engine/src/nnue/russian.nnue.
    Net(NetArgs),
    /// Tune search parameters by SPSA (simultaneous perturbation, Spall's gains a/(k+1+A)^0.602 and
    /// c/(k+1)^0.101): each iteration plays game pairs (random quiet openings, both colours) between the
    /// engine with every tuned parameter moved one way and the engine with them moved the other, at a fixed
    /// number of nodes a move, under the rules of --variant (English by default). Prints each iteration's
    /// values, and at the end NAME=VALUE lines for `crowned hub --param` (also written to --out).
    Spsa(SpsaArgs),
}

/// `crowned tune data`'s options.
#[derive(clap::Args, Debug)]
pub struct DataArgs {
    /// Games to play.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Plies each move is searched to.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Seed of the openings and the random moves: the same seed makes the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads to play on (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: Option<u64>,
    /// The new file to write (an existing file is refused).
    #[arg(long, value_name = "OUT")]
    out: PathBuf,
    /// A network file (`crowned tune net --out`) both sides judge positions by (of the rules' family:
    /// English, international or Russian draughts'), in place of the one compiled in or the hand-written
    /// evaluation: the next generation's games from a network that passed its match, without a build.
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
}

/// `crowned tune fit`'s options.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Samples files and PDN files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Passes of gradient descent.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    epochs: u64,
    /// Where to write the weights' source (replaced if it exists).
    #[arg(long, value_name = "OUT")]
    out: Option<PathBuf>,
}

/// `crowned tune net`'s options.
#[derive(clap::Args, Debug)]
pub struct NetArgs {
    /// Samples files and PDN files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Passes over the samples.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    epochs: u64,
    /// Weight in the target, from 0 (the results alone) to 1, of the self-play search's expectation kept in
    /// the samples file (`FEN;result;search` lines), or of the hand-written evaluation's prediction for a
    /// position without one.
    #[arg(long, default_value_t = 0.0)]
    lambda: f32,
    /// Seed of the starting weights and of the order of samples: the same seed makes the same network.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads computing gradients (default: every core; the network does not depend on it).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: Option<u64>,
    /// A network file to train further (for example the compiled-in crates/engine/src/nnue/weights.nnue, refined
    /// on a new generation's positions) instead of starting from random weights.
    #[arg(long, value_name = "NET")]
    from: Option<PathBuf>,
    /// Adam's step size at the start (it falls to a tenth over the last two fifths of the run); lower when
    /// training a network further than from random weights.
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// Where to write the network (replaced if it exists).
    #[arg(long, value_name = "OUT")]
    out: PathBuf,
}

/// `crowned tune spsa`'s options.
#[derive(clap::Args, Debug)]
pub struct SpsaArgs {
    /// A parameter to tune, as NAME or NAME:MIN:MAX:STEP (repeat for more; STEP is the first perturbation).
    #[arg(long = "param", value_name = "NAME[:MIN:MAX:STEP]", required = true)]
    params: Vec<String>,
    /// A starting value other than the engine's own, as NAME=VALUE (repeat for more).
    #[arg(long = "start", value_name = "NAME=VALUE")]
    starts: Vec<String>,
    /// Iterations.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    iterations: u64,
    /// Game pairs an iteration.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pairs: u64,
    /// Nodes a move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(10..=100_000_000))]
    nodes: u64,
    /// The step size's scale a (steps per point of score difference at the start).
    #[arg(long, default_value_t = 2.0)]
    a: f64,
    /// The perturbation's scale c (in steps).
    #[arg(long, default_value_t = 1.0)]
    c: f64,
    /// Seed of the perturbations and openings: the same seed makes the same run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads to play on (default: every core; the result does not depend on it).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: Option<u64>,
    /// A file to write the final NAME=VALUE lines to (replaced if it exists).
    #[arg(long, value_name = "OUT")]
    out: Option<PathBuf>,
}

/// The rules networks are trained for, each with its family.
const NETWORK_FAMILIES: [(Variant, nnue::NetworkFamily); 3] = [
    (Variant::English, nnue::NetworkFamily::English),
    (Variant::International, nnue::NetworkFamily::International),
    (Variant::Russian, nnue::NetworkFamily::Russian),
];

/// The family of the network `tune net` trains on positions of `game_type`, if it trains one.
fn network_family(game_type: GameType) -> Option<nnue::NetworkFamily> {
    NETWORK_FAMILIES
        .into_iter()
        .find(|&(variant, _)| GameType::standard(variant) == game_type)
        .map(|(_, family)| family)
}

/// `crowned tune`: the step asked for.
pub fn run(args: TuneArgs, board: &BoardOptions) -> Result<ExitCode> {
    let english = GameType::standard(Variant::English);
    let with_networks = NETWORK_FAMILIES.map(|(variant, _)| GameType::standard(variant));
    // Self-play makes positions and SPSA tunes the search under any rules, and networks are trained for
    // every family that has one; the hand-written weights fitted here are English draughts'.
    let step_rules: &[GameType] = match args.step {
        TuneStep::Data(_) | TuneStep::Spsa(_) => &[],
        TuneStep::Net(_) => &with_networks,
        TuneStep::Fit(_) => &[english],
    };
    if !step_rules.is_empty()
        && let Some(named) = board.named()
        && !step_rules.contains(&named)
    {
        if step_rules.len() > 1 {
            anyhow::bail!(
                "networks are trained for English, international and Russian draughts only, not {named}"
            );
        }
        anyhow::bail!(
            "this step of `crowned tune` works on English draughts (8x8) only, not {named}: its evaluation \
             and search parameters are English draughts'"
        );
    }
    match args.step {
        TuneStep::Data(step) => data_step(step, board)?,
        TuneStep::Fit(step) => fit(&step.files, step.epochs as usize, step.out.as_deref())?,
        TuneStep::Net(step) => net_step(step, board)?,
        TuneStep::Spsa(step) => spsa_step(step, board)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `crowned tune data`: self-play games under the rules of the command line, with the network given, if any.
fn data_step(step: DataArgs, board: &BoardOptions) -> Result<()> {
    anyhow::ensure!(
        board.fen().is_none(),
        "`crowned tune data` starts its games from openings chosen by --seed, not from --fen"
    );
    if let Some(path) = &step.network {
        let start = crowned::rules::AnyPosition::start(board.game_type);
        let Some(wanted) = crowned::engine::network_family(&start) else {
            anyhow::bail!(
                "--network: {} has no network evaluation (English, international and Russian \
                 draughts have one, and the rule sets that share theirs)",
                board.game_type
            );
        };
        let network = super::read_network(path)?;
        anyhow::ensure!(
            network.family() == wanted,
            "{}: the network is for {}; {} is played on {wanted}",
            path.display(),
            network.family(),
            board.game_type
        );
        nnue::play_with(network)?;
    }
    let games = Games {
        game_type: board.game_type,
        games: step.games as usize,
        depth: step.depth,
        seed: step.seed,
        threads: step.threads.map_or_else(cores, |t| t as usize),
        out: &step.out,
    };
    board.game_type.visit(games)
}

/// `crowned tune net`: a network trained for the family of the command line's rules.
fn net_step(step: NetArgs, board: &BoardOptions) -> Result<()> {
    // Checked here rather than by clap, whose range checks are for integers.
    anyhow::ensure!(
        (0.0..=1.0).contains(&step.lambda),
        "--lambda must be from 0 to 1"
    );
    anyhow::ensure!(
        step.rate > 0.0 && step.rate <= 1.0,
        "--rate must be above 0 and at most 1"
    );
    let start = match &step.from {
        Some(path) => Some(super::read_network(path)?),
        None => None,
    };
    let config = NetConfig {
        epochs: step.epochs as usize,
        lambda: step.lambda,
        seed: step.seed,
        threads: step.threads.map_or_else(cores, |t| t as usize),
        learning_rate: step.rate,
        start,
        ..Default::default()
    };
    let (files, out) = (&step.files, &step.out);
    match network_family(board.game_type) {
        Some(nnue::NetworkFamily::International) => net::<International>(files, config, out),
        Some(nnue::NetworkFamily::Russian) => net::<Russian>(files, config, out),
        Some(nnue::NetworkFamily::English) => net::<English>(files, config, out),
        None => anyhow::bail!(
            "networks are trained for English, international and Russian draughts only, not {}",
            board.game_type
        ),
    }
}

/// `crowned tune spsa`: the search's parameters tuned by SPSA under the command line's rules.
fn spsa_step(step: SpsaArgs, board: &BoardOptions) -> Result<()> {
    let mut start = crowned::engine::ParamOverrides::default();
    for assignment in &step.starts {
        start.assign(assignment)?;
    }
    anyhow::ensure!(step.a > 0.0 && step.c > 0.0, "--a and --c must be above 0");
    let config = tune::SpsaConfig {
        tuned: step
            .params
            .iter()
            .map(|p| tune::Tuned::parse(p))
            .collect::<Result<_, _>>()?,
        start,
        iterations: step.iterations as usize,
        pairs: step.pairs as usize,
        nodes: step.nodes,
        a: step.a,
        c: step.c,
        stability: (step.iterations as f64 / 10.0).max(1.0),
        seed: step.seed,
        threads: step.threads.map_or_else(cores, |t| t as usize),
    };
    board.game_type.visit(Spsa {
        game_type: board.game_type,
        config: &config,
        out: step.out.as_deref(),
    })
}

/// `crowned tune data`'s work: `games` self-play games under the rules of `game_type` at `depth`, their quiet
/// positions written to the new file `out` (an existing file is refused: it may be hours of work).
struct Games<'a> {
    game_type: GameType,
    games: usize,
    depth: u32,
    seed: u64,
    threads: usize,
    out: &'a Path,
}

impl RulesVisitor for Games<'_> {
    type Output = Result<()>;

    fn visit<R: Playable>(self) -> Result<()> {
        let Games {
            game_type,
            games,
            depth,
            seed,
            threads,
            out,
        } = self;
        // Refused now rather than after the games; the file itself is made only when the games are done, so an
        // interrupted run leaves nothing behind.
        anyhow::ensure!(
            !out.exists(),
            "{} already exists; choose another file (an existing file is never replaced)",
            out.display()
        );
        let progress = TerminalProgress::on_terminal(games as u64, "games");
        let started = std::time::Instant::now();
        let samples = tune::self_play::<R>(
            game_type,
            games,
            depth,
            seed,
            threads,
            super::databases(),
            &|done| progress.set_done(done as u64),
        );
        progress.finish();
        let mut file = create_new(out).with_context(|| {
            format!(
                "cannot create {} (an existing file is never replaced)",
                out.display()
            )
        })?;
        file.write_all(tune::write_samples(&samples).as_bytes())
            .and_then(|()| file.sync_all())
            .with_context(|| format!("cannot write {}", out.display()))?;
        eprintln!(
            "{} positions of {game_type} from {games} games at depth {depth} in {:.1} s",
            samples.len(),
            started.elapsed().as_secs_f64()
        );
        Ok(())
    }

    fn defined(self, _: DefinedId) -> Result<()> {
        anyhow::bail!(
            "`crowned tune data` plays the built-in rule sets; {} is played from its definition",
            self.game_type
        )
    }
}

/// Every position of samples files and PDN files (told apart by extension).
fn read_inputs<R: Playable>(inputs: &[PathBuf]) -> Result<Vec<Sample<R>>> {
    let mut samples: Vec<Sample<R>> = Vec::new();
    for path in inputs {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let is_pdn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"));
        let read = if is_pdn {
            // Finished games in PDN are read for English draughts, whose files the trainer takes as they are.
            let english = tune::from_pdn(&text);
            let found = english.len();
            let games: Vec<Sample<R>> = english
                .into_iter()
                .filter_map(|s| {
                    Some(Sample {
                        position: R::unwrap(&English::wrap(s.position))?,
                        result: s.result,
                        search: s.search,
                    })
                })
                .collect();
            anyhow::ensure!(
                games.len() == found,
                "{}: PDN files are read for English draughts only; give samples files written by `tune data`",
                path.display()
            );
            games
        } else {
            tune::read_samples(&text).with_context(|| format!("{}", path.display()))?
        };
        eprintln!("{}: {} positions", path.display(), read.len());
        samples.extend(read);
    }
    Ok(samples)
}

/// `crowned tune fit`: reads samples files and PDN files (by extension), fits the weights from the ones compiled
/// in, and writes the weights' source to `out` (or stdout).
fn fit(inputs: &[PathBuf], epochs: usize, out: Option<&Path>) -> Result<()> {
    let samples = read_inputs(inputs)?;
    anyhow::ensure!(
        !samples.is_empty(),
        "no positions to fit: give samples files or PDN files of finished games"
    );
    let progress = TerminalProgress::on_terminal(epochs as u64, "epochs");
    let config = FitConfig {
        epochs,
        ..FitConfig::default()
    };
    let fit = tune::fit(&samples, &EVAL_WEIGHTS, config, &mut |epoch, loss| {
        progress.set_done(epoch as u64);
        progress.set_message(format!("loss {loss:.6}"));
    });
    progress.finish();
    let names: Vec<String> = inputs
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let provenance = format!(
        "Written by `crowned tune fit` from {} positions ({}), {epochs} epochs: mean squared error {:.6} before,\n\
         {:.6} after, with a sigmoid scale of {:.5} per hundredth of a man.",
        fit.samples,
        names.join(", "),
        fit.loss_before,
        fit.loss_after,
        fit.scale
    );
    let source = tune::weights_source(&fit.weights, &provenance);
    match out {
        Some(path) => crowned::store::write_atomic(path, source.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{source}"),
    }
    eprintln!(
        "{} positions: loss {:.6} before, {:.6} after (scale {:.5})",
        fit.samples, fit.loss_before, fit.loss_after, fit.scale
    );
    Ok(())
}

/// `crowned tune net`: reads samples files and PDN files, trains the network evaluation on them and writes the
/// network file to `out`, with how well it and the hand-written evaluation predict the held-out results.
fn net<R: EngineRules>(inputs: &[PathBuf], config: NetConfig, out: &Path) -> Result<()> {
    let samples = read_inputs::<R>(inputs)?;
    anyhow::ensure!(
        !samples.is_empty(),
        "no positions to train on: give samples files or PDN files of finished games"
    );
    let epochs = config.epochs;
    let progress = TerminalProgress::on_terminal(epochs as u64, "epochs");
    let started = std::time::Instant::now();
    let trained = tune::train_net(&samples, config, &mut |report| {
        progress.set_done(report.epoch as u64);
        progress.set_message(format!(
            "training {:.6}, held out {:.6}",
            report.training, report.validation
        ));
        progress.line(&format!(
            "epoch {:>3}: training {:.6}, held out {:.6}",
            report.epoch, report.training, report.validation
        ));
    })?;
    progress.finish();
    crowned::store::write_atomic(out, &trained.network.to_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "{} positions trained on, {} held out; {} epochs in {:.1} s\n\
         held-out mean squared error against the results: network {:.6} (as trained {:.6}), hand-written \
         evaluation {:.6}",
        trained.training_samples,
        trained.validation_samples,
        epochs,
        started.elapsed().as_secs_f64(),
        trained.validation_integer,
        trained.validation_float,
        trained.validation_classic,
    );
    if let Some(start) = trained.validation_start {
        eprintln!("the network it started from: {start:.6}");
    }
    Ok(())
}

/// `crowned tune spsa`'s work: SPSA under the rules of `game_type`, each iteration's values printed to standard
/// error and the final ones as NAME=VALUE lines to standard output (and to `out`).
struct Spsa<'a> {
    game_type: GameType,
    config: &'a tune::SpsaConfig,
    out: Option<&'a Path>,
}

impl RulesVisitor for Spsa<'_> {
    type Output = Result<()>;

    fn visit<R: Playable>(self) -> Result<()> {
        spsa::<R>(self.game_type, self.config, self.out)
    }

    fn defined(self, _: DefinedId) -> Result<()> {
        anyhow::bail!(
            "`crowned tune spsa` tunes the search of the built-in rule sets; {} is played from its definition",
            self.game_type
        )
    }
}

fn spsa<R: Playable>(
    game_type: GameType,
    config: &tune::SpsaConfig,
    out: Option<&Path>,
) -> Result<()> {
    let lines = |theta: &[f64]| -> Vec<String> {
        config
            .tuned
            .iter()
            .zip(theta)
            .map(|(t, &v)| format!("{}={}", t.name, tune::format_value(t.name, v)))
            .collect()
    };
    let started = std::time::Instant::now();
    let theta = tune::spsa::<R>(game_type, config, &mut |report| {
        eprintln!(
            "iteration {} ({:.0} s): difference {:+.3}; {}",
            report.iteration,
            started.elapsed().as_secs_f64(),
            report.difference,
            lines(&report.theta).join(" ")
        );
    });
    let text = lines(&theta).join("\n") + "\n";
    if let Some(path) = out {
        crowned::store::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    print!("{text}");
    Ok(())
}
