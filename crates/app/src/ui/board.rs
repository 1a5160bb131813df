//! The board pane: squares, pieces, edge labels, square numbers and every highlight.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Widget};

use super::theme::{Glyphs as _, PieceStyle};
use super::{Options, pane_block};
use crate::app::ScreenLayout;
use crate::app::{App, BURST_FRAMES, Focus, Mode, Player};
use crate::rules::defined::DefinedBoard;
use crate::rules::{AnyPosition, Color, Piece, Role, Square, SquareStyle};

/// What is marked on the board, worked out once per frame.
struct Marks {
    cursor: Option<Square>,
    /// The piece being moved and where it stands now (they differ during a capture's continuation).
    selected: Option<(Square, Square)>,
    destinations: Vec<Square>,
    must_capture: Vec<Square>,
    taken: Vec<Square>,
    /// The last move on show: where it started, where it ended (`None` while it is still being shown) and the
    /// pieces it took.
    last_from: Option<Square>,
    last_to: Option<Square>,
    last_taken: Vec<Square>,
    /// Where the engine's suggested move starts and ends, while one is on show.
    hint: Vec<Square>,
    /// The capture effect's bursts on the live position: each square with its frame.
    burst: Vec<(Square, usize)>,
}

impl Marks {
    fn of(app: &App) -> Marks {
        let live = matches!(app.mode(), Mode::Play);
        let humans_turn = live
            && app
                .players()
                .of(app.game().position().side_to_move())
                .eq(&Player::Human);
        let picker = app.picker();
        let selected = if humans_turn {
            picker
                .selected()
                .map(|from| (from, picker.at().unwrap_or(from)))
        } else {
            None
        };
        let must_capture = if humans_turn && picker.must_capture() && selected.is_none() {
            picker.movable()
        } else {
            Vec::new()
        };
        let shown_ply = match app.mode() {
            Mode::Browsing { ply } => Some(ply),
            // The position being set up has no last move.
            Mode::Setup(_) => None,
            _ => Some(app.game().ply()),
        };
        let live_picture = matches!(app.mode(), Mode::Play | Mode::Over(_));
        let animation = app.animation().filter(|_| live_picture);
        let (last_from, last_to, last_taken) = match animation {
            // A move being shown leaves a trail: where it started and what it has taken so far.
            Some(animation) => {
                let trail = animation.trail();
                (
                    trail.first().copied(),
                    None,
                    trail[1.min(trail.len())..].to_vec(),
                )
            }
            None => match shown_ply
                .and_then(|ply| ply.checked_sub(1))
                .and_then(|i| app.game().moves().get(i))
            {
                Some(mv) => (Some(mv.from()), Some(mv.to()), mv.captured().collect()),
                None => (None, None, Vec::new()),
            },
        };
        Marks {
            cursor: if app.focus() == Focus::Board {
                app.cursor_square()
            } else {
                None
            },
            selected,
            destinations: if humans_turn {
                picker.destinations()
            } else {
                Vec::new()
            },
            must_capture,
            taken: if humans_turn {
                picker.taken_so_far(&app.game().position())
            } else {
                Vec::new()
            },
            last_from,
            last_to,
            last_taken,
            hint: app
                .hint()
                .map(|hint| vec![hint.mv.from(), hint.mv.to()])
                .unwrap_or_default(),
            burst: if live_picture {
                app.burst().sparks().to_vec()
            } else {
                Vec::new()
            },
        }
    }

    /// The piece drawn on `square`: a capturing piece is shown where it has got to.
    fn piece_on(&self, position: &AnyPosition, square: Square) -> Option<Piece> {
        self.shown_from(square).and_then(|s| position.piece_at(s))
    }

    /// The square whose piece is drawn on `square`, if any: itself, or the start of a capture that has got there.
    fn shown_from(&self, square: Square) -> Option<Square> {
        match self.selected {
            Some((from, at)) if from != at && square == at => Some(from),
            Some((from, at)) if from != at && square == from => None,
            _ => Some(square),
        }
    }
}

