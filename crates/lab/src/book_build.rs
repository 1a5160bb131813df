//! Building an opening book by crowned's own analysis, by drop-out expansion (T. R. Lincke, "Strategies for the
//! automatic construction of opening books", Computers and Games 2000): every move of a book position is
//! searched to a fixed depth; the values are minimaxed through the book; and the next position to add is the one
//! whose line from a root is most worth knowing, that is, the one with the least *drop-out*: the value each side
//! gave away on the way there (how much worse each move of the line is than that side's best) plus a cost for
//! each ply. Lines both sides would play are followed deep; lines that lose much are left early.
//!
//! Each search starts from a cleared engine at a fixed depth on one thread, so the same roots and settings make
//! the same book on any number of threads.

use std::collections::HashMap;
use std::thread;

use crowned_engine::book::Book;
use crowned_engine::{Engine, EngineConfig, Level, Limits, Score, Situation};
use crowned_rules::{English, Move, Position};

/// How a book is built.
#[derive(Clone, Debug)]
pub struct BookPlan {
    /// The depth each move is searched to.
    pub depth: u32,
    /// Positions the book is to hold (each one's moves all searched).
    pub positions: usize,
    /// The drop-out cost of one ply, in hundredths of a man: higher makes a wider, shallower book.
    pub ply_cost: i32,
    /// Threads searching moves at once.
    pub threads: usize,
    /// The engines' setup (databases, evaluation, parameters); its threads are set to one.
    pub engine: EngineConfig,
}

/// A value for a forced or proven result, far above any estimate and ordered by distance.
const PROVEN: i32 = 20_000;

/// A search's score as one number for minimaxing, in hundredths of a man.
fn value_of(score: Score) -> i32 {
    match score {
        Score::Centi(v) => v,
        Score::Win(n) => PROVEN - n.min(1000) as i32,
        Score::Loss(n) => -(PROVEN - n.min(1000) as i32),
        Score::DatabaseWin => PROVEN / 2,
        Score::DatabaseLoss => -PROVEN / 2,
    }
}

/// One book position: each legal move with the position it leads to and its searched value for the mover.
struct Node {
    moves: Vec<(Move, Position<English>, i32)>,
}

/// The book being built.
struct Tree {
    nodes: HashMap<Position<English>, Node>,
}

impl Tree {
    /// The minimaxed value of `pos` for its side to move, if it is in the book; `seen` guards against a cycle of
    /// king moves (a repeated position counts as its searched value).
    fn value(
        &self,
        pos: &Position<English>,
        memo: &mut HashMap<Position<English>, i32>,
    ) -> Option<i32> {
        if let Some(v) = memo.get(pos) {
            return Some(*v);
        }
        let node = self.nodes.get(pos)?;
        // Marked before the children are visited, so that a cycle back here reads the searched values.
        let searched = node.moves.iter().map(|m| m.2).max()?;
        memo.insert(*pos, searched);
        let best = node
            .moves
            .iter()
            .map(|(_, child, searched)| self.value(child, memo).map_or(*searched, |v| -v))
            .max()
            .unwrap_or(searched);
        memo.insert(*pos, best);
        Some(best)
    }

    /// Each move of `pos` with its minimaxed value for the mover.
    fn move_values(
        &self,
        pos: &Position<English>,
        memo: &mut HashMap<Position<English>, i32>,
    ) -> Vec<(Move, i32)> {
        self.nodes.get(pos).map_or_else(Vec::new, |node| {
            node.moves
                .iter()
                .map(|(m, child, searched)| (*m, self.value(child, memo).map_or(*searched, |v| -v)))
                .collect()
        })
    }

