//! The fast generator (`Position::legal_moves` and friends) against the reference, position by position.
//!
//! The comparison sees a position through [`FastPosition`], so that it is built once, here, with the reference's
//! full optimisation, rather than once for each rule set in the tests that call it; only the few calls into the
//! fast generator are built for each.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Debug, Display};

use crowned_rules::{Move, MoveList, Position, RuleSet, to_fen};

use super::{Board, RefMove, RefRules, SetKey, legal_routes};

/// What the comparison asks of a position of the fast generator.
pub trait FastPosition {
    /// The position as PDN FEN, for the messages.
    fn fen(&self) -> String;
    /// The pieces and the side to move, as the reference holds them.
    fn board(&self) -> Board;
    /// `legal_moves`: one move per start, set of pieces taken and end.
    fn merged_moves(&self) -> MoveList;
    /// `legal_moves_with_duplicates`: one move per start, order of pieces taken and end.
    fn moves_with_duplicates(&self) -> MoveList;
    /// The position after a move.
    fn after(&self, mv: &Move) -> Box<dyn FastPosition>;
    /// Whether a capture is compulsory.
    fn must_capture(&self) -> bool;
}

impl<R: RuleSet> FastPosition for Position<R> {
    fn fen(&self) -> String {
        to_fen(self)
    }

    fn board(&self) -> Board {
        Board::from_position(self)
    }

    fn merged_moves(&self) -> MoveList {
        self.legal_moves()
    }

    fn moves_with_duplicates(&self) -> MoveList {
        self.legal_moves_with_duplicates()
    }

    fn after(&self, mv: &Move) -> Box<dyn FastPosition> {
        Box::new(self.play(mv))
    }

    fn must_capture(&self) -> bool {
        Position::must_capture(self)
    }
}

/// A position's FEN for the messages, written only when one is: the comparison runs at every node of the trees,
/// and writing a FEN at each was a tenth of their time.
#[derive(Clone, Copy)]
struct Fen<'a>(&'a dyn FastPosition);

impl Display for Fen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.fen())
    }
}

/// Returns `Err` with the formatted message from the enclosing function unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($message:tt)+) => {
        if !$cond {
            return Err(format!($($message)+));
        }
    };
}

/// The fast move's route as square numbers: start and landing squares.
fn route_of(m: &Move) -> (u32, Vec<u32>) {
    (
        m.from().number(),
        m.path().iter().map(|s| s.number()).collect(),
    )
}

/// What one side has and the other lacks, if the two sets differ.
fn same_keys<K: Ord + Debug>(
    what: &str,
    fen: Fen<'_>,
    reference: &BTreeSet<K>,
    fast: &BTreeSet<K>,
) -> Result<(), String> {
    let missing: Vec<&K> = reference.difference(fast).collect();
    let extra: Vec<&K> = fast.difference(reference).collect();
    ensure!(
        missing.is_empty() && extra.is_empty(),
        "{what} differ in {fen}\n  only in the reference: {missing:?}\n  only in the fast generator: {extra:?}"
    );
    Ok(())
}

/// Compares every move list of the fast generator for `pos` with the reference under `rules`:
/// - `legal_moves_with_duplicates` has one move per (start, captured pieces in order, end), each listed once,
///   and exactly the reference's;
/// - `legal_moves` has one move per (start, set of captured pieces, end), exactly the reference's;
/// - the route (`path`) of every fast move is one of the reference's routes, taking the same pieces, and its
///   `crowns` flag is the reference's;
/// - playing each merged move gives the board the reference's route leads to;
/// - `must_capture` says whether the reference found a capture.
///
/// Returns the first difference found, with the FEN.
pub fn compare_position<R: RuleSet>(rules: &RefRules, pos: &Position<R>) -> Result<(), String> {
    compare(rules, pos)
}

