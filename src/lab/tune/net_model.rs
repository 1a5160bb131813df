//! The network in floating point, as it is trained: one forward and backward pass a sample, and the rounding to
//! the integers of [`crate::engine::nnue::Network`].

use crate::engine::Rng;
use crate::engine::nnue::{
    ACTIVATION_ONE, FIRST_LAYER_LIMIT, HIDDEN, INPUTS, LAYER2, LAYER2_SCALE, Network, OUTPUT_SCALE,
    SECOND_LAYER_LIMIT,
};

/// Where each layer's parameters start in the flat parameter vector.
pub(crate) mod offsets {
    use super::{HIDDEN, INPUTS, LAYER2};
    /// First layer: a column of HIDDEN weights per feature.
    pub const FIRST: usize = 0;
    pub const FIRST_BIAS: usize = FIRST + INPUTS * HIDDEN;
    /// Second layer: a row of 2 * HIDDEN weights per unit.
    pub const SECOND: usize = FIRST_BIAS + HIDDEN;
    pub const SECOND_BIAS: usize = SECOND + LAYER2 * 2 * HIDDEN;
    pub const OUTPUT: usize = SECOND_BIAS + LAYER2;
    pub const OUTPUT_BIAS: usize = OUTPUT + LAYER2;
    /// Parameters in all.
    pub const COUNT: usize = OUTPUT_BIAS + 1;
}

use offsets::*;

/// The network's parameters, flat, in the units of the model (activations 0..1, output in men).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub(crate) params: Vec<f32>,
}

pub use crate::engine::SLOPE;

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The active features of the side to move's view and of the other view.
pub(crate) struct Views<'a> {
    pub own: &'a [u16],
    pub other: &'a [u16],
}