    /// The position not yet in the book with the least drop-out from any root, if there is one.
    fn next(&self, roots: &[Position<English>], ply_cost: i32) -> Option<Position<English>> {
        let mut memo = HashMap::new();
        let mut best: Option<(i32, Position<English>)> = None;
        let mut stack: Vec<(Position<English>, i32, u32)> = Vec::new();
        let mut visited: HashMap<Position<English>, i32> = HashMap::new();
        for root in roots {
            if !self.nodes.contains_key(root) {
                // A root not yet searched comes first.
                return Some(*root);
            }
            stack.push((*root, 0, 0));
        }
        while let Some((pos, dropout, ply)) = stack.pop() {
            // A position reached again by a line that gave away as much or more adds nothing.
            if visited.get(&pos).is_some_and(|&d| d <= dropout) || ply > 200 {
                continue;
            }
            visited.insert(pos, dropout);
            let values = self.move_values(&pos, &mut memo);
            let Some(top) = values.iter().map(|v| v.1).max() else {
                continue;
            };
            for ((_, value), (_, child, _)) in values.iter().zip(&self.nodes[&pos].moves) {
                let cost = dropout + (top - value) + ply_cost;
                if self.nodes.contains_key(child) {
                    stack.push((*child, cost, ply + 1));
                } else if !child.legal_moves().is_empty() && best.is_none_or(|(b, _)| cost < b) {
                    best = Some((cost, *child));
                }
            }
        }
        best.map(|(_, pos)| pos)
    }
}

/// Builds a book from `roots` as `plan` says, calling `progress` with the positions done after each.
pub fn build_book(
    roots: &[Position<English>],
    plan: &BookPlan,
    progress: &mut dyn FnMut(usize),
) -> Book {
    let threads = plan.threads.max(1);
    let config = plan.engine.clone().with_threads(1);
    let mut engines: Vec<Engine> = (0..threads)
        .map(|_| Engine::with_config(config.clone()))
        .collect();
    let mut tree = Tree {
        nodes: HashMap::new(),
    };
    while tree.nodes.len() < plan.positions {
        let Some(pos) = tree.next(roots, plan.ply_cost) else {
            break;
        };
        let children: Vec<(Move, Position<English>)> = pos
            .legal_moves()
            .iter()
            .map(|m| (*m, pos.play(m)))
            .collect();
        let values = search_all(&mut engines, &children, plan.depth);
        let moves = children
            .into_iter()
            .zip(values)
            .map(|((m, child), v)| (m, child, v))
            .collect();
        tree.nodes.insert(pos, Node { moves });
        progress(tree.nodes.len());
    }
    let mut book = Book::new(&format!(
        "depth {}, {} positions, ply cost {}",
        plan.depth,
        tree.nodes.len(),
        plan.ply_cost
    ));
    let mut memo = HashMap::new();
    for pos in tree.nodes.keys() {
        book.insert(pos, &tree.move_values(pos, &mut memo));
    }
    book
}

/// The value of each child for the side that moved there, searched by the engines in turn, in parallel.
fn search_all(
    engines: &mut [Engine],
    children: &[(Move, Position<English>)],
    depth: u32,
) -> Vec<i32> {
    let count = engines.len();
    let found: Vec<Vec<(usize, i32)>> = thread::scope(|scope| {
        let handles: Vec<_> = engines
            .iter_mut()
            .enumerate()
            .map(|(k, engine)| {
                let mine: Vec<(usize, Position<English>)> = children
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % count == k)
                    .map(|(i, (_, child))| (i, *child))
                    .collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .map(|(i, child)| {
                            engine.clear();
                            let result = engine.think(
                                &Situation::at(child).into(),
                                Level::Max,
                                &Limits::depth(depth),
                                0,
                                &mut |_| {},
                            );
                            (i, -value_of(result.score))
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut values = vec![0; children.len()];
    for (i, v) in found.into_iter().flatten() {
        values[i] = v;
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(threads: usize) -> BookPlan {
        BookPlan {
            depth: 3,
            positions: 6,
            ply_cost: 10,
            threads,
            engine: EngineConfig::default(),
        }
    }

    #[test]
    fn a_small_book_is_the_same_on_any_threads_and_follows_the_best_lines() {
        let start: Position<English> = Position::start();
        let mut seen = Vec::new();
        let one = build_book(&[start], &plan(1), &mut |n| seen.push(n));
        assert_eq!(seen, (1..=6).collect::<Vec<_>>());
        assert_eq!(one.len(), 6);
        let two = build_book(&[start], &plan(2), &mut |_| {});
        assert_eq!(one.to_text(), two.to_text());
        // The start is in, with every move; its best move's position is in too (the least drop-out).
        let moves = one.moves(&start).expect("the root");
        assert_eq!(moves.len(), start.legal_moves().len());
        let (best, _) = one.best(&start).expect("a best move");
        assert!(one.moves(&start.play(&best)).is_some(), "{}", one.to_text());
        assert_eq!(Book::from_text(&one.to_text()).as_ref(), Ok(&one));
    }
}
