//! The network in floating point, as it is trained: one forward and backward pass a sample, and the rounding to
//! the integers of [`crowned_engine::nnue::Network`].

use crowned_engine::Rng;
use crowned_engine::nnue::{
    ACTIVATION_ONE, HIDDEN, LAYER2, LAYER2_SCALE, Network, NetworkFamily, OUTPUT_SCALE,
    SECOND_LAYER_LIMIT,
};

/// Where each layer's parameters start in the flat parameter vector of a network for one family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// First layer: a column of HIDDEN weights per feature.
    pub first: usize,
    pub first_bias: usize,
    /// Second layer: a row of 2 * HIDDEN weights per unit.
    pub second: usize,
    pub second_bias: usize,
    pub output: usize,
    pub output_bias: usize,
    /// Parameters in all.
    pub count: usize,
}

impl Layout {
    /// The layout of a network for `family`.
    pub const fn of(family: NetworkFamily) -> Layout {
        let first = 0;
        let first_bias = first + family.inputs() * HIDDEN;
        let second = first_bias + HIDDEN;
        let second_bias = second + LAYER2 * 2 * HIDDEN;
        let output = second_bias + LAYER2;
        let output_bias = output + LAYER2;
        Layout {
            first,
            first_bias,
            second,
            second_bias,
            output,
            output_bias,
            count: output_bias + 1,
        }
    }
}

/// The network's parameters, flat, in the units of the model (activations 0..1, output in men).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub(crate) family: NetworkFamily,
    pub(crate) params: Vec<f32>,
}

pub use crowned_engine::SLOPE;

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The active features of the side to move's view and of the other view.
pub(crate) struct Views<'a> {
    pub own: &'a [u16],
    pub other: &'a [u16],
}

