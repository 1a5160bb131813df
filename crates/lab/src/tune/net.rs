//! Training the network evaluation ([`crowned_engine::nnue`]) on positions labelled with game results.
//!
//! The loss is Texel's (the squared error of `sigmoid(SLOPE * score)` against the target), the optimiser Adam
//! on minibatches, the target the game's result for the side to move, optionally blended (`lambda`) with the
//! self-play search's expectation where the samples keep it, and the tuned hand-written evaluation's
//! prediction where they do not: either steadies the labels of positions whose game was decided much later. A slice of the samples (whole runs of consecutive positions, so mostly whole games) is
//! held out, and the network is judged there against the results alone, beside the hand-written evaluation.
//!
//! Hand-written rather than a machine-learning crate: a network this small with sparse inputs trains at about
//! a microsecond a sample on one core with plain loops; the crates that would do it (burn, candle, dfdx) bring
//! hundreds of dependencies and minutes of build time for what is a page of arithmetic here.

use super::data::Sample;
use thiserror::Error;

use super::net_model::{FloatNet, Pass, SLOPE, Views, sigmoid};
use crowned_engine::nnue::{Accumulator, MAX_SQUARES, Network, NetworkFamily, Pieces};
use crowned_engine::{EngineRules, Rng};
use crowned_rules::Color;

/// A training run that cannot be made.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetTrainError {
    /// The rules have no network to train.
    #[error(
        "{0} has no network evaluation; networks are made for English, international and Russian draughts"
    )]
    NoNetwork(&'static str),
    /// The network to train further is for another family of rules.
    #[error("the network to train further is for {found}; these positions are of {expected}")]
    StartFamily {
        /// The samples' family.
        expected: NetworkFamily,
        /// The starting network's.
        found: NetworkFamily,
    },
}

/// How a training run goes.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples a step of Adam.
    pub batch: usize,
    /// Adam's step size at the start; it falls to a tenth over the last two fifths of the run.
    pub learning_rate: f32,
    /// Weight of the search's expectation (or, for a sample without one, the hand-written evaluation's
    /// prediction) in the target (0: the results alone).
    pub lambda: f32,
    /// Seed of the starting weights and of the order of samples.
    pub seed: u64,
    /// Threads computing gradients (the result does not depend on it).
    pub threads: usize,
    /// One run of [`VALIDATION_RUN`] consecutive samples in this many is held out.
    pub validation_every: usize,
    /// The network to train further (a generation's network, refined on the next generation's positions);
    /// random weights from `seed` when `None`.
    pub start: Option<Network>,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            epochs: 30,
            batch: 16_384,
            learning_rate: 0.002,
            lambda: 0.0,
            seed: 1,
            threads: 1,
            validation_every: 20,
            start: None,
        }
    }
}

/// Consecutive samples held out together (about ten games' positions).
pub const VALIDATION_RUN: usize = 1000;

/// A batch's gradient is summed in this many fixed parts, whatever the number of threads, so that the sums
/// (and the network) are the same for any number of threads.
const PARTS: usize = 8;

/// A position as training uses it.
#[derive(Clone, Copy)]
struct Item {
    pieces: Pieces,
    squares: usize,
    to_move: Color,
    /// The game's result for the side to move.
    result: f32,
    /// The target: the result, blended with the hand-written evaluation's prediction.
    target: f32,
    /// The hand-written evaluation's prediction for the side to move.
    classic: f32,
}

impl Item {
    fn new<R: EngineRules>(sample: &Sample<R>, family: NetworkFamily, lambda: f32) -> Item {
        let to_move = sample.position.side_to_move();
        let result = match to_move {
            Color::Black => sample.result,
            Color::White => 1.0 - sample.result,
        };
        let classic = sigmoid(SLOPE * R::evaluate(&sample.position) as f32 / 100.0);
        let prediction = match (sample.search, to_move) {
            (Some(search), Color::Black) => search,
            (Some(search), Color::White) => 1.0 - search,
            (None, _) => classic,
        };
        Item {
            pieces: Pieces::of(&sample.position),
            squares: family.squares(),
            to_move,
            result,
            target: (1.0 - lambda) * result + lambda * prediction,
            classic,
        }
    }

    /// The features of both views (the side to move's first), written into `buffers`.
    fn views<'b>(&self, buffers: &'b mut Buffers) -> Views<'b> {
        let mut lens = [0; 2];
        for (n, view) in [self.to_move, self.to_move.opponent()]
            .into_iter()
            .enumerate()
        {
            for f in self.pieces.features(view, self.squares) {
                buffers[n][lens[n]] = f as u16;
                lens[n] += 1;
            }
        }
        let [own, other] = buffers;
        Views {
            own: &own[..lens[0]],
            other: &other[..lens[1]],
        }
    }
}

