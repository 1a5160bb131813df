//! The transposition table: what earlier searches learned about positions, by Zobrist key.
//!
//! The table is shared by the threads of one search without locks. Each entry is two 64-bit words written and
//! read with relaxed atomics: the data, and the data mixed with the key's check bits. A reader accepts an entry
//! only when the two agree, so an entry torn by two threads writing at once reads as empty rather than as a
//! wrong result (R. Hyatt and T. Mann, "A lockless transposition-table implementation for parallel search",
//! 2002). On x86-64 a relaxed atomic load or store is a plain move: one thread pays nothing for this.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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
    /// The search that stored it (six bits), for replacing stale entries first.
    generation: u8,
}

const GENERATIONS: u8 = 64;

impl Entry {
    /// The data word: best move, score, depth, bound and generation.
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.best)
            | u64::from(self.score as u16) << 32
            | u64::from(self.depth) << 48
            | (bound | u64::from(self.generation % GENERATIONS) << 2) << 56
    }

    fn unpack(check: u32, data: u64) -> Entry {
        let flags = (data >> 56) as u8;
        Entry {
            check,
            best: data as u32,
            score: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            bound: match flags & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            generation: flags >> 2,
        }
    }
}

/// One place in the table: the check bits mixed into the data, and the data.
#[derive(Default)]
struct Slot {
    mixed: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline(always)]
    fn load(&self) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = (self.mixed.load(Ordering::Relaxed) ^ data) as u32;
        // An empty slot has depth 0; a torn one has check bits that match no key it was probed for.
        let entry = Entry::unpack(check, data);
        (entry.depth > 0).then_some(entry)
    }

    #[inline(always)]
    fn save(&self, entry: &Entry) {
        let data = entry.pack();
        self.mixed
            .store(u64::from(entry.check) ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.mixed.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// Two places per bucket: one kept by depth, one always replaced. A bucket is 32 bytes, two to a cache line.
#[derive(Default)]
struct Bucket([Slot; 2]);

/// The table: a power of two of buckets, shared by reference between the threads of a search.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table using about `megabytes` of memory (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bucket = size_of::<Bucket>();
        let wanted = (megabytes * 1024 * 1024 / bucket).max(1);
        // A power of two, so that a mask picks the bucket.
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        TranspositionTable {
            buckets: (0..count).map(|_| Bucket::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for bucket in &self.buckets {
            bucket.0.iter().for_each(Slot::clear);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries are replaced first.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) % GENERATIONS;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    /// Asks the processor to start loading the bucket of `key`, so that a probe a little later does not wait
    /// for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint and never faults; the pointer comes from a live reference, and
            // SSE is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((bucket as *const Bucket).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if one is stored.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let check = (key >> 32) as u32;
        self.bucket(key)
            .0
            .iter()
            .filter_map(Slot::load)
            .find(|e| e.check == check)
    }

    /// Stores a result for `key`.
    #[inline(always)]
    pub fn store(&self, key: u64, best: u32, score: i16, depth: u8, bound: Bound) {
        let check = (key >> 32) as u32;
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
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
        let [first_slot, second_slot] = &bucket.0;
        match first_slot.load() {
            Some(first)
                if first.check != check
                    && first.generation == generation
                    && entry.depth < first.depth =>
            {
                second_slot.save(&entry);
            }
            Some(first) if first.check != check => {
                second_slot.save(&first);
                first_slot.save(&entry);
            }
            _ => first_slot.save(&entry),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let t = TranspositionTable::new(1);
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

    #[test]
    fn every_field_survives_packing() {
        for (best, score, depth, bound, generation) in [
            (0, 0, 1, Bound::Exact, 0),
            (u32::MAX, i16::MIN, 255, Bound::Lower, 63),
            (12345, i16::MAX, 17, Bound::Upper, 5),
            (7, -29_990, 3, Bound::Lower, 40),
        ] {
            let entry = Entry {
                check: 0xdead_beef,
                best,
                score,
                depth,
                bound,
                generation,
            };
            assert_eq!(Entry::unpack(0xdead_beef, entry.pack()), entry);
        }
    }

    #[test]
    fn threads_writing_at_once_never_read_back_a_mixed_entry() {
        // Many threads write entries whose fields all derive from the key into a tiny table; every entry read
        // back must be one that was written whole.
        let t = TranspositionTable::new(0);
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let key = (i * 4 + thread).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        let mark = (key >> 40) as u32;
                        t.store(
                            key,
                            mark,
                            (mark & 0x7fff) as i16,
                            (mark % 200 + 1) as u8,
                            Bound::Exact,
                        );
                        if let Some(e) = t.probe(key) {
                            assert_eq!(e.best, mark);
                            assert_eq!(e.score, (mark & 0x7fff) as i16);
                        }
                    }
                });
            }
        });
    }
}
