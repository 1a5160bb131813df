//! Proofs: whether the side to move wins, loses or draws a position, proved exactly, never guessed.
//!
//! A win is proved by a full-width AND/OR search (every reply of the loser is searched, nothing is pruned or
//! reduced) down to a position where the loser has no move, or to a position the endgame databases decide. A
//! draw is only ever proved by the databases: a search that finds no win has proved nothing. A search that runs
//! out of depth or of its node budget answers [`Verdict::Unknown`], and a position so judged is never offered.
//!
//! The search does not see repetitions or the 40-move rule. A win is still a win under them: the line it
//! proves takes the fastest way (every winning move chosen lowers the distance), so it repeats no position, and
//! the depths searched are far below 80 plies.

use std::collections::HashMap;
use std::sync::Arc;

use crate::engine::egdb::{DbValue, Egdb};
use crate::rules::{Move, Position};

/// Plies a proof searches by default.
pub const PROOF_DEPTH: u32 = 41;
/// Positions a proof visits at most by default: a few tenths of a second.
pub const PROOF_NODES: u64 = 400_000;

/// What is proved of a position, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins by force: within this many plies by search, or the databases say so.
    Win(Distance),
    /// The side to move loses by force.
    Loss(Distance),
    /// The databases prove the position a draw.
    Draw,
    /// Nothing could be proved within the depth and node budget.
    Unknown,
}

/// How far a forced result is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Distance {
    /// Plies to the end of the game, by search.
    Plies(u32),
    /// The databases decide it (with their distance to the next conversion, in plies).
    Database(u16),
}

impl Distance {
    /// A number that orders distances for the loser's choice: the longer resistance is the larger; a database
    /// result counts as far (the search does not see its end).
    fn length(self) -> u32 {
        match self {
            Distance::Plies(p) => p,
            Distance::Database(d) => 1000 + u32::from(d),
        }
    }
}

/// What a proof has learned of a position: the shallowest depth a win (or loss) is proved within, and the
/// deepest one it is known not to be.
#[derive(Clone, Copy, Debug, Default)]
struct Known {
    win_within: Option<u32>,
    no_win_within: Option<u32>,
    loss_within: Option<u32>,
    no_loss_within: Option<u32>,
}

/// The budget ran out.
struct OutOfNodes;

/// Proves the results of English positions, with the endgame databases when there are some. It remembers what
/// it has proved, so the trainer's questions about one problem cost little after the first.
#[derive(Clone, Debug)]
pub struct Prover {
    egdb: Option<Arc<Egdb>>,
    known: HashMap<Position, Known>,
    nodes: u64,
    budget: u64,
    depth: u32,
}

impl Prover {
    /// A prover searching [`PROOF_DEPTH`] plies and [`PROOF_NODES`] positions a question, with these databases.
    pub fn new(egdb: Option<Arc<Egdb>>) -> Prover {
        Prover::with_limits(egdb, PROOF_DEPTH, PROOF_NODES)
    }

    /// A prover with its own depth (plies) and node budget for each question.
    pub fn with_limits(egdb: Option<Arc<Egdb>>, depth: u32, nodes: u64) -> Prover {
        Prover {
            egdb,
            known: HashMap::new(),
            nodes: 0,
            budget: nodes,
            depth,
        }
    }

    /// Forgets what it has proved (a new problem: each is proved alone, so that its proof does not depend on
    /// which others came before it).
    pub fn forget(&mut self) {
        self.known.clear();
    }

    /// Positions it remembers the proofs of.
    pub fn remembered(&self) -> usize {
        self.known.len()
    }

    /// Whether the prover has databases to prove draws with.
    pub fn has_databases(&self) -> bool {
        self.egdb.is_some()
    }

    fn probe(&self, pos: &Position) -> Option<DbValue> {
        self.egdb.as_ref().and_then(|db| db.probe(pos))
    }

