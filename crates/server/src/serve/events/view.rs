//! An event as everyone sees it: what its task publishes after each change, and what the screens, the tables of
//! its games and the other nodes read.

use std::collections::HashMap;

use crate::serve::event_rules::Colour;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::records::{EventSpec, Stage};

/// An event as everyone sees it, after each change.
#[derive(Clone, Debug)]
pub struct View {
    /// How it was set up.
    pub spec: EventSpec,
    /// Where it stands.
    pub stage: Stage,
    /// How many have entered.
    pub entrants: usize,
    /// Its table and pairings as text.
    pub text: String,
    /// Its leaders in one line (`1. ann 4 · 2. bob 3.5 · ...`), for the watchers of its games.
    pub leaders: String,
    /// The games under way: each player's table and colour.
    pub boards: HashMap<Fingerprint, (TableCode, Colour)>,
}
