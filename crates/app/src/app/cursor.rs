//! The board cursor. It stands only on playable (dark) squares, so it is never invisible on a light one.
//!
//! Up and Down move along a diagonal, the way the pieces move: one key a step. The cursor keeps the diagonal it
//! last went along, so Up then Down comes back to the square it left, and a man's move or a jump is a straight
//! run of one key. Left and Right go to the next dark square of the row on screen (skipping the light one
//! between) and lean the diagonal their way: after Right, Up goes up and to the right. At the board's edge,
//! where the diagonal ends, Up and Down turn onto the other diagonal and keep to it. Before any lean is chosen,
//! Up and Down take the square nearer the middle of the board. Every step is worked out on the screen, so a
//! turned board moves the way the arrows point.

use crate::rules::{Geometry, Square};

/// A cursor move, as the arrows point on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CursorStep {
    /// Up the screen.
    Up,
    /// Down the screen.
    Down,
    /// Left on the screen.
    Left,
    /// Right on the screen.
    Right,
}

/// The diagonal Up and Down go along, named by where Up goes on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lean {
    /// Up goes up and to the left, Down down and to the right.
    Left,
    /// Up goes up and to the right, Down down and to the left.
    Right,
}

impl Lean {
    /// The screen column step of a move `up` or down along this diagonal.
    fn column_step(self, up: bool) -> i64 {
        match (self, up) {
            (Lean::Left, true) | (Lean::Right, false) => -1,
            (Lean::Right, true) | (Lean::Left, false) => 1,
        }
    }

    fn other(self) -> Lean {
        match self {
            Lean::Left => Lean::Right,
            Lean::Right => Lean::Left,
        }
    }
}

/// Where the cursor is, and the diagonal Up and Down go along. Which way up the board is shown is the caller's
/// to say at each step, so the cursor never holds a copy of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    square: Square,
    /// The diagonal chosen by the last step (none yet after the cursor was put somewhere).
    lean: Option<Lean>,
}

impl Cursor {
    /// The cursor on `square`, with no diagonal chosen yet.
    pub fn on(square: Square, _geometry: Geometry, _flipped: bool) -> Cursor {
        Cursor { square, lean: None }
    }

    /// The square under the cursor.
    pub fn square(self) -> Square {
        self.square
    }

    /// The same square, after the board is turned round (the diagonal chosen is forgotten: it pointed the other
    /// way on screen).
    pub fn turned(self, geometry: Geometry, flipped: bool) -> Cursor {
        Cursor::on(self.square, geometry, flipped)
    }

    /// The cursor one step along on a board shown `flipped` or not; at the edge it stays where it is.
    pub fn step(self, step: CursorStep, geometry: Geometry, flipped: bool) -> Cursor {
        if geometry.defined.is_some() {
            return self.step_straight(step, geometry, flipped);
        }
        let (row, col) = screen(geometry, geometry.row_col(self.square), flipped);
        let (width, height) = (i64::from(geometry.width), i64::from(geometry.height));
        // The dark square at a screen row and column, if there is one.
        let at = |row: i64, col: i64| {
            if !(0..height).contains(&row) || !(0..width).contains(&col) {
                return None;
            }
            let (row, col) = (row as u32, col as u32);
            let board = screen(geometry, (row, col), flipped);
            geometry.at(board.0, board.1)
        };
        let (row, col) = (i64::from(row), i64::from(col));
        match step {
            CursorStep::Left | CursorStep::Right => {
                let (lean, dc) = if step == CursorStep::Left {
                    (Lean::Left, -2)
                } else {
                    (Lean::Right, 2)
                };
                match at(row, col + dc) {
                    Some(square) => Cursor {
                        square,
                        lean: Some(lean),
                    },
                    None => Cursor {
                        lean: Some(lean),
                        ..self
                    },
                }
            }
            CursorStep::Up | CursorStep::Down => {
                let up = step == CursorStep::Up;
                let next_row = if up { row - 1 } else { row + 1 };
                let along =
                    |lean: Lean| at(next_row, col + lean.column_step(up)).map(|s| (s, lean));
                let lean = self.lean.unwrap_or_else(|| {
                    // No diagonal yet: the one whose next square is nearer the middle of the board.
                    let middle = (width - 1) as f64 / 2.0;
                    let off_middle = |lean: Lean| {
                        let c = col + lean.column_step(up);
                        ((c as f64 - middle).abs() * 2.0) as i64
                    };
                    [Lean::Left, Lean::Right]
                        .into_iter()
                        .filter(|&l| along(l).is_some())
                        .min_by_key(|&l| off_middle(l))
                        .unwrap_or(Lean::Left)
                });
                // Where the diagonal ends at the edge, the other one goes on.
                match along(lean).or_else(|| along(lean.other())) {
                    Some((square, lean)) => Cursor {
                        square,
                        lean: Some(lean),
                    },
                    None => self,
                }
            }
        }
    }
}

