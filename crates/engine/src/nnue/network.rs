//! The network's integer weights: read from (and written to) the file format, and the layers after the first.

use std::sync::{LazyLock, OnceLock};

use thiserror::Error;

use super::{
    ACTIVATION_ONE, Accumulator, Cpu, HIDDEN, LAYER2, LAYER2_SHIFT, NetworkFamily, OUTPUT_SCALE,
};
use crowned_rules::Color;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"CRWNNNUE";
/// The format's version: 3 since the file names its family of rules (version 2, whose family is told by its
/// inputs, English's 128 or international's 200, is still read); 2 since the second layer's weights are 8-bit
/// (version 1 had them 16-bit at twice the scale; the network compiled in was converted by halving them, rounded).
const VERSION: u32 = 3;
/// The version before the family was written: read, never written.
const VERSION_WITHOUT_FAMILY: u32 = 2;

/// A network file that cannot be used.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetworkError {
    /// Not a network file, or one of a version this build does not read.
    #[error("not a crowned network file (version {VERSION_WITHOUT_FAMILY} or {VERSION})")]
    NotANetwork,
    /// A network of other dimensions than this build's.
    #[error(
        "the network is {inputs}x{hidden}x{layer2}; this build reads {eight}x{HIDDEN}x{LAYER2} (8x8 boards) \
         and {ten}x{HIDDEN}x{LAYER2} (10x10 boards), for English, international and Russian draughts",
        eight = NetworkFamily::English.inputs(),
        ten = NetworkFamily::International.inputs()
    )]
    Dimensions {
        /// Inputs of the file's network.
        inputs: u32,
        /// First-layer units.
        hidden: u32,
        /// Second-layer units.
        layer2: u32,
    },
    /// A network for a family of rules this build does not know (written by a later one).
    #[error("the network is for a family of rules this build does not know (code {0})")]
    UnknownFamily(u32),
    /// Shorter or longer than its dimensions say.
    #[error("the network file is {found} bytes long; {expected} expected")]
    Length {
        /// Bytes found.
        found: usize,
        /// Bytes its dimensions need.
        expected: usize,
    },
    /// The checksum does not match: the file is damaged.
    #[error("the network file is damaged (checksum mismatch)")]
    Checksum,
    /// A network was already chosen for this family in this process ([`play_with`]).
    #[error("a network for {0} was already chosen for this process")]
    AlreadyChosen(NetworkFamily),
    /// A network for another family of rules than the one asked for.
    #[error("the network is for {found}, not for {expected}")]
    WrongFamily {
        /// The family asked for.
        expected: NetworkFamily,
        /// The network's family.
        found: NetworkFamily,
    },
}

/// A trained network, in the integers inference uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The rules whose positions it scores (and so the board whose pieces are the inputs).
    pub(crate) family: NetworkFamily,
    /// First layer: a column of [`HIDDEN`] weights for each feature ([`NetworkFamily::inputs`] of them), times
    /// [`ACTIVATION_ONE`].
    pub first: Box<[[i16; HIDDEN]]>,
    /// First layer's biases, times [`ACTIVATION_ONE`].
    pub first_bias: [i16; HIDDEN],
    /// Second layer: for each unit, a weight for each of the side to move's activations then the other side's,
    /// times [`super::LAYER2_SCALE`]. Eight bits, so that the dot products take 32 pairs an instruction.
    pub second: Box<[[i8; 2 * HIDDEN]; LAYER2]>,
    /// Second layer's biases, times `ACTIVATION_ONE * LAYER2_SCALE`.
    pub second_bias: [i32; LAYER2],
    /// Output weights, times [`OUTPUT_SCALE`].
    pub output: [i32; LAYER2],
    /// Output bias, times `ACTIVATION_ONE * OUTPUT_SCALE`.
    pub output_bias: i32,
}

/// The bytes of the networks compiled in, by family: English draughts' (8x8), international draughts' (10x10)
/// and Russian draughts' (8x8, flying kings), each the one that passed its last match (`crowned tune net` writes
/// them).
static BUILTIN_BYTES: [Option<&[u8]>; NetworkFamily::COUNT] = [
    Some(include_bytes!("weights.nnue")),
    Some(include_bytes!("international.nnue")),
    Some(include_bytes!("russian.nnue")),
];