/// Room for the features of both views of a position.
type Buffers = [[u16; MAX_SQUARES]; 2];

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// Epochs done, from 1.
    pub epoch: usize,
    /// Mean squared error against the targets over the training samples, during the epoch.
    pub training: f64,
    /// Mean squared error against the results over the held-out samples, after the epoch.
    pub validation: f64,
}

/// What a training run made and how well it predicts the held-out results.
#[derive(Clone, Debug)]
pub struct NetTraining {
    /// The network, in integers.
    pub network: Network,
    /// Samples trained on and held out.
    pub training_samples: usize,
    /// Samples held out.
    pub validation_samples: usize,
    /// Mean squared error against the held-out results: the network as trained (floating point).
    pub validation_float: f64,
    /// The same, of the integer network the engine plays with.
    pub validation_integer: f64,
    /// The same, of the hand-written evaluation compiled in: the baseline.
    pub validation_classic: f64,
    /// The same, of the network training started from ([`NetConfig::start`]), if any.
    pub validation_start: Option<f64>,
}

/// Trains a network on `samples` (positions with their games' results, under rules that have a network),
/// calling `progress` after each epoch.
pub fn train<R: EngineRules>(
    samples: &[Sample<R>],
    config: NetConfig,
    progress: &mut dyn FnMut(EpochReport),
) -> Result<NetTraining, NetTrainError> {
    let family = R::NETWORK.ok_or(NetTrainError::NoNetwork(R::NAME))?;
    if let Some(start) = &config.start
        && start.family() != family
    {
        return Err(NetTrainError::StartFamily {
            expected: family,
            found: start.family(),
        });
    }
    let config = NetConfig {
        batch: config.batch.max(1),
        threads: config.threads.clamp(1, 64),
        validation_every: config.validation_every.max(2),
        ..config
    };
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        let item = Item::new(s, family, config.lambda);
        if (i / VALIDATION_RUN) % config.validation_every == config.validation_every - 1 {
            validation.push(item);
        } else {
            training.push(item);
        }
    }
    // Too few samples for a held-out run: judge on the training samples rather than on nothing.
    if validation.is_empty() {
        validation.clone_from(&training);
    }
    let mut net = match &config.start {
        Some(start) => FloatNet::from_network(start),
        None => FloatNet::random(family, config.seed),
    };
    let mut adam = Adam::new(net.layout().count);
    let mut rng = Rng::new(config.seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut order: Vec<u32> = (0..training.len() as u32).collect();
    for epoch in 0..config.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let rate = learning_rate(&config, epoch);
        let mut total = 0.0;
        for batch in order.chunks(config.batch) {
            let (grad, loss) = batch_gradient(&net, &training, batch, config.threads);
            total += loss;
            adam.step(&mut net.params, &grad, batch.len(), rate);
            net.clip();
        }
        progress(EpochReport {
            epoch: epoch + 1,
            training: total / training.len().max(1) as f64,
            validation: mean_error(&validation, |item| {
                let mut buffers = [[0; MAX_SQUARES]; 2];
                sigmoid(SLOPE * net.score(&item.views(&mut buffers)))
            }),
        });
    }
    let network = net.quantise();
    let integer_error = |network: &Network| {
        mean_error(&validation, |item| {
            let acc = Accumulator::new(network, &item.pieces);
            sigmoid(SLOPE * network.evaluate(&acc, item.to_move) as f32 / 100.0)
        })
    };
    Ok(NetTraining {
        training_samples: training.len(),
        validation_samples: validation.len(),
        validation_float: mean_error(&validation, |item| {
            let mut buffers = [[0; MAX_SQUARES]; 2];
            sigmoid(SLOPE * net.score(&item.views(&mut buffers)))
        }),
        validation_integer: integer_error(&network),
        validation_start: config.start.as_ref().map(integer_error),
        validation_classic: mean_error(&validation, |item| item.classic),
        network,
    })
}

/// The step size of `epoch`: the full rate for three fifths of the run, then falling linearly to a tenth.
fn learning_rate(config: &NetConfig, epoch: usize) -> f32 {
    let fraction = epoch as f32 / config.epochs.max(1) as f32;
    let fall = ((fraction - 0.6) / 0.4).clamp(0.0, 1.0);
    config.learning_rate * (1.0 - 0.9 * fall)
}

/// The mean squared error of `predict` against the results.
fn mean_error(items: &[Item], predict: impl Fn(&Item) -> f32) -> f64 {
    let total: f64 = items
        .iter()
        .map(|item| f64::from(predict(item) - item.result).powi(2))
        .sum();
    total / items.len().max(1) as f64
}