fn compare(rules: &RefRules, pos: &dyn FastPosition) -> Result<(), String> {
    let fen = Fen(pos);
    let board = pos.board();
    let routes = legal_routes(rules, &board);
    let mut by_route: BTreeMap<(u32, Vec<u32>), &RefMove> = BTreeMap::new();
    for r in &routes {
        // A route (start and landing squares) determines the pieces taken, since between two landings a piece
        // jumps exactly one piece; so no route can be found twice.
        let previous = by_route.insert((r.from, r.path.clone()), r);
        ensure!(
            previous.is_none(),
            "the reference found a route twice in {fen}: {r:?}"
        );
    }
    let find = |m: &Move| -> Result<&RefMove, String> {
        let Some(found) = by_route.get(&route_of(m)) else {
            let all: Vec<String> = routes.iter().map(RefMove::text).collect();
            return Err(format!(
                "the fast move {m:?} is not a legal route in {fen}; the reference has {all:?}"
            ));
        };
        let fast_captured: BTreeSet<u32> = m.captured().map(|s| s.number()).collect();
        let captured: BTreeSet<u32> = found.captured.iter().copied().collect();
        ensure!(
            fast_captured == captured,
            "the fast move {m:?} takes {fast_captured:?} in {fen}, but that route takes {captured:?}"
        );
        ensure!(
            m.crowns() == found.crowns,
            "the fast move {m:?} crowns: {}, in {fen}; the reference: {}",
            m.crowns(),
            found.crowns
        );
        Ok(found)
    };

    let mut fast_order = BTreeSet::new();
    for m in &pos.moves_with_duplicates() {
        let key = find(m)?.order_key();
        ensure!(
            fast_order.insert(key.clone()),
            "the fast generator lists {key:?} twice (with duplicates) in {fen}"
        );
    }
    let reference_order = routes.iter().map(RefMove::order_key).collect();
    same_keys(
        "moves by order of capture",
        fen,
        &reference_order,
        &fast_order,
    )?;

    let mut fast_set = BTreeSet::new();
    for m in &pos.merged_moves() {
        let route = find(m)?;
        let key = route.set_key();
        ensure!(
            fast_set.insert(key.clone()),
            "the fast generator lists {key:?} twice (merged) in {fen}"
        );
        ensure!(
            pos.after(m).board() == board.after(route),
            "playing {m:?} in {fen} leads elsewhere than the reference's route"
        );
    }
    // Merging by (start, set, end) is only sound if every route in a group has the same effect; one that
    // crowned on the way and one that did not would be two moves for a player.
    let mut effects: BTreeMap<SetKey, &RefMove> = BTreeMap::new();
    for r in &routes {
        let first = *effects.entry(r.set_key()).or_insert(r);
        ensure!(
            first.crowns == r.crowns,
            "{} and {} take the same pieces to the same square in {fen}, but only one crowns: \
             merging them loses a move",
            first.text(),
            r.text()
        );
    }
    let reference_set = effects.into_keys().collect();
    same_keys("merged moves", fen, &reference_set, &fast_set)?;

    let capture = routes.iter().any(RefMove::is_capture);
    ensure!(
        pos.must_capture() == capture,
        "must_capture is {} in {fen}; the reference finds {}",
        pos.must_capture(),
        if capture { "a capture" } else { "none" }
    );
    Ok(())
}

/// [`compare_position`], panicking on a difference (which proptest then shrinks).
#[track_caller]
pub fn check_position<R: RuleSet>(rules: &RefRules, pos: &Position<R>) {
    check(rules, pos);
}

#[track_caller]
fn check(rules: &RefRules, pos: &dyn FastPosition) {
    if let Err(difference) = compare(rules, pos) {
        panic!("{difference}");
    }
}

/// Checks [`check_position`] at every node of the tree of merged legal moves from `pos` down to `depth` plies
/// (the root and every leaf included). Returns the number of nodes checked.
pub fn check_tree<R: RuleSet>(rules: &RefRules, pos: &Position<R>, depth: u32) -> u64 {
    check_subtree(rules, pos, depth)
}

fn check_subtree(rules: &RefRules, pos: &dyn FastPosition, depth: u32) -> u64 {
    check(rules, pos);
    if depth == 0 {
        return 1;
    }
    1 + pos
        .merged_moves()
        .iter()
        .map(|m| check_subtree(rules, pos.after(m).as_ref(), depth - 1))
        .sum::<u64>()
}
