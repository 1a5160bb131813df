//! What the search plays on: [`SearchRules`], the rules as one search walks them, for the built-in rule sets'
//! bitboards ([`Fast`]) and for the variants players define (`defined`).
//!
//! The search asks a node for its moves, plays one, keys the position after it, scores it and asks whether the
//! game is over; what a rule set knows besides (a network, endgame databases, Frisian's kings' runs) comes in by
//! hooks whose defaults say "nothing". A built-in rule set's implementation is a type without data, its every
//! method compiled for the rule set, so the search costs what it cost when it was written over bitboards alone.

use std::marker::PhantomData;

use smallvec::SmallVec;

use crate::egdb::{Egdb, Wld};
use crate::engine_rules::EngineRules;
use crate::king_runs::Runs;
use crate::moves::{SearchMove, moves_of};
use crate::nnue::{Evaluation, NetCache};
use crate::search_params::SearchParams;
use crate::zobrist;
use crowned_game::{DrawRules, KingRuns};
use crowned_rules::{Bits, Move, Position};

/// The moves of one node.
pub(crate) type Moves<M> = SmallVec<[M; 32]>;

/// The rules as the search walks them: positions, moves and what the search learns of them.
///
/// Every method is asked of a value, so that rules known only at run time (a definition) carry their data; a
/// built-in rule set's value has none.
pub(crate) trait SearchRules {
    /// A position as the search holds it.
    type Pos: Clone;
    /// A move as the search holds it; the default is the "no move" of the killers and the principal variation.
    type Move: Clone + PartialEq + Default;

    /// The legal moves of `pos` into `out`, less those `runs` forbid.
    fn moves(&self, pos: &Self::Pos, runs: Runs, out: &mut Moves<Self::Move>);
    /// Whether the side to move must capture: every move of `moves` takes a piece. A node where it must is
    /// searched on past the horizon.
    fn must_capture(&self, moves: &[Self::Move]) -> bool;
    /// Whether `m` takes a piece.
    fn is_capture(&self, m: &Self::Move) -> bool;
    /// How many pieces `m` takes.
    fn taken(&self, m: &Self::Move) -> u32;
    /// Whether `m` promotes the piece it moves in `pos`.
    fn crowns(&self, pos: &Self::Pos, m: &Self::Move) -> bool;
    /// A non-zero fingerprint of `m` for the transposition table.
    fn fingerprint(&self, m: &Self::Move) -> u32;
    /// Where `m` starts and ends as the history table's row and column, each below [`HISTORY_SQUARES`].
    fn history_slot(&self, m: &Self::Move) -> (usize, usize);
    /// The position after `m`.
    fn play(&self, pos: &Self::Pos, m: &Self::Move) -> Self::Pos;
    /// The key of `pos` (the repetitions' and, with the runs', the table's).
    fn key(&self, pos: &Self::Pos) -> u64;
    /// The key of `after`, the position `m` makes of `pos`, whose key is `key`.
    fn key_after(&self, key: u64, pos: &Self::Pos, m: &Self::Move, after: &Self::Pos) -> u64;
    /// Whether no position before `m` can stand again after it (the repetitions and the move limit start over).
    fn irreversible(&self, pos: &Self::Pos, m: &Self::Move) -> bool;
    /// The pieces on the board.
    fn pieces(&self, pos: &Self::Pos) -> u32;
    /// Whether the side to move has won (`Some(true)`) or lost by a rule other than having no move: a crowning
    /// that wins, a lone man against a king.
    fn decided(&self, pos: &Self::Pos) -> Option<bool>;
    /// Whether a side to move without moves has won (the give-away games) rather than lost.
    fn wins_without_moves(&self, pos: &Self::Pos) -> bool;
    /// The public move `m` stands for in `pos`.
    fn to_move(&self, pos: &Self::Pos, m: &Self::Move) -> Option<Move>;
    /// The static score of `pos` for the side to move, within the evaluation's bounds: the network's when `net`
    /// holds its accumulators.
    fn evaluate(&self, net: &mut Option<Box<NetCache>>, pos: &Self::Pos, ply: usize) -> i32;

