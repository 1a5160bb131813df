//! Each variant's draw rules at work in games played from constructed endings.
//!
//! Each variant's rules are played on its own board, and the Canadian ones also on the 10x10 board (their
//! counting does not depend on the board).

use std::collections::HashSet;

use super::draws::{Counting, DrawRules, Ending, EndingRule, Endings};
use super::outcome::{DrawReason, Outcome, WinReason};
use super::record::Game;
use crowned_rules::defined::{DefinedBoard, load_builtin};
use crowned_rules::{
    Brazilian, Canadian, Color, Czech, Defined, English, International, Italian, Move, Pool,
    Position, Role, RuleSet, Russian, Spanish, Square, Thai, Variant,
};

/// Which moves a test lets a side play.
type Keep<R> = fn(&Position<R>, &Move) -> bool;

fn any<R: RuleSet>(_: &Position<R>, _: &Move) -> bool {
    true
}

/// Plays `plies` quiet moves that never repeat a position and never leave a capture to the opponent, with a
/// man move whenever one is possible after `man_every` quiet plies (0: kings only), checking that the game
/// goes on before each. Returns the game's outcome after the last.
fn wander<R: RuleSet>(
    game: &mut Game<R>,
    plies: usize,
    man_every: usize,
    keep: Keep<R>,
) -> Option<Outcome> {
    let mut seen: HashSet<Position<R>> = (0..=game.len())
        .filter_map(|ply| game.position_at(ply).copied())
        .collect();
    let mut since_man = 0;
    for ply in 0..plies {
        assert_eq!(game.outcome(), None, "over before ply {ply}");
        let pos = *game.position();
        let safe: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|mv| {
                let after = pos.play(mv);
                !mv.is_capture()
                    && keep(&pos, mv)
                    && !seen.contains(&after)
                    && !after.must_capture()
                    && has_safe_move(&after)
            })
            .collect();
        let is_man = |mv: &&Move| pos.piece_at(mv.from()).is_some_and(|p| p.role == Role::Man);
        let wants_man = man_every > 0 && since_man >= man_every;
        let preferred: Vec<&Move> = safe.iter().filter(|mv| is_man(mv) == wants_man).collect();
        let choices: Vec<&Move> = if preferred.is_empty() {
            safe.iter().collect()
        } else {
            preferred
        };
        // Spread over the choices (a fixed sequence), so that the kings roam rather than wear one corner out.
        let mv = **choices
            .get(ply * 7 % choices.len().max(1))
            .unwrap_or_else(|| panic!("no quiet move at ply {ply}"));
        since_man = if is_man(&&mv) { 0 } else { since_man + 1 };
        seen.insert(pos.play(&mv));
        game.play(&mv).expect("legal");
    }
    game.outcome()
}

/// Whether the side to move has a move that leaves the other side no capture.
fn has_safe_move<R: RuleSet>(pos: &Position<R>) -> bool {
    pos.legal_moves()
        .iter()
        .any(|mv| !pos.play(mv).must_capture())
}

