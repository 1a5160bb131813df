//! Moves shown as the piece stepping along its path: each landing square in turn, each taken piece vanishing as
//! it is jumped. The game itself has already changed when an animation starts; only the picture lags behind, so
//! nothing here ever delays the player or the engine, and any key ends the animation at once.

use std::collections::VecDeque;

use crate::rules::{AnyPosition, Geometry, Move, Square};

/// One move being shown: the position before it, the move, and how far along it the picture is.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shown {
    before: AnyPosition,
    mv: Move,
    /// The landings shown so far: 0 shows the piece on its starting square.
    frame: usize,
}

/// The moves waiting to be shown, first the one on show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Animation {
    queue: VecDeque<Shown>,
    /// What the board shows now.
    picture: AnyPosition,
    geometry: Geometry,
}

impl Animation {
    /// Shows `mv` played from `before`, starting with `shown` landings already made (a capture picked jump by
    /// jump has shown its first jumps). `None` when there is nothing left to show.
    pub fn new(
        before: AnyPosition,
        mv: Move,
        shown: usize,
        geometry: Geometry,
    ) -> Option<Animation> {
        let first = Shown {
            before,
            mv,
            frame: shown,
        };
        if first.frame >= mv.path().len() {
            return None;
        }
        let picture = frame(&first, geometry);
        Some(Animation {
            queue: VecDeque::from([first]),
            picture,
            geometry,
        })
    }

    /// Shows `mv`, played from `before`, after the moves already waiting (an engine's quick answer to the
    /// player's move follows it instead of cutting it short).
    pub fn then(&mut self, before: AnyPosition, mv: Move) {
        self.queue.push_back(Shown {
            before,
            mv,
            frame: 0,
        });
    }

    /// The position to draw.
    pub fn picture(&self) -> &AnyPosition {
        &self.picture
    }

    /// The move on show.
    pub fn current(&self) -> Option<&Move> {
        self.queue.front().map(|s| &s.mv)
    }

    /// The squares the move on show has left so far: its start and the pieces taken up to now.
    pub fn trail(&self) -> Vec<Square> {
        let Some(shown) = self.queue.front() else {
            return Vec::new();
        };
        let mut trail = vec![shown.mv.from()];
        trail.extend(taken_by_jumps(&shown.mv, self.geometry, shown.frame));
        trail
    }

    /// The pieces the next step takes off the board: the one it jumps, or on the move's last landing, when
    /// the picture becomes the game itself, any the move has taken that are still drawn.
    pub fn taken_next(&self) -> Vec<Square> {
        let Some(shown) = self.queue.front() else {
            return Vec::new();
        };
        let before = taken_by_jumps(&shown.mv, self.geometry, shown.frame);
        if shown.frame + 1 >= shown.mv.path().len() {
            return shown
                .mv
                .captured()
                .filter(|s| !before.contains(s))
                .collect();
        }
        taken_by_jumps(&shown.mv, self.geometry, shown.frame + 1)
            .into_iter()
            .filter(|s| !before.contains(s))
            .collect()
    }

    /// One step on. Returns `false` once everything has been shown (the board then shows the game itself).
    pub fn advance(&mut self) -> bool {
        let Some(shown) = self.queue.front_mut() else {
            return false;
        };
        shown.frame += 1;
        if shown.frame >= shown.mv.path().len() {
            self.queue.pop_front();
        }
        match self.queue.front() {
            Some(next) => {
                self.picture = frame(next, self.geometry);
                true
            }
            None => false,
        }
    }
}

/// The position `shown.frame` landings into the move: the piece (not yet crowned) on its latest landing, the
/// pieces jumped so far gone.
fn frame(shown: &Shown, geometry: Geometry) -> AnyPosition {
    let mut picture = shown.before;
    let mv = &shown.mv;
    let piece = picture.piece_at(mv.from());
    picture.set_piece(mv.from(), None);
    for square in taken_by_jumps(mv, geometry, shown.frame) {
        picture.set_piece(square, None);
    }
    let at = match shown.frame {
        0 => mv.from(),
        n => mv.path()[n - 1],
    };
    picture.set_piece(at, piece);
    picture
}

