//! `crowned hub`: the engine behind the Hub protocol, for draughts GUIs and tools.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use crowned::engine::hub::{self, HubOptions};
use crowned::engine::{Evaluation, ParamOverrides};

/// `crowned hub`'s options: what the engine starts with until the GUI sets its parameters.
#[derive(clap::Args, Debug)]
pub struct HubArgs {
    /// Search threads until the GUI sets the threads parameter [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: Option<u64>,
    /// The evaluation until the GUI sets the eval parameter, where the rules have a network (English
    /// draughts; international draughts, Frisian, Frysk! and breakthrough; Russian, Brazilian, pool and Czech
    /// draughts): the network, or the hand-written one (to measure one against the other).
    #[arg(long, value_parser = ["network", "classic"])]
    eval: Option<String>,
    /// A search parameter changed from the engine's own value, as NAME=VALUE (futility-margin=70; repeat for
    /// more), so that a match can measure one setting against another: `crowned match --a-hub "crowned hub
    /// --param futility-margin=70" --b-hub "crowned hub" --sprt ...`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// An opening book (`crowned book build`) full strength plays from where it holds the position.
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// A network file (`crowned tune net --out`) the positions of its family of rules (English, international
    /// or Russian draughts, and the rule sets that share their network) are judged by in place of the one compiled in (or of the hand-written evaluation
    /// where none is), so that a newly trained network can be matched without a build.
    #[arg(long, value_name = "FILE")]
    network: Option<std::path::PathBuf>,
    /// Think this many seconds on every move whatever time the GUI gives, its clock included (to measure the
    /// clock's planning: `crowned match --clock 1+0.1 --a-hub "crowned hub" --b-hub "crowned hub --move-time
    /// 0.8"`).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds)]
    move_time: Option<f64>,
    /// Keep the endgame databases' win/draw/loss outcomes in memory for the search's probes (up to the most
    /// pieces that fit in 1 GiB), rather than probing through the cache of their files' blocks.
    #[arg(long)]
    egdb_in_memory: bool,
}

/// `crowned hub`: speaks the protocol on standard input and output until the GUI quits.
pub fn run(args: HubArgs) -> Result<ExitCode> {
    if let Some(path) = &args.network {
        super::play_with_network_file(path)?;
    }
    let mut params = ParamOverrides::default();
    for assignment in &args.params {
        params.assign(assignment)?;
    }
    let options = HubOptions {
        threads: args.threads.map_or(1, |t| t as usize),
        evaluation: args
            .eval
            .as_deref()
            .and_then(Evaluation::from_name)
            .unwrap_or_default(),
        egdb: super::databases_keeping_outcomes(args.egdb_in_memory),
        params,
        book: args.book.as_deref().map(super::book::read).transpose()?,
        fixed_move_time: args.move_time.map(Duration::from_secs_f64),
    };
    hub::serve_with(std::io::stdin(), std::io::stdout().lock(), options)
        .context("the conversation with the GUI failed")?;
    Ok(ExitCode::SUCCESS)
}