static BUILTIN: [LazyLock<Option<Network>>; NetworkFamily::COUNT] = [
    LazyLock::new(|| builtin_of(NetworkFamily::English)),
    LazyLock::new(|| builtin_of(NetworkFamily::International)),
    LazyLock::new(|| builtin_of(NetworkFamily::Russian)),
];

fn builtin_of(family: NetworkFamily) -> Option<Network> {
    Network::for_family(BUILTIN_BYTES[family.index()]?, family).ok()
}

/// The network compiled into the program for `family`: `None` where there is none (or if its file were
/// damaged, which a test rules out).
pub fn builtin(family: NetworkFamily) -> Option<&'static Network> {
    BUILTIN[family.index()].as_ref()
}

/// The networks chosen for this whole process in place of the ones compiled in ([`play_with`]), by family.
static CHOSEN: [OnceLock<Network>; NetworkFamily::COUNT] =
    [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// The network every engine of this process evaluates positions of `family` with: the one [`play_with`] chose,
/// else the one compiled in.
pub fn playing(family: NetworkFamily) -> Option<&'static Network> {
    CHOSEN[family.index()].get().or_else(|| builtin(family))
}

/// Makes `network` the one every engine of this process made from now on evaluates its family's positions
/// with, in place of the one compiled in: `crowned hub --network FILE`, so that a newly trained network can be
/// matched against the compiled-in one (or the hand-written evaluation) without a build. It can be chosen once a
/// family; a second choice is refused and changes nothing.
pub fn play_with(network: Network) -> Result<(), NetworkError> {
    let family = network.family;
    CHOSEN[family.index()]
        .set(network)
        .map_err(|_| NetworkError::AlreadyChosen(family))
}

impl Network {
    /// A network of zeros for `family` (scores every position 0), the starting point for building one by hand
    /// in tests.
    pub fn zeroed(family: NetworkFamily) -> Network {
        Network {
            family,
            first: vec![[0; HIDDEN]; family.inputs()].into_boxed_slice(),
            first_bias: [0; HIDDEN],
            second: Box::new([[0; 2 * HIDDEN]; LAYER2]),
            second_bias: [0; LAYER2],
            output: [0; LAYER2],
            output_bias: 0,
        }
    }

    /// The family of rules whose positions the network scores.
    pub fn family(&self) -> NetworkFamily {
        self.family
    }

    /// The first-layer column of `feature`.
    #[inline(always)]
    pub(crate) fn column(&self, feature: usize) -> &[i16; HIDDEN] {
        &self.first[feature]
    }

