//! How fast the endgame databases answer the search: probes of random positions through the cache of blocks
//! and from the outcomes kept in memory, and searches of endings that reach into the tables.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crowned_engine::egdb::{Egdb, Layout, Material};
use crowned_engine::{AnySituation, Engine, EngineConfig, Level, Limits, Rng};
use crowned_rules::{English, Position};

/// Probes done, and what they took.
#[derive(Clone, Copy, Debug)]
pub struct Speed {
    /// How many probes (or searched nodes).
    pub count: u64,
    /// The time they took.
    pub time: Duration,
    /// Blocks read from the files and unpacked meanwhile.
    pub loads: u64,
}

impl Speed {
    /// Millions a second.
    pub fn millions_per_second(&self) -> f64 {
        self.count as f64 / self.time.as_secs_f64().max(1e-9) / 1e6
    }
}

/// `count` positions without a capture drawn at random (by `seed`) from the tables of exactly `pieces` pieces,
/// every table alike: what a search deep in an ending probes, without the locality that helps a cache.
pub fn random_quiet_positions(pieces: u32, count: usize, seed: u64) -> Vec<Position<English>> {
    let layouts: Vec<Layout> = Material::all_up_to(pieces)
        .into_iter()
        .filter(|m| m.pieces() == pieces)
        .map(Layout::new)
        .collect();
    let mut rng = Rng::new(seed);
    let mut found = Vec::with_capacity(count);
    // Most positions have no capture, so this ends in about `count` draws.
    for _ in 0..count.saturating_mul(8) {
        if found.len() == count || layouts.is_empty() {
            break;
        }
        let layout = &layouts[rng.below(layouts.len())];
        let pos = layout
            .squares(rng.next_u64() % layout.size().max(1))
            .position();
        if !pos.must_capture() {
            found.push(pos);
        }
    }
    found
}

/// Probes every position of `positions` the way the search does (its outcome, the side to move having no
/// capture), counting those answered.
pub fn probe_speed(db: &Egdb, positions: &[Position<English>]) -> Speed {
    let loads = db.loads();
    let started = Instant::now();
    let mut known = 0u64;
    for pos in positions {
        known += u64::from(db.outcome_quiet(pos).is_some());
    }
    Speed {
        count: known,
        time: started.elapsed(),
        loads: db.loads() - loads,
    }
}

/// `count` endings with `pieces` pieces (the side to move without a capture) reached by random play from the
/// start position (by `seed`): positions whose searches soon reach the tables.
pub fn endings(pieces: u32, count: usize, seed: u64) -> Vec<Position<English>> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::with_capacity(count);
    for _ in 0..count.saturating_mul(50) {
        if found.len() == count {
            break;
        }
        let mut pos = Position::<English>::start();
        // A game of random moves ends long before 300 plies, or it is given up.
        for _ in 0..300 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            if (pos.pieces[0] | pos.pieces[1]).count_ones() <= pieces {
                if !pos.must_capture() && pos.pieces[0] != 0 && pos.pieces[1] != 0 {
                    found.push(pos);
                }
                break;
            }
            pos = pos.play(&legal[rng.below(legal.len())]);
        }
    }
    found
}

/// Searches each of `positions` to `depth` plies on one thread with `db` (from an engine of its own, so that
/// nothing is learned from another run), and counts the nodes.
pub fn search_speed(db: Arc<Egdb>, positions: &[Position<English>], depth: u32) -> Speed {
    let loads = db.loads();
    let mut engine = Engine::with_config(
        EngineConfig::default()
            .with_threads(1)
            .with_egdb(Some(Arc::clone(&db))),
    );
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut speed = Speed {
        count: 0,
        time: Duration::ZERO,
        loads: 0,
    };
    for pos in positions {
        engine.clear();
        let situation = AnySituation::at((*pos).into());
        let started = Instant::now();
        let result = engine.think(&situation, Level::Max, &limits, 1, &mut |_| {});
        speed.time += started.elapsed();
        speed.count += result.nodes;
    }
    speed.loads = db.loads() - loads;
    speed
}
