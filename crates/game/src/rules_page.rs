//! A game's rules in a few lines for the player: its goal, board, pieces, captures, crowning, draws and scoring.
//!
//! The page is made from the data the rules are played by, so it cannot drift from them: a variant's definition
//! (the built-in variants have one each, which their fast generators match move for move by perft), the game's
//! draw rules, the Frisian limit on a king's moves and the variant's result tokens.

use super::{AnyGame, DrawRules, Ending, Outcome, WinReason, draws::number};
use crowned_rules::defined::{CrowningRule, DefinedRules, NoMoves, PrecedenceRule, Step};
use crowned_rules::{Color, Variant};

/// A game's rules as a page of short sections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesPage {
    /// The variant's name, with its board when that is not the usual one.
    pub title: String,
    /// The sections in order: a heading (`Goal`, `Board`...) and a sentence or two.
    pub sections: Vec<(&'static str, String)>,
}

impl RulesPage {
    /// The rules of `game`: its variant and board, and the draw rules it is played under.
    pub fn of(game: &AnyGame) -> RulesPage {
        let game_type = game.game_type();
        let variant = game_type.variant;
        let mut title = variant.title().to_string();
        let rules = match variant {
            Variant::Defined(id) => id.get().rules.clone(),
            builtin => {
                if game_type.size != builtin.board_size() {
                    title.push_str(&format!(" on {0}x{0}", game_type.size));
                }
                match builtin_rules(builtin) {
                    Some(rules) => rules,
                    // Every built-in variant has a definition (a test holds this); without one the page says
                    // what the game itself knows.
                    None => {
                        return RulesPage {
                            title,
                            sections: vec![("Scoring", scoring(game))],
                        };
                    }
                }
            }
        };
        let (width, height, rows) = match variant {
            Variant::Defined(_) => (rules.width, rules.height, None),
            _ => {
                let size = usize::from(game_type.size);
                (size, size, Some(usize::from(game_type.rows)))
            }
        };
        let mut sections = vec![
            ("Goal", goal(&rules)),
            ("Board", board(&rules, width, height, rows)),
        ];
        for (index, kind) in rules.kinds.iter().enumerate() {
            let heading = match (kind.is_king, index) {
                (true, _) => "Kings",
                (false, 0) => "Men",
                (false, _) => "Pieces",
            };
            let mut text = piece(&rules, index);
            if kind.is_king && variant.king_moves_in_a_row() > 0 {
                text.push_str(&format!(
                    " While its side still has men, one king may make at most {} moves in a row without taking.",
                    number(variant.king_moves_in_a_row())
                ));
            }
            sections.push((heading, text));
        }
        sections.push(("Captures", captures(&rules)));
        if let Some(text) = crowning(&rules, height) {
            sections.push(("Crowning", text));
        }
        sections.push(("Draws", draws(game.draw_rules(), &rules)));
        sections.push(("Scoring", scoring(game)));
        RulesPage { title, sections }
    }
}

impl RulesPage {
    /// At most how many lines the page takes drawn `width` characters wide: the title, a blank line, and each
    /// section's text wrapped beside a column of headings.
    pub fn lines_at(&self, width: usize) -> usize {
        let room = width.saturating_sub(HEADING_WIDTH + 2).max(10);
        2 + self
            .sections
            .iter()
            // Wrapping at words loses at most a word's length a line; twice the even share covers it.
            .map(|(_, text)| (2 * text.chars().count()).div_ceil(room))
            .sum::<usize>()
    }
}

/// The width of the column of headings beside the rules (`Captures` and a space).
pub const HEADING_WIDTH: usize = 9;

/// The definition of a built-in variant, by the short name its definition goes by.
fn builtin_rules(variant: Variant) -> Option<DefinedRules> {
    crowned_rules::defined::builtin(variant.name()).ok()
}

/// How the game is won.
fn goal(rules: &DefinedRules) -> String {
    let mut text = if rules.promotion_wins {
        "The first to crown a piece wins. A player who cannot move loses.".to_string()
    } else {
        match rules.no_moves {
            NoMoves::Loses => {
                "Take all the opponent's pieces or leave them without a move.".to_string()
            }
            NoMoves::Wins => {
                "The other way round: a player who has lost every piece, or cannot move, wins."
                    .to_string()
            }
        }
    };
    if rules.lone_man_loses {
        text.push_str(" A side left with one man against a king loses at once.");
    }
    text
}