fn game<R: RuleSet>(fen: &str) -> Game<R> {
    Game::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn draw(reason: DrawReason) -> Option<Outcome> {
    Some(Outcome::Draw { reason })
}

/// The rules' ending of `variant` at `index`, as the draw it gives.
fn ending(variant: Variant, index: usize) -> DrawReason {
    let rule = DrawRules::of(variant).endings[index];
    DrawReason::Ending {
        ending: rule.ending,
        moves: rule.moves,
    }
}

/// Plays one move short of `plies` (the game must go on), then the last (which must draw as `expected`).
fn drawn_after<R: RuleSet>(game: &mut Game<R>, plies: usize, keep: Keep<R>, expected: DrawReason) {
    assert_eq!(wander(game, plies - 1, 0, keep), None, "drawn too soon");
    assert_eq!(wander(game, 1, 0, keep), draw(expected));
}

#[test]
fn games_take_their_variants_rules() {
    assert_eq!(
        Game::<International>::new().draw_rules(),
        DrawRules::of(Variant::International)
    );
    assert_eq!(Game::<Russian>::new().move_limit(), 15);
    assert_eq!(
        Game::<English>::new().move_limit(),
        super::DEFAULT_MOVE_LIMIT
    );
}

#[test]
fn international_25_king_moves_each() {
    let mut g: Game<International> = game("W:WK46,K47:BK3,K4");
    let rules = DrawRules::of(Variant::International);
    drawn_after(
        &mut g,
        2 * rules.quiet_moves as usize,
        any,
        DrawReason::MoveLimit { moves: 25 },
    );
    assert_eq!(
        g.outcome().map(|o| o.to_string()).as_deref(),
        Some("Draw: 25 moves each without a capture or a man moving")
    );
}

#[test]
fn international_16_moves_for_three_pieces_against_a_lone_king() {
    let mut g: Game<International> = game("W:WK46,K47,K48:BK3");
    drawn_after(&mut g, 32, any, ending(Variant::International, 0));
    // A king and two men are three pieces too, and men moving does not restart the count.
    let mut g: Game<International> = game("W:WK46,36,37:BK3");
    assert_eq!(wander(&mut g, 31, 3, any), None);
    assert_eq!(
        wander(&mut g, 1, 3, any),
        draw(ending(Variant::International, 0))
    );
}

#[test]
fn international_5_moves_for_two_pieces_against_a_lone_king() {
    let mut g: Game<International> = game("W:WK46,K47:BK3");
    drawn_after(&mut g, 10, any, ending(Variant::International, 1));
    let mut g: Game<International> = game("W:WK46:BK3");
    drawn_after(&mut g, 10, any, ending(Variant::International, 1));
}

#[test]
fn a_capture_keeps_or_restarts_an_endings_count_as_its_rule_says() {
    // Black's king must take 18, landing on 4, which leaves two kings against it.
    let rules = |counting| DrawRules {
        repetitions: 0,
        quiet_moves: 0,
        endings: Endings::of(&[EndingRule {
            ending: Ending::LoneKingAgainst { min: 1, max: 3 },
            moves: 1,
            counting,
        }]),
    };
    for (counting, plies) in [(Counting::FromReached, 2), (Counting::FromLastChange, 3)] {
        let mut g: Game<Russian> = game("B:WK18,K1,K29:BK22");
        g.set_draw_rules(rules(counting));
        let mut outcomes = Vec::new();
        for text in ["22x4", "1-5", "4-15"] {
            g.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            outcomes.push(g.outcome().is_some());
            if g.outcome().is_some() {
                break;
            }
        }
        assert_eq!(outcomes.len(), plies, "{counting:?}");
        assert_eq!(outcomes.iter().filter(|&&o| o).count(), 1, "{counting:?}");
    }
}

#[test]
fn changing_the_rules_counts_the_moves_already_played() {
    let mut g: Game<International> = game("W:WK46,K47:BK3");
    g.set_draw_rules(DrawRules::of(Variant::English));
    assert_eq!(
        wander(&mut g, 10, 0, any),
        None,
        "English has no such ending rule"
    );
    g.set_draw_rules(DrawRules::of(Variant::International));
    assert_eq!(g.outcome(), draw(ending(Variant::International, 1)));
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn russian_15_king_moves_each() {
    // Two kings each: four pieces, so the 30-move ending rule (7.2.6) would come later.
    let mut g: Game<Russian> = game("W:WK29,K30:BK3,K4");
    drawn_after(&mut g, 30, any, DrawReason::MoveLimit { moves: 15 });
}

#[test]
fn russian_three_kings_against_one() {
    // Kept off the long diagonal, where 7.2.7 would draw sooner: named as the ending, not the move limit.
    let mut g: Game<Russian> = game("W:WK1,K2,K3:BK21");
    drawn_after(
        &mut g,
        30,
        |_, mv| !on_long_diagonal::<Russian>(mv.to()),
        ending(Variant::Russian, 0),
    );
}

#[test]
fn russian_lone_king_on_the_long_diagonal() {
    let mut g: Game<Russian> = game("W:WK1,K2,K3:BK29");
    let keep: Keep<Russian> =
        |pos, mv| pos.side_to_move() == Color::White || on_long_diagonal::<Russian>(mv.to());
    drawn_after(&mut g, 10, keep, ending(Variant::Russian, 3));
}

#[test]
fn russian_two_pieces_against_a_lone_king() {
    let mut g: Game<Russian> = game("W:WK1,K2:BK21");
    drawn_after(&mut g, 10, any, ending(Variant::Russian, 4));
    let mut g: Game<Russian> = game("W:WK1,30:BK21");
    drawn_after(&mut g, 10, any, ending(Variant::Russian, 4));
}

#[test]
fn russian_four_or_five_pieces_with_kings_on_both_sides() {
    // Men moving now and then keep the 15-move rule away; only a capture or a crowning would restart 7.2.6.
    let mut g: Game<Russian> = game("W:WK1,29,30:BK4,3");
    assert_eq!(wander(&mut g, 59, 20, any), None);
    assert_eq!(
        wander(&mut g, 1, 20, any),
        draw(ending(Variant::Russian, 1))
    );
}

#[test]
fn brazilian_20_king_moves_each() {
    let mut g: Game<Brazilian> = game("W:WK29,K30:BK3,K4");
    drawn_after(&mut g, 40, any, DrawReason::MoveLimit { moves: 20 });
    // Its endings are Russian draughts' (FMJD draughts-64).
    let mut g: Game<Brazilian> = game("W:WK1,K2:BK21");
    drawn_after(&mut g, 10, any, ending(Variant::Brazilian, 4));
}

#[test]
fn pool_three_kings_against_one_and_15_king_moves() {
    let mut g: Game<Pool> = game("B:WK21:BK1,K2,K3");
    drawn_after(&mut g, 26, any, ending(Variant::Pool, 0));
    let mut g: Game<Pool> = game("B:WK21,K30:BK2,K3");
    drawn_after(&mut g, 30, any, DrawReason::MoveLimit { moves: 15 });
    // Two kings against one are played out under the move limit alone.
    let mut g: Game<Pool> = game("B:WK21:BK2,K3");
    drawn_after(&mut g, 30, any, DrawReason::MoveLimit { moves: 15 });
}

#[test]
fn english_40_moves_each() {
    let mut g: Game<English> = game("B:WK29,K30:BK3,K4");
    drawn_after(&mut g, 80, any, DrawReason::MoveLimit { moves: 40 });
}

/// Kings stepping back and forth until `times` occurrences of the start.
fn shuffle<R: RuleSet>(game: &mut Game<R>, there_and_back: [&str; 4], times: usize) {
    for round in 1..times {
        assert_eq!(game.outcome(), None, "round {round}");
        for text in there_and_back {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }
}

#[test]
fn italian_rules_draw_on_the_fourth_occurrence() {
    // Italian kings are short-ranged like English ones; played here on the English board.
    let mut g: Game<English> = game("B:WK32:BK1");
    g.set_draw_rules(DrawRules::of(Variant::Italian));
    shuffle(&mut g, ["1-6", "32-27", "6-1", "27-32"], 3);
    assert_eq!(g.outcome(), None, "three times is not enough");
    shuffle(&mut g, ["1-6", "32-27", "6-1", "27-32"], 2);
    assert_eq!(g.outcome(), draw(DrawReason::Repetition { times: 4 }));
    assert_eq!(
        g.outcome().map(|o| o.to_string()).as_deref(),
        Some("Draw: the same position occurred four times")
    );
}

#[test]
fn czech_spanish_and_thai_rules_have_no_ending_counts() {
    // Their kings fly like Russian ones: two kings against one are played out under the move limit.
    for variant in [Variant::Czech, Variant::Spanish, Variant::Thai] {
        let rules = DrawRules::of(variant);
        let mut g: Game<Russian> = game("W:WK1,K2:BK21");
        g.set_draw_rules(rules);
        let plies = 2 * rules.quiet_moves as usize;
        assert_eq!(wander(&mut g, plies - 1, 0, any), None, "{variant}");
        assert_eq!(
            wander(&mut g, 1, 0, any),
            draw(DrawReason::MoveLimit {
                moves: rules.quiet_moves
            }),
            "{variant}"
        );
    }
}

#[test]
fn canadian_rules_are_internationals() {
    // Played on the 10x10 board until the 12x12 one exists.
    let mut g: Game<International> = game("W:WK46,K47:BK3");
    g.set_draw_rules(DrawRules::of(Variant::Canadian));
    drawn_after(&mut g, 10, any, ending(Variant::Canadian, 1));
}

/// Whether `square` is on the long diagonal of `R`'s board (bottom-left to top-right corner).
fn on_long_diagonal<R: RuleSet>(square: Square) -> bool {
    let (row, col) = R::GEOMETRY.row_col(square);
    row + col + 1 == u32::from(R::GEOMETRY.width)
}

// Each of the other variants on its own board.

#[test]
fn italian_games_draw_on_the_fourth_occurrence() {
    let g: Game<Italian> = game("W:WK29:BK4");
    assert_eq!(g.draw_rules(), DrawRules::of(Variant::Italian));
    assert_eq!(g.move_limit(), 40);
}

#[test]
fn czech_games_15_king_moves_each() {
    let mut g: Game<Czech> = game("W:WK29,K30:BK3,K4");
    drawn_after(&mut g, 30, any, DrawReason::MoveLimit { moves: 15 });
}

#[test]
fn spanish_and_thai_games_40_king_moves_each() {
    let mut g: Game<Spanish> = game("W:WK29,K30:BK3,K4");
    drawn_after(&mut g, 80, any, DrawReason::MoveLimit { moves: 40 });
    let mut g: Game<Thai> = game("W:WK29,K30:BK3,K4");
    drawn_after(&mut g, 80, any, DrawReason::MoveLimit { moves: 40 });
}

#[test]
fn canadian_games_16_and_5_moves_against_a_lone_king() {
    let mut g: Game<Canadian> = game("W:WK61,K62,K63:BK3");
    drawn_after(&mut g, 32, any, ending(Variant::Canadian, 0));
    let mut g: Game<Canadian> = game("W:WK61,K62:BK3");
    drawn_after(&mut g, 10, any, ending(Variant::Canadian, 1));
}

// A defined variant's endings (Turkish draughts) in the same game type.

/// A Turkish position with the pieces given as (side, kind, square), `side` to move.
fn turkish(pieces: &[(Color, usize, &str)], side: Color) -> Game<Defined> {
    let id = load_builtin("turkish").expect("built in").expect("loads");
    let mut board = DefinedBoard::empty(id, side);
    for &(color, kind, name) in pieces {
        let square = board.entry().square_named(name).expect("a square");
        assert!(board.set_occupant(Square::from_index(square), Some((color, kind))));
    }
    Game::from_position(board)
}

const MAN: usize = 0;
const KING: usize = 1;

#[test]
fn a_lone_man_against_a_king_loses_at_once() {
    let game = turkish(
        &[(Color::White, KING, "a1"), (Color::Black, MAN, "h7")],
        Color::Black,
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::LoneMan
        })
    );
    // A man with a friend still plays on; so does a lone man against men.
    let two = turkish(
        &[
            (Color::White, KING, "a1"),
            (Color::Black, MAN, "h7"),
            (Color::Black, MAN, "g7"),
        ],
        Color::Black,
    );
    assert_eq!(two.outcome(), None);
    let men = turkish(
        &[(Color::White, MAN, "a2"), (Color::Black, MAN, "h7")],
        Color::Black,
    );
    assert_eq!(men.outcome(), None);
}

#[test]
fn one_piece_each_is_drawn_after_two_moves_each_without_a_capture() {
    let mut game = turkish(
        &[(Color::White, KING, "a1"), (Color::Black, KING, "h8")],
        Color::White,
    );
    for ply in 0..4 {
        assert_eq!(game.outcome(), None, "after {ply} plies");
        let mv = *game
            .position()
            .legal_moves()
            .iter()
            .find(|m| !m.is_capture())
            .expect("a quiet move");
        game.play(&mv).expect("legal");
    }
    let outcome = game.outcome().expect("drawn");
    assert_eq!(
        outcome,
        Outcome::Draw {
            reason: DrawReason::Ending {
                ending: Ending::OnePieceEach,
                moves: 2
            }
        }
    );
    assert_eq!(
        outcome.to_string(),
        "Draw: 2 moves each with one piece each, without a capture"
    );
}
