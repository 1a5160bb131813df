//! `crowned tune`: positions from self-play, and the evaluation's weights fitted to them.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use crowned::engine::EVAL_WEIGHTS;
use crowned::engine::tune::{self, FitConfig, NetConfig, Sample};
use crowned::store::create_new;

use super::progress::Progress;

/// `crowned tune data`: plays `games` self-play games at `depth` and writes their quiet positions to the new
/// file `out` (an existing file is refused: it may be hours of work).
pub fn data(games: usize, depth: u32, seed: u64, threads: usize, out: &Path) -> Result<()> {
    // Refused now rather than after the games; the file itself is made only when the games are done, so an
    // interrupted run leaves nothing behind.
    anyhow::ensure!(
        !out.exists(),
        "{} already exists; choose another file (an existing file is never replaced)",
        out.display()
    );
    let progress = Progress::on_terminal(games as u64, "games");
    let started = std::time::Instant::now();
    let samples = tune::self_play(games, depth, seed, threads, &|done| {
        progress.set_done(done as u64)
    });
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
        "{} positions from {games} games at depth {depth} in {:.1} s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Every position of samples files and PDN files (told apart by extension).
fn read_inputs(inputs: &[PathBuf]) -> Result<Vec<Sample>> {
    let mut samples: Vec<Sample> = Vec::new();
    for path in inputs {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let is_pdn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"));
        let read = if is_pdn {
            tune::from_pdn(&text)
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
pub fn fit(inputs: &[PathBuf], epochs: usize, out: Option<&Path>) -> Result<()> {
    let samples = read_inputs(inputs)?;
    anyhow::ensure!(
        !samples.is_empty(),
        "no positions to fit: give samples files or PDN files of finished games"
    );
    let progress = Progress::on_terminal(epochs as u64, "epochs");
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
pub fn net(inputs: &[PathBuf], config: NetConfig, out: &Path) -> Result<()> {
    let samples = read_inputs(inputs)?;
    anyhow::ensure!(
        !samples.is_empty(),
        "no positions to train on: give samples files or PDN files of finished games"
    );
    let progress = Progress::on_terminal(config.epochs as u64, "epochs");
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
    });
    progress.finish();
    crowned::store::write_atomic(out, &trained.network.to_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "{} positions trained on, {} held out; {} epochs in {:.1} s\n\
         held-out mean squared error against the results: network {:.6} (as trained {:.6}), hand-written \
         evaluation {:.6}",
        trained.training_samples,
        trained.validation_samples,
        config.epochs,
        started.elapsed().as_secs_f64(),
        trained.validation_integer,
        trained.validation_float,
        trained.validation_classic,
    );
    Ok(())
}
