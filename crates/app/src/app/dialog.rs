//! The new-game dialog: the variant, the board and who plays each side, and what the dialog makes of the
//! player's actions.

use super::action::{Action, SetupAction};
use super::ballot::OpeningChoice;
use crate::engine::{Level, Player, Players};
use crate::game::{TIME_CONTROL_CHOICES, TimeControl};
use crate::rules::defined::registry::loaded;
use crate::rules::{ENGLISH_SIZES, GameType, Variant};

/// The choices for one side, in the order the dialog cycles through them.
pub const PLAYER_CHOICES: [Player; 6] = [
    Player::Human,
    Player::Engine(Level::Random),
    Player::Engine(Level::Easy),
    Player::Engine(Level::Medium),
    Player::Engine(Level::Hard),
    Player::Engine(Level::Max),
];

/// A line of the dialog, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogRow {
    /// The variant.
    Variant,
    /// The board size (English rules only: the other variants have their own board).
    Board,
    /// The rows of men each side starts with.
    Rows,
    /// How the game starts: the standard position or a ballot (English 8x8 only).
    Opening,
    /// Who plays Black.
    Black,
    /// Who plays White.
    White,
    /// The clocks.
    Clock,
}

impl DialogRow {
    /// Every line, top to bottom.
    pub const ALL: [DialogRow; 7] = [
        DialogRow::Variant,
        DialogRow::Board,
        DialogRow::Rows,
        DialogRow::Opening,
        DialogRow::Black,
        DialogRow::White,
        DialogRow::Clock,
    ];
}

/// The dialog's state: the game type and players chosen so far and the line being changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGameDialog {
    /// The variant, board and rows of men the new game will have.
    pub game_type: GameType,
    /// The players the new game will have.
    pub players: Players,
    /// How it starts.
    pub opening: OpeningChoice,
    /// Its clocks (`None`: none).
    pub clock: Option<TimeControl>,
    /// The line being changed.
    pub row: DialogRow,
}

impl NewGameDialog {
    /// A dialog that starts from the current game type and players, without clocks, on Black's line.
    pub fn new(game_type: GameType, players: Players) -> NewGameDialog {
        NewGameDialog {
            game_type,
            players,
            opening: OpeningChoice::Standard,
            clock: None,
            row: DialogRow::Black,
        }
    }

    /// The dialog with `clock` chosen.
    pub fn with_clock(self, clock: Option<TimeControl>) -> NewGameDialog {
        NewGameDialog { clock, ..self }
    }

    /// The lines on show: the board size only for English rules, the opening only for English draughts on its
    /// own board (the ballots are its openings).
    pub fn rows(&self) -> Vec<DialogRow> {
        DialogRow::ALL
            .into_iter()
            .filter(|r| match r {
                DialogRow::Board => self.game_type.variant == Variant::English,
                // A definition fixes its own start.
                DialogRow::Rows => !matches!(self.game_type.variant, Variant::Defined(_)),
                DialogRow::Opening => self.game_type == GameType::default(),
                _ => true,
            })
            .collect()
    }

    /// How the chosen game starts: a ballot only where the ballots are openings.
    pub fn opening(&self) -> OpeningChoice {
        match self.game_type == GameType::default() {
            true => self.opening,
            false => OpeningChoice::Standard,
        }
    }

    /// Moves `step` lines down (negative: up), stopping at the ends.
    pub fn move_row(&mut self, step: isize) {
        let rows = self.rows();
        let at = rows.iter().position(|r| *r == self.row).unwrap_or(0) as isize;
        let next = (at + step).clamp(0, rows.len() as isize - 1) as usize;
        self.row = rows[next];
    }