/// Draws the board pane.
pub fn draw(buf: &mut Buffer, layout: &ScreenLayout, app: &App, options: &Options) {
    let theme = &options.theme;
    let title = match app.mode() {
        Mode::Browsing { ply: 0 } => " Board · the start ".to_string(),
        Mode::Browsing { ply } => {
            format!(
                " Board · after {} ",
                app.game()
                    .point_text(ply, options.notation_for(app.game().variant()))
            )
        }
        Mode::Over(_) => " Board · game over ".to_string(),
        Mode::Setup(_) => " Board · setting up ".to_string(),
        Mode::Play => " Board ".to_string(),
    };
    let block: Block = pane_block(title, app.focus() == Focus::Board, theme);
    block.render(layout.board_pane, buf);

    let position = app.shown_position();
    let (w, h) = layout.square_size;
    // Square numbers are written only where the game is written in numbers: in the squares when they have room,
    // else at the board's edge (each row's first square, beside it), as lidraughts numbers small boards.
    let numbers = options.square_numbers
        && options.notation_for(app.game().variant()) == SquareStyle::Numbers;
    let numbers_inside = numbers && w >= 4 && h >= 2;
    let mut marks = Marks::of(app);
    if !options.legal_moves {
        marks.destinations.clear();
    }
    let board = layout.board;
    let (width, height) = (u16::from(board.width), u16::from(board.height));
    for screen_row in 0..height {
        for screen_col in 0..width {
            let rect = layout.square_rect(screen_row, screen_col);
            let (row, col) = layout.board_row_col(screen_row, screen_col, app.flipped());
            match board.at(row.into(), col.into()) {
                Some(square) => draw_square(
                    buf,
                    rect,
                    square,
                    &position,
                    &marks,
                    numbers_inside,
                    options,
                ),
                None if board.is_hole(row.into(), col.into()) => draw_hole(buf, rect, options),
                None => buf.set_style(rect, theme.light),
            }
        }
    }

    // Ranks from 1 at the bottom of the board and files from a at the left, as the board is turned; or, when
    // the squares are numbered but too small to show it, the number of each row's first square on screen.
    for screen_row in 0..height {
        let (row, _) = layout.board_row_col(screen_row, 0, app.flipped());
        let y = layout.squares_origin.1 + screen_row * h + h / 2;
        let first_square = (0..width).find_map(|screen_col| {
            let (row, col) = layout.board_row_col(screen_row, screen_col, app.flipped());
            board.at(row.into(), col.into())
        });
        let (label, style) = match first_square {
            Some(square) if numbers && !numbers_inside => {
                (square.number().to_string(), theme.quiet.patch(theme.number))
            }
            _ => ((height - row).to_string(), theme.quiet),
        };
        buf.set_string(layout.board_pane.x + 1, y, label, style);
    }
    let labels_y = layout.squares_origin.1 + height * h;
    for screen_col in 0..width {
        let (_, col) = layout.board_row_col(0, screen_col, app.flipped());
        let x = layout.squares_origin.0 + screen_col * w + w / 2;
        let file = char::from(b'a' + col as u8).to_string();
        buf.set_string(x, labels_y, file, theme.quiet);
    }
}

fn draw_square(
    buf: &mut Buffer,
    rect: Rect,
    square: Square,
    position: &AnyPosition,
    marks: &Marks,
    numbered: bool,
    options: &Options,
) {
    let theme = &options.theme;
    let look = Look::of(square, marks);
    let background = look.background(theme);
    buf.set_style(rect, background);

    let centre_x = rect.x + rect.width / 2;
    let centre_y = rect.y + rect.height / 2;
    if numbered {
        buf.set_string(
            rect.x,
            rect.y,
            square.number().to_string(),
            background.patch(theme.number),
        );
    }
    let piece = marks.piece_on(position, square);
    let taken = marks.taken.contains(&square);
    let (glyph, style) = match piece {
        Some(_) if taken => (options.pieces.taken(), theme.quiet),
        Some(piece) => (
            options.pieces.glyph(piece),
            match piece.color {
                crate::rules::Color::Black => theme.black,
                crate::rules::Color::White => theme.white,
            },
        ),
        None if look.destination => (options.pieces.destination(), Style::new()),
        // The last move's trail, told by marks as well as by colour: where it started, what it took.
        None if marks.last_taken.contains(&square) => (options.pieces.taken(), theme.quiet),
        None if marks.last_from == Some(square) => (options.pieces.departed(), theme.quiet),
        None => (' ', Style::new()),
    };
    // A burst is drawn where the taken piece was, over any mark of the square, never over a piece.
    let burst = marks
        .burst
        .iter()
        .find(|&&(s, _)| s == square)
        .filter(|_| piece.is_none());
    let (glyph, style) = match burst {
        Some(&(_, frame)) if frame + 1 >= BURST_FRAMES => {
            (options.pieces.burst(frame), theme.quiet)
        }
        Some(&(_, frame)) => (options.pieces.burst(frame), theme.burst),
        None => (glyph, style),
    };
    // A defined variant's pieces are drawn as its definition draws them.
    let label = match (position.defined(), marks.shown_from(square)) {
        (Some(board), Some(from)) if piece.is_some() && !taken && burst.is_none() => {
            defined_label(board, from, options.pieces).unwrap_or_else(|| glyph.to_string())
        }
        _ => glyph.to_string(),
    };
    // On big squares a piece is drawn big; its marks stand just outside it.
    let big = piece
        .filter(|_| !taken && position.defined().is_none())
        .filter(|_| options.pieces == PieceStyle::Unicode && rect.width >= 10 && rect.height >= 5);
    let reach = match big {
        Some(piece) => draw_big_piece(buf, rect, piece, background.patch(style)),
        None => {
            buf.set_string(centre_x, centre_y, label, background.patch(style));
            0
        }
    };
    // Marks beside the piece, so that nothing is told by colour alone.
    if look.cursor && look.selected && rect.width >= 5 + 2 * reach {
        // The cursor on the selected piece shows both: its brackets around the selection's, or where the square
        // is too narrow for four marks, a mark of their own.
        buf.set_string(centre_x - reach - 2, centre_y, "[(", background);
        buf.set_string(centre_x + reach + 1, centre_y, ")]", background);
        return;
    }
    if let Some((left, right)) = look.sides(options.pieces).filter(|_| rect.width >= 3) {
        buf.set_string(centre_x - reach - 1, centre_y, left.to_string(), background);
        buf.set_string(
            centre_x + reach + 1,
            centre_y,
            right.to_string(),
            background,
        );
    }
}