    /// The score of the position whose sums are `acc`, in hundredths of a man for `side_to_move`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        self.evaluate_on(Cpu::detect(), acc, side_to_move)
    }

    /// [`Network::evaluate`] by the code for `cpu`, which must be this machine's or less ([`Cpu::detect`]).
    #[inline(always)]
    pub(crate) fn evaluate_on(&self, cpu: Cpu, acc: &Accumulator, side_to_move: Color) -> i32 {
        match cpu {
            // SAFETY: `Cpu`'s vector kinds are only made where the CPU has been found to support them.
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx512 => unsafe { self.evaluate_avx512(acc, side_to_move) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx2 => unsafe { self.evaluate_avx2(acc, side_to_move) },
            Cpu::Portable => self.evaluate_portable(acc, side_to_move),
        }
    }

    /// [`Network::evaluate`] compiled for any CPU of the target (SSE2 on x86-64).
    pub(crate) fn evaluate_portable(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let input = clipped_input(acc, side_to_move);
        let mut sums = [0i32; LAYER2];
        for (sum, weights) in sums.iter_mut().zip(self.second.iter()) {
            *sum = input
                .0
                .iter()
                .zip(weights)
                .map(|(&x, &w)| i32::from(x) * i32::from(w))
                .sum();
        }
        self.output_of(&sums)
    }

    /// [`Network::evaluate`] with AVX2: the second layer four units at a time, each slice of the input loaded
    /// once for the four, 32 pairs of 8-bit numbers multiplied and added at a time, the four sums reduced
    /// together.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(crate) fn evaluate_avx2(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        use std::arch::x86_64::{
            __m128i, __m256i, _mm_add_epi32, _mm_storeu_si128, _mm256_add_epi32,
            _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_hadd_epi32,
            _mm256_loadu_si256, _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_set1_epi16,
            _mm256_setzero_si256,
        };
        const LANES: usize = 32;
        const _: () = assert!((2 * HIDDEN).is_multiple_of(LANES) && LAYER2.is_multiple_of(4));
        let input = clipped_input_avx2(acc, side_to_move);
        let ones = _mm256_set1_epi16(1);
        let mut sums = [0i32; LAYER2];
        for (rows, out) in self.second.chunks_exact(4).zip(sums.chunks_exact_mut(4)) {
            let mut acc = [_mm256_setzero_si256(); 4];
            for start in (0..2 * HIDDEN).step_by(LANES) {
                // SAFETY: `start + LANES <= 2 * HIDDEN`, the length of the input and of every row, so each
                // unaligned load reads 32 bytes inside its array.
                let x =
                    unsafe { _mm256_loadu_si256(input.0.as_ptr().add(start).cast::<__m256i>()) };
                for (a, row) in acc.iter_mut().zip(rows) {
                    // SAFETY: as above.
                    let w =
                        unsafe { _mm256_loadu_si256(row.as_ptr().add(start).cast::<__m256i>()) };
                    // Activation (0..=127) times weight, pairs added into 16 bits: exact, as
                    // 2 x 127 x 128 < 2^15, so the instruction's saturation never applies. Then pairs of
                    // those into 32 bits.
                    let pairs = _mm256_maddubs_epi16(x, w);
                    *a = _mm256_add_epi32(*a, _mm256_madd_epi16(pairs, ones));
                }
            }
            // Pairwise adds within each 128-bit half leave each row's half-sum in one lane; the halves are added.
            let pairs = _mm256_hadd_epi32(
                _mm256_hadd_epi32(acc[0], acc[1]),
                _mm256_hadd_epi32(acc[2], acc[3]),
            );
            let four = _mm_add_epi32(
                _mm256_castsi256_si128(pairs),
                _mm256_extracti128_si256::<1>(pairs),
            );
            // SAFETY: `out` is four `i32`s, the sixteen bytes stored.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), four) };
        }
        self.output_of(&sums)
    }

    /// [`Network::evaluate`] with AVX-512 VNNI: each unit's sum is four instructions, each the dot products of 64
    /// activations with 64 weights in groups of four, added into sixteen 32-bit lanes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(crate) fn evaluate_avx512(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        use std::arch::x86_64::{
            __m128i, __m512i, _mm_add_epi32, _mm_storeu_si128, _mm256_add_epi32,
            _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_hadd_epi32,
            _mm512_castsi512_si256, _mm512_dpbusd_epi32, _mm512_extracti64x4_epi64,
            _mm512_loadu_si512, _mm512_setzero_si512,
        };
        const LANES: usize = 64;
        const STEPS: usize = 2 * HIDDEN / LANES;
        const _: () = assert!((2 * HIDDEN).is_multiple_of(LANES) && LAYER2.is_multiple_of(4));
        let input = clipped_input_avx2(acc, side_to_move);
        let mut x = [_mm512_setzero_si512(); STEPS];
        for (step, x) in x.iter_mut().enumerate() {
            // SAFETY: `LANES * step + LANES <= 2 * HIDDEN`: 64 bytes inside the input.
            *x =
                unsafe { _mm512_loadu_si512(input.0.as_ptr().add(LANES * step).cast::<__m512i>()) };
        }
        let mut sums = [0i32; LAYER2];
        for (rows, out) in self.second.chunks_exact(4).zip(sums.chunks_exact_mut(4)) {
            let mut halves = [_mm512_castsi512_si256(_mm512_setzero_si512()); 4];
            for (half, row) in halves.iter_mut().zip(rows) {
                let mut a = _mm512_setzero_si512();
                for (step, &x) in x.iter().enumerate() {
                    // SAFETY: as above, inside the row.
                    let w = unsafe {
                        _mm512_loadu_si512(row.as_ptr().add(LANES * step).cast::<__m512i>())
                    };
                    a = _mm512_dpbusd_epi32(a, x, w);
                }
                *half =
                    _mm256_add_epi32(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64::<1>(a));
            }
            let pairs = _mm256_hadd_epi32(
                _mm256_hadd_epi32(halves[0], halves[1]),
                _mm256_hadd_epi32(halves[2], halves[3]),
            );
            let four = _mm_add_epi32(
                _mm256_castsi256_si128(pairs),
                _mm256_extracti128_si256::<1>(pairs),
            );
            // SAFETY: `out` is four `i32`s, the sixteen bytes stored.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), four) };
        }
        self.output_of(&sums)
    }

    /// The score from the second layer's sums: biased, shifted back to activations, clipped, weighed.
    #[inline(always)]
    fn output_of(&self, sums: &[i32; LAYER2]) -> i32 {
        let mut out = self.output_bias;
        for ((&sum, &bias), &w) in sums.iter().zip(&self.second_bias).zip(&self.output) {
            let activation = ((sum + bias) >> LAYER2_SHIFT).clamp(0, ACTIVATION_ONE);
            out += activation * w;
        }
        // From 127 x 256 per man to hundredths of a man, rounded towards zero.
        out * 100 / (ACTIVATION_ONE * OUTPUT_SCALE)
    }

    /// Reads a network file for `family`: a network for another family is refused.
    pub fn for_family(bytes: &[u8], family: NetworkFamily) -> Result<Network, NetworkError> {
        let network = Network::from_bytes(bytes)?;
        if network.family != family {
            return Err(NetworkError::WrongFamily {
                expected: family,
                found: network.family,
            });
        }
        Ok(network)
    }

    /// Reads a network file, for whichever family it is.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let mut reader = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = reader.u32();
        let with_family = match version {
            VERSION => true,
            VERSION_WITHOUT_FAMILY => false,
            _ => return Err(NetworkError::NotANetwork),
        };
        if bytes.len() < Network::header_len(with_family) {
            return Err(NetworkError::NotANetwork);
        }
        let code = with_family.then(|| reader.u32());
        let (inputs, hidden, layer2) = (reader.u32(), reader.u32(), reader.u32());
        let family = match code {
            Some(code) => Some(
                *NetworkFamily::ALL
                    .get(code as usize)
                    .ok_or(NetworkError::UnknownFamily(code))?,
            ),
            // Before the family was written, the two families there were had boards of their own.
            None => [NetworkFamily::English, NetworkFamily::International]
                .into_iter()
                .find(|f| f.inputs() as u32 == inputs),
        };
        let Some(family) = family.filter(|f| {
            (inputs, hidden, layer2) == (f.inputs() as u32, HIDDEN as u32, LAYER2 as u32)
        }) else {
            return Err(NetworkError::Dimensions {
                inputs,
                hidden,
                layer2,
            });
        };
        let expected = Network::file_len(family, with_family);
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let payload_end = expected - 8;
        if checksum(&bytes[..payload_end]) != u64::from_le_bytes(bytes_8(&bytes[payload_end..])) {
            return Err(NetworkError::Checksum);
        }
        let mut net = Network::zeroed(family);
        net.first
            .iter_mut()
            .flatten()
            .for_each(|w| *w = reader.i16());
        net.first_bias.iter_mut().for_each(|w| *w = reader.i16());
        net.second
            .iter_mut()
            .flatten()
            .for_each(|w| *w = reader.i8());
        net.second_bias.iter_mut().for_each(|w| *w = reader.i32());
        net.output.iter_mut().for_each(|w| *w = reader.i32());
        net.output_bias = reader.i32();
        Ok(net)
    }

    /// The network as a file (of the current version, which names its family).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::file_len(self.family, true));
        out.extend_from_slice(MAGIC);
        for n in [
            VERSION,
            self.family.index() as u32,
            self.family.inputs() as u32,
            HIDDEN as u32,
            LAYER2 as u32,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for w in self.first.iter().flatten().chain(&self.first_bias) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.second.iter().flatten() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.second_bias.iter().chain(&self.output) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Bytes before the weights: the magic, the version, the family where written, and three dimensions.
    const fn header_len(with_family: bool) -> usize {
        MAGIC.len() + 4 * (4 + with_family as usize)
    }

    /// Bytes of a network file for `family`, with the family written or not.
    const fn file_len(family: NetworkFamily, with_family: bool) -> usize {
        let eight = LAYER2 * 2 * HIDDEN;
        let sixteen = family.inputs() * HIDDEN + HIDDEN;
        let thirty_two = 2 * LAYER2 + 1;
        Network::header_len(with_family) + eight + 2 * sixteen + 4 * thirty_two + 8
    }
}