/// The board, the squares played on, who starts and how the pieces stand at the start.
fn board(rules: &DefinedRules, width: usize, height: usize, rows: Option<usize>) -> String {
    let squares = match (rules.dark_squares, rules.holes.len()) {
        (true, 0) => "played on the dark squares".to_string(),
        (false, 0) => "every square played".to_string(),
        (true, holes) => format!(
            "played on the dark squares, less {} holes",
            number(holes as u32)
        ),
        (false, holes) => format!("every square played but {} holes", number(holes as u32)),
    };
    let men = rules
        .kinds
        .first()
        .map_or("pieces", |kind| match kind.name.as_str() {
            "man" => "men",
            _ => "pieces",
        });
    let start = match rows {
        // A built-in board of any size: the rows of men the game type gives.
        Some(1) => format!("{} {men} each on its back row", width / 2),
        Some(rows) => format!(
            "{} {men} each on its first {} rows",
            rows * width / 2,
            number(rows as u32)
        ),
        None => {
            let each = rules
                .start
                .iter()
                .filter(|piece| matches!(piece, Some((Color::White, _))))
                .count();
            format!("{} pieces each", number(each as u32))
        }
    };
    format!(
        "{width}x{height}, {squares}; {start}; {} moves first.",
        rules.first
    )
}

/// Directions as words: `diagonally forwards`, `diagonally and straight`...
fn directions(steps: &[Step]) -> String {
    let has = |test: fn(&Step) -> bool| steps.iter().any(test);
    let diagonal_forward = has(|&(f, s)| f > 0 && s != 0);
    let diagonal_back = has(|&(f, s)| f < 0 && s != 0);
    let forward = has(|&(f, s)| f > 0 && s == 0);
    let back = has(|&(f, s)| f < 0 && s == 0);
    let sideways = has(|&(f, s)| f == 0 && s != 0);
    if diagonal_forward && diagonal_back && forward && back && sideways {
        return "in all eight directions, diagonally and straight".to_string();
    }
    let mut parts = Vec::new();
    match (diagonal_forward, diagonal_back) {
        (true, true) => parts.push("diagonally, forwards and backwards".to_string()),
        (true, false) => parts.push("diagonally forwards".to_string()),
        (false, true) => parts.push("diagonally backwards".to_string()),
        (false, false) => {}
    }
    let straight: Vec<&str> = [
        (forward, "forwards"),
        (back, "backwards"),
        (sideways, "sideways"),
    ]
    .into_iter()
    .filter_map(|(on, word)| on.then_some(word))
    .collect();
    match straight.as_slice() {
        [] => {}
        ["forwards", "backwards", "sideways"] => {
            parts.push("straight, in all four directions".to_string());
        }
        [one] => parts.push(format!("straight {one}")),
        [first, second] => parts.push(format!("straight {first} and {second}")),
        _ => parts.push(format!("straight {}", straight.join(", "))),
    }
    match parts.as_slice() {
        [] => "nowhere".to_string(),
        _ => parts.join(" and "),
    }
}

/// How one kind of piece moves and takes.
fn piece(rules: &DefinedRules, index: usize) -> String {
    let kind = &rules.kinds[index];
    let mut text = String::new();
    if kind.moves.is_empty() {
        text.push_str("Never move without taking");
    } else if kind.slides {
        text.push_str(&format!("Move any distance {}", directions(&kind.moves)));
    } else {
        text.push_str(&format!("Move one square {}", directions(&kind.moves)));
    }
    if kind.captures.is_empty() {
        text.push_str("; never take.");
    } else if kind.flying {
        text.push_str(&format!(
            "; take at a distance {}, {}",
            directions(&kind.captures),
            match kind.lands_behind {
                true => "landing right behind the piece taken.",
                false => "landing on any free square beyond.",
            }
        ));
    } else {
        text.push_str(&format!(
            "; take {}, over the piece next to them.",
            directions(&kind.captures)
        ));
    }
    if !kind.leaps.is_empty() {
        text.push_str(&format!(
            " May also leap {} over one of their own pieces.",
            directions(&kind.leaps)
        ));
    }
    let spared: Vec<&str> = rules
        .kinds
        .iter()
        .zip(&kind.takes)
        .filter(|(_, takes)| !**takes)
        .map(|(other, _)| other.name.as_str())
        .collect();
    if !kind.captures.is_empty() && !spared.is_empty() {
        text.push_str(&format!(" Cannot take a {}.", spared.join(" or a ")));
    }
    text
}

