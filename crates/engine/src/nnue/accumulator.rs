//! The pieces as the network sees them, and the first layer's sums for both views.

use super::{Cpu, HIDDEN, MAX_SQUARES, Network, NetworkFamily};
use crowned_rules::position::compress;
use crowned_rules::{Color, Position, RuleSet};

/// The four kinds of piece as square sets (bit i: square i + 1), in Black's frame: Black's men, Black's kings,
/// White's men, White's kings. Boards of up to [`MAX_SQUARES`] squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pieces(pub [u64; 4]);

impl Pieces {
    /// The pieces of `pos`, on a board of at most [`MAX_SQUARES`] squares (the squares past it are left out).
    #[inline]
    pub fn of<R: RuleSet>(pos: &Position<R>) -> Pieces {
        let squares = |bits: R::Bits| compress(R::GEOMETRY, bits) as u64;
        let black = pos.pieces[Color::Black.index()];
        let white = pos.pieces[Color::White.index()];
        Pieces([
            squares(black & !pos.kings),
            squares(black & pos.kings),
            squares(white & !pos.kings),
            squares(white & pos.kings),
        ])
    }

    /// How many features differ between `self` and `other` in one view: the cost of going from one to the other.
    #[inline]
    pub fn distance(&self, other: &Pieces) -> u32 {
        (0..4).map(|k| (self.0[k] ^ other.0[k]).count_ones()).sum()
    }

    /// Pieces on the board.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|s| s.count_ones()).sum()
    }

    /// The features set in `view`'s view of a board of `squares` squares, each once.
    pub fn features(&self, view: Color, squares: usize) -> impl Iterator<Item = usize> + '_ {
        (0..4).flat_map(move |kind| {
            squares_of(self.0[kind]).map(move |square| feature(view, kind, square, squares))
        })
    }
}

/// The feature of a piece of `kind` (Black's frame: 0 Black man, 1 Black king, 2 White man, 3 White king) on
/// square index `square` of a board of `squares` squares, in `view`'s view: its own pieces first, and for White
/// the board turned half round.
#[inline(always)]
pub fn feature(view: Color, kind: usize, square: usize, squares: usize) -> usize {
    match view {
        Color::Black => kind * squares + square,
        Color::White => (kind ^ 2) * squares + (squares - 1 - square),
    }
}

