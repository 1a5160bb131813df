//! The `[server]` table: how `crowned serve` runs when its command line does not say.

use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::path::PathBuf;

use super::schema::{
    ADDRESSES, CliFlag, Count, Listen, Optional, OptionalListen, OptionalPath, PATHS, Secret,
    Switch, TEXTS, settings_table,
};
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
/// Seconds a table's lease lasts without its node's heartbeat, when several nodes serve together.
pub const LEASE_TERM: RangeInclusive<i64> = 2..=600;
/// Search threads shared by every game.
pub const ENGINE_THREADS: RangeInclusive<i64> = 1..=256;
/// Table memory shared by every game, in megabytes.
pub const ENGINE_MEGABYTES: RangeInclusive<i64> = 1..=65_536;
/// Events one key or one address may create in a day, and players' events at once (none: only the operator's).
pub const EVENT_CAP: RangeInclusive<i64> = 0..=10_000;

settings_table! {
    /// How `crowned serve` runs: the `[server]` table, each setting with its command-line flag where it has one.
    table "server", Settings.server => ServerSettings, ServerFlags;

    /// Address and port to listen on; 0.0.0.0:2222 (or `[::]:2222`) serves other machines.
    listen ("listen"): SocketAddr = Listen, CliFlag::Flag("listen", "ADDR:PORT");
    /// The host key (an OpenSSH private key); none: server/host_key_ed25519 in the data folder, made on first
    /// start.
    host_key ("host-key"): Option<PathBuf> = OptionalPath, CliFlag::Flag("host-key", "FILE");
    /// Only the keys of this OpenSSH authorized_keys file may connect; none: every key may (each is its own
    /// player).
    authorized_keys ("authorized-keys"): Option<PathBuf> = OptionalPath, CliFlag::Flag("authorized-keys", "FILE");
    /// Let clients without a key play as guests, whose games are not kept; not with authorized-keys.
    guests ("guests"): bool = Switch, CliFlag::Flag("guests", "");
    /// Connections held at once.
    max_sessions ("max-sessions"): u32 = Count(MAX_SESSIONS), CliFlag::Flag("max-sessions", "N");
    /// Connections held at once from one address.
    max_per_address ("max-per-address"): u32 = Count(MAX_PER_ADDRESS), CliFlag::Flag("max-per-address", "N");
    /// Connections at once that have not signed in yet, in places of their own that never take a player's.
    max_strangers ("max-strangers"): u32 = Count(MAX_STRANGERS), CliFlag::Flag("max-strangers", "N");
    /// Of the connections that have not signed in yet, those from one address.
    max_strangers_per_address ("max-strangers-per-address"): u32 = Count(MAX_STRANGERS),
        CliFlag::Flag("max-strangers-per-address", "N");
    /// Seconds a connection has, from its first byte, to sign in before it is cut off.
    sign_in_deadline ("sign-in-deadline"): u32 = Count(SIGN_IN_DEADLINE), CliFlag::Flag("sign-in-deadline", "SECONDS");
    /// Seconds a client may leave a frame waiting (it stopped reading) before it is cut off.
    client_stall ("client-stall"): u32 = Count(CLIENT_STALL), CliFlag::Flag("client-stall", "SECONDS");
    /// Seconds a game may wait for a key before it ends (it is saved and offered on the next connection).
    idle_timeout ("idle-timeout"): u32 = Count(IDLE_TIMEOUT), CliFlag::Flag("idle-timeout", "SECONDS");
    /// Seconds a player who drops out of a game against a person keeps their seat (their clock runs on).
    seat_grace ("seat-grace"): u32 = Count(SEAT_GRACE), CliFlag::Flag("seat-grace", "SECONDS");
    /// Events the server holds by itself, each in the words of `tournament new`; one with `at=HH:MM` comes back
    /// every day.
    tournaments ("tournaments"): Vec<String> = TEXTS, CliFlag::FileOnly;
    /// Events one key may create in 24 hours.
    events_per_key ("events-per-key"): u32 = Count(EVENT_CAP), CliFlag::FileOnly;
    /// Events players at one address may create in 24 hours.
    events_per_address ("events-per-address"): u32 = Count(EVENT_CAP), CliFlag::FileOnly;
    /// Events created by players that may wait or run at once; the operator's scheduled events are not
    /// counted, and always have a place.
    players_events ("players-events"): u32 = Count(EVENT_CAP), CliFlag::FileOnly;
    /// Search threads shared by every game on the server.
    engine_threads ("engine-threads"): u32 = Count(ENGINE_THREADS), CliFlag::Flag("engine-threads", "N");
    /// Transposition-table memory shared by every game, in megabytes.
    engine_megabytes ("engine-megabytes"): u32 = Count(ENGINE_MEGABYTES), CliFlag::Flag("engine-megabytes", "MB");
    /// Variant definitions (TOML files) players may open tables with, besides Turkish and those of the variants
    /// folder beside the settings file; the flag once a file, whose list takes the place of the setting's.
    variant_files ("variant-files"): Vec<PathBuf> = PATHS, CliFlag::Flag("variant-file", "FILE");
    /// Keep the records in this PostgreSQL database (postgres://user@host:port/database), which several servers
    /// may share; none: an SQLite file in the data folder. The password is best given in PGPASSWORD or
    /// ~/.pgpass, where `ps` does not show it; it is never printed.
    records ("records"): Option<PostgresUrl> = Secret(Optional::<PostgresUrl>::KIND), CliFlag::Flag("records", "URL");
    /// This node's name among the servers sharing the PostgreSQL records; none: the machine's name and the port
    /// it listens on.
    node_name ("node-name"): Option<NodeName> = Optional::<NodeName>::KIND, CliFlag::Flag("node-name", "NAME");
    /// Seconds a game stays with its node without that node's heartbeat: how soon another node takes over the
    /// games of one that died.
    lease_term ("lease-term"): u32 = Count(LEASE_TERM), CliFlag::Flag("lease-term", "SECONDS");
    /// Serve browsers too, at this address and port: the same server in a page; none: no web door.
    web ("web"): Option<SocketAddr> = OptionalListen, CliFlag::Flag("web", "ADDR:PORT");
    /// The web door's certificate chain (PEM), for TLS without a proxy; with web-key, or neither for plain
    /// HTTP.
    web_cert ("web-cert"): Option<PathBuf> = OptionalPath, CliFlag::Flag("web-cert", "FILE");
    /// The web door's private key (PEM); with web-cert.
    web_key ("web-key"): Option<PathBuf> = OptionalPath, CliFlag::Flag("web-key", "FILE");
    /// The operator's listener, at this address and port: /metrics (Prometheus), /healthz and /readyz; none: no
    /// such listener.
    metrics ("metrics"): Option<SocketAddr> = OptionalListen, CliFlag::Flag("metrics", "ADDR:PORT");
    /// The reverse proxies in front of the web door, whose X-Forwarded-For is believed.
    web_proxies ("web-proxies"): Vec<IpAddr> = ADDRESSES, CliFlag::FileOnly;
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
}