/// The second layer's input: the first layer's activations, 0..=127, the side to move's view then the other's.
#[repr(align(32))]
struct Input([u8; 2 * HIDDEN]);

/// The side to move's view first, then the other side's, clipped to 0..=127.
#[inline(always)]
fn clipped_input(acc: &Accumulator, side_to_move: Color) -> Input {
    let mut input = Input([0; 2 * HIDDEN]);
    let views = [side_to_move.index(), side_to_move.opponent().index()];
    for (half, view) in input.0.chunks_exact_mut(HIDDEN).zip(views) {
        for (x, &s) in half.iter_mut().zip(&acc.views[view]) {
            *x = s.clamp(0, ACTIVATION_ONE as i16) as u8;
        }
    }
    input
}

/// [`clipped_input`] with AVX2, 32 sums at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clipped_input_avx2(acc: &Accumulator, side_to_move: Color) -> Input {
    use std::arch::x86_64::{
        __m256i, _mm256_loadu_si256, _mm256_max_epi8, _mm256_packs_epi16, _mm256_permute4x64_epi64,
        _mm256_setzero_si256, _mm256_storeu_si256,
    };
    const _: () = assert!(ACTIVATION_ONE == i8::MAX as i32 && HIDDEN.is_multiple_of(32));
    let mut input = Input([0; 2 * HIDDEN]);
    let views = [side_to_move.index(), side_to_move.opponent().index()];
    let zero = _mm256_setzero_si256();
    for (half, view) in input.0.chunks_exact_mut(HIDDEN).zip(views) {
        let sums = &acc.views[view];
        for start in (0..HIDDEN).step_by(32) {
            // SAFETY: `start + 32 <= HIDDEN`: both loads read sixteen `i16`s inside the view's sums.
            let (low, high) = unsafe {
                (
                    _mm256_loadu_si256(sums.as_ptr().add(start).cast::<__m256i>()),
                    _mm256_loadu_si256(sums.as_ptr().add(start + 16).cast::<__m256i>()),
                )
            };
            // Saturated to -128..=127 (the clip's top is 127), negatives then to 0. The packing interleaves the
            // two inputs by 128-bit lane; the permutation puts the four quarters back in order.
            let packed = _mm256_max_epi8(_mm256_packs_epi16(low, high), zero);
            let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
            // SAFETY: `start + 32 <= HIDDEN`, the length of `half`: 32 bytes stored inside it.
            unsafe { _mm256_storeu_si256(half.as_mut_ptr().add(start).cast::<__m256i>(), ordered) };
        }
    }
    input
}

/// 64-bit FNV-1a: enough to tell a damaged file, which is all it is for.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn bytes_8(bytes: &[u8]) -> [u8; 8] {
    let mut out = [0; 8];
    out.copy_from_slice(&bytes[..8]);
    out
}

/// Little-endian numbers read in turn; the length has been checked before any is read.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        out
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn i8(&mut self) -> i8 {
        i8::from_le_bytes(self.take())
    }

    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }

    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}
