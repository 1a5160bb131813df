//! The lobby's form for a new game against a person: variant, colour, clock, rated or not, open to anyone or by
//! code.

use crate::app::NewTable;
use crate::game::{TIME_CONTROL_CHOICES, TimeControl};
use crate::rules::{Color, Variant};

/// The form's rows, in order.
pub const FORM_ROWS: [&str; 5] = ["Variant", "Colour", "Clock", "Rated", "Who may join"];

/// The form for a new game against a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The row with the cursor.
    pub row: usize,
    /// The variants to choose from: the built-ins ([`Variant::ALL`]), then those the server offers as
    /// definitions.
    pub variants: Vec<Variant>,
    /// The variant, by index in [`variants`](Form::variants).
    pub variant: usize,
    /// The colour: 0 either, 1 Black, 2 White.
    pub color: usize,
    /// The clock, by index in [`TIME_CONTROL_CHOICES`] (the new-game dialog's list).
    pub clock: usize,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether it is listed for anyone to join (else by code only).
    pub public: bool,
}

impl Form {
    /// The form as it opens, with the built-in variants: English, either colour, 5+3, rated, listed.
    #[cfg(test)]
    pub(super) fn new() -> Form {
        Form::offering(Variant::ALL.to_vec())
    }

    /// The form as it opens, with `variants` to choose from (English first: the built-ins come first).
    pub(super) fn offering(variants: Vec<Variant>) -> Form {
        let variants = match variants.is_empty() {
            true => Variant::ALL.to_vec(),
            false => variants,
        };
        Form {
            row: 0,
            variants,
            variant: 0,
            color: 0,
            clock: 3,
            rated: true,
            // The same default as the server's `new`: one rule for both ways of opening a game.
            public: !NewTable::default().private,
        }
    }

    /// Each row's value in words.
    pub fn values(&self) -> [String; 5] {
        [
            self.chosen_variant().title().to_string(),
            ["either (drawn at random)", "Black", "White"][self.color].to_string(),
            match TIME_CONTROL_CHOICES[self.clock] {
                "none" => "no clock".to_string(),
                "30s" => "30 seconds a move".to_string(),
                fischer => format!("{fischer} (minutes + seconds a move)"),
            },
            if self.rated { "yes" } else { "no" }.to_string(),
            if self.public {
                "anyone (listed here)"
            } else {
                "only with the code"
            }
            .to_string(),
        ]
    }

    /// The cursor a row up (`up`) or down, staying on the form.
    pub(super) fn move_row(&mut self, up: bool) {
        self.row = if up {
            self.row.saturating_sub(1)
        } else {
            (self.row + 1).min(FORM_ROWS.len() - 1)
        };
    }

    /// Changes the row with the cursor one step (`forward` or back).
    pub(super) fn step(&mut self, forward: bool) {
        let turn = |value: usize, count: usize| {
            if forward {
                (value + 1) % count
            } else {
                (value + count - 1) % count
            }
        };
        match self.row {
            0 => self.variant = turn(self.variant, self.variants.len()),
            1 => self.color = turn(self.color, 3),
            2 => self.clock = turn(self.clock, TIME_CONTROL_CHOICES.len()),
            3 => self.rated = !self.rated,
            _ => self.public = !self.public,
        }
    }

    /// The variant chosen (English should the index be out of the list, which the form never lets it be).
    pub fn chosen_variant(&self) -> Variant {
        self.variants
            .get(self.variant)
            .copied()
            .unwrap_or(Variant::English)
    }

    /// The game the form describes.
    pub(super) fn table(&self) -> NewTable {
        NewTable {
            variant: self.chosen_variant(),
            clock: TIME_CONTROL_CHOICES[self.clock].parse::<TimeControl>().ok(),
            color: [None, Some(Color::Black), Some(Color::White)][self.color],
            rated: self.rated,
            private: !self.public,
        }
    }
}