fn squares_of(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The first layer's sums for Black's view and White's view of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Accumulator {
    /// Indexed by [`Color::index`].
    pub(crate) views: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The sums for `pieces`, from nothing.
    pub fn new(net: &Network, pieces: &Pieces) -> Accumulator {
        Accumulator::new_on(Cpu::detect(), net, pieces)
    }

    /// [`Accumulator::new`] by the code for `cpu` (this machine's or less).
    #[inline(always)]
    pub(crate) fn new_on(cpu: Cpu, net: &Network, pieces: &Pieces) -> Accumulator {
        let mut acc = Accumulator {
            views: [net.first_bias; 2],
        };
        acc.update_on(cpu, net, &Pieces::default(), pieces, None);
        acc
    }

    /// Moves the sums from the position of `from` to that of `to`: a column added for each piece that is new,
    /// one taken away for each piece that is gone.
    pub fn update(&mut self, net: &Network, from: &Pieces, to: &Pieces) {
        self.update_on(Cpu::detect(), net, from, to, None);
    }

    /// Sets the sums to those of `to`, from `source`'s for `from`: as [`Accumulator::update`] on a copy of
    /// `source`, in one pass instead of a copy and then an update.
    pub fn update_from(&mut self, source: &Accumulator, net: &Network, from: &Pieces, to: &Pieces) {
        self.update_on(Cpu::detect(), net, from, to, Some(source));
    }

    /// [`Accumulator::update`] (`source` `None`) or [`Accumulator::update_from`] by the code for `cpu`.
    #[inline(always)]
    pub(crate) fn update_on(
        &mut self,
        cpu: Cpu,
        net: &Network,
        from: &Pieces,
        to: &Pieces,
        source: Option<&Accumulator>,
    ) {
        // The board's size as a constant, so that each feature's arithmetic is folded for its board.
        const EIGHT: usize = NetworkFamily::English.squares();
        const TEN: usize = NetworkFamily::International.squares();
        match net.family() {
            NetworkFamily::English | NetworkFamily::Russian => {
                self.update_for::<EIGHT>(cpu, net, from, to, source)
            }
            NetworkFamily::International => self.update_for::<TEN>(cpu, net, from, to, source),
        }
    }

    /// [`Accumulator::update_on`] for a board of `SQUARES` squares.
    #[inline(always)]
    fn update_for<const SQUARES: usize>(
        &mut self,
        cpu: Cpu,
        net: &Network,
        from: &Pieces,
        to: &Pieces,
        source: Option<&Accumulator>,
    ) {
        let changes = Changes::between(from, to, SQUARES);
        for view in [Color::Black, Color::White] {
            let v = view.index();
            let (sums, source) = (&mut self.views[v], source.map(|s| &s.views[v]));
            match cpu {
                // SAFETY: `Cpu`'s vector kinds are only made where the CPU has been found to support them;
                // AVX-512 implies AVX2.
                #[cfg(target_arch = "x86_64")]
                Cpu::Avx2 | Cpu::Avx512 => unsafe {
                    apply_avx2::<SQUARES>(net, &changes, view, sums, source)
                },
                Cpu::Portable => apply_portable::<SQUARES>(net, &changes, view, sums, source),
            }
        }
    }
}

/// The pieces that differ between two sets, as features of Black's view: those that are new and those that are
/// gone. A set has at most [`MAX_SQUARES`] pieces (one a square), so at most that many of each.
struct Changes {
    added: [u8; MAX_SQUARES],
    added_len: usize,
    removed: [u8; MAX_SQUARES],
    removed_len: usize,
}

impl Changes {
    #[inline(always)]
    fn between(from: &Pieces, to: &Pieces, squares: usize) -> Changes {
        let mut changes = Changes {
            added: [0; MAX_SQUARES],
            added_len: 0,
            removed: [0; MAX_SQUARES],
            removed_len: 0,
        };
        // Features fit a byte: 4 kinds of at most 64 squares. Pieces of a set are on distinct squares: at most
        // MAX_SQUARES of them whatever their kinds, so the lists cannot overflow; the checks keep even a
        // malformed set (two kinds on one square) from doing harm.
        const _: () = assert!(4 * MAX_SQUARES <= 256);
        for kind in 0..4 {
            let (was, is) = (from.0[kind], to.0[kind]);
            for square in squares_of(is & !was) {
                if changes.added_len < MAX_SQUARES {
                    changes.added[changes.added_len] =
                        feature(Color::Black, kind, square, squares) as u8;
                    changes.added_len += 1;
                }
            }
            for square in squares_of(was & !is) {
                if changes.removed_len < MAX_SQUARES {
                    changes.removed[changes.removed_len] =
                        feature(Color::Black, kind, square, squares) as u8;
                    changes.removed_len += 1;
                }
            }
        }
        changes
    }

    fn added(&self) -> &[u8] {
        &self.added[..self.added_len]
    }

    fn removed(&self) -> &[u8] {
        &self.removed[..self.removed_len]
    }
}

/// The feature of `view` for a piece whose feature in Black's view is `black`, on a board of `SQUARES` squares:
/// the same for Black; for White the kind's colour swapped and the board turned. With the board's size a
/// constant, the division and remainder fold into shifts and multiplications (masks on the 8x8 board).
#[inline(always)]
fn in_view<const SQUARES: usize>(view: Color, black: u8) -> usize {
    let black = usize::from(black);
    match view {
        Color::Black => black,
        Color::White => feature(Color::White, black / SQUARES, black % SQUARES, SQUARES),
    }
}

