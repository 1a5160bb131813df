//! Picking a move on the board, square by square: a piece, then each landing square, until the move is whole.
//!
//! This is what the cursor, the mouse and the keyboard all do on the board. A capture with several jumps is
//! picked one jump at a time (the continuation): the piece is held on its last landing square and only its next
//! jumps are offered. Any route of a capture may be followed; routes that take the same pieces to the same end
//! are the same move for the game.

use thiserror::Error;

use crate::game::AnyGame;
use crate::rules::notation::or_list;
use crate::rules::{AnyPosition, Color, Move, MoveList, Square, SquareName};

/// What a pick did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A piece is now selected; its first landing squares are offered.
    Selected(Square),
    /// The selection was dropped.
    Dropped,
    /// A jump was made and the capture goes on from `at`; the next landing squares are offered.
    Continues {
        /// Where the capturing piece stands now.
        at: Square,
    },
    /// The move is whole: play it.
    Complete(Move),
}

/// Why a square cannot be picked. The messages are for the status line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PickError {
    /// Nothing of the side to move stands there.
    #[error("there is no {} piece on {square}", .side.word())]
    NotYours {
        /// The side to move.
        side: Color,
        /// The square picked.
        square: SquareName,
    },
    /// The piece has no legal move.
    #[error("the piece on {0} cannot move")]
    Stuck(SquareName),
    /// A Frisian king that has made three quiet moves in a row while its side has men.
    #[error(
        "the king on {0} has moved three times in a row without capturing: while its side has men, another \
         piece moves now"
    )]
    KingBarred(SquareName),
    /// Another piece must capture.
    #[error("a capture is compulsory: {} must take", or_list(.0))]
    CaptureRequired(Vec<SquareName>),
    /// The piece can capture, but the variant ranks another capture before its own.
    #[error("the piece on {at} may not take: {rule} ({} must take)", or_list(.takers))]
    CaptureBehind {
        /// The piece picked.
        at: SquareName,
        /// The rule in words.
        rule: &'static str,
        /// The pieces whose captures the rule allows.
        takers: Vec<SquareName>,
    },
    /// The selected piece cannot go there next.
    #[error("the piece on {from} cannot go to {square}{}", hint(.options))]
    NotADestination {
        /// Where the piece stands.
        from: SquareName,
        /// The square picked.
        square: SquareName,
        /// Where it can go.
        options: Vec<SquareName>,
    },
    /// The selected piece is the only one that can take: it stays selected.
    #[error("the piece on {at} is the only one that can take: pick where it lands ({})", or_list(.options))]
    OnlyCapturer {
        /// Where it stands.
        at: SquareName,
        /// Where it can land.
        options: Vec<SquareName>,
    },
    /// The capture must go on: nothing else can be picked until it ends.
    #[error("the capture must go on from {at}: {} next", or_list(.options))]
    MustContinue {
        /// Where the capturing piece stands.
        at: SquareName,
        /// Its next landing squares.
        options: Vec<SquareName>,
    },
}

fn hint(options: &[SquareName]) -> String {
    if options.is_empty() {
        String::new()
    } else {
        format!(" (it can go to {})", or_list(options))
    }
}

/// The state of picking a move in one position.
#[derive(Clone, Debug)]
pub struct Picker {
    side: Color,
    /// Every legal route (capture routes with the same effect listed separately, so that any may be followed).
    routes: MoveList,
    from: Option<Square>,
    /// Landing squares picked so far.
    path: Vec<Square>,
    /// A king the game's history bars from a quiet move (Frisian), whose quiet moves are left out.
    barred: Option<Square>,
}

impl Picker {
    /// Picking in `pos`. When only one piece can move and it must capture, it starts selected, as players
    /// expect.
    pub fn new(pos: &AnyPosition) -> Picker {
        let mut picker = Picker {
            side: pos.side_to_move(),
            routes: pos.legal_moves_with_duplicates(),
            from: None,
            path: Vec::new(),
            barred: None,
        };
        if picker.is_forced() {
            picker.from = picker.movable().first().copied();
        }
        picker
    }

