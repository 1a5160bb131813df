//! The fit: weights that make `sigmoid(c * score / 100)` predict the samples' results, by Adam on the mean
//! squared error (the loss of Texel's method), with the scale `c` fitted first to the starting weights.
//!
//! Hand-written rather than a machine-learning crate: the model is one dot product per sample and the gradient
//! is three lines, so a crate would bring more build time than help.

use std::fmt::Write as _;

use super::data::Sample;
use crowned_engine::eval::{SCALE, TERMS, features, term_name, terms};

/// How a fit runs.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// Passes of gradient descent over all the samples.
    pub epochs: usize,
    /// Adam's step size, in 64ths of a hundredth of a man.
    pub learning_rate: f64,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 2000,
            learning_rate: 4.0,
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The new weights, rounded (men stay fixed: they are the unit).
    pub weights: [i32; TERMS],
    /// The scale of the sigmoid, per hundredth of a man.
    pub scale: f64,
    /// The mean squared error with the starting weights.
    pub loss_before: f64,
    /// The mean squared error with the new weights.
    pub loss_after: f64,
    /// Samples used.
    pub samples: usize,
}

/// The samples' features as a dense table of `f32`, one row of [`TERMS`] per sample.
struct Table {
    rows: Vec<f32>,
    results: Vec<f64>,
}

impl Table {
    fn new(samples: &[Sample]) -> Table {
        let mut rows = Vec::with_capacity(samples.len() * TERMS);
        for s in samples {
            rows.extend(features(&s.position).iter().map(|&c| c as f32));
        }
        Table {
            rows,
            results: samples.iter().map(|s| f64::from(s.result)).collect(),
        }
    }

    fn len(&self) -> usize {
        self.results.len()
    }

    /// The score of sample `i` in hundredths of a man, before the rounding the engine does.
    fn score(&self, i: usize, weights: &[f64; TERMS]) -> f64 {
        let row = &self.rows[i * TERMS..(i + 1) * TERMS];
        row.iter()
            .zip(weights)
            .map(|(&f, w)| f64::from(f) * w)
            .sum::<f64>()
            / f64::from(SCALE)
    }

    fn loss(&self, weights: &[f64; TERMS], scale: f64) -> f64 {
        self.gradient_of(weights, scale, false).0
    }

    /// The loss and its gradient with respect to each weight.
    fn gradient(&self, weights: &[f64; TERMS], scale: f64) -> (f64, [f64; TERMS]) {
        self.gradient_of(weights, scale, true)
    }

