//! The `[server]` table: how `crowned serve` runs when its command line does not say.

use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{NodeName, PostgresUrl};

/// Connections a server may hold at once, in all.
pub const MAX_SESSIONS: RangeInclusive<i64> = 1..=100_000;
/// Connections from one address.
pub const MAX_PER_ADDRESS: RangeInclusive<i64> = 1..=100_000;
/// Connections that have not signed in yet, in all and from one address.
pub const MAX_STRANGERS: RangeInclusive<i64> = 1..=100_000;
/// Seconds a connection has to sign in.
pub const SIGN_IN_DEADLINE: RangeInclusive<i64> = 1..=600;
/// Seconds a client may leave a frame waiting.
pub const CLIENT_STALL: RangeInclusive<i64> = 1..=3_600;
/// Seconds a game may wait for a key.
pub const IDLE_TIMEOUT: RangeInclusive<i64> = 10..=604_800;
/// The range of `server.seat-grace`, in seconds: from five seconds to a day.
pub const SEAT_GRACE: RangeInclusive<i64> = 5..=86_400;
/// Seconds a room's lease lasts without its node's heartbeat, when several nodes serve together.
pub const LEASE_TERM: RangeInclusive<i64> = 2..=600;
/// Search threads shared by every game.
pub const ENGINE_THREADS: RangeInclusive<i64> = 1..=256;
/// Table memory shared by every game, in megabytes.
pub const ENGINE_MEGABYTES: RangeInclusive<i64> = 1..=65_536;
/// Events one key or one address may create in a day, and players' events at once (none: only the operator's).
pub const EVENT_CAP: RangeInclusive<i64> = 0..=10_000;

/// How `crowned serve` runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    /// Address and port to listen on (`server.listen`).
    pub listen: SocketAddr,
    /// The host key file (`server.host-key`); `None` for the one in the data folder.
    pub host_key: Option<PathBuf>,
    /// The only keys that may connect (`server.authorized-keys`, an OpenSSH `authorized_keys` file); `None`
    /// lets every key in.
    pub authorized_keys: Option<PathBuf>,
    /// Whether clients without a key play as guests, whose games are not kept (`server.guests`).
    pub guests: bool,
    /// Connections at once (`server.max-sessions`).
    pub max_sessions: u32,
    /// Connections at once from one address (`server.max-per-address`).
    pub max_per_address: u32,
    /// Connections at once that have not signed in yet (`server.max-strangers`): a pool of their own, which
    /// never takes a signed-in player's place.
    pub max_strangers: u32,
    /// Connections at once from one address that have not signed in yet (`server.max-strangers-per-address`).
    pub max_strangers_per_address: u32,
    /// Seconds a connection has from its first byte to sign in before it is cut off (`server.sign-in-deadline`).
    pub sign_in_deadline: u32,
    /// Seconds a client may leave a frame waiting (it has stopped reading) before it is cut off
    /// (`server.client-stall`).
    pub client_stall: u32,
    /// Seconds a game may wait for a key before it ends (`server.idle-timeout`).
    pub idle_timeout: u32,
    /// Seconds a player who dropped out of a game against a person keeps their seat (`server.seat-grace`).
    pub seat_grace: u32,
    /// Search threads shared by every game (`server.engine-threads`).
    pub engine_threads: u32,
    /// Table memory shared by every game, in megabytes (`server.engine-megabytes`).
    pub engine_megabytes: u32,
    /// Variant definitions (TOML files) players may open tables with, besides Turkish and those of the variants
    /// folder beside the settings file (`server.variant-files`).
    pub variant_files: Vec<PathBuf>,
    /// The PostgreSQL database the records are kept in (`server.records`); `None` for the SQLite file in the
    /// data folder.
    pub records: Option<PostgresUrl>,
    /// This node's name among the nodes that share the PostgreSQL records (`server.node-name`); `None` for the
    /// machine's name and the port it listens on.
    pub node_name: Option<NodeName>,
    /// Seconds a room's lease lasts without its node's heartbeat (`server.lease-term`): how soon another node
    /// takes over the games of one that died.
    pub lease_term: u32,
    /// The events the server schedules itself, each in the words of `tournament new`; one with `at=HH:MM`
    /// comes back every day (`server.tournaments`).
    pub tournaments: Vec<String>,
    /// Events one key may create in 24 hours (`server.events-per-key`).
    pub events_per_key: u32,
    /// Events players at one address may create in 24 hours (`server.events-per-address`).
    pub events_per_address: u32,
    /// Events created by players that may wait or run at once (`server.players-events`); the operator's
    /// scheduled events are not counted, and always have a place.
    pub players_events: u32,
    /// Address and port of the web door (`server.web`); `None` serves no browsers.
    pub web: Option<SocketAddr>,
    /// The web door's certificate chain and key, PEM files (`server.web-cert`, `server.web-key`): with both,
    /// the door speaks TLS itself; with neither, plain HTTP (behind a proxy, or on a trusted network).
    pub web_cert: Option<PathBuf>,
    /// See `web_cert`.
    pub web_key: Option<PathBuf>,
    /// The reverse proxies in front of the web door whose `X-Forwarded-For` is believed (`server.web-proxies`).
    pub web_proxies: Vec<IpAddr>,
}