/// A hole of a defined board: no square at all, so drawn in the terminal's own colours and filled with a pattern
/// (`░` in Unicode, `#` in ASCII) that tells it from a light square without colour.
fn draw_hole(buf: &mut Buffer, rect: Rect, options: &Options) {
    let fill = match options.pieces {
        PieceStyle::Unicode => "░",
        PieceStyle::Ascii => "#",
    };
    for y in rect.top()..rect.bottom() {
        for x in rect.left()..rect.right() {
            buf.set_string(x, y, fill, Style::new());
        }
    }
}

/// How a defined variant's piece on `square` is drawn: its kind's glyph for its side (Unicode), or its letter,
/// upper case for White and lower for Black (ASCII).
fn defined_label(board: &DefinedBoard, square: Square, style: PieceStyle) -> Option<String> {
    let (color, kind) = board.occupant(square)?;
    let kind = board.entry().rules.kinds.get(kind)?;
    Some(match style {
        PieceStyle::Ascii => kind.letter_of(color).to_string(),
        PieceStyle::Unicode => kind.glyph_of(color).to_string(),
    })
}

/// The marks on one square that set its colour and the brackets beside its piece.
struct Look {
    cursor: bool,
    selected: bool,
    destination: bool,
    must_capture: bool,
    hint: bool,
    /// Where the last move started, ended, or took a piece.
    last_move: bool,
    /// Where the last move ended.
    arrived: bool,
}

impl Look {
    fn of(square: Square, marks: &Marks) -> Look {
        Look {
            cursor: marks.cursor == Some(square),
            selected: marks
                .selected
                .is_some_and(|(from, at)| square == from || square == at),
            destination: marks.destinations.contains(&square),
            must_capture: marks.must_capture.contains(&square),
            hint: marks.hint.contains(&square),
            last_move: marks.last_from == Some(square)
                || marks.last_to == Some(square)
                || marks.last_taken.contains(&square),
            arrived: marks.last_to == Some(square),
        }
    }

    /// The square's colour: the most telling of its marks.
    fn background(&self, theme: &super::theme::Theme) -> Style {
        if self.cursor {
            theme.cursor
        } else if self.selected {
            theme.selected
        } else if self.destination {
            theme.destination
        } else if self.must_capture {
            theme.must_capture
        } else if self.hint {
            theme.hint
        } else if self.last_move {
            theme.dark.patch(theme.last_move)
        } else {
            theme.dark
        }
    }

    /// The marks either side of the piece, the most telling of them.
    fn sides(&self, pieces: PieceStyle) -> Option<(char, char)> {
        if self.cursor && self.selected {
            Some(pieces.held())
        } else if self.cursor {
            Some(('[', ']'))
        } else if self.selected {
            Some(('(', ')'))
        } else if self.must_capture {
            Some(('!', '!'))
        } else if self.hint {
            Some(('{', '}'))
        } else if self.arrived {
            Some(pieces.arrived())
        } else {
            None
        }
    }
}

/// Draws `piece` large in the middle of its square (at least 10x5 cells): a disc three rows tall, filled for
/// Black and drawn as an outline for White, as the small glyphs are, so that the sides differ without colour; a
/// king wears its crown in the middle. Returns how many cells the disc reaches either side of the centre.
fn draw_big_piece(buf: &mut Buffer, rect: Rect, piece: Piece, style: Style) -> u16 {
    let reach: u16 = if rect.width >= 14 { 3 } else { 2 };
    let inner = usize::from(2 * reach - 1);
    let rows = match piece.color {
        Color::Black => [
            format!(" {} ", "▄".repeat(inner)),
            "█".repeat(inner + 2),
            format!(" {} ", "▀".repeat(inner)),
        ],
        Color::White => [
            format!("╭{}╮", "─".repeat(inner)),
            format!("│{}│", " ".repeat(inner)),
            format!("╰{}╯", "─".repeat(inner)),
        ],
    };
    let (centre_x, centre_y) = (rect.x + rect.width / 2, rect.y + rect.height / 2);
    for (row, text) in (centre_y - 1..).zip(rows) {
        buf.set_string(centre_x - reach, row, text, style);
    }
    if piece.role == Role::King {
        let crown = PieceStyle::Unicode.glyph(piece);
        // On the filled disc the crown is cut out of it: the square's colour on the piece's.
        let crown_style = match piece.color {
            Color::Black => style.add_modifier(Modifier::REVERSED),
            Color::White => style,
        };
        buf.set_string(centre_x, centre_y, crown.to_string(), crown_style);
    }
    reach
}