    /// The loss, and the gradient if asked, over the samples in [`CHUNKS`] fixed parts shared among the cores.
    /// The parts are added up in order, so the result does not depend on the number of cores.
    fn gradient_of(
        &self,
        weights: &[f64; TERMS],
        scale: f64,
        with_gradient: bool,
    ) -> (f64, [f64; TERMS]) {
        let n = self.len();
        let part = n.div_ceil(CHUNKS).max(1);
        let chunk = |c: usize| {
            let mut gradient = [0.0; TERMS];
            let mut loss = 0.0;
            for i in (c * part).min(n)..((c + 1) * part).min(n) {
                let p = sigmoid(scale * self.score(i, weights));
                let error = p - self.results[i];
                loss += error * error;
                if with_gradient {
                    let common = 2.0 * error * p * (1.0 - p) * scale / f64::from(SCALE);
                    for (g, &f) in gradient
                        .iter_mut()
                        .zip(&self.rows[i * TERMS..(i + 1) * TERMS])
                    {
                        *g += common * f64::from(f);
                    }
                }
            }
            (loss, gradient)
        };
        let cores = std::thread::available_parallelism()
            .map_or(1, |c| c.get())
            .min(CHUNKS);
        let mut parts: Vec<(usize, (f64, [f64; TERMS]))> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..cores)
                .map(|w| {
                    let chunk = &chunk;
                    scope.spawn(move || {
                        (w..CHUNKS)
                            .step_by(cores)
                            .map(|c| (c, chunk(c)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_default())
                .collect()
        });
        parts.sort_by_key(|(c, _)| *c);
        let mut loss = 0.0;
        let mut gradient = [0.0; TERMS];
        for (_, (l, g)) in parts {
            loss += l;
            gradient.iter_mut().zip(g).for_each(|(a, b)| *a += b);
        }
        let n = n.max(1) as f64;
        gradient.iter_mut().for_each(|g| *g /= n);
        (loss / n, gradient)
    }
}

/// The fixed parts the samples are cut into for the cores.
const CHUNKS: usize = 16;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale that fits the samples best with `weights`, by golden-section search.
fn best_scale(table: &Table, weights: &[f64; TERMS]) -> f64 {
    let (mut low, mut high) = (1e-4, 0.1);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if table.loss(weights, a) < table.loss(weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Fits the weights to `samples`, starting from `start`. `progress` hears the epoch and the loss now and then.
pub fn fit(
    samples: &[Sample],
    start: &[i32; TERMS],
    config: FitConfig,
    progress: &mut dyn FnMut(usize, f64),
) -> Fit {
    let table = Table::new(samples);
    let mut weights: [f64; TERMS] = start.map(f64::from);
    let scale = best_scale(&table, &weights);
    let loss_before = table.loss(&weights, scale);
    // Adam, with the usual decay rates.
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut first = [0.0; TERMS];
    let mut second = [0.0; TERMS];
    for epoch in 1..=config.epochs {
        let (loss, gradient) = table.gradient(&weights, scale);
        for t in 0..TERMS {
            if t == terms::MEN {
                continue;
            }
            first[t] = beta1 * first[t] + (1.0 - beta1) * gradient[t];
            second[t] = beta2 * second[t] + (1.0 - beta2) * gradient[t] * gradient[t];
            let corrected_first = first[t] / (1.0 - beta1.powi(epoch as i32));
            let corrected_second = second[t] / (1.0 - beta2.powi(epoch as i32));
            weights[t] -=
                config.learning_rate * corrected_first / (corrected_second.sqrt() + epsilon);
        }
        if epoch % 50 == 0 || epoch == config.epochs {
            progress(epoch, loss);
        }
    }
    let rounded = weights.map(|w| w.round() as i32);
    Fit {
        weights: rounded,
        scale,
        loss_before,
        loss_after: table.loss(&rounded.map(f64::from), scale),
        samples: table.len(),
    }
}

/// The Rust source of `crates/engine/src/eval_weights.rs` holding `weights`, with what made them.
pub fn weights_source(weights: &[i32; TERMS], provenance: &str) -> String {
    let mut text = String::new();
    text.push_str(
        "//! The evaluation's weights, in 64ths of a hundredth of a man, one per term of [`super::eval::terms`].\n//!\n",
    );
    for line in provenance.lines() {
        let _ = writeln!(text, "//! {line}");
    }
    // The length written out, not `eval::TERMS`: the evaluation checks it when it takes the weights as one a
    // term, and this file imports nothing from the evaluation that reads it.
    let _ = write!(
        text,
        "\n/// The weights the engine plays with.\n#[rustfmt::skip]\npub const WEIGHTS: [i32; {}] = [\n",
        weights.len()
    );
    for (t, w) in weights.iter().enumerate() {
        let _ = writeln!(text, "    {w}, // {}", term_name(t));
    }
    text.push_str("];\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::data::english;
    use crowned_engine::EVAL_WEIGHTS as WEIGHTS;

    #[test]
    fn a_tiny_fit_lowers_the_loss_and_keeps_men_fixed() {
        let samples = english(6, 2, 11, 2);
        let config = FitConfig {
            epochs: 100,
            learning_rate: 8.0,
        };
        let mut reports = 0;
        let fit = fit(&samples, &WEIGHTS, config, &mut |_, _| reports += 1);
        assert_eq!(reports, 2);
        assert_eq!(fit.samples, samples.len());
        assert!(fit.loss_after < fit.loss_before, "{fit:?}");
        assert_eq!(fit.weights[terms::MEN], WEIGHTS[terms::MEN]);
        assert!(fit.scale > 0.0);
    }

    #[test]
    fn the_table_scores_as_the_engine_does() {
        let samples = english(1, 2, 3, 1);
        let table = Table::new(&samples);
        let weights = WEIGHTS.map(f64::from);
        for (i, s) in samples.iter().enumerate() {
            let engine = crowned_engine::evaluate_for_black(&s.position);
            assert!(
                (table.score(i, &weights) - f64::from(engine)).abs() < 1.0,
                "{i}"
            );
        }
    }

    #[test]
    fn the_source_lists_every_weight_with_its_name() {
        let text = weights_source(&WEIGHTS, "made by hand");
        assert!(text.contains("//! made by hand"));
        assert_eq!(text.matches(" // ").count(), TERMS);
        assert!(text.contains("6400, // men"));
    }
}
