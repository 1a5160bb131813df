//! Where everything goes on a screen of a given size: the panes, the board's square size, and which square a
//! screen cell belongs to (for the mouse).

use ratatui::layout::Rect;

use crate::rules::{Geometry, Square};

/// The smallest screen a board is drawn on (the smallest squares beside the narrowest history), as width and
/// height; below it an "enlarge the window" screen is shown instead. 51x15 for 8x8, 69x21 for 14x14: every
/// board fits an 80x24 terminal.
pub const fn min_size(board: Geometry) -> (u16, u16) {
    let side = board.width as u16;
    (
        pane_width(side, SMALLEST.0) + HISTORY_MIN_WIDTH,
        board.height as u16 * SMALLEST.1 + 3 + BOTTOM_ROWS,
    )
}

const SMALLEST: (u16, u16) = SQUARE_SIZES[SQUARE_SIZES.len() - 1];

/// Square sizes in terminal cells (width, height), largest first. Terminal cells are about twice as tall as
/// they are wide, so these are roughly square on screen. The largest fill a big screen's height (a 200x60
/// terminal gets 12x6 squares).
const SQUARE_SIZES: [(u16, u16); 9] = [
    (16, 8),
    (14, 7),
    (12, 6),
    (10, 5),
    (8, 4),
    (6, 3),
    (5, 2),
    (4, 2),
    (3, 1),
];

/// The narrowest the move history may become before the board takes a smaller square size.
const HISTORY_MIN_WIDTH: u16 = 22;

/// Columns left of the squares for the rank labels.
const RANK_LABEL_WIDTH: u16 = 2;

/// Rows under the status line: the status line itself and the bordered input box.
const BOTTOM_ROWS: u16 = 4;

/// The parts of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenLayout {
    /// The board pane, border included.
    pub board_pane: Rect,
    /// The top-left cell of the top-left square.
    pub squares_origin: (u16, u16),
    /// One square's width and height in cells.
    pub square_size: (u16, u16),
    /// The move-history pane, border included.
    pub history: Rect,
    /// The status line: two rows when the board leaves one spare under it (a long message wraps), one on the
    /// smallest screens.
    pub status: Rect,
    /// The input box, border included.
    pub input: Rect,
    /// The board drawn.
    pub board: Geometry,
}

impl ScreenLayout {
    /// The layout of a screen of this size for a board, or `None` if it is smaller than the minimum.
    pub fn new(area: Rect, board: Geometry) -> Option<ScreenLayout> {
        let (min_width, min_height) = min_size(board);
        if area.width < min_width || area.height < min_height {
            return None;
        }
        let (side, rows) = (board.width as u16, board.height as u16);
        let main_height = area.height - BOTTOM_ROWS;
        // Inside the board pane's border: the squares, then a row of file labels.
        let rows_for_squares = main_height.saturating_sub(3);
        let (square_w, square_h) = SQUARE_SIZES.into_iter().find(|&(w, h)| {
            rows * h <= rows_for_squares && pane_width(side, w) + HISTORY_MIN_WIDTH <= area.width
        })?;
        let board_pane = Rect::new(
            area.x,
            area.y,
            pane_width(side, square_w),
            (rows * square_h + 3).min(main_height),
        );
        // A row the board does not need goes to the status line, so that a long message can wrap.
        let status_rows = if board_pane.height < main_height {
            2
        } else {
            1
        };
        let history = Rect::new(
            board_pane.right(),
            area.y,
            area.width - board_pane.width,
            main_height + 1 - status_rows,
        );
        Some(ScreenLayout {
            board_pane,
            squares_origin: (board_pane.x + 1 + RANK_LABEL_WIDTH, board_pane.y + 1),
            square_size: (square_w, square_h),
            history,
            status: Rect::new(area.x, history.bottom(), area.width, status_rows),
            input: Rect::new(area.x, area.y + main_height + 1, area.width, 3),
            board,
        })
    }

    /// The cells of the square at diagram row and column (as shown on screen, after any flip).
    pub fn square_rect(&self, screen_row: u16, screen_col: u16) -> Rect {
        let (w, h) = self.square_size;
        Rect::new(
            self.squares_origin.0 + screen_col * w,
            self.squares_origin.1 + screen_row * h,
            w,
            h,
        )
    }

    /// The playable square under a screen cell, if any, for a board shown `flipped` or not.
    pub fn square_at(&self, x: u16, y: u16, flipped: bool) -> Option<Square> {
        let (w, h) = self.square_size;
        let col = x.checked_sub(self.squares_origin.0)? / w;
        let row = y.checked_sub(self.squares_origin.1)? / h;
        if col >= self.board.width.into() || row >= self.board.height.into() {
            return None;
        }
        let (row, col) = self.board_row_col(row, col, flipped);
        self.board.at(row.into(), col.into())
    }

