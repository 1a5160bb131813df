//! Turkish draughts' rules on positions built by hand, each small enough to count on a diagram.

use crate::Color;
use crate::defined::{
    DefinedMove, DefinedPosition, DefinedRules, builtin, legal_moves, legal_moves_general,
};

const TURKISH: &str = include_str!("../builtin/turkish.toml");

/// The rules, an empty board with `side` to move, and a way to name cells.
struct Board {
    rules: DefinedRules,
    pos: DefinedPosition,
}

impl Board {
    fn new(rules: DefinedRules, side: Color) -> Board {
        let pos = DefinedPosition::empty(&rules, side);
        Board { rules, pos }
    }

    fn at(&self, name: &str) -> usize {
        self.rules.cell_named("test", name).expect("a square")
    }

    /// Puts pieces of one side and kind on the squares named.
    fn put(&mut self, color: Color, kind: &str, squares: &[&str]) -> &mut Board {
        let kind = self.rules.kind_index(kind).expect("a kind");
        for name in squares {
            let cell = self.at(name);
            self.pos.cells[cell] = Some((color, kind));
        }
        self
    }

    /// The legal moves, the same from the fast generator (where it plays the rules) and the general one.
    fn moves(&self) -> Vec<DefinedMove> {
        let moves = legal_moves(&self.rules, &self.pos);
        assert_eq!(moves, legal_moves_general(&self.rules, &self.pos));
        moves
    }

    /// The end squares of the legal moves, sorted.
    fn ends(&self) -> Vec<String> {
        let mut ends: Vec<String> = self
            .moves()
            .iter()
            .map(|m| self.rules.name_of(m.to()))
            .collect();
        ends.sort();
        ends
    }
}

fn turkish(side: Color) -> Board {
    Board::new(builtin("turkish").expect("built in"), side)
}

/// The start: 16 men each on the second and third rows (the back rows empty), White first, and only the eight
/// men of the third row can move, one square forward.
#[test]
fn the_start() {
    let b = turkish(Color::White);
    let start = DefinedPosition::start(&b.rules);
    let expected =
        "........\nmmmmmmmm\nmmmmmmmm\n........\n........\nMMMMMMMM\nMMMMMMMM\n........\n";
    assert_eq!(start.diagram(&b.rules), expected);
    assert_eq!(start.side, Color::White);
    let moves = legal_moves(&b.rules, &start);
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|m| m.to() + b.rules.width == m.from));
}

/// A man moves one square forward or sideways, never back, for either side.
#[test]
fn a_man_moves_forward_or_sideways_only() {
    let mut b = turkish(Color::White);
    b.put(Color::White, "man", &["d4"]);
    assert_eq!(b.ends(), ["c4", "d5", "e4"]);
    let mut b = turkish(Color::Black);
    b.put(Color::Black, "man", &["d4"]);
    assert_eq!(b.ends(), ["c4", "d3", "e4"]);
}

/// A man takes forward or sideways, never back, and never diagonally.
#[test]
fn a_man_takes_forward_or_sideways_only() {
    let mut b = turkish(Color::White);
    b.put(Color::White, "man", &["d4"])
        .put(Color::Black, "man", &["d3", "c5", "e5"]);
    // Nothing to take: the man behind and the diagonal ones stay, and the man just moves.
    assert!(b.moves().iter().all(|m| m.captured.is_empty()));
    b.put(Color::Black, "man", &["d5"]);
    let moves = b.moves();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0].captured, [b.at("d5")]);
    assert_eq!(moves[0].to(), b.at("d6"));
}

/// A king slides any distance along its row and file, and not diagonally: 7 + 7 squares from d4.
#[test]
fn a_king_flies_orthogonally() {
    let mut b = turkish(Color::White);
    b.put(Color::White, "king", &["d4"]);
    let ends = b.ends();
    assert_eq!(ends.len(), 14);
    assert!(ends.iter().all(|e| e.starts_with('d') || e.ends_with('4')));
    // It takes at a distance and lands on any empty square beyond: d7 or d8 over d6.
    b.put(Color::Black, "man", &["d6"]);
    assert_eq!(b.ends(), ["d7", "d8"]);
}