impl Default for ServerSettings {
    /// Placeholders: the built-in file sets every one.
    fn default() -> ServerSettings {
        ServerSettings {
            listen: SocketAddr::from(([127, 0, 0, 1], 2222)),
            host_key: None,
            authorized_keys: None,
            guests: false,
            max_sessions: 1,
            max_per_address: 1,
            max_strangers: 1,
            max_strangers_per_address: 1,
            sign_in_deadline: 1,
            client_stall: 1,
            idle_timeout: 60,
            seat_grace: 5,
            engine_threads: 1,
            engine_megabytes: 1,
            variant_files: Vec::new(),
            records: None,
            node_name: None,
            lease_term: 10,
            tournaments: Vec::new(),
            events_per_key: 0,
            events_per_address: 0,
            players_events: 0,
            web: None,
            web_cert: None,
            web_key: None,
            web_proxies: Vec::new(),
        }
    }
}

/// The `[server]` table as read: every setting optional; numbers wider than the settings, so that a negative
/// one gets this program's message rather than serde's.
#[derive(Debug, Default, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a table of settings"
)]
pub(super) struct ServerLayer {
    listen: Option<String>,
    host_key: Option<String>,
    authorized_keys: Option<String>,
    guests: Option<bool>,
    max_sessions: Option<i64>,
    max_per_address: Option<i64>,
    max_strangers: Option<i64>,
    max_strangers_per_address: Option<i64>,
    sign_in_deadline: Option<i64>,
    client_stall: Option<i64>,
    idle_timeout: Option<i64>,
    seat_grace: Option<i64>,
    engine_threads: Option<i64>,
    engine_megabytes: Option<i64>,
    variant_files: Option<Vec<String>>,
    records: Option<String>,
    node_name: Option<String>,
    lease_term: Option<i64>,
    tournaments: Option<Vec<String>>,
    events_per_key: Option<i64>,
    events_per_address: Option<i64>,
    players_events: Option<i64>,
    web: Option<String>,
    web_cert: Option<String>,
    web_key: Option<String>,
    web_proxies: Option<Vec<String>>,
}

/// The `[server]` table as written.
#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct ServerOut {
    listen: String,
    host_key: String,
    authorized_keys: String,
    guests: bool,
    max_sessions: u32,
    max_per_address: u32,
    max_strangers: u32,
    max_strangers_per_address: u32,
    sign_in_deadline: u32,
    client_stall: u32,
    idle_timeout: u32,
    seat_grace: u32,
    engine_threads: u32,
    engine_megabytes: u32,
    variant_files: Vec<String>,
    records: String,
    node_name: String,
    lease_term: u32,
    tournaments: Vec<String>,
    events_per_key: u32,
    events_per_address: u32,
    players_events: u32,
    web: String,
    web_cert: String,
    web_key: String,
    web_proxies: Vec<String>,
}

