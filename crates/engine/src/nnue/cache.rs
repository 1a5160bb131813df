//! The accumulators of a search, one slot per ply, each brought up to date from whichever kept one is nearest.

use super::{Accumulator, Cpu, Network, Pieces};
use crowned_rules::{Position, RuleSet};

/// One ply's accumulator and the pieces it is for.
#[derive(Clone)]
struct Slot {
    pieces: Pieces,
    acc: Accumulator,
    filled: bool,
}

/// Accumulators kept by ply for a search.
///
/// The search copies positions rather than making and unmaking moves, so instead of following each move the
/// cache keeps, for every ply, the last position evaluated there. A position at ply `p` is reached from the
/// nearer (in pieces changed) of that slot, usually a sibling a move or two away, and the slot of ply `p - 1`,
/// usually its parent; from nothing if both are further than rebuilding. Any kept accumulator gives the exact
/// sums once the differences are applied, so the choice costs speed, never correctness.
pub struct NetCache {
    net: &'static Network,
    cpu: Cpu,
    slots: Vec<Slot>,
    /// Accumulators built from nothing and brought up to date, for `crowned bench` and tests.
    refreshes: u64,
    updates: u64,
}

impl NetCache {
    /// A cache for searches up to `plies` deep, evaluating with `net`.
    pub fn new(net: &'static Network, plies: usize) -> NetCache {
        NetCache::on(Cpu::detect(), net, plies)
    }

    /// [`NetCache::new`] running the code for `cpu`, which must be this machine's or less ([`Cpu::available`]).
    pub fn on(cpu: Cpu, net: &'static Network, plies: usize) -> NetCache {
        let empty = Slot {
            pieces: Pieces::default(),
            acc: Accumulator::new(net, &Pieces::default()),
            filled: false,
        };
        NetCache {
            net,
            cpu,
            slots: vec![empty; plies.max(1)],
            refreshes: 0,
            updates: 0,
        }
    }

    /// Forgets every slot (they stay correct for their positions; this only spares a stale comparison).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| s.filled = false);
    }

    /// The network's score of `pos`, reached at `ply`, in hundredths of a man for the side to move. `R`'s board
    /// must be the network's.
    #[inline]
    pub fn evaluate<R: RuleSet>(&mut self, pos: &Position<R>, ply: usize) -> i32 {
        match self.cpu {
            // SAFETY: `Cpu`'s vector kinds are only made where the CPU has been found to support them.
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx512 => unsafe { self.evaluate_avx512(pos, ply) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Cpu::Avx2 => unsafe { self.evaluate_avx2(pos, ply) },
            Cpu::Portable => self.evaluate_on(Cpu::Portable, pos, ply),
        }
    }

    /// [`NetCache::evaluate`], every step of it (finding the pieces, the sums, the layers) compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2<R: RuleSet>(&mut self, pos: &Position<R>, ply: usize) -> i32 {
        self.evaluate_on(Cpu::Avx2, pos, ply)
    }

    /// [`NetCache::evaluate`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    fn evaluate_avx512<R: RuleSet>(&mut self, pos: &Position<R>, ply: usize) -> i32 {
        self.evaluate_on(Cpu::Avx512, pos, ply)
    }

    #[inline(always)]
    fn evaluate_on<R: RuleSet>(&mut self, cpu: Cpu, pos: &Position<R>, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let pieces = Pieces::of(pos);
        let rebuild = pieces.count();
        let own = &self.slots[ply];
        let own_cost = if own.filled {
            own.pieces.distance(&pieces)
        } else {
            u32::MAX
        };
        let parent_cost = match ply.checked_sub(1).map(|p| &self.slots[p]) {
            Some(parent) if parent.filled => parent.pieces.distance(&pieces),
            _ => u32::MAX,
        };
        if own_cost.min(parent_cost) >= rebuild {
            self.refreshes += 1;
            self.slots[ply].acc = Accumulator::new_on(cpu, self.net, &pieces);
        } else if parent_cost < own_cost {
            self.updates += 1;
            let (before, after) = self.slots.split_at_mut(ply);
            let parent = &before[ply - 1];
            after[0]
                .acc
                .update_on(cpu, self.net, &parent.pieces, &pieces, Some(&parent.acc));
        } else {
            self.updates += 1;
            let slot = &mut self.slots[ply];
            slot.acc
                .update_on(cpu, self.net, &slot.pieces, &pieces, None);
        }
        let slot = &mut self.slots[ply];
        slot.pieces = pieces;
        slot.filled = true;
        self.net.evaluate_on(cpu, &slot.acc, pos.side_to_move())
    }

    /// Accumulators built from nothing and brought up to date so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.refreshes, self.updates)
    }
}