    /// Picking at the current point of `game`: the position's routes, less the quiet moves of a king the rules
    /// bar from moving again (Frisian: a king that has made three quiet moves in a row while its side has men),
    /// so that the board never offers a move the game would refuse.
    pub fn for_game(game: &AnyGame) -> Picker {
        let mut picker = Picker::new(&game.position());
        if let Some(king) = game.barred_king() {
            picker.routes.retain(|m| m.is_capture() || m.from() != king);
            picker.barred = Some(king);
        }
        picker
    }

    /// Whether the selection is forced: one piece alone can move, and it must capture (it starts selected).
    pub fn is_forced(&self) -> bool {
        self.must_capture() && self.movable().len() == 1
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        self.routes.iter().any(Move::is_capture)
    }

    /// The pieces that can be picked: those with a legal move (only capturing pieces when a capture is due).
    pub fn movable(&self) -> Vec<Square> {
        let mut squares: Vec<Square> = self.routes.iter().map(Move::from).collect();
        squares.sort();
        squares.dedup();
        squares
    }

    /// The selected piece, if any.
    pub fn selected(&self) -> Option<Square> {
        self.from
    }

    /// The landing squares picked so far in a capture.
    pub fn path(&self) -> &[Square] {
        &self.path
    }

    /// Where the selected piece stands now: its start, or its last landing square in a capture.
    pub fn at(&self) -> Option<Square> {
        self.path.last().copied().or(self.from)
    }

    /// Whether a capture is half made: the piece has jumped and must go on.
    pub fn is_continuing(&self) -> bool {
        !self.path.is_empty()
    }

    /// The squares the selected piece can land on next.
    pub fn destinations(&self) -> Vec<Square> {
        let mut next: Vec<Square> = self
            .following()
            .filter_map(|m| m.path().get(self.path.len()).copied())
            .collect();
        next.sort();
        next.dedup();
        next
    }

    /// The pieces the selected piece has taken along the path picked so far, in order.
    pub fn taken_so_far(&self, pos: &AnyPosition) -> Vec<Square> {
        let g = pos.geometry();
        let Some(route) = self.following().next() else {
            return Vec::new();
        };
        let captured: Vec<Square> = route.captured().collect();
        let mut taken = Vec::new();
        let mut from = route.from();
        for &land in &self.path {
            // The piece taken on a jump is the one of the route's captures on the line between its ends.
            let (r0, c0) = g.row_col(from);
            let (r1, c1) = g.row_col(land);
            let on_the_way = captured.iter().copied().find(|&c| {
                let (r, col) = g.row_col(c);
                let (dr, dc) = (r as i32 - r0 as i32, col as i32 - c0 as i32);
                let (er, ec) = (r1 as i32 - r0 as i32, c1 as i32 - c0 as i32);
                // On the line of the jump (a diagonal, or a row or column on a defined board), short of
                // its end.
                dr * ec == dc * er
                    && dr.signum() == er.signum()
                    && dc.signum() == ec.signum()
                    && dr.abs().max(dc.abs()) < er.abs().max(ec.abs())
            });
            taken.extend(on_the_way.filter(|c| pos.piece_at(*c).is_some()));
            from = land;
        }
        taken
    }

    /// Routes that start like the pick so far.
    fn following(&self) -> impl Iterator<Item = &Move> {
        self.routes
            .iter()
            .filter(move |m| Some(m.from()) == self.from && m.path().starts_with(&self.path))
    }

    /// Drops the selection (and any half-made capture, which was never played).
    pub fn drop_selection(&mut self) {
        self.from = None;
        self.path.clear();
    }

