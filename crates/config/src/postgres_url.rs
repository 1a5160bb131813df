//! Where PostgreSQL records are: a `postgres://` URL, and the password that goes with it.
//!
//! The password is a secret: it comes from the URL, from `PGPASSWORD`, or from a password file (`PGPASSFILE`,
//! else `~/.pgpass`, in libpq's format), in that order, as libpq looks for it. It is never shown: a
//! [`PostgresUrl`] displays (and debugs, and writes to a settings file) without it, so that logs, errors and
//! printed settings cannot leak it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use tokio_postgres::config::Host;

/// The port PostgreSQL listens on unless told otherwise.
const DEFAULT_PORT: u16 = 5432;

/// A PostgreSQL server and database, as `postgres://user[:password]@host[:port]/database[?options]` says it.
#[derive(Clone, PartialEq, Eq)]
pub struct PostgresUrl {
    /// The URL as given, password included: only ever handed to the client library.
    given: String,
    /// The URL with the password left out: what is shown.
    shown: String,
}

/// Why a text is not a PostgreSQL URL. Never holds the password.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct UrlError(String);

impl FromStr for PostgresUrl {
    type Err = UrlError;

    fn from_str(text: &str) -> Result<PostgresUrl, UrlError> {
        let text = text.trim();
        let Some(rest) = text
            .strip_prefix("postgres://")
            .or_else(|| text.strip_prefix("postgresql://"))
        else {
            return Err(UrlError(
                "the records' URL starts with postgres:// (postgres://user@host:port/database)"
                    .into(),
            ));
        };
        let shown = without_password(text, rest);
        // The client library reads the URL; its own message is kept out, as it may quote the URL.
        if postgres::Config::from_str(text).is_err() {
            return Err(UrlError(format!(
                "{shown} is not a PostgreSQL URL like postgres://user@host:5432/database"
            )));
        }
        Ok(PostgresUrl {
            given: text.to_string(),
            shown,
        })
    }
}

/// `text` (whose part after the scheme is `rest`) without its password, in the user part or as an option.
fn without_password(text: &str, rest: &str) -> String {
    let scheme = &text[..text.len() - rest.len()];
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let authority = match authority.rsplit_once('@') {
        Some((user, hosts)) => {
            let user = user.split_once(':').map_or(user, |(name, _)| name);
            format!("{user}@{hosts}")
        }
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|option| !option.starts_with("password="))
                .collect();
            match kept.is_empty() {
                true => path.to_string(),
                false => format!("{path}?{}", kept.join("&")),
            }
        }
        None => tail.to_string(),
    };
    format!("{scheme}{authority}{tail}")
}

impl fmt::Display for PostgresUrl {
    /// The URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

impl fmt::Debug for PostgresUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PostgresUrl({})", self.shown)
    }
}

impl PostgresUrl {
    /// The client library's settings for this URL, with the user and password filled in as libpq would: the
    /// user from `PGUSER` or `USER` when the URL has none, the password from `PGPASSWORD` or the password file
    /// when the URL has none.
    pub fn config(&self) -> Result<postgres::Config, UrlError> {
        self.async_config().map(postgres::Config::from)
    }

    /// The same settings for the async client (what the nodes talk to each other through).
    pub fn async_config(&self) -> Result<tokio_postgres::Config, UrlError> {
        let mut config = tokio_postgres::Config::from_str(&self.given)
            .map_err(|_| UrlError(format!("{} is not a PostgreSQL URL", self.shown)))?;
        if config.get_user().is_none() {
            let user = std::env::var("PGUSER")
                .or_else(|_| std::env::var("USER"))
                .map_err(|_| UrlError(format!("{} names no user", self.shown)))?;
            config.user(&user);
        }
        if config.get_password().is_none() {
            if let Some(password) = std::env::var_os("PGPASSWORD") {
                config.password(password.as_encoded_bytes());
            } else if let Some(password) = passfile_password(&config) {
                config.password(password);
            }
        }
        // A process that stops in the middle of a transaction (paused, cut off) must not hold its rows' locks
        // for good: the database ends its session past a bound, and the node taking its tables over goes on. A
        // statement that runs past its own bound is ended too. The URL's own options come after, and win.
        let ours = format!(
            "-c idle_in_transaction_session_timeout={}s -c statement_timeout={}s",
            IDLE_IN_TRANSACTION.as_secs(),
            STATEMENT_TIMEOUT.as_secs()
        );
        let options = match config.get_options() {
            Some(theirs) => format!("{ours} {theirs}"),
            None => ours,
        };
        config.options(options);
        // A database that stops answering (a cut network) is found out rather than waited on for ever.
        config
            .keepalives(true)
            .keepalives_idle(KEEPALIVE_IDLE)
            .keepalives_interval(KEEPALIVE_IDLE / 2)
            .keepalives_retries(3)
            .tcp_user_timeout(UNACKNOWLEDGED);
        Ok(config)
    }
}