    /// Changes the chosen line to the next (`step` 1) or previous (`step` -1) choice, wrapping round. A new
    /// variant comes with its own board and rows, a new board with its usual rows.
    pub fn cycle(&mut self, step: isize) {
        let next = |len: usize, now: usize| (now as isize + step).rem_euclid(len as isize) as usize;
        match self.row {
            DialogRow::Variant => {
                // The built-ins, then every definition loaded (from the variants folder, a file or a game).
                let choices: Vec<Variant> = Variant::ALL
                    .into_iter()
                    .chain(loaded().into_iter().map(Variant::Defined))
                    .collect();
                let now = choices
                    .iter()
                    .position(|v| *v == self.game_type.variant)
                    .unwrap_or(0);
                let variant = choices[next(choices.len(), now)];
                self.game_type = GameType::standard(variant);
            }
            DialogRow::Board => {
                let now = ENGLISH_SIZES
                    .iter()
                    .position(|s| *s == self.game_type.size)
                    .unwrap_or(0);
                let size = ENGLISH_SIZES[next(ENGLISH_SIZES.len(), now)];
                if let Ok(game_type) = GameType::new(self.game_type.variant, Some(size), None) {
                    self.game_type = game_type;
                }
            }
            DialogRow::Rows => {
                // From one row to the most that leaves two empty rows between the sides.
                let most = usize::from(self.game_type.size / 2 - 1);
                let rows = next(most, usize::from(self.game_type.rows).saturating_sub(1)) + 1;
                let rows = u8::try_from(rows).ok();
                let game_type = self.game_type;
                if let Ok(changed) = GameType::new(game_type.variant, Some(game_type.size), rows) {
                    self.game_type = changed;
                }
            }
            DialogRow::Opening => self.opening = self.opening.cycled(step),
            DialogRow::Clock => {
                let choices: Vec<Option<TimeControl>> = TIME_CONTROL_CHOICES
                    .iter()
                    .map(|text| text.parse().ok())
                    .collect();
                // A control of the settings' own that is not in the list is left for the list's first.
                let now = choices.iter().position(|c| *c == self.clock);
                self.clock = match now {
                    Some(now) => choices[next(choices.len(), now)],
                    None => choices[0],
                };
            }
            DialogRow::Black | DialogRow::White => {
                let slot = if self.row == DialogRow::Black {
                    &mut self.players.black
                } else {
                    &mut self.players.white
                };
                let now = PLAYER_CHOICES.iter().position(|p| p == slot).unwrap_or(0);
                *slot = PLAYER_CHOICES[next(PLAYER_CHOICES.len(), now)];
            }
        }
    }
}

/// What the dialog makes of an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DialogStep {
    /// It stays open, changed or not.
    Stays,
    /// Start a new game of this type with these players, from this opening, with these clocks.
    Start(GameType, Players, OpeningChoice, Option<TimeControl>),
    /// Set up a position of this type first, for these players and clocks.
    SetUp(GameType, Players, Option<TimeControl>),
    /// Close it without a new game.
    Cancel,
}

impl NewGameDialog {
    /// Carries out one of the player's actions: the cursor keys choose, picking starts, Esc or quitting cancels,
    /// anything else does nothing.
    pub(super) fn act(&mut self, action: &Action) -> DialogStep {
        match action {
            Action::Up => self.move_row(-1),
            Action::Down => self.move_row(1),
            Action::Left => self.cycle(-1),
            Action::Right => self.cycle(1),
            Action::PickAtCursor | Action::SubmitInput | Action::NewGame => {
                return DialogStep::Start(self.game_type, self.players, self.opening(), self.clock);
            }
            Action::Setup(SetupAction::Open) => {
                return DialogStep::SetUp(self.game_type, self.players, self.clock);
            }
            Action::Cancel | Action::Quit => return DialogStep::Cancel,
            _ => {}
        }
        DialogStep::Stays
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players() -> Players {
        Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        }
    }

    #[test]
    fn cycling_wraps_both_ways_and_touches_only_the_chosen_row() {
        let mut dialog = NewGameDialog::new(GameType::default(), players());
        dialog.cycle(-1);
        assert_eq!(dialog.players.black, Player::Engine(Level::Max));
        dialog.cycle(1);
        assert_eq!(dialog.players.black, Player::Human);
        dialog.move_row(1);
        dialog.cycle(1);
        assert_eq!(dialog.players.white, Player::Engine(Level::Hard));
        assert_eq!(dialog.players.black, Player::Human);
        assert_eq!(dialog.game_type, GameType::default());
    }