    /// Picks `square`: a piece to move, or where the selected piece goes next.
    pub fn pick(&mut self, pos: &AnyPosition, square: Square) -> Result<Pick, PickError> {
        let name = |square: Square| pos.square_name(square);
        let names = |squares: Vec<Square>| squares.into_iter().map(name).collect::<Vec<_>>();
        if let Some(from) = self.from {
            let destinations = self.destinations();
            if destinations.contains(&square) {
                self.path.push(square);
                let done: Vec<&Move> = self
                    .following()
                    .filter(|m| m.path().len() == self.path.len())
                    .collect();
                if let Some(m) = done.first() {
                    let chosen = **m;
                    self.drop_selection();
                    return Ok(Pick::Complete(chosen));
                }
                return Ok(Pick::Continues { at: square });
            }
            if self.is_continuing() {
                return Err(PickError::MustContinue {
                    at: name(self.at().unwrap_or(from)),
                    options: names(destinations),
                });
            }
            if square == from && self.is_forced() {
                // Dropping it would only leave nothing selected with nothing else to pick.
                return Err(PickError::OnlyCapturer {
                    at: name(from),
                    options: names(destinations),
                });
            }
            if square == from {
                self.drop_selection();
                return Ok(Pick::Dropped);
            }
            let own = pos.piece_at(square).is_some_and(|p| p.color == self.side);
            if !own {
                return Err(PickError::NotADestination {
                    from: name(from),
                    square: name(square),
                    options: names(destinations),
                });
            }
        }
        self.select(pos, square)
    }

    fn select(&mut self, pos: &AnyPosition, square: Square) -> Result<Pick, PickError> {
        if pos.piece_at(square).is_none_or(|p| p.color != self.side) {
            return Err(PickError::NotYours {
                side: self.side,
                square: pos.square_name(square),
            });
        }
        let movable = self.movable();
        if !movable.contains(&square) {
            let takers = || movable.iter().map(|&s| pos.square_name(s)).collect();
            return Err(if let Some(rule) = pos.captures_behind(square) {
                PickError::CaptureBehind {
                    at: pos.square_name(square),
                    rule,
                    takers: takers(),
                }
            } else if self.must_capture() {
                PickError::CaptureRequired(takers())
            } else if self.barred == Some(square) {
                PickError::KingBarred(pos.square_name(square))
            } else {
                PickError::Stuck(pos.square_name(square))
            });
        }
        self.from = Some(square);
        self.path.clear();
        Ok(Pick::Selected(square))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameType, Geometry, SquareStyle, Variant, full_route};

    fn sq(n: u32) -> Square {
        Square::from_number(n, 32).expect("test square")
    }

    fn squares(list: &[Square]) -> Vec<u32> {
        list.iter().map(|s| s.number()).collect()
    }

    fn pos(fen: &str) -> AnyPosition {
        AnyPosition::from_fen(GameType::default(), fen).expect("test FEN")
    }

    #[test]
    fn a_simple_move_in_two_picks() {
        let start = AnyPosition::start(GameType::default());
        let mut p = Picker::new(&start);
        assert_eq!(squares(&p.movable()), [9, 10, 11, 12]);
        assert_eq!(p.selected(), None);
        assert_eq!(p.pick(&start, sq(11)), Ok(Pick::Selected(sq(11))));
        assert_eq!(squares(&p.destinations()), [15, 16]);
        let Ok(Pick::Complete(m)) = p.pick(&start, sq(15)) else {
            panic!("complete");
        };
        assert_eq!(
            full_route(&m, SquareStyle::Numbers, Geometry::EIGHT),
            "11-15"
        );
        assert_eq!(p.selected(), None);
    }

    #[test]
    fn refusals_say_why_and_change_nothing() {
        let start = AnyPosition::start(GameType::default());
        let mut p = Picker::new(&start);
        assert_eq!(
            p.pick(&start, sq(22)).map_err(|e| e.to_string()),
            Err("there is no black piece on 22".into())
        );
        assert_eq!(
            p.pick(&start, sq(15)).map_err(|e| e.to_string()),
            Err("there is no black piece on 15".into())
        );
        assert_eq!(
            p.pick(&start, sq(1)).map_err(|e| e.to_string()),
            Err("the piece on 1 cannot move".into())
        );
        p.pick(&start, sq(9)).expect("selectable");
        assert_eq!(
            p.pick(&start, sq(17)).map_err(|e| e.to_string()),
            Err("the piece on 9 cannot go to 17 (it can go to 13 or 14)".into())
        );
        assert_eq!(
            p.selected(),
            Some(sq(9)),
            "a refused pick keeps the selection"
        );
        // Picking another own piece moves the selection; picking the selected piece drops it.
        assert_eq!(p.pick(&start, sq(10)), Ok(Pick::Selected(sq(10))));
        assert_eq!(p.pick(&start, sq(10)), Ok(Pick::Dropped));
        assert_eq!(p.selected(), None);
    }