impl Cursor {
    /// A step on a defined variant's board, whose squares need not alternate (every cell may be one, and holes
    /// leave gaps): left and right to the next square of the row, up and down to the nearest square of the next
    /// row that has one.
    fn step_straight(self, step: CursorStep, geometry: Geometry, flipped: bool) -> Cursor {
        let (row, col) = screen(geometry, geometry.row_col(self.square), flipped);
        let (width, height) = (u32::from(geometry.width), u32::from(geometry.height));
        let at = |row: u32, col: u32| {
            let board = screen(geometry, (row, col), flipped);
            geometry.at(board.0, board.1)
        };
        let found = match step {
            CursorStep::Left => (0..col).rev().find_map(|c| at(row, c)),
            CursorStep::Right => (col + 1..width).find_map(|c| at(row, c)),
            CursorStep::Up | CursorStep::Down => {
                let rows: Box<dyn Iterator<Item = u32>> = if step == CursorStep::Up {
                    Box::new((0..row).rev())
                } else {
                    Box::new(row + 1..height)
                };
                rows.into_iter().find_map(|r| {
                    (0..width)
                        .filter_map(|c| at(r, c).map(|s| (c.abs_diff(col), s)))
                        .min_by_key(|&(distance, _)| distance)
                        .map(|(_, s)| s)
                })
            }
        };
        Cursor {
            square: found.unwrap_or(self.square),
            lean: None,
        }
    }
}