impl FloatNet {
    /// Small random weights from `seed` for a network for `family`, every unit starting in the unclipped part of
    /// its range.
    pub fn random(family: NetworkFamily, seed: u64) -> FloatNet {
        let o = Layout::of(family);
        let mut rng = Rng::new(seed);
        let mut uniform = |spread: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * spread
        };
        let mut params = vec![0.0; o.count];
        params[o.first..o.first_bias]
            .iter_mut()
            .for_each(|w| *w = uniform(0.15));
        params[o.first_bias..o.second].fill(0.3);
        let fan_in = (2 * HIDDEN) as f32;
        params[o.second..o.second_bias]
            .iter_mut()
            .for_each(|w| *w = uniform(1.0 / fan_in.sqrt()));
        params[o.second_bias..o.output].fill(0.3);
        params[o.output..o.output_bias]
            .iter_mut()
            .for_each(|w| *w = uniform(0.5));
        FloatNet { family, params }
    }

    /// Where each layer's parameters are.
    pub(crate) fn layout(&self) -> Layout {
        Layout::of(self.family)
    }

    /// The score in men for the side to move.
    pub(crate) fn score(&self, views: &Views) -> f32 {
        let mut pass = Pass::default();
        self.forward(views, &mut pass)
    }

    fn forward(&self, views: &Views, pass: &mut Pass) -> f32 {
        let o = self.layout();
        let p = &self.params;
        for (half, features) in [views.own, views.other].into_iter().enumerate() {
            let sums = &mut pass.sums[half * HIDDEN..(half + 1) * HIDDEN];
            sums.copy_from_slice(&p[o.first_bias..o.second]);
            for &f in features {
                let column = &p[o.first + f as usize * HIDDEN..][..HIDDEN];
                sums.iter_mut().zip(column).for_each(|(s, w)| *s += w);
            }
        }
        for (a, &s) in pass.input.iter_mut().zip(&pass.sums) {
            *a = s.clamp(0.0, 1.0);
        }
        let mut out = p[o.output_bias];
        for j in 0..LAYER2 {
            let row = &p[o.second + j * 2 * HIDDEN..][..2 * HIDDEN];
            let z = p[o.second_bias + j] + dot(row, &pass.input);
            pass.second[j] = z;
            out += p[o.output + j] * z.clamp(0.0, 1.0);
        }
        out
    }

    /// Adds the gradient of the squared error of `sigmoid(SLOPE * score)` against `target` to `grad`; returns
    /// the error.
    pub(crate) fn backward(
        &self,
        views: &Views,
        target: f32,
        pass: &mut Pass,
        grad: &mut [f32],
    ) -> f32 {
        let o = self.layout();
        let p = &self.params;
        let score = self.forward(views, pass);
        let predicted = sigmoid(SLOPE * score);
        let error = predicted - target;
        let d_score = 2.0 * error * predicted * (1.0 - predicted) * SLOPE;
        grad[o.output_bias] += d_score;
        pass.d_input.fill(0.0);
        for j in 0..LAYER2 {
            let z = pass.second[j];
            grad[o.output + j] += d_score * z.clamp(0.0, 1.0);
            if z <= 0.0 || z >= 1.0 {
                continue;
            }
            let d_z = d_score * p[o.output + j];
            grad[o.second_bias + j] += d_z;
            let row = &p[o.second + j * 2 * HIDDEN..][..2 * HIDDEN];
            let row_grad = &mut grad[o.second + j * 2 * HIDDEN..][..2 * HIDDEN];
            for ((g, &a), (d, &w)) in row_grad
                .iter_mut()
                .zip(&pass.input)
                .zip(pass.d_input.iter_mut().zip(row))
            {
                *g += d_z * a;
                *d += d_z * w;
            }
        }
        // Through the clipping of the first layer: no gradient where a sum is clipped.
        for (d, &s) in pass.d_input.iter_mut().zip(&pass.sums) {
            if s <= 0.0 || s >= 1.0 {
                *d = 0.0;
            }
        }
        for (half, features) in [views.own, views.other].into_iter().enumerate() {
            let d_sums = &pass.d_input[half * HIDDEN..(half + 1) * HIDDEN];
            grad[o.first_bias..o.second]
                .iter_mut()
                .zip(d_sums)
                .for_each(|(g, d)| *g += d);
            for &f in features {
                let column = &mut grad[o.first + f as usize * HIDDEN..][..HIDDEN];
                column.iter_mut().zip(d_sums).for_each(|(g, d)| *g += d);
            }
        }
        error * error
    }

    /// Keeps the first two layers' weights inside the ranges their integers can hold.
    pub(crate) fn clip(&mut self) {
        let o = self.layout();
        let limit = self.family.first_layer_limit();
        self.params[o.first..o.second]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-limit, limit));
        self.params[o.second..o.second_bias]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-SECOND_LAYER_LIMIT, SECOND_LAYER_LIMIT));
    }

    /// The floating-point network whose rounding is `net` ([`FloatNet::quantise`] gives `net` back): the
    /// starting point for training a network further on new positions rather than from random weights.
    pub fn from_network(net: &Network) -> FloatNet {
        let family = net.family();
        let o = Layout::of(family);
        let one = ACTIVATION_ONE as f32;
        let second = LAYER2_SCALE as f32;
        let output = OUTPUT_SCALE as f32;
        let mut params = vec![0.0; o.count];
        for (f, column) in net.first.iter().enumerate() {
            for (h, &w) in column.iter().enumerate() {
                params[o.first + f * HIDDEN + h] = f32::from(w) / one;
            }
        }
        for (h, &b) in net.first_bias.iter().enumerate() {
            params[o.first_bias + h] = f32::from(b) / one;
        }
        for (j, row) in net.second.iter().enumerate() {
            for (i, &w) in row.iter().enumerate() {
                params[o.second + j * 2 * HIDDEN + i] = f32::from(w) / second;
            }
            params[o.second_bias + j] = net.second_bias[j] as f32 / (one * second);
            params[o.output + j] = net.output[j] as f32 / output;
        }
        params[o.output_bias] = net.output_bias as f32 / (one * output);
        FloatNet { family, params }
    }

    /// The network in the integers inference uses.
    pub fn quantise(&self) -> Network {
        let o = self.layout();
        let p = &self.params;
        let one = ACTIVATION_ONE as f32;
        let to_i16 = |x: f32| x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        let to_i8 = |x: f32| x.round().clamp(f32::from(i8::MIN), f32::from(i8::MAX)) as i8;
        let to_i32 = |x: f32| x.round() as i32;
        let mut net = Network::zeroed(self.family);
        for (f, column) in net.first.iter_mut().enumerate() {
            for (h, w) in column.iter_mut().enumerate() {
                *w = to_i16(p[o.first + f * HIDDEN + h] * one);
            }
        }
        for (h, b) in net.first_bias.iter_mut().enumerate() {
            *b = to_i16(p[o.first_bias + h] * one);
        }
        let second = LAYER2_SCALE as f32;
        for (j, row) in net.second.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = to_i8(p[o.second + j * 2 * HIDDEN + i] * second);
            }
            net.second_bias[j] = to_i32(p[o.second_bias + j] * one * second);
            net.output[j] = to_i32(p[o.output + j] * OUTPUT_SCALE as f32);
        }
        net.output_bias = to_i32(p[o.output_bias] * one * OUTPUT_SCALE as f32);
        net
    }
}

/// The intermediate values of one sample's passes, kept for the backward pass.
pub(crate) struct Pass {
    sums: [f32; 2 * HIDDEN],
    input: [f32; 2 * HIDDEN],
    second: [f32; LAYER2],
    d_input: [f32; 2 * HIDDEN],
}

impl Default for Pass {
    fn default() -> Pass {
        Pass {
            sums: [0.0; 2 * HIDDEN],
            input: [0.0; 2 * HIDDEN],
            second: [0.0; LAYER2],
            d_input: [0.0; 2 * HIDDEN],
        }
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight partial sums, so that the compiler can keep them in vector lanes.
    let mut lanes = [0.0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum()
}