    #[test]
    fn compulsory_captures_limit_the_choice() {
        let p0 = pos("B:W18,30:B9,14,15");
        let mut p = Picker::new(&p0);
        assert!(p.must_capture());
        assert_eq!(
            p.selected(),
            None,
            "two pieces can take: nothing is chosen for the player"
        );
        assert_eq!(
            p.pick(&p0, sq(9)).map_err(|e| e.to_string()),
            Err("a capture is compulsory: 14 or 15 must take".into())
        );
        // With a single capturing piece it starts selected.
        let single = pos("B:W18,30:B9,14");
        let mut p = Picker::new(&single);
        assert_eq!(p.selected(), Some(sq(14)));
        assert_eq!(squares(&p.destinations()), [23]);
        // Picking it again does not drop it without a word: nothing else could be picked.
        assert_eq!(
            p.pick(&single, sq(14)).map_err(|e| e.to_string()),
            Err("the piece on 14 is the only one that can take: pick where it lands (23)".into())
        );
        assert_eq!(p.selected(), Some(sq(14)));
    }

    #[test]
    fn a_multi_jump_goes_one_jump_at_a_time() {
        // The black man on 14 reaches 30 (and is crowned) over 17 and 25 or over 18 and 26.
        let p0 = pos("B:W17,18,25,26:B14");
        let mut p = Picker::new(&p0);
        assert_eq!(p.selected(), Some(sq(14)));
        assert_eq!(squares(&p.destinations()), [21, 23]);
        assert_eq!(p.pick(&p0, sq(23)), Ok(Pick::Continues { at: sq(23) }));
        assert!(p.is_continuing());
        assert_eq!(p.at(), Some(sq(23)));
        assert_eq!(squares(&p.taken_so_far(&p0)), [18]);
        assert_eq!(squares(&p.destinations()), [30]);
        assert_eq!(
            p.pick(&p0, sq(14)).map_err(|e| e.to_string()),
            Err("the capture must go on from 23: 30 next".into())
        );
        let Ok(Pick::Complete(m)) = p.pick(&p0, sq(30)) else {
            panic!("complete");
        };
        assert_eq!(
            full_route(&m, SquareStyle::Numbers, Geometry::EIGHT),
            "14x23x30"
        );
        assert!(m.crowns());
    }

    #[test]
    fn any_route_of_a_merged_capture_can_be_followed() {
        // The king on 14 circles four men; either way round is the same move.
        let p0 = pos("B:W10,11,18,19:BK14");
        for first in [7, 23] {
            let mut p = Picker::new(&p0);
            p.pick(&p0, sq(first)).expect("first jump");
            let mut last = None;
            for _ in 0..3 {
                let next = p.destinations()[0];
                last = Some(p.pick(&p0, next).expect("next jump"));
            }
            let Some(Pick::Complete(m)) = last else {
                panic!("complete after four jumps");
            };
            assert_eq!(m.capture_count(), 4);
            assert_eq!(m.to(), sq(14));
            assert!(p0.legal_moves().iter().any(|l| l.same_effect(&m)));
        }
    }

    #[test]
    fn the_pieces_taken_so_far_follow_the_route() {
        let p0 = pos("B:W10,11,18,19:BK14");
        let mut p = Picker::new(&p0);
        p.pick(&p0, sq(7)).expect("first jump");
        assert_eq!(squares(&p.taken_so_far(&p0)), [10]);
        p.pick(&p0, sq(16)).expect("second jump");
        assert_eq!(squares(&p.taken_so_far(&p0)), [10, 11]);
    }

    /// Along random games, every legal route picked square by square is offered at each step and completes as
    /// that move, and nothing completes early.
    #[test]
    fn every_route_can_be_picked() {
        for variant in Variant::ALL {
            every_route_can_be_picked_in(GameType::standard(variant));
        }
    }

