//! The new-game dialog: who plays each side, and what the dialog makes of the player's actions.

use super::action::{Action, SetupAction};
use crate::engine::{Level, Player, Players};

/// The choices for one side, in the order the dialog cycles through them.
pub const PLAYER_CHOICES: [Player; 6] = [
    Player::Human,
    Player::Engine(Level::Random),
    Player::Engine(Level::Easy),
    Player::Engine(Level::Medium),
    Player::Engine(Level::Hard),
    Player::Engine(Level::Max),
];

/// The dialog's state: the players chosen so far and the row being changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGameDialog {
    /// The players the new game will have.
    pub players: Players,
    /// 0 for Black's row, 1 for White's.
    pub row: usize,
}

impl NewGameDialog {
    /// A dialog that starts from the current players.
    pub fn new(players: Players) -> NewGameDialog {
        NewGameDialog { players, row: 0 }
    }

    /// Moves to the other row.
    pub fn switch_row(&mut self) {
        self.row = 1 - self.row;
    }

    /// Changes the chosen row's player to the next (`step` 1) or previous (`step` -1) choice, wrapping round.
    pub fn cycle(&mut self, step: isize) {
        let slot = if self.row == 0 {
            &mut self.players.black
        } else {
            &mut self.players.white
        };
        let now = PLAYER_CHOICES.iter().position(|p| p == slot).unwrap_or(0);
        let n = PLAYER_CHOICES.len() as isize;
        *slot = PLAYER_CHOICES[(now as isize + step).rem_euclid(n) as usize];
    }
}

/// What the dialog makes of an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DialogStep {
    /// It stays open, changed or not.
    Stays,
    /// Start a new game with these players.
    Start(Players),
    /// Set up a position first, for these players.
    SetUp(Players),
    /// Close it without a new game.
    Cancel,
}

impl NewGameDialog {
    /// Carries out one of the player's actions: the cursor keys choose, picking starts, Esc or quitting cancels,
    /// anything else does nothing.
    pub(super) fn act(&mut self, action: &Action) -> DialogStep {
        match action {
            Action::Up | Action::Down => self.switch_row(),
            Action::Left => self.cycle(-1),
            Action::Right => self.cycle(1),
            Action::PickAtCursor | Action::SubmitInput | Action::NewGame => {
                return DialogStep::Start(self.players);
            }
            Action::Setup(SetupAction::Open) => return DialogStep::SetUp(self.players),
            Action::Cancel | Action::Quit => return DialogStep::Cancel,
            _ => {}
        }
        DialogStep::Stays
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycling_wraps_both_ways_and_touches_only_the_chosen_row() {
        let mut dialog = NewGameDialog::new(Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        });
        dialog.cycle(-1);
        assert_eq!(dialog.players.black, Player::Engine(Level::Max));
        dialog.cycle(1);
        assert_eq!(dialog.players.black, Player::Human);
        dialog.switch_row();
        dialog.cycle(1);
        assert_eq!(dialog.players.white, Player::Engine(Level::Hard));
        assert_eq!(dialog.players.black, Player::Human);
    }

    #[test]
    fn the_dialog_starts_sets_up_or_cancels() {
        let players = Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        };
        let mut dialog = NewGameDialog::new(players);
        assert_eq!(dialog.act(&Action::Down), DialogStep::Stays);
        assert_eq!(dialog.act(&Action::Right), DialogStep::Stays);
        let chosen = Players {
            white: Player::Engine(Level::Hard),
            ..players
        };
        assert_eq!(dialog.act(&Action::PickAtCursor), DialogStep::Start(chosen));
        assert_eq!(
            dialog.act(&Action::Setup(SetupAction::Open)),
            DialogStep::SetUp(chosen)
        );
        assert_eq!(dialog.act(&Action::Undo), DialogStep::Stays);
        assert_eq!(dialog.act(&Action::Quit), DialogStep::Cancel);
    }
}
