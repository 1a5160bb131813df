//! The board cursor. It stands only on playable (dark) squares, so it is never invisible on a light one.
//!
//! Left and Right go to the next dark square of the row on screen (skipping the light one between). Up and Down
//! go to the row above or below and keep as close as they can to the column the player last chose: pressing Up
//! repeatedly climbs the board in a zigzag around that column instead of drifting to one edge, as a straight
//! diagonal would. When two squares are as close, the one nearer the middle of the board wins. Every step is
//! worked out on the screen, so a turned board moves the way the arrows point.

use crate::rules::{Geometry, Square};

/// A cursor move, as the arrows point on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Up the screen.
    Up,
    /// Down the screen.
    Down,
    /// Left on the screen.
    Left,
    /// Right on the screen.
    Right,
}

/// Where the cursor is, and the screen column Up and Down keep to. Which way up the board is shown is the
/// caller's to say at each step, so the cursor never holds a copy of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    square: Square,
    /// The screen column the player last chose (by Left/Right or by putting the cursor somewhere).
    column: u32,
}

impl Cursor {
    /// The cursor on `square` of a board shown `flipped` (turned round) or not.
    pub fn on(square: Square, geometry: Geometry, flipped: bool) -> Cursor {
        let (_, col) = screen(geometry, geometry.row_col(square), flipped);
        Cursor {
            square,
            column: col,
        }
    }

    /// The square under the cursor.
    pub fn square(self) -> Square {
        self.square
    }

    /// The same square, after the board is turned round (the column kept to turns with it).
    pub fn turned(self, geometry: Geometry, flipped: bool) -> Cursor {
        Cursor::on(self.square, geometry, flipped)
    }

    /// The cursor one step along on a board shown `flipped` or not; at the edge it stays where it is.
    pub fn step(self, step: Step, geometry: Geometry, flipped: bool) -> Cursor {
        let (row, col) = screen(geometry, geometry.row_col(self.square), flipped);
        let (width, height) = (u32::from(geometry.width), u32::from(geometry.height));
        let at = |row: u32, col: u32| {
            if row >= height || col >= width {
                return None;
            }
            let board = screen(geometry, (row, col), flipped);
            geometry.at(board.0, board.1)
        };
        match step {
            Step::Left | Step::Right => {
                let col = if step == Step::Left {
                    col.checked_sub(2)
                } else {
                    Some(col + 2).filter(|&c| c < width)
                };
                match col.and_then(|c| at(row, c).map(|s| (s, c))) {
                    Some((square, column)) => Cursor { square, column },
                    None => self,
                }
            }
            Step::Up | Step::Down => {
                let row = if step == Step::Up {
                    row.checked_sub(1)
                } else {
                    Some(row + 1).filter(|&r| r < height)
                };
                let Some(row) = row else {
                    return self;
                };
                // The dark squares of the next row beside this column: one or both of col - 1 and col + 1.
                let middle = f64::from(width - 1) / 2.0;
                let best = [col.checked_sub(1), Some(col + 1)]
                    .into_iter()
                    .flatten()
                    .filter_map(|c| at(row, c).map(|s| (s, c)))
                    .min_by(|a, b| {
                        let key = |c: u32| {
                            (
                                c.abs_diff(self.column),
                                (f64::from(c) - middle).abs() as u32,
                            )
                        };
                        key(a.1).cmp(&key(b.1))
                    });
                match best {
                    Some((square, _)) => Cursor { square, ..self },
                    None => self,
                }
            }
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

    fn walk(start: u32, flipped: bool, steps: &[Step]) -> Vec<u32> {
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
        use Step::{Left, Right};
        assert_eq!(
            walk(21, false, &[Right, Right, Right, Right]),
            [22, 23, 24, 24]
        );
        assert_eq!(walk(22, false, &[Left, Left]), [21, 21]);
    }

    #[test]
    fn up_zigzags_around_the_chosen_column() {
        use Step::{Down, Up};
        // From 22 (c3): up to b4 or d4, the one nearer the middle (d4 = 18), then back to c5 (14), and so on.
        assert_eq!(walk(22, false, &[Up, Up, Up, Up]), [18, 14, 10, 6]);
        // From the a-file the only way up is b4.
        assert_eq!(walk(21, false, &[Up, Up, Up]), [17, 13, 9]);
        assert_eq!(walk(1, false, &[Up]), [1], "the top edge stops it");
        assert_eq!(walk(29, false, &[Down]), [29], "and the bottom edge");
        assert_eq!(walk(6, false, &[Down, Down]), [10, 14]);
    }

    #[test]
    fn a_turned_board_moves_the_way_the_arrows_point() {
        use Step::{Left, Right, Up};
        // Turned round, square 11 is on screen row 5 column 2; its left-hand neighbour on screen is 12.
        assert_eq!(walk(11, true, &[Left]), [12]);
        assert_eq!(walk(11, true, &[Right]), [10]);
        // Up the screen is towards White's side, higher numbers.
        assert_eq!(walk(11, true, &[Up]), [15]);
    }

    #[test]
    fn every_walk_stays_on_dark_squares() {
        use Step::{Down, Left, Right, Up};
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