/// Sums taken together by the portable code: sixteen 16-bit lanes stay in registers across every column.
const CHUNK: usize = 16;

/// Applies `changes` to one view's sums, read from `source` (else from `sums` itself) and written to `sums`,
/// a chunk of lanes at a time: each chunk is loaded and stored once however many columns change it.
#[inline(always)]
fn apply_portable<const SQUARES: usize>(
    net: &Network,
    changes: &Changes,
    view: Color,
    sums: &mut [i16; HIDDEN],
    source: Option<&[i16; HIDDEN]>,
) {
    let column = |f: &u8| {
        net.column(in_view::<SQUARES>(view, *f))
            .as_chunks::<CHUNK>()
            .0
    };
    for chunk in 0..HIDDEN / CHUNK {
        let mut lanes = source.unwrap_or(&*sums).as_chunks::<CHUNK>().0[chunk];
        for f in changes.added() {
            add(&mut lanes, &column(f)[chunk]);
        }
        for f in changes.removed() {
            sub(&mut lanes, &column(f)[chunk]);
        }
        sums.as_chunks_mut::<CHUNK>().0[chunk] = lanes;
    }
}

/// [`apply_portable`] with AVX2: the whole view's sums in eight registers while every column goes by.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn apply_avx2<const SQUARES: usize>(
    net: &Network,
    changes: &Changes,
    view: Color,
    sums: &mut [i16; HIDDEN],
    source: Option<&[i16; HIDDEN]>,
) {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_loadu_si256, _mm256_setzero_si256, _mm256_storeu_si256,
        _mm256_sub_epi16,
    };
    const REGISTERS: usize = HIDDEN / 16;
    let from = source.unwrap_or(&*sums).as_ptr();
    let mut lanes = [_mm256_setzero_si256(); REGISTERS];
    for (k, lane) in lanes.iter_mut().enumerate() {
        // SAFETY: `16 * k + 16 <= HIDDEN`: sixteen `i16`s inside the sums read.
        *lane = unsafe { _mm256_loadu_si256(from.add(16 * k).cast::<__m256i>()) };
    }
    for f in changes.added() {
        let column = net.column(in_view::<SQUARES>(view, *f)).as_ptr();
        for (k, lane) in lanes.iter_mut().enumerate() {
            // SAFETY: as above, inside the column.
            *lane = _mm256_add_epi16(*lane, unsafe {
                _mm256_loadu_si256(column.add(16 * k).cast::<__m256i>())
            });
        }
    }
    for f in changes.removed() {
        let column = net.column(in_view::<SQUARES>(view, *f)).as_ptr();
        for (k, lane) in lanes.iter_mut().enumerate() {
            // SAFETY: as above, inside the column.
            *lane = _mm256_sub_epi16(*lane, unsafe {
                _mm256_loadu_si256(column.add(16 * k).cast::<__m256i>())
            });
        }
    }
    let to = sums.as_mut_ptr();
    for (k, lane) in lanes.iter().enumerate() {
        // SAFETY: as above, inside the sums written.
        unsafe { _mm256_storeu_si256(to.add(16 * k).cast::<__m256i>(), *lane) };
    }
}

// Wrapping arithmetic: the true sums fit in 16 bits (the weights are bounded when trained), and wrapping is
// exact modulo 2^16, so an intermediate sum out of range cannot spoil the result (the vector code wraps too);
// it also vectorises cleanly.
#[inline(always)]
fn add(sums: &mut [i16; CHUNK], column: &[i16; CHUNK]) {
    for (s, w) in sums.iter_mut().zip(column) {
        *s = s.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub(sums: &mut [i16; CHUNK], column: &[i16; CHUNK]) {
    for (s, w) in sums.iter_mut().zip(column) {
        *s = s.wrapping_sub(*w);
    }
}