    /// The board row and column shown at a screen row and column (the same pair back when applied twice).
    pub fn board_row_col(&self, screen_row: u16, screen_col: u16, flipped: bool) -> (u16, u16) {
        if flipped {
            (
                u16::from(self.board.height) - 1 - screen_row,
                u16::from(self.board.width) - 1 - screen_col,
            )
        } else {
            (screen_row, screen_col)
        }
    }
}

/// Border, rank labels, squares, one spare column.
const fn pane_width(side: u16, square_w: u16) -> u16 {
    2 + RANK_LABEL_WIDTH + side * square_w + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const EIGHT: Geometry = Geometry::EIGHT;
    const SIDE: u16 = 8;

    #[test]
    fn the_board_grows_with_the_screen_and_stays_roughly_square() {
        let (min_width, min_height) = min_size(EIGHT);
        let at = |w, h| ScreenLayout::new(Rect::new(0, 0, w, h), EIGHT).map(|l| l.square_size);
        assert_eq!(at(80, 24), Some((5, 2)));
        assert_eq!(at(120, 40), Some((8, 4)));
        assert_eq!(at(200, 60), Some((12, 6)), "a big screen's height is used");
        assert_eq!(at(400, 100), Some((16, 8)));
        assert_eq!(at(100, 32), Some((6, 3)));
        assert_eq!(at(min_width, min_height), Some((3, 1)));
        assert_eq!(at(min_width - 1, 40), None);
        assert_eq!(at(200, min_height - 1), None);
        // A cell is about twice as tall as it is wide: two to three columns a row is roughly square.
        for (w, h) in SQUARE_SIZES {
            assert!(2 * h <= w && w <= 3 * h, "{w}x{h}");
        }
    }

    #[test]
    fn every_board_fits_80x24_and_its_minimum_is_its_own() {
        for size in [6u8, 8, 10, 12, 14] {
            let board = Geometry::square(size);
            let (w, h) = min_size(board);
            assert!(w <= 80 && h <= 24, "{size}: {w}x{h}");
            assert!(ScreenLayout::new(Rect::new(0, 0, w, h), board).is_some());
            assert!(ScreenLayout::new(Rect::new(0, 0, w - 1, h), board).is_none());
            assert!(ScreenLayout::new(Rect::new(0, 0, w, h - 1), board).is_none());
            let l = ScreenLayout::new(Rect::new(0, 0, 80, 24), board).expect("fits");
            let last = l.square_rect(u16::from(size) - 1, u16::from(size) - 1);
            assert!(last.right() < l.board_pane.right() && last.bottom() < l.board_pane.bottom());
            let big = ScreenLayout::new(Rect::new(0, 0, 120, 40), board).expect("fits");
            assert!(
                big.square_size.0 > l.square_size.0,
                "{size}: the board grows"
            );
        }
        assert_eq!(min_size(Geometry::EIGHT), (51, 15));
    }

    #[test]
    fn panes_tile_the_screen() {
        let (min_width, min_height) = min_size(EIGHT);
        for (w, h) in [(80, 24), (min_width, min_height), (133, 41), (300, 90)] {
            let area = Rect::new(0, 0, w, h);
            let l = ScreenLayout::new(area, EIGHT).expect("big enough");
            assert_eq!(l.board_pane.width + l.history.width, w);
            assert_eq!(l.history.height + l.status.height + l.input.height, h);
            assert!(l.board_pane.height <= l.history.height);
            assert_eq!(l.status.y, l.history.bottom());
            assert_eq!(l.input.y, l.status.bottom());
            let last = l.square_rect(7, 7);
            assert!(last.right() < l.board_pane.right() && last.bottom() < l.board_pane.bottom());
        }
    }

    #[test]
    fn every_playable_cell_maps_back_to_its_square() {
        let l = ScreenLayout::new(Rect::new(0, 0, 80, 24), EIGHT).expect("big enough");
        for flipped in [false, true] {
            for row in 0..SIDE {
                for col in 0..SIDE {
                    let rect = l.square_rect(row, col);
                    let (br, bc) = l.board_row_col(row, col, flipped);
                    let expected = EIGHT.at(br.into(), bc.into());
                    for (x, y) in [(rect.x, rect.y), (rect.right() - 1, rect.bottom() - 1)] {
                        assert_eq!(l.square_at(x, y, flipped), expected);
                    }
                }
            }
        }
        assert_eq!(l.square_at(0, 0, false), None);
        assert_eq!(l.square_at(79, 23, false), None);
    }
}