/// The capture taking the most pieces must be played, a king counting as one piece like a man: the king on b1 can
/// take the black king on d1, but the man on g4 takes two men.
#[test]
fn the_most_pieces_must_be_taken_kings_and_men_alike() {
    let mut b = turkish(Color::White);
    b.put(Color::White, "king", &["b1"])
        .put(Color::White, "man", &["g4"])
        .put(Color::Black, "king", &["d1"])
        .put(Color::Black, "man", &["g5", "g7"]);
    let moves = b.moves();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0].captured, [b.at("g5"), b.at("g7")]);
    assert_eq!(moves[0].to(), b.at("g8"));
}

/// A king on d4 between men on d6 and d2: after taking one it may not turn straight back to take the other, even
/// though the first is gone and the way back is open. With the turn allowed it would take both.
#[test]
fn a_capture_never_turns_straight_back() {
    let mut b = turkish(Color::White);
    b.put(Color::White, "king", &["d4"])
        .put(Color::Black, "man", &["d6", "d2"]);
    let moves = b.moves();
    assert!(moves.iter().all(|m| m.captured.len() == 1), "{moves:?}");
    assert_eq!(b.ends(), ["d1", "d7", "d8"]);

    let turning = TURKISH.replace("may_reverse = false", "may_reverse = true");
    let mut t = Board::new(
        DefinedRules::from_toml(&turning).expect("reads"),
        Color::White,
    );
    t.put(Color::White, "king", &["d4"])
        .put(Color::Black, "man", &["d6", "d2"]);
    assert!(t.moves().iter().all(|m| m.captured.len() == 2));
}

/// Pieces leave the board as they are taken, so a king may cross a square twice: from a3 over c3 (landing on d3,
/// as e3 blocks), up over d5, left over b6, down over a4 back to a3, then right again across c3 to take e3. Five
/// pieces; were the taken pieces left standing until the end, c3 would block the last jump and four would be the
/// most.
#[test]
fn taken_pieces_leave_at_once_so_a_king_may_cross_a_square_twice() {
    let mut b = turkish(Color::White);
    b.put(Color::White, "king", &["a3"])
        .put(Color::Black, "man", &["c3", "e3", "d5", "b6", "a4"]);
    let moves = b.moves();
    assert!(!moves.is_empty());
    for m in &moves {
        assert_eq!(m.captured.len(), 5, "{m:?}");
        assert_eq!(m.captured[0], b.at("c3"));
        assert_eq!(*m.captured.last().expect("five"), b.at("e3"));
        assert_eq!(m.path[3], b.at("a3"), "back through the start: {m:?}");
    }
    assert_eq!(b.ends(), ["f3", "g3", "h3"]);

    let at_end = TURKISH.replace("removal = \"at-once\"", "removal = \"at-end\"");
    let mut t = Board::new(
        DefinedRules::from_toml(&at_end).expect("reads"),
        Color::White,
    );
    t.put(Color::White, "king", &["a3"])
        .put(Color::Black, "man", &["c3", "e3", "d5", "b6", "a4"]);
    assert!(t.moves().iter().all(|m| m.captured.len() == 4));
}

/// A man that reaches the far row in the middle of a capture goes on taking along it as a man, and is crowned
/// where the capture ends: c6 over c7 to c8, over d8 to e8, over f8 to g8. As a king on c8 it could have flown
/// back down the c-file instead; it may not.
#[test]
fn a_man_reaching_the_far_row_in_a_capture_goes_on_as_a_man() {
    let mut b = turkish(Color::White);
    b.put(Color::White, "man", &["c6"])
        .put(Color::Black, "man", &["c7", "d8", "f8", "c3"]);
    let moves = b.moves();
    assert_eq!(moves.len(), 1, "{moves:?}");
    let m = &moves[0];
    assert_eq!(m.captured, [b.at("c7"), b.at("d8"), b.at("f8")]);
    assert_eq!(m.to(), b.at("g8"));
    assert_eq!(m.becomes, b.rules.kind_index("king").expect("king"));
}
