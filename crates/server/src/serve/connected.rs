//! Who a connection serves: the player (their identity, how their terminal draws, how and where from they
//! came) and their settings, as every screen the connection shows reads them.

use std::sync::Arc;

use super::Shared;
use super::identity::Identity;
use crate::config::{Settings, SettingsError};
use crate::session::SettingsHome;

/// Who is playing, and how their screen looks.
pub struct ConnectedPlayer {
    /// What every connection shares.
    pub shared: Arc<Shared>,
    /// Who.
    pub identity: Identity,
    /// Whether their terminal wants no colour.
    pub no_color: bool,
    /// How they reached the server (`ssh -t -p 2222 192.0.2.7`), for the command a friend types to join.
    pub reached_by: Option<String>,
    /// The address they connected from.
    pub address: std::net::IpAddr,
    /// Whether they may only watch: a browser without an identity on a server without guests, come by a
    /// watching link or the TV. Leaving what they watch ends the connection, as the lobby is not theirs.
    pub spectator: bool,
}

/// Where `player`'s settings screen keeps its changes: the settings file in their folder, which the nodes share
/// (so the settings follow them to any node); nowhere for a guest.
pub fn settings_home(shared: &Shared, identity: &Identity) -> SettingsHome {
    match identity.is_guest() {
        true => SettingsHome::Nowhere(
            "a guest's settings are not kept: connect with an SSH key to keep them".into(),
        ),
        false => SettingsHome::File(shared.store_of(identity).settings_file()),
    }
}

/// A player's settings (the defaults for a guest), and why their file was not used, if it was not.
pub fn settings_of(shared: &Shared, identity: &Identity) -> (Settings, Option<SettingsError>) {
    match identity.is_guest() {
        true => (Settings::defaults(), None),
        false => Settings::load_or_defaults(&shared.store_of(identity).settings_file()),
    }
}