/// Whether taking is compulsory, which capture must be chosen, and how pieces leave the board.
fn captures(rules: &DefinedRules) -> String {
    let mut text = match rules.compulsory {
        true => "Taking is compulsory, and a capture goes on while it can.".to_string(),
        false => "Taking is optional, but a capture goes on while it can.".to_string(),
    };
    let value = |name: &str| {
        rules
            .kinds
            .iter()
            .find(|kind| kind.is_king == (name == "king"))
            .map_or(0, |kind| kind.value)
    };
    text.push(' ');
    text.push_str(&match rules.precedence {
        PrecedenceRule::Free => "Any capture may be chosen.".to_string(),
        PrecedenceRule::Majority => "The capture that takes the most pieces must be chosen.".to_string(),
        PrecedenceRule::Value => format!(
            "The capture worth the most must be chosen (a man counts {}, a king {}).",
            value("man"),
            value("king")
        ),
        PrecedenceRule::ValueThenKing => format!(
            "The capture worth the most must be chosen (a man counts {}, a king {}); of equal worth, a king's.",
            value("man"),
            value("king")
        ),
        PrecedenceRule::KingsFirst => "When a king can take, a king must.".to_string(),
        PrecedenceRule::MajorityThenKings => {
            "The capture that takes the most pieces must be chosen, and of those the one taking the most kings."
                .to_string()
        }
        PrecedenceRule::Italian => "The capture that takes the most pieces must be chosen; then one by a king; \
             then the one taking the most kings; then the one that takes a king first."
            .to_string(),
    });
    text.push(' ');
    text.push_str(match rules.removed_at_once {
        true => "Each piece leaves the board as it is jumped.",
        false => "Pieces taken leave the board when the move ends, and none is jumped twice.",
    });
    if !rules.may_reverse {
        text.push_str(" A capture never turns straight back.");
    }
    text
}

/// Where pieces are crowned, and what a capture that crosses the row does; `None` when nothing is crowned.
fn crowning(rules: &DefinedRules, height: usize) -> Option<String> {
    let (from, (to, row)) = rules
        .kinds
        .iter()
        .enumerate()
        .find_map(|(index, kind)| kind.promotion.map(|promotion| (index, promotion)))?;
    let (from, to) = (&rules.kinds[from].name, &rules.kinds[to].name);
    let row = match row as usize + 1 {
        far if far == height => "the far row".to_string(),
        nth => format!("its row {nth} (counting its own back row as 1)"),
    };
    let during = match rules.crowning {
        CrowningRule::EndsMove => {
            "Reached during a capture, it is crowned and the move ends there.".to_string()
        }
        CrowningRule::ContinuesAsKing => {
            format!("Reached during a capture, it is crowned and goes on taking as a {to}.")
        }
        CrowningRule::OnlyAtEnd => {
            format!("Crossed during a capture, it stays a {from} unless the capture ends there.")
        }
    };
    Some(format!(
        "A {from} that reaches {row} becomes a {to}. {during}"
    ))
}

/// When the game is drawn.
fn draws(draw_rules: DrawRules, rules: &DefinedRules) -> String {
    let mut rules_in_words = Vec::new();
    if draw_rules.repetitions > 0 {
        rules_in_words.push(format!(
            "when a position comes back a {} time with the same side to move",
            match draw_rules.repetitions {
                3 => "third".to_string(),
                4 => "fourth".to_string(),
                n => format!("{n}th"),
            }
        ));
    }
    if draw_rules.quiet_moves > 0 {
        rules_in_words.push(format!(
            "after {} moves by each side without a capture or a man moving",
            draw_rules.quiet_moves
        ));
    }
    // One piece each is said below in the definition's own words.
    let endings = draw_rules.endings.iter();
    for ending in endings.filter(|e| e.ending != Ending::OnePieceEach || rules.one_each_moves == 0)
    {
        rules_in_words.push(format!(
            "with {} when it lasts {} moves by each side",
            ending.ending,
            number(ending.moves)
        ));
    }
    if rules.one_each_moves > 0 {
        rules_in_words.push(format!(
            "with one piece each when {} moves by each side pass without a capture",
            number(rules.one_each_moves)
        ));
    }
    match rules_in_words.as_slice() {
        [] => "No game is drawn by the rules; only by agreement.".to_string(),
        _ => format!("Drawn by agreement; {}.", rules_in_words.join("; ")),
    }
}

