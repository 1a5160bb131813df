//! What the engine does differently under one rule set: the hooks a rule set overrides, with defaults that suit
//! the rule sets that have nothing of their own.
//!
//! English draughts has a network evaluation, a hand-tuned evaluation, endgame databases and a search tuned to
//! run on several threads. International and Russian draughts have networks of their own, each shared by the
//! rule sets of its board whose pieces move alike where an SPRT says it serves them. The other rule sets share
//! the generic evaluation of [`super::variants`], and all but English search on one thread. The choice is made
//! when the code is compiled for each rule set, so the search pays nothing for it.

use super::book::Book;
use super::egdb::{DbValue, Egdb, Wld};
use super::nnue::{self, Evaluation, NetCache, NetworkFamily};
use super::races::Races;
use super::score::{DB_WIN, MAX_PLY};
use super::variants::{generic, generic_for_black};
use super::{Score, SearchParams, SearchResult, eval};
use crowned_rules::{
    Antidraughts, Brazilian, Breakthrough, Canadian, Czech, English, EnglishOn, Frisian, Frysk,
    International, Italian, Playable, Pool, Position, Russian, Spanish, Thai,
};

/// The largest static score the network may give: far from the databases' scores.
pub(crate) const EVAL_LIMIT: i32 = DB_WIN / 4;

/// A rule set as the engine plays it. Every hook has a default for a rule set without anything of its own.
pub trait EngineRules: Playable {
    /// Whether a full-strength search also runs on the engine's helper threads (Lazy SMP). Only the rule set
    /// whose search was tuned and tested on several threads says so; the others search on one.
    const PARALLEL: bool = false;

    /// How the generic evaluation counts races of men (the `races` module): not at all unless a rule set says so,
    /// so that the rule sets measured without it play as they did.
    const RACES: Races = Races::Ignored;

    /// The family of the network that may evaluate this rule set's positions: `None` for a rule set no network
    /// was trained for. A network plays only where one is compiled in or chosen for the process
    /// ([`nnue::playing`]); elsewhere the hand-written evaluation does.
    const NETWORK: Option<NetworkFamily> = None;

    /// The search's margins and reductions under this rule set, before any is changed from outside
    /// ([`super::ParamOverrides`]): the values measured for English draughts unless a rule set was tuned.
    fn search_params() -> SearchParams {
        SearchParams::default()
    }

    /// The static score of `pos` for the side to move, in hundredths of a man.
    fn evaluate(pos: &Position<Self>) -> i32 {
        generic(pos, Self::RACES)
    }

    /// The static score of `pos` from Black's point of view (positive: Black is better).
    fn evaluate_for_black(pos: &Position<Self>) -> i32 {
        generic_for_black(pos, Self::RACES)
    }

    /// The accumulators of the network that evaluates this rule set in the full search, when `evaluation`
    /// asks for it and there is a network; `None` where there is none.
    fn network(evaluation: Evaluation) -> Option<Box<NetCache>> {
        match (evaluation, nnue::playing(Self::NETWORK?)) {
            (Evaluation::Network, Some(net)) => Some(Box::new(NetCache::new(net, MAX_PLY))),
            _ => None,
        }
    }

    /// The network's score of `pos` at `ply` when `net` holds its accumulators, kept well below the
    /// databases' and the search's proven results; `None` to use [`EngineRules::evaluate`].
    #[inline]
    fn network_evaluate(
        net: &mut Option<Box<NetCache>>,
        pos: &Position<Self>,
        ply: usize,
    ) -> Option<i32> {
        let cache = net.as_deref_mut()?;
        Some(cache.evaluate(pos, ply).clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }

    /// The endgame databases' outcome of `pos`, whose side to move has no capture, if they hold it.
    #[inline]
    fn probe(db: Option<&Egdb>, pos: &Position<Self>) -> Option<Wld> {
        let _ = (db, pos);
        None
    }

    /// The move an opening book gives for `pos`, where the rule set has books and the book holds it.
    fn book_move(book: Option<&Book>, pos: &Position<Self>) -> Option<SearchResult> {
        let _ = (book, pos);
        None
    }

    /// The move the databases choose at the root in a won or lost position; a drawn one is left to the
    /// search, which keeps the draw and looks for the opponent's mistakes.
    fn database_move(db: Option<&Egdb>, pos: &Position<Self>) -> Option<SearchResult> {
        let _ = (db, pos);
        None
    }
}

/// The evaluation of a position of any rule set from Black's point of view, in hundredths of a man: English
/// draughts on 8x8 by its own function ([`eval::evaluate_for_black`]), every other rule set by the
/// generic one ([`EngineRules::evaluate_for_black`] chooses).
pub fn evaluate_rules_for_black<R: EngineRules>(pos: &Position<R>) -> i32 {
    R::evaluate_for_black(pos)
}

/// The evaluation of a position of any rule set from the side to move's point of view.
pub fn evaluate_rules<R: EngineRules>(pos: &Position<R>) -> i32 {
    R::evaluate(pos)
}

impl EngineRules for English {
    const PARALLEL: bool = true;
    const NETWORK: Option<NetworkFamily> = Some(NetworkFamily::English);