/// The summed gradient and error of the samples `batch` (indices into `items`), in [`PARTS`] fixed parts
/// shared among `threads` and added up in order.
fn batch_gradient(
    net: &FloatNet,
    items: &[Item],
    batch: &[u32],
    threads: usize,
) -> (Vec<f32>, f64) {
    let part_len = batch.len().div_ceil(PARTS).max(1);
    let parts: Vec<&[u32]> = batch.chunks(part_len).collect();
    let mut done: Vec<(usize, Vec<f32>, f64)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(parts.len()))
            .map(|t| {
                let parts = &parts;
                scope.spawn(move || {
                    let mut pass = Pass::default();
                    let mut out = Vec::new();
                    for i in (t..parts.len()).step_by(threads) {
                        let mut grad = vec![0.0f32; net.layout().count];
                        let mut loss = 0.0f64;
                        for &index in parts[i] {
                            let item = &items[index as usize];
                            let mut buffers = [[0; MAX_SQUARES]; 2];
                            let views = item.views(&mut buffers);
                            loss +=
                                f64::from(net.backward(&views, item.target, &mut pass, &mut grad));
                        }
                        out.push((i, grad, loss));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    done.sort_by_key(|&(i, _, _)| i);
    let mut grad = vec![0.0f32; net.layout().count];
    let mut loss = 0.0;
    for (_, part, part_loss) in &done {
        grad.iter_mut().zip(part).for_each(|(g, p)| *g += p);
        loss += part_loss;
    }
    (grad, loss)
}

/// Adam's moment estimates.
struct Adam {
    mean: Vec<f32>,
    square: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(count: usize) -> Adam {
        Adam {
            mean: vec![0.0; count],
            square: vec![0.0; count],
            steps: 0,
        }
    }

    /// One step of size `rate` on `params`, along the gradient `grad` summed over `samples` samples (taken
    /// as a mean, so that epsilon means the same for any batch size).
    fn step(&mut self, params: &mut [f32], grad: &[f32], samples: usize, rate: f32) {
        self.steps += 1;
        let mean = 1.0 / samples.max(1) as f32;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps);
        for ((p, &g), (m, v)) in params
            .iter_mut()
            .zip(grad)
            .zip(self.mean.iter_mut().zip(self.square.iter_mut()))
        {
            let g = g * mean;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            let m_hat = *m / correction1;
            let v_hat = *v / correction2;
            *p -= rate * m_hat / (v_hat.sqrt() + Self::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::data::english;

    fn samples() -> Vec<Sample> {
        english(24, 2, 5, 2)
    }

    /// The training error fell from the first epoch to the last, and the integer network predicts as the
    /// floating-point one does, to well within the error itself.
    fn assert_learned(reports: &[EpochReport], trained: &NetTraining) {
        let (first, last) = (reports[0], reports[reports.len() - 1]);
        assert!(
            last.training < first.training,
            "training error {} then {}",
            first.training,
            last.training
        );
        assert!(
            (trained.validation_integer - trained.validation_float).abs() < 0.01,
            "{} against {}",
            trained.validation_integer,
            trained.validation_float
        );
    }

    #[test]
    fn lambda_blends_the_search_view_for_the_side_to_move_or_else_the_classic_one() {
        let black: crowned_rules::Position =
            crowned_rules::parse_fen("B:W21-32:B1-12").expect("the start");
        let white: crowned_rules::Position =
            crowned_rules::parse_fen("W:W21-32:B1-11,15").expect("after 11-15");
        let with = |position, search| Sample {
            position,
            result: 1.0,
            search,
        };
        let item = Item::new(&with(black, Some(0.8)), NetworkFamily::English, 0.5);
        assert!((item.target - 0.9).abs() < 1e-6, "{}", item.target);
        // White to move: both the result and the search's view are turned to White's side.
        let item = Item::new(&with(white, Some(0.8)), NetworkFamily::English, 0.5);
        assert!((item.target - 0.1).abs() < 1e-6, "{}", item.target);
        let item = Item::new(&with(white, None), NetworkFamily::English, 1.0);
        assert_eq!(item.target, item.classic);
        assert_eq!(
            Item::new(&with(black, Some(0.8)), NetworkFamily::English, 0.0).target,
            1.0
        );
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let items: Vec<Item> = samples()
            .iter()
            .take(40)
            .map(|s| Item::new(s, NetworkFamily::English, 0.3))
            .collect();
        let net = FloatNet::random(NetworkFamily::English, 9);
        let mut pass = Pass::default();
        let error_of = |net: &FloatNet| -> f64 {
            items
                .iter()
                .map(|item| {
                    let mut buffers = [[0; MAX_SQUARES]; 2];
                    let views = item.views(&mut buffers);
                    let p = sigmoid(SLOPE * net.score(&views));
                    f64::from((p - item.target).powi(2))
                })
                .sum()
        };
        let o = net.layout();
        let mut grad = vec![0.0; o.count];
        for item in &items {
            let mut buffers = [[0; MAX_SQUARES]; 2];
            net.backward(&item.views(&mut buffers), item.target, &mut pass, &mut grad);
        }
        // One parameter of each layer, nudged both ways.
        let checked = [
            o.first + 3,
            o.first + 70 * crowned_engine::nnue::HIDDEN + 5,
            o.first_bias + 1,
            o.second + 7,
            o.second_bias + 2,
            o.output + 4,
            o.output_bias,
        ];
        for &i in &checked {
            let h = 1e-2f32;
            let mut up = net.clone();
            up.params[i] += h;
            let mut down = net.clone();
            down.params[i] -= h;
            let numeric = (error_of(&up) - error_of(&down)) / (2.0 * f64::from(h));
            let analytic = f64::from(grad[i]);
            assert!(
                (numeric - analytic).abs() <= 1e-3 + 0.05 * numeric.abs().max(analytic.abs()),
                "parameter {i}: numeric {numeric}, analytic {analytic}"
            );
        }
    }

    #[test]
    fn a_network_trained_further_starts_from_its_own_weights() {
        let builtin =
            crowned_engine::nnue::builtin(NetworkFamily::English).expect("the compiled-in network");
        assert_eq!(&FloatNet::from_network(builtin).quantise(), builtin);
        let config = NetConfig {
            epochs: 2,
            batch: 256,
            learning_rate: 0.0005,
            start: Some(builtin.clone()),
            ..NetConfig::default()
        };
        // Too few samples to hold any out: the error is measured on the samples trained on.
        let further = train(&samples(), config, &mut |_| {}).expect("English has a network");
        assert_ne!(&further.network, builtin, "two epochs move the weights");
        let start = further
            .validation_start
            .expect("the starting network's error");
        assert!(
            further.validation_integer < start,
            "{} after training further, {start} before",
            further.validation_integer
        );
    }

    #[test]
    fn training_learns_and_the_same_seed_makes_the_same_network_on_any_threads() {
        let samples = samples();
        let config = NetConfig {
            epochs: 6,
            batch: 256,
            learning_rate: 0.01,
            validation_every: 5,
            ..NetConfig::default()
        };
        let mut reports = Vec::new();
        let one = train(
            &samples,
            NetConfig {
                threads: 1,
                ..config.clone()
            },
            &mut |r| reports.push(r),
        )
        .expect("English has a network");
        let two = train(
            &samples,
            NetConfig {
                threads: 2,
                ..config.clone()
            },
            &mut |_| {},
        )
        .expect("English has a network");
        assert_eq!(one.network, two.network);
        assert_eq!(reports.len(), 6);
        assert_learned(&reports, &one);
        assert!(one.validation_classic > 0.0 && one.validation_samples > 0);
        let other_seed = train(&samples, NetConfig { seed: 2, ..config }, &mut |_| {})
            .expect("English has a network");
        assert_ne!(one.network, other_seed.network);
    }

    /// A network for `family` trained on a few games of self-play under `R` learns, and knows its family.
    fn learns_from_own_games<R: EngineRules>(
        variant: crowned_rules::Variant,
        family: NetworkFamily,
    ) -> (Vec<Sample<R>>, NetConfig) {
        let samples = crate::tune::self_play::<R>(
            crowned_rules::GameType::standard(variant),
            6,
            2,
            4,
            2,
            None,
            &|_| {},
        );
        let config = NetConfig {
            epochs: 6,
            batch: 256,
            learning_rate: 0.01,
            validation_every: 5,
            ..NetConfig::default()
        };
        let mut reports = Vec::new();
        let trained = train(&samples, config.clone(), &mut |r| reports.push(r))
            .expect("the rules have a network");
        assert_eq!(trained.network.family(), family);
        assert_learned(&reports, &trained);
        (samples, config)
    }

    #[test]
    fn networks_for_international_and_russian_draughts_learn_from_their_games() {
        use crowned_rules::{International, Italian, Russian, Variant};
        let (samples, config) = learns_from_own_games::<International>(
            Variant::International,
            NetworkFamily::International,
        );
        learns_from_own_games::<Russian>(Variant::Russian, NetworkFamily::Russian);
        // Training further starts from a network of the same family only: English's board is Russian's, but
        // not its rules.
        let english =
            crowned_engine::nnue::builtin(NetworkFamily::English).expect("the English network");
        let further = NetConfig {
            start: Some(english.clone()),
            ..config.clone()
        };
        assert_eq!(
            train(&samples, further, &mut |_| {}).map(|t| t.network),
            Err(NetTrainError::StartFamily {
                expected: NetworkFamily::International,
                found: NetworkFamily::English
            })
        );
        // Rules without a network are refused rather than trained on another family's inputs.
        let italian: Vec<Sample<Italian>> = Vec::new();
        assert!(matches!(
            train(&italian, config, &mut |_| {}),
            Err(NetTrainError::NoNetwork(_))
        ));
    }
}