impl ServerSettings {
    /// Why these settings cannot serve as they stand, if they cannot: an allow-list of keys is there to keep
    /// strangers out, and guests are exactly the strangers without a key, so the two together would let anyone
    /// in past the list. The server refuses to start rather than guess which the operator meant.
    pub fn contradiction(&self) -> Option<String> {
        if self.web_cert.is_some() != self.web_key.is_some() {
            return Some(
                "server.web-cert and server.web-key go together: both for TLS, neither for plain HTTP".into(),
            );
        }
        let keys = self.authorized_keys.as_ref()?;
        self.guests.then(|| {
            format!(
                "server.authorized-keys ({}) lets only its keys in, and server.guests would let in anyone \
                 without a key: choose one (--authorized-keys or --guests)",
                keys.display()
            )
        })
    }

    /// Lays the table's values over these; each that cannot be used goes to `problem` with its name.
    pub(super) fn apply(&mut self, layer: ServerLayer, problem: &mut dyn FnMut(&str, String)) {
        if let Some(text) = layer.listen {
            match parse_listen(&text) {
                Ok(address) => self.listen = address,
                Err(message) => problem("listen", message),
            }
        }
        if let Some(path) = layer.host_key {
            self.host_key = (!path.trim().is_empty()).then(|| PathBuf::from(path));
        }
        if let Some(path) = layer.authorized_keys {
            self.authorized_keys = (!path.trim().is_empty()).then(|| PathBuf::from(path));
        }
        if let Some(text) = layer.web {
            match text.trim() {
                "" => self.web = None,
                text => match parse_listen(text) {
                    Ok(address) => self.web = Some(address),
                    Err(message) => problem("web", message),
                },
            }
        }
        if let Some(path) = layer.web_cert {
            self.web_cert = (!path.trim().is_empty()).then(|| PathBuf::from(path));
        }
        if let Some(path) = layer.web_key {
            self.web_key = (!path.trim().is_empty()).then(|| PathBuf::from(path));
        }
        if let Some(proxies) = layer.web_proxies {
            let mut read = Vec::new();
            for text in proxies.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
                match text.parse::<IpAddr>() {
                    Ok(address) => read.push(address),
                    Err(_) => problem(
                        "web-proxies",
                        format!("{text:?} is not an address like 127.0.0.1 or ::1"),
                    ),
                }
            }
            self.web_proxies = read;
        }
        if let Some(on) = layer.guests {
            self.guests = on;
        }
        if let Some(events) = layer.tournaments {
            self.tournaments = events
                .into_iter()
                .filter(|e| !e.trim().is_empty())
                .collect();
        }
        if let Some(paths) = layer.variant_files {
            self.variant_files = paths
                .into_iter()
                .filter(|p| !p.trim().is_empty())
                .map(PathBuf::from)
                .collect();
        }
        if let Some(text) = layer.records {
            match text.trim().is_empty() {
                true => self.records = None,
                false => match text.parse() {
                    Ok(url) => self.records = Some(url),
                    Err(why) => problem("records", why.to_string()),
                },
            }
        }
        if let Some(text) = layer.node_name {
            match text.trim() {
                "" => self.node_name = None,
                name => match name.parse() {
                    Ok(name) => self.node_name = Some(name),
                    Err(why) => problem("node-name", format!("{why}")),
                },
            }
        }
        for (name, value, range, slot) in [
            (
                "max-sessions",
                layer.max_sessions,
                MAX_SESSIONS,
                &mut self.max_sessions,
            ),
            (
                "max-per-address",
                layer.max_per_address,
                MAX_PER_ADDRESS,
                &mut self.max_per_address,
            ),
            (
                "max-strangers",
                layer.max_strangers,
                MAX_STRANGERS,
                &mut self.max_strangers,
            ),
            (
                "max-strangers-per-address",
                layer.max_strangers_per_address,
                MAX_STRANGERS,
                &mut self.max_strangers_per_address,
            ),
            (
                "sign-in-deadline",
                layer.sign_in_deadline,
                SIGN_IN_DEADLINE,
                &mut self.sign_in_deadline,
            ),
            (
                "client-stall",
                layer.client_stall,
                CLIENT_STALL,
                &mut self.client_stall,
            ),
            (
                "idle-timeout",
                layer.idle_timeout,
                IDLE_TIMEOUT,
                &mut self.idle_timeout,
            ),
            (
                "seat-grace",
                layer.seat_grace,
                SEAT_GRACE,
                &mut self.seat_grace,
            ),
            (
                "lease-term",
                layer.lease_term,
                LEASE_TERM,
                &mut self.lease_term,
            ),
            (
                "engine-threads",
                layer.engine_threads,
                ENGINE_THREADS,
                &mut self.engine_threads,
            ),
            (
                "engine-megabytes",
                layer.engine_megabytes,
                ENGINE_MEGABYTES,
                &mut self.engine_megabytes,
            ),
            (
                "events-per-key",
                layer.events_per_key,
                EVENT_CAP,
                &mut self.events_per_key,
            ),
            (
                "events-per-address",
                layer.events_per_address,
                EVENT_CAP,
                &mut self.events_per_address,
            ),
            (
                "players-events",
                layer.players_events,
                EVENT_CAP,
                &mut self.players_events,
            ),
        ] {
            let Some(value) = value else { continue };
            match u32::try_from(value).ok().filter(|_| range.contains(&value)) {
                Some(value) => *slot = value,
                None => problem(
                    name,
                    format!(
                        "{name} is a number from {} to {}, not {value}",
                        range.start(),
                        range.end()
                    ),
                ),
            }
        }
    }

    /// The table to write.
    pub(super) fn out(&self) -> ServerOut {
        ServerOut {
            listen: self.listen.to_string(),
            host_key: path_text(self.host_key.as_ref()),
            authorized_keys: path_text(self.authorized_keys.as_ref()),
            guests: self.guests,
            max_sessions: self.max_sessions,
            max_per_address: self.max_per_address,
            max_strangers: self.max_strangers,
            max_strangers_per_address: self.max_strangers_per_address,
            sign_in_deadline: self.sign_in_deadline,
            client_stall: self.client_stall,
            idle_timeout: self.idle_timeout,
            seat_grace: self.seat_grace,
            engine_threads: self.engine_threads,
            engine_megabytes: self.engine_megabytes,
            variant_files: self
                .variant_files
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            // Without its password, which is never printed (it is then looked for in PGPASSWORD or the
            // password file).
            records: self
                .records
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            node_name: self
                .node_name
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            lease_term: self.lease_term,
            tournaments: self.tournaments.clone(),
            events_per_key: self.events_per_key,
            events_per_address: self.events_per_address,
            players_events: self.players_events,
            web: self.web.map(|a| a.to_string()).unwrap_or_default(),
            web_cert: path_text(self.web_cert.as_ref()),
            web_key: path_text(self.web_key.as_ref()),
            web_proxies: self.web_proxies.iter().map(ToString::to_string).collect(),
        }
    }
}

/// A path as the file writes it: empty for none.
fn path_text(path: Option<&PathBuf>) -> String {
    path.map(|p| p.display().to_string()).unwrap_or_default()
}

/// An address and port to listen on, as `--listen` and `server.listen` take it.
pub fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    text.trim().parse().map_err(|_| {
        format!("{text:?} is not an address and port like 127.0.0.1:2222 or [::1]:2222")
    })
}
