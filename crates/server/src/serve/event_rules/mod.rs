//! The rules of events (tournaments): arenas and Swiss, kept here apart from the server that runs them.
//!
//! Everything in this module is pure: no I/O, no clock reads (the time, where it matters, is passed in), and the
//! same input always gives the same pairings. The server's director task feeds it the events (a player joins, a
//! game ends, the time is up) and acts on what it answers.
//!
//! - [`arena`]: lidraughts-style arena scoring (streaks) and the pairing of free players as they become free;
//! - [`swiss`]: the pairing of a Swiss round (score groups, colours, byes);
//! - [`standings`]: points and tie-breaks (Buchholz, Sonneborn-Berger) and the order of the table;
//! - [`director`]: one event as it runs, from joins, departures, results and the time.
//!
//! Points are counted in half points ([`HalfPoints`]) so that every sum and comparison is exact.

pub mod arena;
pub mod director;
pub mod standings;
pub mod swiss;
pub mod table;

#[cfg(test)]
mod director_tests;
#[cfg(test)]
mod swiss_tests;

/// The kinds of event. Each is written in the records by its name ([`EventKind::as_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Paired as players become free, for a fixed time.
    Arena,
    /// A fixed number of rounds, paired by score.
    Swiss,
}

impl EventKind {
    /// As the records write it.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Arena => "arena",
            EventKind::Swiss => "swiss",
        }
    }

    /// Read as the records write it.
    pub fn parse(text: &str) -> Option<EventKind> {
        match text {
            "arena" => Some(EventKind::Arena),
            "swiss" => Some(EventKind::Swiss),
            _ => None,
        }
    }
}

/// Where an event stands, as the records keep it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Taking entries, not started.
    Waiting,
    /// Under way.
    Running,
    /// Over; its table is final.
    Finished,
}

impl Stage {
    /// As the records write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Waiting => "waiting",
            Stage::Running => "running",
            Stage::Finished => "finished",
        }
    }

    /// Read as the records write it.
    pub fn parse(text: &str) -> Option<Stage> {
        match text {
            "waiting" => Some(Stage::Waiting),
            "running" => Some(Stage::Running),
            "finished" => Some(Stage::Finished),
            _ => None,
        }
    }
}

/// An entrant of one tournament, numbered from 0 in the order of their seeding (0 is the highest seed: the
/// best-rated player when the event started, or the first to join).
pub type Entrant = u32;

/// A score in half points (a win in a Swiss event is 2, a draw 1).
pub type HalfPoints = u32;

/// Which side of the board an entrant plays: the side that moves first in the variant (Black in English
/// draughts, White in international) or the other. Colour balance is about who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The side that moves first.
    First,
    /// The side that moves second.
    Second,
}

impl Colour {
    /// The other side.
    pub fn other(self) -> Colour {
        match self {
            Colour::First => Colour::Second,
            Colour::Second => Colour::First,
        }
    }
}

/// How a tournament game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The player who moved first won.
    FirstWins,
    /// The player who moved second won.
    SecondWins,
    /// A draw.
    Draw,
}

/// What one player made of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerScore {
    /// A win.
    Win,
    /// A draw.
    Draw,
    /// A loss.
    Loss,
}

impl PlayerScore {
    /// The score in half points of a classical event: 2 for a win, 1 for a draw.
    pub fn half_points(self) -> HalfPoints {
        match self {
            PlayerScore::Win => 2,
            PlayerScore::Draw => 1,
            PlayerScore::Loss => 0,
        }
    }
}

/// Two entrants paired for one game, with their colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// Who moves first.
    pub first: Entrant,
    /// Who moves second.
    pub second: Entrant,
}

impl Pairing {
    /// The game between `higher` and `lower`, `higher` moving first when `higher_first` says so.
    pub fn ordered(higher: Entrant, lower: Entrant, higher_first: bool) -> Pairing {
        if higher_first {
            Pairing {
                first: higher,
                second: lower,
            }
        } else {
            Pairing {
                first: lower,
                second: higher,
            }
        }
    }

    /// Whether `who` plays in this game.
    pub fn has(&self, who: Entrant) -> bool {
        self.first == who || self.second == who
    }

    /// The opponent of `who` (who must play in this game) and the colour `who` has.
    pub fn seen_by(&self, who: Entrant) -> (Entrant, Colour) {
        if self.first == who {
            (self.second, Colour::First)
        } else {
            (self.first, Colour::Second)
        }
    }

    /// What `who` made of this game given its result.
    pub fn score_of(&self, who: Entrant, result: GameResult) -> PlayerScore {
        match (result, self.first == who) {
            (GameResult::Draw, _) => PlayerScore::Draw,
            (GameResult::FirstWins, true) | (GameResult::SecondWins, false) => PlayerScore::Win,
            _ => PlayerScore::Loss,
        }
    }
}

/// One game of a round: who plays whom, and the result once it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundBoard {
    /// The players and their colours.
    pub pairing: Pairing,
    /// The result, once the game has ended.
    pub result: Option<GameResult>,
}

/// One round of a Swiss event: its games, in board order, and the player who sat it out with a bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The games, board 1 first.
    pub boards: Vec<RoundBoard>,
    /// The player with the bye (1 point, no game), when the number of players was odd.
    pub bye: Option<Entrant>,
}

impl Round {
    /// Whether every game of the round has a result.
    pub fn finished(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }

    /// Whether `who` was paired (or had the bye) in this round.
    pub fn involves(&self, who: Entrant) -> bool {
        self.bye == Some(who) || self.boards.iter().any(|b| b.pairing.has(who))
    }
}