/// The pieces taken by the first `jumps` jumps of a capture, in the order they are jumped: the taken square
/// between each landing and the next on their diagonal (any distance apart, for flying kings).
fn taken_by_jumps(mv: &Move, geometry: Geometry, jumps: usize) -> Vec<Square> {
    if !mv.is_capture() {
        return Vec::new();
    }
    let mut taken = Vec::new();
    let mut from = mv.from();
    for &to in mv.path().iter().take(jumps) {
        let between = mv
            .captured()
            .find(|&s| between_on_diagonal(geometry, from, to, s));
        taken.extend(between);
        from = to;
    }
    taken
}

/// Whether `s` lies strictly between `a` and `b` on the diagonal joining them (or the row or column, where a
/// defined variant's pieces take straight).
fn between_on_diagonal(geometry: Geometry, a: Square, b: Square, s: Square) -> bool {
    let (ar, ac) = geometry.row_col(a);
    let (br, bc) = geometry.row_col(b);
    let (sr, sc) = geometry.row_col(s);
    let within = |x: u32, p: u32, q: u32| p.min(q) < x && x < p.max(q);
    let diagonal = within(sr, ar, br) && within(sc, ac, bc) && ar.abs_diff(sr) == ac.abs_diff(sc);
    let straight = (ar == br && sr == ar && within(sc, ac, bc))
        || (ac == bc && sc == ac && within(sr, ar, br));
    diagonal || (geometry.defined.is_some() && straight)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Playable;
    use crate::rules::{English, GameType, MoveText, RuleSet, Strictness};

    fn sq(n: u32) -> Square {
        Square::from_number(n, 32).expect("a square")
    }

    fn find(position: &AnyPosition, text: &str) -> Move {
        let english = English::unwrap(position).expect("an English position");
        MoveText::parse(text, English::GEOMETRY)
            .and_then(|t| t.find(&english, Strictness::Exact))
            .expect("a legal move")
    }

    #[test]
    fn a_double_jump_shows_each_landing_and_each_piece_vanishing() {
        let before = AnyPosition::from_fen(GameType::default(), "B:W18,27:B14").expect("valid");
        let mv = find(&before, "14x23x32");
        let mut animation =
            Animation::new(before, mv, 0, English::GEOMETRY).expect("something to show");
        // First the piece where it starts.
        assert_eq!(animation.picture(), &before);
        assert_eq!(animation.trail(), vec![sq(14)]);
        assert!(animation.advance());
        let picture = animation.picture();
        assert!(picture.piece_at(sq(23)).is_some(), "on its first landing");
        assert!(picture.piece_at(sq(18)).is_none(), "18 taken");
        assert!(picture.piece_at(sq(27)).is_some(), "27 not yet");
        assert_eq!(animation.trail(), vec![sq(14), sq(18)]);
        assert!(
            !animation.advance(),
            "the last landing is the game's own position"
        );
    }

    #[test]
    fn moves_queue_behind_each_other() {
        let start = AnyPosition::start(GameType::default());
        let first = find(&start, "11-15");
        let after = start.play(&first);
        let second = find(&after, "23-19");
        let mut animation = Animation::new(start, first, 0, English::GEOMETRY).expect("a move");
        animation.then(after, second);
        assert!(animation.advance(), "on to the second move");
        assert_eq!(animation.picture(), &after);
        assert_eq!(animation.current(), Some(&second));
        assert!(!animation.advance());
    }

    #[test]
    fn a_move_already_shown_needs_no_animation() {
        let start = AnyPosition::start(GameType::default());
        let mv = find(&start, "11-15");
        assert!(Animation::new(start, mv, 1, English::GEOMETRY).is_none());
    }

    #[test]
    fn flying_kings_take_the_piece_anywhere_between() {
        let g = crate::rules::Russian::GEOMETRY;
        // a1-h8 diagonal on 8x8: a piece on d4 between a1 and f6 is between them, one on g7 is not.
        let a1 = g.at(7, 0).expect("a1");
        let d4 = g.at(4, 3).expect("d4");
        let f6 = g.at(2, 5).expect("f6");
        let g7 = g.at(1, 6).expect("g7");
        assert!(between_on_diagonal(g, a1, f6, d4));
        assert!(!between_on_diagonal(g, a1, f6, g7));
    }
}