    /// The kings' runs of a game's situation, as the search carries them.
    fn runs(&self, runs: &KingRuns) -> Runs {
        let _ = runs;
        Runs::default()
    }
    /// The runs after `m` is played in `pos`.
    fn runs_after(&self, runs: Runs, pos: &Self::Pos, m: &Self::Move) -> Runs {
        let _ = (pos, m);
        runs
    }
    /// What the runs add to the table's key of `pos`.
    fn runs_key(&self, runs: Runs, pos: &Self::Pos) -> u64 {
        let _ = (runs, pos);
        0
    }
    /// The margins and reductions of the search under these rules.
    fn search_params(&self) -> SearchParams {
        SearchParams::default()
    }
    /// The network's accumulators, when `evaluation` asks for one and these rules have one.
    fn network(&self, evaluation: Evaluation) -> Option<Box<NetCache>> {
        let _ = evaluation;
        None
    }
    /// The endgame databases' outcome of `pos`, whose side to move has no capture.
    fn probe(&self, db: Option<&Egdb>, pos: &Self::Pos) -> Option<Wld> {
        let _ = (db, pos);
        None
    }
    /// The win/draw/loss tables' outcome of `pos`.
    fn outcome(&self, db: &Egdb, pos: &Self::Pos) -> Option<Wld> {
        let _ = (db, pos);
        None
    }
    /// Whether one of the rules' ending draws (a few pieces against a lone king) holds in `pos`.
    fn ending_holds(&self, pos: &Self::Pos) -> bool {
        let _ = pos;
        false
    }
}

/// Rows and columns of the history table: bits of the widest board layout, and playable squares of the largest
/// definition.
pub(crate) const HISTORY_SQUARES: usize = 128;

/// A built-in rule set on its bitboards.
pub(crate) struct Fast<R>(PhantomData<R>);

impl<R> Default for Fast<R> {
    fn default() -> Self {
        Fast(PhantomData)
    }
}

impl<R: EngineRules> SearchRules for Fast<R> {
    type Pos = Position<R>;
    type Move = SearchMove<R::Bits>;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn moves(&self, pos: &Position<R>, runs: Runs, out: &mut Moves<Self::Move>) {
        moves_of(pos, out);
        if let Some(king) = runs.barred(pos) {
            out.retain(|m| m.is_capture() || m.from != king);
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn must_capture(&self, moves: &[Self::Move]) -> bool {
        // Captures are compulsory in every built-in rule set: one capture means only captures.
        moves.first().is_some_and(|m| m.is_capture())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn is_capture(&self, m: &Self::Move) -> bool {
        m.is_capture()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn taken(&self, m: &Self::Move) -> u32 {
        m.taken()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn crowns(&self, _: &Position<R>, m: &Self::Move) -> bool {
        m.crowns
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fingerprint(&self, m: &Self::Move) -> u32 {
        m.fingerprint()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn history_slot(&self, m: &Self::Move) -> (usize, usize) {
        (usize::from(m.from), usize::from(m.to))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn play(&self, pos: &Position<R>, m: &Self::Move) -> Position<R> {
        m.play(pos)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn key(&self, pos: &Position<R>) -> u64 {
        zobrist::key(pos)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn key_after(&self, key: u64, pos: &Position<R>, m: &Self::Move, _: &Position<R>) -> u64 {
        m.key_after(key, pos)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn irreversible(&self, pos: &Position<R>, m: &Self::Move) -> bool {
        m.is_capture() || (pos.kings & R::Bits::bit(u32::from(m.from))).is_empty()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pieces(&self, pos: &Position<R>) -> u32 {
        (pos.pieces[0] | pos.pieces[1]).count_ones()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn decided(&self, pos: &Position<R>) -> Option<bool> {
        pos.crowned_winner()
            .map(|winner| winner == pos.side_to_move())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn wins_without_moves(&self, pos: &Position<R>) -> bool {
        pos.winner_without_moves() == pos.side_to_move()
    }

    fn to_move(&self, pos: &Position<R>, m: &Self::Move) -> Option<Move> {
        m.to_move(pos)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn evaluate(&self, net: &mut Option<Box<NetCache>>, pos: &Position<R>, ply: usize) -> i32 {
        if let Some(score) = R::network_evaluate(net, pos, ply) {
            return score;
        }
        R::evaluate(pos)
    }

    fn runs(&self, runs: &KingRuns) -> Runs {
        Runs::of::<R>(runs)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn runs_after(&self, runs: Runs, pos: &Position<R>, m: &Self::Move) -> Runs {
        runs.after(pos, *m)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn runs_key(&self, runs: Runs, pos: &Position<R>) -> u64 {
        runs.key(pos)
    }

    fn search_params(&self) -> SearchParams {
        R::search_params()
    }

    fn network(&self, evaluation: Evaluation) -> Option<Box<NetCache>> {
        R::network(evaluation)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn probe(&self, db: Option<&Egdb>, pos: &Position<R>) -> Option<Wld> {
        R::probe(db, pos)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn outcome(&self, db: &Egdb, pos: &Position<R>) -> Option<Wld> {
        db.wld()?.outcome(pos)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ending_holds(&self, pos: &Position<R>) -> bool {
        DrawRules::of(R::VARIANT)
            .endings
            .iter()
            .any(|rule| rule.ending.holds(pos))
    }
}
