//! The transposition table: what earlier searches learned about positions, by Zobrist key.

use std::mem::size_of;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// At least this much (the search failed high).
    Lower,
    /// At most this much (the search failed low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The upper bits of the key, to tell positions apart within a slot.
    check: u32,
    /// The best move found, as a fingerprint (0: none).
    pub best: u32,
    /// The score, with win distances counted from this position.
    pub score: i16,
    /// The depth searched.
    pub depth: u8,
    /// How to read the score.
    pub bound: Bound,
    /// The search that stored it, for replacing stale entries first.
    generation: u8,
}

const EMPTY: Entry = Entry {
    check: 0,
    best: 0,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
    generation: 0,
};

/// A table of two-entry buckets: one kept by depth, one always replaced.
pub struct Table {
    buckets: Vec<[Entry; 2]>,
    generation: u8,
}

impl Table {
    /// A table using about `megabytes` of memory (at least one bucket).
    pub fn new(megabytes: usize) -> Table {
        let bucket = size_of::<[Entry; 2]>();
        let wanted = (megabytes * 1024 * 1024 / bucket).max(1);
        // A power of two, so that a mask picks the bucket.
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            buckets: vec![[EMPTY; 2]; count],
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill([EMPTY; 2]);
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.buckets.len() - 1)
    }

    /// Asks the processor to start loading the bucket of `key`, so that a probe a little later does not wait
    /// for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = &self.buckets[self.slot(key)];
            // SAFETY: a prefetch is only a hint and never faults; the pointer comes from a live reference, and
            // SSE is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((bucket as *const [Entry; 2]).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if one is stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let check = (key >> 32) as u32;
        self.buckets[self.slot(key)]
            .iter()
            .find(|e| e.check == check && e.depth > 0)
            .copied()
    }

    /// Stores a result for `key`.
    pub fn store(&mut self, key: u64, best: u32, score: i16, depth: u8, bound: Bound) {
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let slot = self.slot(key);
        let bucket = &mut self.buckets[slot];
        let entry = Entry {
            check,
            best,
            score,
            depth: depth.max(1),
            bound,
            generation,
        };
        // The first place keeps the deepest result of this search; what it displaces, and whatever is not deep
        // enough for it, goes to the second.
        let first = bucket[0];
        if first.check == check || first.generation != generation || entry.depth >= first.depth {
            if first.check != check {
                bucket[1] = first;
            }
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(1);
        assert_eq!(t.probe(0x1234_5678_9abc_def0), None);
        t.store(0x1234_5678_9abc_def0, 77, -5, 6, Bound::Lower);
        let e = t.probe(0x1234_5678_9abc_def0).expect("stored");
        assert_eq!(
            (e.best, e.score, e.depth, e.bound),
            (77, -5, 6, Bound::Lower)
        );
        // Another key in the same bucket keeps the deeper entry.
        let other = 0x9999_0000_9abc_def0;
        t.store(other, 5, 1, 2, Bound::Exact);
        assert!(t.probe(0x1234_5678_9abc_def0).is_some());
        assert!(t.probe(other).is_some());
        t.clear();
        assert_eq!(t.probe(other), None);
    }
}