    fn evaluate(pos: &Position) -> i32 {
        eval::evaluate(pos)
    }

    fn evaluate_for_black(pos: &Position) -> i32 {
        eval::evaluate_for_black(pos)
    }

    #[inline]
    fn probe(db: Option<&Egdb>, pos: &Position) -> Option<Wld> {
        let db = db?;
        if (pos.pieces[0] | pos.pieces[1]).count_ones() > db.pieces() {
            return None;
        }
        db.outcome_quiet(pos)
    }

    fn book_move(book: Option<&Book>, pos: &Position) -> Option<SearchResult> {
        let (best, value) = book?.best(pos)?;
        Some(SearchResult {
            best: Some(best),
            score: Score::Centi(value),
            depth: 0,
            nodes: 0,
            pv: vec![best],
        })
    }

    fn database_move(db: Option<&Egdb>, pos: &Position) -> Option<SearchResult> {
        let db = db?;
        let (best, value) = db.best_move(pos)?;
        let score = match value {
            DbValue::Win(_) => Score::DatabaseWin,
            DbValue::Loss(_) => Score::DatabaseLoss,
            DbValue::Draw => return None,
        };
        Some(SearchResult {
            best: Some(best),
            score,
            depth: 0,
            nodes: 0,
            pv: db.line(pos, 24),
        })
    }
}

/// Antidraughts is won by running out of moves: what the generic evaluation counts for a side (material,
/// mobility, men near crowning) counts against it here, and the search finds the tactics of giving pieces away.
impl EngineRules for Antidraughts {
    fn evaluate(pos: &Position<Self>) -> i32 {
        -generic(pos, Self::RACES)
    }

    fn evaluate_for_black(pos: &Position<Self>) -> i32 {
        -generic_for_black(pos, Self::RACES)
    }
}

/// The rule sets with nothing of their own: the defaults serve them.
macro_rules! defaults {
    ($($rules:ty),* $(,)?) => {
        $(impl EngineRules for $rules {})*
    };
}

/// The first king wins Breakthrough, so the first man sure to crown decides the game.
impl EngineRules for Breakthrough {
    const RACES: Races = Races::Decisive;
    const NETWORK: Option<NetworkFamily> = Some(NetworkFamily::International);
}

/// The 10x10 rule sets whose goal is international draughts' (Frisian, Frysk!; breakthrough above): evaluated by
/// its network where one is compiled in or chosen, which each played better than the hand-written evaluation by
/// SPRT. Antidraughts, whose goal is the opposite, keeps the hand-written evaluation turned round.
macro_rules! international_family {
    ($($rules:ty),* $(,)?) => {
        $(impl EngineRules for $rules {
            const NETWORK: Option<NetworkFamily> = Some(NetworkFamily::International);
        })*
    };
}

international_family!(International, Frisian, Frysk);

/// The 8x8 rule sets with flying kings that Russian draughts' network serves, by SPRT against the hand-written
/// evaluation (Spanish draughts, whose board is mirrored, played worse with it; Thai's match was undecided).
macro_rules! flying_kings_on_eight {
    ($($rules:ty),* $(,)?) => {
        $(impl EngineRules for $rules {
            const NETWORK: Option<NetworkFamily> = Some(NetworkFamily::Russian);
        })*
    };
}

flying_kings_on_eight!(Russian, Brazilian, Pool, Czech);

defaults!(
    Italian,
    Spanish,
    Thai,
    Canadian,
    EnglishOn<6>,
    EnglishOn<10>,
    EnglishOn<12>,
    EnglishOn<14>,
);
