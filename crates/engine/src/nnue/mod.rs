//! A small neural-network evaluation of draughts positions, updated incrementally (the NNUE design): one for
//! each family of rules that has one ([`NetworkFamily`]): English draughts, international draughts' 10x10 board,
//! and Russian draughts' 8x8 board with flying kings.
//!
//! The input is the board seen from each side in turn: for the side whose view it is, its own men, its own
//! kings, the other side's men and kings, each on the board's 32 or 50 squares ([`NetworkFamily::inputs`] features, a
//! few dozen set at most).
//! White's view is the board turned half round, so one set of first-layer weights serves both sides. The first
//! layer's sums (the *accumulator*, [`HIDDEN`] numbers a view) change by a column of weights for each piece that
//! appears or disappears, so a move costs a few vector additions instead of a full layer. The side to move's
//! view and the other's, clipped to 0..1, feed a small dense layer ([`LAYER2`] units, clipped again) and one
//! output: the score in hundredths of a man for the side to move.
//!
//! Inference is integers only (16-bit accumulators and first-layer weights; 8-bit activations and second-layer
//! weights, multiplied and added 32 pairs an instruction with AVX2; 32-bit dot products). The whole path from a
//! position to its score is compiled twice, for AVX2 and for any CPU, and chosen once when a search starts. The
//! floating-point model it comes from is trained by `crowned tune net` (`lab::tune::net`), which writes the file
//! compiled in here.

mod accumulator;
mod cache;
mod network;

pub use accumulator::{Accumulator, Pieces, feature};
pub use cache::NetCache;
pub use network::{Network, NetworkError, builtin, play_with, playing};

/// The rules a network is made for: each family has its own first layer (a column a piece kind and square) and
/// its own weights; the layers after the first have the same shape in every family. Rules of one board whose
/// pieces move alike share a family (and so a network) where an SPRT match says the network serves them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetworkFamily {
    /// English draughts: 32 squares, kings that move one square.
    English,
    /// International draughts and the other 10x10 rule sets whose goal is the same (Frisian, Frysk! and
    /// breakthrough, where its SPRT against the hand-written evaluation passed): 50 squares, flying kings.
    International,
    /// Russian draughts and three other 8x8 rule sets with flying kings (Brazilian, pool and Czech draughts,
    /// where its SPRT against the hand-written evaluation passed; Spanish draughts' failed and Thai's was left
    /// undecided): 32 squares.
    Russian,
}

impl NetworkFamily {
    /// Families there are.
    pub const COUNT: usize = 3;
    /// Every family, in the order of [`NetworkFamily::index`] (which is also its code in a network file).
    pub const ALL: [NetworkFamily; NetworkFamily::COUNT] = [
        NetworkFamily::English,
        NetworkFamily::International,
        NetworkFamily::Russian,
    ];

    /// Its place in [`NetworkFamily::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Playable squares of its board.
    pub const fn squares(self) -> usize {
        match self {
            NetworkFamily::English | NetworkFamily::Russian => 32,
            NetworkFamily::International => 50,
        }
    }

    /// Features of one view: four kinds of piece on every square.
    pub const fn inputs(self) -> usize {
        4 * self.squares()
    }

    /// The largest first-layer weight or bias, in men-of-activation: keeps every accumulator (a bias and a
    /// column for each piece, at most 24 on 8x8 and 40 on 10x10 in a game) inside 16 bits after quantisation:
    /// 25 x 8 x 127 and 41 x 6 x 127 are both below 32,767.
    pub const fn first_layer_limit(self) -> f32 {
        match self {
            NetworkFamily::English | NetworkFamily::Russian => 8.0,
            NetworkFamily::International => 6.0,
        }
    }
}

impl std::fmt::Display for NetworkFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NetworkFamily::English => "English draughts (8x8)",
            NetworkFamily::International => "international draughts (10x10)",
            NetworkFamily::Russian => "Russian draughts (8x8, flying kings)",
        })
    }
}

/// The most squares a board of a network may have: its piece sets are 64-bit.
pub const MAX_SQUARES: usize = 64;

/// The instructions inference uses: the widest this machine has, found once by [`Cpu::detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cpu {
    /// Code for any CPU of the target (SSE2 on x86-64).
    Portable,
    /// AVX2 (x86-64 from 2013 on): 32 bytes an instruction.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 with its 8-bit dot products (VNNI; x86-64 servers from 2019, desktops from 2022): the second
    /// layer 64 pairs an instruction, the rest as [`Cpu::Avx2`].
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Cpu {
    /// The widest instructions this machine has.
    pub fn detect() -> Cpu {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") && has!("avx512vnni") {
                return Cpu::Avx512;
            }
            if has!("avx2") {
                return Cpu::Avx2;
            }
        }
        Cpu::Portable
    }

    /// Every kind of code this machine can run, the portable one first: for tests that compare them.
    pub fn available() -> Vec<Cpu> {
        let best = Cpu::detect();
        let mut cpus = vec![Cpu::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if best != Cpu::Portable {
                cpus.push(Cpu::Avx2);
            }
            if best == Cpu::Avx512 {
                cpus.push(Cpu::Avx512);
            }
        }
        cpus
    }

    /// The name `crowned bench` reports.
    pub fn name(self) -> &'static str {
        match self {
            Cpu::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx2 => "AVX2",
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx512 => "AVX-512 VNNI",
        }
    }
}

/// Which evaluation the full-strength search uses where a network exists for the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The network compiled in.
    #[default]
    Network,
    /// The hand-written evaluation with its tuned weights.
    Classic,
}

impl Evaluation {
    /// The name used by settings and the Hub protocol.
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Network => "network",
            Evaluation::Classic => "classic",
        }
    }

    /// The evaluation called `name`.
    pub fn from_name(name: &str) -> Option<Evaluation> {
        [Evaluation::Network, Evaluation::Classic]
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
    }
}

/// First-layer units of each view.
pub const HIDDEN: usize = 128;
/// Units of the second layer, which sees both views.
pub const LAYER2: usize = 16;

/// The first layer's activations, clipped to 0..1 in training, are whole numbers 0..=127 here.
pub const ACTIVATION_ONE: i32 = 127;
/// Second-layer weights are stored times this (a power of two: its division is a shift), in 8 bits: a trained
/// weight must stay inside +-127/128, which training keeps ([`SECOND_LAYER_LIMIT`]).
pub const LAYER2_SCALE: i32 = 128;
/// The largest second-layer weight, so that times [`LAYER2_SCALE`] it fits in 8 bits.
pub const SECOND_LAYER_LIMIT: f32 = 127.0 / LAYER2_SCALE as f32;
/// The output layer's weights are stored times this.
pub const OUTPUT_SCALE: i32 = 256;
/// Bits of the second layer's scale, to shift its sums back to activations.
const LAYER2_SHIFT: u32 = LAYER2_SCALE.trailing_zeros();

#[cfg(test)]
mod tests;