    fn every_route_can_be_picked_in(game_type: GameType) {
        let mut game_pos = AnyPosition::start(game_type);
        for step in 0..300 {
            let routes = game_pos.legal_moves_with_duplicates();
            if routes.is_empty() {
                game_pos = AnyPosition::start(game_type);
                continue;
            }
            for route in &routes {
                let mut p = Picker::new(&game_pos);
                if p.selected() != Some(route.from()) {
                    assert_eq!(
                        p.pick(&game_pos, route.from()),
                        Ok(Pick::Selected(route.from()))
                    );
                }
                for (i, &land) in route.path().iter().enumerate() {
                    assert!(p.destinations().contains(&land), "{route:?} at {i}");
                    let pick = p.pick(&game_pos, land).expect("a legal landing");
                    if i + 1 == route.path().len() {
                        assert_eq!(pick, Pick::Complete(*route), "{route:?}");
                    } else {
                        assert_eq!(pick, Pick::Continues { at: land });
                    }
                }
            }
            game_pos = game_pos.play(&routes[(step * 7 + 1) % routes.len()]);
        }
    }

    #[test]
    fn dropping_a_half_made_capture_starts_again() {
        let p0 = pos("B:W17,18,25,26:B14");
        let mut p = Picker::new(&p0);
        p.pick(&p0, sq(21)).expect("first jump");
        p.drop_selection();
        assert_eq!(p.selected(), None);
        assert!(p.path().is_empty());
        assert_eq!(p.pick(&p0, sq(14)), Ok(Pick::Selected(sq(14))));
    }

    #[test]
    fn a_piece_whose_capture_takes_fewer_is_refused_with_the_majority_rule() {
        // International: 33 can take one piece, 45 two (45x34x23): 33 may not take.
        let game = AnyGame::from_fen(
            GameType::standard(Variant::International),
            "W:W33,45:B28,40,29",
        )
        .expect("a FEN");
        let mut picker = Picker::for_game(&game);
        let at = Square::from_number(33, 50).expect("a square");
        let refused = picker.pick(&game.position(), at).expect_err("behind");
        assert_eq!(
            refused.to_string(),
            "the piece on 33 may not take: the capture taking the most pieces is compulsory (45 must take)"
        );
        // In English any capture may be chosen: none is behind another.
        let english =
            AnyGame::from_fen(GameType::default(), "B:W18,24,27,28:B12,16,20,22").expect("a FEN");
        for number in 1..=32 {
            let square = Square::from_number(number, 32).expect("a square");
            assert_eq!(english.position().captures_behind(square), None);
        }
    }

    #[test]
    fn a_king_barred_from_another_quiet_move_is_not_offered() {
        // Frisian: White's king on 46 and Black's on 3 go back and forth three times each; White's king may not
        // make a fourth quiet move while White has a man, so only the man on 50 can be picked.
        let game_type = GameType::standard(Variant::Frisian);
        let mut game = AnyGame::from_fen(game_type, "W:WK46,50:BK3,1").expect("a Frisian FEN");
        for text in ["46-41", "3-9", "41-46", "9-3", "46-41", "3-9"] {
            game.play_text(text).expect("a legal move");
        }
        let open = Picker::new(&game.position());
        assert!(open.movable().iter().any(|s| s.number() == 41));
        let picker = Picker::for_game(&game);
        let movable: Vec<u32> = picker.movable().iter().map(|s| s.number()).collect();
        assert_eq!(movable, vec![50]);
        // Picked, the king says why it may not move; typed, the game says the same.
        let mut picker = Picker::for_game(&game);
        let king = Square::from_number(41, 50).expect("a square of the board");
        let refused = picker.pick(&game.position(), king).expect_err("barred");
        assert!(matches!(refused, PickError::KingBarred(_)), "{refused}");
        assert!(
            refused.to_string().contains("three times in a row"),
            "{refused}"
        );
        assert!(matches!(
            game.play_text("41-46"),
            Err(crate::game::GameError::KingBarred(41))
        ));
        let quiet = game
            .position()
            .parse_move("41-46", crate::rules::Strictness::Exact)
            .expect("a move");
        assert_eq!(
            game.play(&quiet),
            Err(crate::game::GameError::KingBarred(41))
        );
    }
}