/// How results are written.
fn scoring(game: &AnyGame) -> String {
    let first = game.variant().first_to_move();
    let win = |winner: Color| {
        game.result_token(Some(Outcome::Win {
            winner,
            reason: WinReason::Resignation,
        }))
    };
    let draw = game.result_token(Some(Outcome::Draw {
        reason: super::DrawReason::Agreement,
    }));
    format!(
        "A win for {first} is written {}, for {} {}, a draw {draw}: {first}'s score first, as {first} moves first.",
        win(first),
        first.opponent(),
        win(first.opponent()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::GameType;

    fn page(variant: Variant) -> RulesPage {
        RulesPage::of(&AnyGame::new(GameType::standard(variant)))
    }

    fn section<'a>(page: &'a RulesPage, heading: &str) -> &'a str {
        page.sections
            .iter()
            .find(|(h, _)| *h == heading)
            .map(|(_, text)| text.as_str())
            .unwrap_or_else(|| panic!("no {heading} in {page:#?}"))
    }

    #[test]
    fn every_builtin_variant_has_a_whole_page() {
        for variant in Variant::ALL {
            let page = page(variant);
            let headings: Vec<&str> = page.sections.iter().map(|(h, _)| *h).collect();
            for heading in [
                "Goal", "Board", "Men", "Kings", "Captures", "Crowning", "Draws", "Scoring",
            ] {
                assert!(headings.contains(&heading), "{variant}: {headings:?}");
            }
            assert_eq!(page.title, variant.title());
        }
    }

    #[test]
    fn english_says_what_the_acf_rules_say() {
        let page = page(Variant::English);
        assert_eq!(
            section(&page, "Board"),
            "8x8, played on the dark squares; 12 men each on its first three rows; Black moves first."
        );
        assert_eq!(
            section(&page, "Men"),
            "Move one square diagonally forwards; take diagonally forwards, over the piece next to them."
        );
        assert_eq!(
            section(&page, "Kings"),
            "Move one square diagonally, forwards and backwards; take diagonally, forwards and backwards, over the \
             piece next to them."
        );
        assert!(section(&page, "Captures").contains("Any capture may be chosen"));
        assert!(section(&page, "Crowning").contains("the move ends there"));
        assert!(section(&page, "Draws").contains("after 40 moves by each side"));
        assert_eq!(
            section(&page, "Scoring"),
            "A win for Black is written 1-0, for White 0-1, a draw 1/2-1/2: Black's score first, as Black moves \
             first."
        );
    }

    #[test]
    fn the_special_rules_of_each_variant_are_on_its_page() {
        let international = page(Variant::International);
        assert!(
            section(&international, "Kings")
                .contains("take at a distance diagonally, forwards and backwards, landing on any free square beyond")
        );
        assert!(section(&international, "Men").contains("take diagonally, forwards and backwards"));
        assert!(section(&international, "Captures").contains("the most pieces"));
        assert!(
            section(&international, "Crowning")
                .contains("stays a man unless the capture ends there")
        );
        assert!(
            section(&international, "Draws").contains("against a lone king when it lasts 16 moves")
        );
        assert!(section(&international, "Scoring").contains("2-0"));
        assert!(section(&page(Variant::Russian), "Crowning").contains("goes on taking as a king"));
        assert!(section(&page(Variant::Italian), "Men").contains("Cannot take a king"));
        assert!(section(&page(Variant::Italian), "Draws").contains("a fourth time"));
        assert!(section(&page(Variant::Antidraughts), "Goal").starts_with("The other way round"));
        assert!(section(&page(Variant::Breakthrough), "Goal").starts_with("The first to crown"));
        assert_eq!(
            section(&page(Variant::Breakthrough), "Draws"),
            "No game is drawn by the rules; only by agreement."
        );
        let frisian = page(Variant::Frisian);
        assert!(
            section(&frisian, "Men")
                .contains("take in all eight directions, diagonally and straight")
        );
        assert!(section(&frisian, "Kings").contains("at most three moves in a row"));
        assert!(section(&frisian, "Captures").contains("a man counts 100, a king 199"));
        assert!(section(&page(Variant::Pool), "Kings").contains("Move any distance"));
        assert!(section(&page(Variant::Frysk), "Board").contains("5 men each on its back row"));
    }

    #[test]
    fn english_on_another_board_names_it_and_its_men() {
        let game = AnyGame::new(
            GameType::new(Variant::English, Some(12), None).expect("a size English takes"),
        );
        let page = RulesPage::of(&game);
        assert_eq!(page.title, "English draughts on 12x12");
        assert!(
            section(&page, "Board").starts_with(
                "12x12, played on the dark squares; 30 men each on its first five rows"
            )
        );
    }

    #[test]
    fn a_definition_is_told_from_itself() {
        let text = crowned_rules::defined::BUILTINS
            .iter()
            .find(|(name, _)| *name == "turkish")
            .map(|(_, text)| *text)
            .expect("Turkish is built in");
        let id = crowned_rules::defined::register(text).expect("Turkish loads");
        let game = AnyGame::new(GameType::standard(Variant::Defined(id)));
        let page = RulesPage::of(&game);
        assert_eq!(page.title, "Turkish draughts");
        assert!(
            section(&page, "Board").starts_with("8x8, every square played; 16 pieces each"),
            "{page:#?}"
        );
        assert!(
            section(&page, "Men").contains("straight forwards and sideways"),
            "{page:#?}"
        );
        assert!(
            section(&page, "Captures").contains("as it is jumped"),
            "{page:#?}"
        );
        assert!(
            section(&page, "Goal").contains("one man against a king loses"),
            "{page:#?}"
        );
    }
}