    #[test]
    fn the_variant_board_and_rows_are_chosen_above_the_players() {
        let mut dialog = NewGameDialog::new(GameType::default(), players());
        dialog.move_row(-1);
        assert_eq!(dialog.row, DialogRow::Opening);
        dialog.cycle(1);
        assert_eq!(dialog.opening(), OpeningChoice::RandomBallot);
        dialog.move_row(-1);
        assert_eq!(dialog.row, DialogRow::Rows);
        dialog.cycle(-1);
        assert_eq!(dialog.game_type.rows, 2);
        assert!(
            !dialog.rows().contains(&DialogRow::Opening),
            "no ballots on other boards"
        );
        assert_eq!(dialog.opening(), OpeningChoice::Standard);
        dialog.move_row(-1);
        assert_eq!(dialog.row, DialogRow::Board);
        dialog.cycle(1);
        assert_eq!((dialog.game_type.size, dialog.game_type.rows), (10, 4));
        dialog.move_row(-7);
        assert_eq!(dialog.row, DialogRow::Variant);
        dialog.cycle(1);
        assert_eq!(dialog.game_type, GameType::standard(Variant::ALL[1]));
        // Only English rules are played on other boards: the board line goes.
        assert!(!dialog.rows().contains(&DialogRow::Board));
        dialog.move_row(1);
        assert_eq!(dialog.row, DialogRow::Rows);
        for variant in Variant::ALL.into_iter().skip(2) {
            dialog.row = DialogRow::Variant;
            dialog.cycle(1);
            assert_eq!(dialog.game_type, GameType::standard(variant));
        }
        dialog.cycle(1);
        assert_eq!(dialog.game_type, GameType::default(), "round to English");
        // The rows wrap round between one and the most the board allows.
        dialog.row = DialogRow::Rows;
        let mut seen = Vec::new();
        for _ in 0..3 {
            dialog.cycle(1);
            seen.push(dialog.game_type.rows);
        }
        assert_eq!(seen, [1, 2, 3]);
    }

    #[test]
    fn the_clock_line_cycles_through_the_controls_and_round() {
        let five: TimeControl = "5+3".parse().expect("valid");
        let mut dialog = NewGameDialog::new(GameType::default(), players()).with_clock(Some(five));
        dialog.move_row(9);
        assert_eq!(dialog.row, DialogRow::Clock, "the last line");
        let mut seen = vec![dialog.clock];
        for _ in 0..TIME_CONTROL_CHOICES.len() {
            dialog.cycle(1);
            seen.push(dialog.clock);
        }
        assert_eq!(seen.first(), seen.last(), "round to where it began");
        assert!(seen.contains(&None), "no clocks is a choice");
        assert!(seen.contains(&Some("30s".parse().expect("valid"))));
        dialog.cycle(-1);
        assert_eq!(dialog.clock, seen[TIME_CONTROL_CHOICES.len() - 1]);
        // A control not in the list (from the settings) goes on to the list's first.
        let mut odd = dialog.with_clock(Some("7+7".parse().expect("valid")));
        odd.cycle(1);
        assert_eq!(odd.clock, None);
        assert_eq!(
            odd.act(&Action::PickAtCursor),
            DialogStep::Start(
                GameType::default(),
                players(),
                OpeningChoice::Standard,
                None
            )
        );
    }

    #[test]
    fn the_dialog_starts_sets_up_or_cancels() {
        let mut dialog = NewGameDialog::new(GameType::default(), players());
        assert_eq!(dialog.act(&Action::Down), DialogStep::Stays);
        assert_eq!(dialog.act(&Action::Right), DialogStep::Stays);
        let chosen = Players {
            white: Player::Engine(Level::Hard),
            ..players()
        };
        let english = GameType::default();
        assert_eq!(
            dialog.act(&Action::PickAtCursor),
            DialogStep::Start(english, chosen, OpeningChoice::Standard, None)
        );
        assert_eq!(
            dialog.act(&Action::Setup(SetupAction::Open)),
            DialogStep::SetUp(english, chosen, None)
        );
        assert_eq!(dialog.act(&Action::Undo), DialogStep::Stays);
        assert_eq!(dialog.act(&Action::Quit), DialogStep::Cancel);
    }
}
