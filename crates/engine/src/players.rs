//! Who plays each side: a person at the keyboard, the engine at a level, or a person elsewhere, with the one word
//! that names each.

use std::fmt;

use super::{Level, UnknownLevel};
use crowned_rules::Color;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The engine at a level.
    Engine(Level),
    /// A person somewhere else, whose moves come from a table (a server's room).
    Remote,
}

impl Player {
    /// The word that names the player in settings, on the command line and in saved games: `human` or a
    /// level's name (`medium`). [`FromStr`](std::str::FromStr) reads it back.
    pub fn word(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine(level) => level.name(),
            Player::Remote => "remote",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Engine(level) => write!(f, "engine ({level})"),
            Player::Remote => f.write_str("the opponent"),
        }
    }
}

impl std::str::FromStr for Player {
    type Err = UnknownLevel;

    /// `human`, or an engine level name (`medium`). `remote` is not read: a game from a file is played here.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("human") {
            Ok(Player::Human)
        } else {
            s.parse().map(Player::Engine)
        }
    }
}

/// Who plays each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Players {
    /// The side that moves first.
    pub black: Player,
    /// The other side.
    pub white: Player,
}

impl Players {
    /// The player of `color`.
    pub fn of(&self, color: Color) -> Player {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The same players with colours swapped.
    pub fn swapped(self) -> Players {
        Players {
            black: self.white,
            white: self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_player_reads_back_from_its_word() {
        let players =
            std::iter::once(Player::Human).chain(Level::ALL.iter().map(|&l| Player::Engine(l)));
        for player in players {
            assert_eq!(player.word().parse::<Player>(), Ok(player));
        }
    }
}