/// How long a session may sit idle in a transaction before the database ends it: far longer than any of
/// crowned's transactions pauses between two statements, and short enough that a stalled node's locks do not
/// hold a take-over up for long.
const IDLE_IN_TRANSACTION: std::time::Duration = std::time::Duration::from_secs(20);

/// How long one statement may run.
const STATEMENT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// How long an idle connection waits before it checks that the database is still there.
const KEEPALIVE_IDLE: std::time::Duration = std::time::Duration::from_secs(10);

/// How long data sent may go unacknowledged before the connection counts as lost.
const UNACKNOWLEDGED: std::time::Duration = std::time::Duration::from_secs(20);

/// The password the password file has for `config`'s server, database and user, if the file is there and
/// private (libpq ignores one that others may read, and so does this).
fn passfile_password(config: &tokio_postgres::Config) -> Option<String> {
    let path = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".pgpass")))?;
    let text = std::fs::read_to_string(&path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).ok()?.permissions().mode();
        if mode & 0o077 != 0 {
            tracing::warn!(
                file = %path.display(),
                "the password file may be read by others (it should be u=rw (0600) or less): not used"
            );
            return None;
        }
    }
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(name)) => name.clone(),
        Some(Host::Unix(_)) | None => "localhost".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(DEFAULT_PORT);
    let user = config.get_user()?;
    let database = config.get_dbname().unwrap_or(user);
    passfile_lookup(&text, &[&host, &port.to_string(), database, user])
}

/// The password of the first line of a password file whose fields match `wanted` (host, port, database, user),
/// each field matching exactly or by `*`. Lines starting with `#` are comments; a line that has not five fields
/// is passed over, as libpq does.
pub(crate) fn passfile_lookup(text: &str, wanted: &[&str; 4]) -> Option<String> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(passfile_fields)
        .find(|fields| {
            fields[..4]
                .iter()
                .zip(wanted)
                .all(|(field, wanted)| field == "*" || field == wanted)
        })
        .map(|mut fields| fields.swap_remove(4))
}

/// A password file line's five fields, `\:` and `\\` read as `:` and `\`; `None` unless there are five.
fn passfile_fields(line: &str) -> Option<Vec<String>> {
    let mut fields = vec![String::new()];
    let mut chars = line.trim_end_matches('\r').chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields.last_mut()?.push(chars.next().unwrap_or('\\')),
            // The password is the rest of the line, colons and all (libpq reads it so).
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => fields.last_mut()?.push(c),
        }
    }
    (fields.len() == 5).then_some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_is_never_shown() {
        for text in [
            "postgres://ann:s3cret-pw@db.example:5433/crowned",
            "postgresql://ann:s3cret-pw@db.example/crowned?password=s3cret-pw&application_name=x",
            "postgres://ann@db.example/crowned?password=s3cret-pw",
        ] {
            let url: PostgresUrl = text.parse().expect("a URL");
            let shown = format!("{url} {url:?}");
            assert!(!shown.contains("s3cret-pw"), "{shown}");
            assert!(shown.contains("ann@db.example"), "{shown}");
            let config = url.config().expect("settings");
            assert_eq!(config.get_password(), Some(&b"s3cret-pw"[..]));
        }
        let url: PostgresUrl = "postgres://ann:pw@h/db?application_name=x"
            .parse()
            .expect("a URL");
        assert_eq!(url.to_string(), "postgres://ann@h/db?application_name=x");
    }

    #[test]
    fn what_is_not_a_postgres_url_is_refused_without_its_password() {
        for text in [
            "",
            "records.sqlite",
            "mysql://ann:s3cret-pw@h/db",
            "postgres://ann:s3cret-pw@h:notaport/db",
            "postgres://ann:s3cret-pw@h/db?nonsense=1",
        ] {
            let why = text.parse::<PostgresUrl>().expect_err(text);
            assert!(!why.to_string().contains("s3cret-pw"), "{why}");
        }
    }

    #[test]
    fn a_password_file_is_read_as_libpq_reads_it() {
        let file = "# host:port:database:user:password\n\
                    other:5432:*:ann:wrong\n\
                    \n\
                    not enough:fields\n\
                    db.example:5432:crowned:ann:pa\\:ss:word\n\
                    *:*:*:*:fallback\n";
        let wanted = ["db.example", "5432", "crowned", "ann"];
        assert_eq!(
            passfile_lookup(file, &wanted).as_deref(),
            Some("pa:ss:word")
        );
        assert_eq!(
            passfile_lookup(file, &["elsewhere", "1", "x", "bob"]).as_deref(),
            Some("fallback")
        );
        // Malformed lines are passed over, never taken for a password.
        for broken in ["", ":", "a:b:c:d", "\\", "a\\:b:c:d:e\\", "#a:b:c:d:e"] {
            let found = passfile_lookup(broken, &["a:b", "c", "d", "e"]);
            assert!(found.is_none(), "{broken:?} gave {found:?}");
        }
        assert_eq!(
            passfile_lookup("a\\:b:c:d:e:pw\\", &["a:b", "c", "d", "e"]).as_deref(),
            Some("pw\\")
        );
    }
}