impl FloatNet {
    /// Small random weights from `seed`, every unit starting in the unclipped part of its range.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |spread: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * spread
        };
        let mut params = vec![0.0; COUNT];
        params[FIRST..FIRST_BIAS]
            .iter_mut()
            .for_each(|w| *w = uniform(0.15));
        params[FIRST_BIAS..SECOND].fill(0.3);
        let fan_in = (2 * HIDDEN) as f32;
        params[SECOND..SECOND_BIAS]
            .iter_mut()
            .for_each(|w| *w = uniform(1.0 / fan_in.sqrt()));
        params[SECOND_BIAS..OUTPUT].fill(0.3);
        params[OUTPUT..OUTPUT_BIAS]
            .iter_mut()
            .for_each(|w| *w = uniform(0.5));
        FloatNet { params }
    }

    /// The score in men for the side to move.
    pub(crate) fn score(&self, views: &Views) -> f32 {
        let mut pass = Pass::default();
        self.forward(views, &mut pass)
    }

    fn forward(&self, views: &Views, pass: &mut Pass) -> f32 {
        let p = &self.params;
        for (half, features) in [views.own, views.other].into_iter().enumerate() {
            let sums = &mut pass.sums[half * HIDDEN..(half + 1) * HIDDEN];
            sums.copy_from_slice(&p[FIRST_BIAS..SECOND]);
            for &f in features {
                let column = &p[FIRST + f as usize * HIDDEN..][..HIDDEN];
                sums.iter_mut().zip(column).for_each(|(s, w)| *s += w);
            }
        }
        for (a, &s) in pass.input.iter_mut().zip(&pass.sums) {
            *a = s.clamp(0.0, 1.0);
        }
        let mut out = p[OUTPUT_BIAS];
        for j in 0..LAYER2 {
            let row = &p[SECOND + j * 2 * HIDDEN..][..2 * HIDDEN];
            let z = p[SECOND_BIAS + j] + dot(row, &pass.input);
            pass.second[j] = z;
            out += p[OUTPUT + j] * z.clamp(0.0, 1.0);
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
        let p = &self.params;
        let score = self.forward(views, pass);
        let predicted = sigmoid(SLOPE * score);
        let error = predicted - target;
        let d_score = 2.0 * error * predicted * (1.0 - predicted) * SLOPE;
        grad[OUTPUT_BIAS] += d_score;
        pass.d_input.fill(0.0);
        for j in 0..LAYER2 {
            let z = pass.second[j];
            grad[OUTPUT + j] += d_score * z.clamp(0.0, 1.0);
            if z <= 0.0 || z >= 1.0 {
                continue;
            }
            let d_z = d_score * p[OUTPUT + j];
            grad[SECOND_BIAS + j] += d_z;
            let row = &p[SECOND + j * 2 * HIDDEN..][..2 * HIDDEN];
            let row_grad = &mut grad[SECOND + j * 2 * HIDDEN..][..2 * HIDDEN];
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
            grad[FIRST_BIAS..SECOND]
                .iter_mut()
                .zip(d_sums)
                .for_each(|(g, d)| *g += d);
            for &f in features {
                let column = &mut grad[FIRST + f as usize * HIDDEN..][..HIDDEN];
                column.iter_mut().zip(d_sums).for_each(|(g, d)| *g += d);
            }
        }
        error * error
    }

    /// Keeps the first two layers' weights inside the ranges their integers can hold.
    pub(crate) fn clip(&mut self) {
        self.params[FIRST..SECOND]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-FIRST_LAYER_LIMIT, FIRST_LAYER_LIMIT));
        self.params[SECOND..SECOND_BIAS]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-SECOND_LAYER_LIMIT, SECOND_LAYER_LIMIT));
    }

    /// The floating-point network whose rounding is `net` ([`FloatNet::quantise`] gives `net` back): the
    /// starting point for training a network further on new positions rather than from random weights.
    pub fn from_network(net: &Network) -> FloatNet {
        let one = ACTIVATION_ONE as f32;
        let second = LAYER2_SCALE as f32;
        let output = OUTPUT_SCALE as f32;
        let mut params = vec![0.0; COUNT];
        for (f, column) in net.first.iter().enumerate() {
            for (h, &w) in column.iter().enumerate() {
                params[FIRST + f * HIDDEN + h] = f32::from(w) / one;
            }
        }
        for (h, &b) in net.first_bias.iter().enumerate() {
            params[FIRST_BIAS + h] = f32::from(b) / one;
        }
        for (j, row) in net.second.iter().enumerate() {
            for (i, &w) in row.iter().enumerate() {
                params[SECOND + j * 2 * HIDDEN + i] = f32::from(w) / second;
            }
            params[SECOND_BIAS + j] = net.second_bias[j] as f32 / (one * second);
            params[OUTPUT + j] = net.output[j] as f32 / output;
        }
        params[OUTPUT_BIAS] = net.output_bias as f32 / (one * output);
        FloatNet { params }
    }

    /// The network in the integers inference uses.
    pub fn quantise(&self) -> Network {
        let p = &self.params;
        let one = ACTIVATION_ONE as f32;
        let to_i16 = |x: f32| x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        let to_i8 = |x: f32| x.round().clamp(f32::from(i8::MIN), f32::from(i8::MAX)) as i8;
        let to_i32 = |x: f32| x.round() as i32;
        let mut net = Network::zeroed();
        for (f, column) in net.first.iter_mut().enumerate() {
            for (h, w) in column.iter_mut().enumerate() {
                *w = to_i16(p[FIRST + f * HIDDEN + h] * one);
            }
        }
        for (h, b) in net.first_bias.iter_mut().enumerate() {
            *b = to_i16(p[FIRST_BIAS + h] * one);
        }
        let second = LAYER2_SCALE as f32;
        for (j, row) in net.second.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = to_i8(p[SECOND + j * 2 * HIDDEN + i] * second);
            }
            net.second_bias[j] = to_i32(p[SECOND_BIAS + j] * one * second);
            net.output[j] = to_i32(p[OUTPUT + j] * OUTPUT_SCALE as f32);
        }
        net.output_bias = to_i32(p[OUTPUT_BIAS] * one * OUTPUT_SCALE as f32);
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