    /// What is proved of `pos` for its side to move.
    pub fn verdict(&mut self, pos: &Position) -> Verdict {
        if pos.legal_moves().is_empty() {
            return Verdict::Loss(Distance::Plies(0));
        }
        match self.probe(pos) {
            Some(DbValue::Win(d)) => return Verdict::Win(Distance::Database(d)),
            Some(DbValue::Loss(d)) => return Verdict::Loss(Distance::Database(d)),
            Some(DbValue::Draw) => return Verdict::Draw,
            None => {}
        }
        self.nodes = 0;
        // Iterative deepening: the first depth that proves is the distance, so lines take the fastest way.
        for d in 1..=self.depth {
            match self.wins_within(pos, d) {
                Ok(true) => return Verdict::Win(Distance::Plies(d)),
                Ok(false) => {}
                Err(OutOfNodes) => return Verdict::Unknown,
            }
            match self.loses_within(pos, d) {
                Ok(true) => return Verdict::Loss(Distance::Plies(d)),
                Ok(false) => {}
                Err(OutOfNodes) => return Verdict::Unknown,
            }
        }
        Verdict::Unknown
    }

    fn count(&mut self) -> Result<(), OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(OutOfNodes)
        } else {
            Ok(())
        }
    }

    /// Whether the side to move wins within `d` plies (the last one the loser's, with no move left).
    fn wins_within(&mut self, pos: &Position, d: u32) -> Result<bool, OutOfNodes> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(false);
        }
        if let Some(v) = self.probe(pos) {
            return Ok(matches!(v, DbValue::Win(_)));
        }
        if d < 2 {
            // A win needs our move and then the loser's turn with nothing to play.
            if d == 1 {
                return Ok(moves.iter().any(|m| pos.play(m).legal_moves().is_empty()));
            }
            return Ok(false);
        }
        let known = self.known.get(pos).copied().unwrap_or_default();
        if known.win_within.is_some_and(|w| w <= d) {
            return Ok(true);
        }
        if known.no_win_within.is_some_and(|n| n >= d) {
            return Ok(false);
        }
        self.count()?;
        let mut children: Vec<(usize, Position)> = moves
            .iter()
            .map(|m| {
                let child = pos.play(m);
                (child.legal_moves().len(), child)
            })
            .collect();
        // The replies that leave the loser least to choose from first: forcing moves prove fastest.
        children.sort_by_key(|(n, _)| *n);
        let mut won = false;
        for (_, child) in &children {
            if self.loses_within(child, d - 1)? {
                won = true;
                break;
            }
        }
        let entry = self.known.entry(*pos).or_default();
        if won {
            entry.win_within = Some(entry.win_within.map_or(d, |w| w.min(d)));
        } else {
            entry.no_win_within = Some(entry.no_win_within.map_or(d, |n| n.max(d)));
        }
        Ok(won)
    }

    /// Whether the side to move loses within `d` plies: it has no move, or every move lets the other side win
    /// within `d - 1`.
    fn loses_within(&mut self, pos: &Position, d: u32) -> Result<bool, OutOfNodes> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(true);
        }
        if let Some(v) = self.probe(pos) {
            return Ok(matches!(v, DbValue::Loss(_)));
        }
        if d < 2 {
            return Ok(false);
        }
        let known = self.known.get(pos).copied().unwrap_or_default();
        if known.loss_within.is_some_and(|w| w <= d) {
            return Ok(true);
        }
        if known.no_loss_within.is_some_and(|n| n >= d) {
            return Ok(false);
        }
        self.count()?;
        let mut lost = true;
        for m in &moves {
            if !self.wins_within(&pos.play(m), d - 1)? {
                lost = false;
                break;
            }
        }
        let entry = self.known.entry(*pos).or_default();
        if lost {
            entry.loss_within = Some(entry.loss_within.map_or(d, |w| w.min(d)));
        } else {
            entry.no_loss_within = Some(entry.no_loss_within.map_or(d, |n| n.max(d)));
        }
        Ok(lost)
    }

    /// Whether playing `mv` in `pos` keeps `goal` for the side to move: after a move that keeps a win, the
    /// other side is proved lost; after one that keeps a draw, it is proved unable to win (a database draw or
    /// loss).
    pub fn keeps(&mut self, pos: &Position, mv: &Move, goal: ProblemGoal) -> bool {
        let after = self.verdict(&pos.play(mv));
        match goal {
            ProblemGoal::Win => matches!(after, Verdict::Loss(_)),
            ProblemGoal::Draw => matches!(after, Verdict::Loss(_) | Verdict::Draw),
        }
    }

    /// Whether `mv` is proved to let `goal` go: after it the other side wins or (against a win) holds a
    /// database draw, or (against a win, without databases) a complete search proves the other side not lost
    /// within the prover's depth.
    pub fn refutes(&mut self, pos: &Position, mv: &Move, goal: ProblemGoal) -> bool {
        let child = pos.play(mv);
        match (goal, self.verdict(&child)) {
            (_, Verdict::Win(_)) => true,
            (ProblemGoal::Win, Verdict::Draw) => true,
            (ProblemGoal::Win, Verdict::Unknown) => {
                self.nodes = 0;
                matches!(self.loses_within(&child, self.depth), Ok(false))
            }
            _ => false,
        }
    }

    /// The moves of `pos` that keep `goal`.
    pub fn keeping_moves(&mut self, pos: &Position, goal: ProblemGoal) -> Vec<Move> {
        pos.legal_moves()
            .iter()
            .filter(|m| self.keeps(pos, m, goal))
            .copied()
            .collect()
    }

    /// The move that keeps `goal` fastest (a win by the shortest way; a draw by any move that keeps it).
    pub fn solving_move(&mut self, pos: &Position, goal: ProblemGoal) -> Option<Move> {
        let mut best: Option<(u32, Move)> = None;
        for m in &pos.legal_moves() {
            let after = self.verdict(&pos.play(m));
            let length = match (goal, after) {
                (_, Verdict::Loss(d)) => d.length(),
                (ProblemGoal::Draw, Verdict::Draw) => u32::MAX,
                _ => continue,
            };
            if best.is_none_or(|(b, _)| length < b) {
                best = Some((length, *m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// The defence in `pos`, where the side to move faces `goal` of the other side: against a win, the move
    /// that holds out longest; against a draw, a move that keeps the draw in hand and leaves the solver the
    /// fewest moves that hold it. `None` when no move is left.
    pub fn defence(&mut self, pos: &Position, goal: ProblemGoal) -> Option<Move> {
        let moves = pos.legal_moves();
        let mut best: Option<(i64, Move)> = None;
        for m in &moves {
            let child = pos.play(m);
            let worth = match (goal, self.verdict(&child)) {
                // A slip that lets the solver's goal go: the defender takes it.
                (_, Verdict::Loss(d)) => 1_000_000 + i64::from(d.length()),
                (ProblemGoal::Win, Verdict::Draw | Verdict::Unknown) => 900_000,
                (ProblemGoal::Win, Verdict::Win(d)) => i64::from(d.length()),
                (ProblemGoal::Draw, Verdict::Draw) => {
                    -(self.keeping_moves(&child, ProblemGoal::Draw).len() as i64)
                }
                (ProblemGoal::Draw, _) => -1_000,
            };
            if best.is_none_or(|(b, _)| worth > b) {
                best = Some((worth, *m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// The line that proves `pos`'s verdict for its side to move, up to `plies` moves: the winner's fastest
    /// moves against the loser's longest defence (through the databases once they decide), or a database draw's
    /// best moves. Empty when nothing is proved.
    pub fn line(&mut self, pos: &Position, plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = *pos;
        // The side whose result the line shows, and what it is.
        let goal = match self.verdict(pos) {
            Verdict::Win(_) => ProblemGoal::Win,
            Verdict::Draw => ProblemGoal::Draw,
            Verdict::Loss(_) => {
                // The loser's best defence first, then the winner's line.
                let Some(m) = self.defence(pos, ProblemGoal::Win) else {
                    return line;
                };
                line.push(m);
                at = at.play(&m);
                ProblemGoal::Win
            }
            Verdict::Unknown => return line,
        };
        let mover = at.side_to_move();
        while line.len() < plies {
            let next = if at.side_to_move() == mover {
                self.solving_move(&at, goal)
            } else {
                self.defence(&at, goal)
            };
            let Some(m) = next else { break };
            line.push(m);
            at = at.play(&m);
        }
        line
    }
}

/// What the side to move is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemGoal {
    /// Play and win.
    Win,
    /// Play and draw.
    Draw,
}

impl ProblemGoal {
    /// `win` or `draw`, as the problem's heading writes it.
    pub fn word(self) -> &'static str {
        match self {
            ProblemGoal::Win => "win",
            ProblemGoal::Draw => "draw",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{SquareStyle, parse_fen, write_move};

    fn pos(fen: &str) -> Position {
        parse_fen(fen).unwrap()
    }

    fn names(p: &Position, moves: &[Move]) -> Vec<String> {
        moves
            .iter()
            .map(|m| write_move(p, m, SquareStyle::Numbers))
            .collect()
    }

    /// The tables of up to three pieces, built in a scratch folder.
    fn three() -> Arc<Egdb> {
        let dir = std::env::temp_dir().join(format!("crowned-problems-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        crate::lab::egdb_build::build(&dir, 3, 1, &|_| {}, &mut |_| {}).unwrap();
        Arc::new(Egdb::open(&dir).unwrap())
    }

    #[test]
    fn taking_the_last_piece_is_a_win_in_one_ply() {
        let p = pos("B:W18:B14");
        assert_eq!(
            Prover::new(None).verdict(&p),
            Verdict::Win(Distance::Plies(1))
        );
        // And the side left without a move has lost.
        let after = p.play(&p.legal_moves()[0]);
        assert_eq!(
            Prover::new(None).verdict(&after),
            Verdict::Loss(Distance::Plies(0))
        );
    }

    #[test]
    fn goulds_twelfth_is_won_by_one_move_only() {
        // White kings 17 and 27 against a man on 18 and kings on 29 and 30: 17-22 gives the king away, 18x25,
        // and 27-23 then wins both kings (Gould's problem 12).
        let p = pos("W:WK17,K27:B18,K29,K30");
        let mut prover = Prover::new(None);
        assert!(matches!(
            prover.verdict(&p),
            Verdict::Win(Distance::Plies(_))
        ));
        let keeping = prover.keeping_moves(&p, ProblemGoal::Win);
        assert_eq!(names(&p, &keeping), ["17-22"]);
        for m in &p.legal_moves() {
            if !keeping.contains(m) {
                assert!(
                    prover.refutes(&p, m, ProblemGoal::Win),
                    "{}",
                    names(&p, &[*m])[0]
                );
            }
        }
        // The proved line starts with the key move and ends with White's win.
        let line = prover.line(&p, 60);
        assert_eq!(names(&p, &line[..1]), ["17-22"]);
        let end = line.iter().fold(p, |at, m| at.play(m));
        assert!(end.legal_moves().is_empty() && end.side_to_move() == crate::rules::Color::Black);
    }

    #[test]
    fn a_draw_is_proved_only_by_the_databases() {
        // One king each: no search proves the draw; the databases do.
        let p = pos("B:WK32:BK1");
        assert_eq!(Prover::new(None).verdict(&p), Verdict::Unknown);
        let mut prover = Prover::new(Some(three()));
        assert_eq!(prover.verdict(&p), Verdict::Draw);
        // Every move keeps it, and the defence answers with one that does too.
        assert_eq!(
            prover.keeping_moves(&p, ProblemGoal::Draw).len(),
            p.legal_moves().len()
        );
        let reply = prover.defence(&p.play(&p.legal_moves()[0]), ProblemGoal::Draw);
        assert!(reply.is_some());
    }

    #[test]
    fn the_defence_holds_out_longest() {
        // Along the proved line of Gould's ninth, the first position where the loser has a choice.
        let start = pos("W:WK18,26:B9,K16");
        let mut prover = Prover::new(None);
        let line = prover.line(&start, 40);
        let mut p = start;
        for m in &line {
            p = p.play(m);
            if p.side_to_move() == crate::rules::Color::Black && p.legal_moves().len() > 1 {
                break;
            }
        }
        assert!(p.legal_moves().len() > 1);
        let defence = prover.defence(&p, ProblemGoal::Win).unwrap();
        let length = |prover: &mut Prover, m: &Move| match prover.verdict(&p.play(m)) {
            Verdict::Win(d) => d.length(),
            other => panic!("{other:?}"),
        };
        let chosen = length(&mut prover, &defence);
        for m in &p.legal_moves() {
            assert!(length(&mut prover, m) <= chosen);
        }
    }
}