/// A board row and column as shown on screen (turned round when `flipped`); the same map takes screen
/// positions back to the board.
fn screen(geometry: Geometry, (row, col): (u32, u32), flipped: bool) -> (u32, u32) {
    if flipped {
        (
            u32::from(geometry.height) - 1 - row,
            u32::from(geometry.width) - 1 - col,
        )
    } else {
        (row, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Geometry = Geometry::EIGHT;

    fn sq(n: u32) -> Square {
        Square::from_number(n, 32).expect("a square")
    }

    fn walk(start: u32, flipped: bool, steps: &[CursorStep]) -> Vec<u32> {
        let mut cursor = Cursor::on(sq(start), G, flipped);
        steps
            .iter()
            .map(|&s| {
                cursor = cursor.step(s, G, flipped);
                cursor.square().number()
            })
            .collect()
    }

    #[test]
    fn left_and_right_skip_the_light_squares_and_stop_at_the_edge() {
        // Row 6 of the diagram (squares 21-24, a3 c3 e3 g3).
        use CursorStep::{Left, Right};
        assert_eq!(
            walk(21, false, &[Right, Right, Right, Right]),
            [22, 23, 24, 24]
        );
        assert_eq!(walk(22, false, &[Left, Left]), [21, 21]);
    }

    #[test]
    fn up_and_down_go_along_a_diagonal_and_come_back() {
        use CursorStep::{Down, Left, Right, Up};
        // From 22 (c3) with no diagonal yet: up to d4 (18), nearer the middle, then on along that diagonal.
        assert_eq!(walk(22, false, &[Up, Up, Up]), [18, 15, 11]);
        // Up then Down comes back to the square it left, from every square, on both diagonals, either way up.
        for flipped in [false, true] {
            for start in 1..=32 {
                for lean in [None, Some(Lean::Left), Some(Lean::Right)] {
                    let cursor = Cursor {
                        square: sq(start),
                        lean,
                    };
                    for (first, second) in [(Up, Down), (Down, Up)] {
                        let moved = cursor.step(first, G, flipped);
                        if moved.square() != cursor.square() {
                            assert_eq!(
                                moved.step(second, G, flipped).square(),
                                cursor.square(),
                                "{first:?} then {second:?} from {start} ({lean:?}, flipped {flipped})"
                            );
                        }
                    }
                }
            }
        }
        // Right leans the diagonal right: from 22, Right to 23 (e3), Up to f4 (19), Up to g5 (16).
        assert_eq!(walk(22, false, &[Right, Up, Up]), [23, 19, 16]);
        // Left leans it left: from 23, Left to 22 (c3), Up to b4 (17), Up to a5 (13).
        assert_eq!(walk(23, false, &[Left, Up, Up]), [22, 17, 13]);
    }

    #[test]
    fn a_jump_is_a_straight_run_of_one_key() {
        use CursorStep::Up;
        // Black at the bottom (flipped): from 15 a jump over 18 or 19 lands on 22 or 24; Up Up reaches one of
        // them along a diagonal, never the square straight above.
        let run = walk(15, true, &[Up, Up]);
        assert!([22, 24].contains(&run[1]), "{run:?}");
        // From 11, Up then Down comes back to 11.
        let mut cursor = Cursor::on(sq(11), G, true);
        cursor = cursor.step(Up, G, true);
        assert!([15, 16].contains(&cursor.square().number()));
        assert_eq!(cursor.step(CursorStep::Down, G, true).square().number(), 11);
    }

    #[test]
    fn at_the_edge_the_other_diagonal_goes_on() {
        use CursorStep::{Down, Left, Up};
        // From 13 (a5) leaning left, up-left is off the board: Up turns onto the other diagonal (b6, 9) and keeps
        // to it (c7, 6), and Down comes back the same way.
        assert_eq!(
            walk(14, false, &[Left, Up, Up, Down, Down]),
            [13, 9, 6, 9, 13]
        );
        assert_eq!(walk(1, false, &[Up]), [1], "the top edge stops it");
        assert_eq!(walk(29, false, &[Down]), [29], "and the bottom edge");
    }

    #[test]
    fn a_turned_board_moves_the_way_the_arrows_point() {
        use CursorStep::{Left, Right, Up};
        // Turned round, square 11 is on screen row 5 column 2; its left-hand neighbour on screen is 12.
        assert_eq!(walk(11, true, &[Left]), [12]);
        assert_eq!(walk(11, true, &[Right]), [10]);
        // Up the screen is towards White's side, higher numbers.
        assert!([15, 16].contains(&walk(11, true, &[Up])[0]));
    }

    #[test]
    fn every_walk_stays_on_dark_squares() {
        use CursorStep::{Down, Left, Right, Up};
        for geometry in [Geometry::EIGHT, Geometry::TEN] {
            for flipped in [false, true] {
                let mut cursor = Cursor::on(Square::from_index(0), geometry, flipped);
                let mut seen = std::collections::HashSet::new();
                for i in 0..2000u32 {
                    let step = [Up, Right, Down, Left, Up, Up, Left][(i * 7 + i / 3) as usize % 7];
                    cursor = cursor.step(step, geometry, flipped);
                    let (row, col) = geometry.row_col(cursor.square());
                    assert!(geometry.at(row, col).is_some());
                    seen.insert(cursor.square());
                }
                assert!(seen.len() > 4, "it goes places");
            }
        }
    }
}
