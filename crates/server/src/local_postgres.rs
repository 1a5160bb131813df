//! A throwaway PostgreSQL server on this machine, for tests and benches of the PostgreSQL records.
//!
//! [`LocalPostgres::start`] makes a cluster in a temporary folder (`initdb`, trust authentication), starts it
//! listening on 127.0.0.1 only, on a port free at the time, and waits until it takes connections;
//! [`LocalPostgres::fresh_database`] gives each test a database of its own. The programs are looked for on
//! `PATH`, then in Debian's `/usr/lib/postgresql/VERSION/bin`.
//!
//! PostgreSQL will not run as root. When this process is root, the cluster is made and run as the unprivileged
//! `postgres` user (Debian's package creates it), its folder given to that user.
//!
//! Nothing is left running, however this process ends: the server is watched by a small shell that waits on a
//! pipe from this process. When the pipe closes (the [`LocalPostgres`] is dropped, or this process exits, panics
//! or is killed, as the kernel closes the pipe then), the shell stops the server and removes its folder. So a
//! server kept in a `static` for a whole test program, which is never dropped, still goes with the program.

use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use thiserror::Error;

/// The superuser of the cluster, whoever runs it.
const SUPERUSER: &str = "postgres";
/// The unprivileged user the server runs as when this process is root.
const RUN_AS: &str = "postgres";
/// Seconds `pg_ctl` waits for the server to take connections.
const START_SECONDS: u32 = 60;
/// The connections the server takes at once (see where it is started for the count).
const MAX_CONNECTIONS: u32 = 400;
/// Ports tried (another program may take a free port between choosing it and the server binding it).
const PORT_TRIES: usize = 3;

/// The shell that starts the server, then waits for its standard input to close and stops it: `$1` is
/// `pg_ctl`, `$2` the cluster's folder, `$3` the server's options. Interrupts are ignored so that a Ctrl-C to
/// the test program's terminal leaves the cleanup to be done when the program goes, and so is a broken pipe:
/// the program may be gone before "started" is said, and the server must still be stopped.
const WATCHER: &str = r#"
trap '' INT TERM HUP PIPE
pg_ctl="$1"; dir="$2"; options="$3"
"$pg_ctl" start -w -t "$4" -D "$dir/data" -l "$dir/log" -o "$options" >/dev/null 2>&1 </dev/null
started=$?
echo "started $started"
# Not started: nothing to stop; the folder is left for the caller to read the log from.
[ "$started" -eq 0 ] || exit 1
cat >/dev/null
"$pg_ctl" stop -m immediate -D "$dir/data" >/dev/null 2>&1 </dev/null
rm -rf "$dir"
"#;

/// What keeps a PostgreSQL server from starting.
#[derive(Debug, Error)]
pub enum LocalPostgresError {
    /// PostgreSQL's programs are not on this machine.
    #[error(
        "PostgreSQL's server programs (initdb, pg_ctl) are not on PATH nor in /usr/lib/postgresql/*/bin: \
         install PostgreSQL (Debian: apt-get install postgresql)"
    )]
    NotInstalled,
    /// Root, and no user to run the server as.
    #[error(
        "running as root, which PostgreSQL refuses, and there is no user {RUN_AS:?} to run it as (Debian's \
         postgresql package creates it)"
    )]
    NoUser,
    /// A program could not be run.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// A program ran and failed.
    #[error("{0}")]
    Failed(String),
    /// The server would not answer.
    #[error("the test PostgreSQL server: {0}")]
    Client(#[from] postgres::Error),
    /// The process's shared server did not start (why, as it was said the first time).
    #[error("{0}")]
    Shared(String),
}

/// A PostgreSQL server of its own in a temporary folder, listening on 127.0.0.1, stopped and removed when
/// dropped or when this process ends.
pub struct LocalPostgres {
    port: u16,
    /// Where `pg_ctl` is.
    bin: PathBuf,
    /// The cluster's folder (`data` in it).
    folder: PathBuf,
    /// The user and group the server runs as, when not this process's.
    owner: Option<(u32, u32)>,
    /// The server's options.
    options: String,
    /// The watching shell's standard input: closing it stops the server.
    stop: Mutex<Option<ChildStdin>>,
    watcher: Mutex<Child>,
    /// Databases made so far, for their names.
    made: AtomicU32,
}

/// Whether a [`LocalPostgres`] keeps what it has been told across a crash of the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// No syncing to the disk: a test server's data is thrown away, and tests run faster without it.
    Throwaway,
    /// PostgreSQL's own defaults (every commit synced to the disk): what an operator runs, so what a benchmark
    /// that compares with the embedded records (which sync every commit) must run.
    Durable,
}

impl LocalPostgres {
    /// Makes a throwaway cluster and starts its server; returns once it takes connections.
    pub fn start() -> Result<LocalPostgres, LocalPostgresError> {
        LocalPostgres::start_with(Durability::Throwaway)
    }

    /// Makes a cluster and starts its server with `durability`; returns once it takes connections.
    pub fn start_with(durability: Durability) -> Result<LocalPostgres, LocalPostgresError> {
        let bin = programs().ok_or(LocalPostgresError::NotInstalled)?;
        let owner = match is_root() {
            true => {
                let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
                Some(passwd_ids(&passwd, RUN_AS).ok_or(LocalPostgresError::NoUser)?)
            }
            false => None,
        };
        sweep_abandoned_folders();
        static FOLDERS: AtomicU32 = AtomicU32::new(0);
        let folder = std::env::temp_dir().join(format!(
            "crowned-postgres-{}-{}",
            std::process::id(),
            FOLDERS.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder)
            .map_err(|e| LocalPostgresError::Io(folder.display().to_string(), e))?;
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(&folder, Some(uid), Some(gid))
                .map_err(|e| LocalPostgresError::Io(folder.display().to_string(), e))?;
        }
        let made = LocalPostgres::init_and_run(&bin, &folder, owner, durability);
        if made.is_err() {
            let _ = std::fs::remove_dir_all(&folder);
        }
        made
    }

    fn init_and_run(
        bin: &Path,
        folder: &Path,
        owner: Option<(u32, u32)>,
        durability: Durability,
    ) -> Result<LocalPostgres, LocalPostgresError> {
        let as_owner = |program: &Path| as_owner(program, owner);
        let initdb = as_owner(&bin.join("initdb"))
            .args(["--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C"])
            .arg(format!("--username={SUPERUSER}"))
            .arg("-D")
            .arg(folder.join("data"))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| LocalPostgresError::Io("initdb".into(), e))?;
        if !initdb.status.success() {
            return Err(LocalPostgresError::Failed(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&initdb.stderr).trim()
            )));
        }
        let mut last = String::new();
        for _ in 0..PORT_TRIES {
            let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                .and_then(|listener| listener.local_addr())
                .map_err(|e| LocalPostgresError::Io("a free port".into(), e))?
                .port();
            // Loopback only, and the socket file in the cluster's own folder.
            let syncing = match durability {
                Durability::Throwaway => {
                    " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                }
                Durability::Durable => "",
            };
            // A node holds six connections (records, leases, the bus's listener and outbox, folders), and a
            // test group run at sixteen threads has some fourteen tests of two or three nodes each at once:
            // about 250 connections, past PostgreSQL's default of 100, where a node that cannot connect does
            // not start.
            let options = format!(
                "-h 127.0.0.1 -p {port} -k {} -c max_connections={MAX_CONNECTIONS}{syncing}",
                folder.display()
            );
            let mut watcher = as_owner(Path::new("sh"))
                .arg("-c")
                .arg(WATCHER)
                .arg("crowned-postgres")
                .arg(bin.join("pg_ctl"))
                .arg(folder)
                .arg(&options)
                .arg(START_SECONDS.to_string())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| LocalPostgresError::Io("sh".into(), e))?;
            let mut said = String::new();
            if let Some(out) = watcher.stdout.take() {
                let _ = BufReader::new(out).read_line(&mut said);
            }
            if said.trim() == "started 0" {
                return Ok(LocalPostgres {
                    port,
                    bin: bin.to_path_buf(),
                    folder: folder.to_path_buf(),
                    owner,
                    options,
                    stop: Mutex::new(watcher.stdin.take()),
                    watcher: Mutex::new(watcher),
                    made: AtomicU32::new(0),
                });
            }
            // The watcher has exited (or exits as its pipe closes here).
            drop(watcher.stdin.take());
            let _ = watcher.wait();
            last = log_tail(folder);
        }
        Err(LocalPostgresError::Failed(format!(
            "the PostgreSQL server did not start: {last}"
        )))
    }

    /// One server for the whole process, started on first use: what a test program's tests share, each with
    /// databases of its own. It is never dropped; its watcher stops it when the process ends.
    pub fn shared() -> Result<&'static LocalPostgres, LocalPostgresError> {
        static SHARED: OnceLock<Result<LocalPostgres, String>> = OnceLock::new();
        SHARED
            .get_or_init(|| LocalPostgres::start().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|why| LocalPostgresError::Shared(why.clone()))
    }

    /// The PostgreSQL client program `name` (`pg_dump`, `pg_restore`): beside this server's programs, else on
    /// `PATH` or in Debian's folders (a machine may put only the server's programs in a folder of its own).
    pub fn program(&self, name: &str) -> PathBuf {
        let beside = self.bin.join(name);
        if beside.is_file() {
            return beside;
        }
        programs_with(&[name]).map_or(beside, |dir| dir.join(name))
    }

    /// The port it listens on (on 127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of its database `database`, as its superuser (no password: the server trusts local
    /// connections).
    pub fn url(&self, database: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{database}", self.port)
    }

    /// A new, empty database; its URL. `hint` goes into its name (letters, digits and `_` of it).
    pub fn fresh_database(&self, hint: &str) -> Result<String, LocalPostgresError> {
        let number = self.made.fetch_add(1, Ordering::Relaxed);
        let hint: String = hint
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(40)
            .collect::<String>()
            .to_ascii_lowercase();
        let name = format!("t{number}_{hint}");
        self.as_admin(|admin| {
            // A copy of the files rather than through the log: quicker, and a test server's data need not last.
            admin.batch_execute(&format!(
                "CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY"
            ))
        })?;
        Ok(self.url(&name))
    }

    /// Stops the server (ending every connection, as an administrator's restart does) and starts it again on
    /// the same port and data: what a client sees when its database server restarts. (A fast stop rather than
    /// an immediate one: this server does not wait for its commits to reach the disk, so a crash would lose
    /// the latest.)
    pub fn restart(&self) -> Result<(), LocalPostgresError> {
        self.pg_ctl(&["restart", "-m", "fast"], "restart")
    }

    /// Stops the server at once, as a crash of its processes would (`pg_ctl stop -m immediate`: no checkpoint,
    /// the next start recovers from the log), until [`LocalPostgres::start_again`]. A durable server keeps every
    /// commit it acknowledged; a throwaway one may not.
    pub fn crash(&self) -> Result<(), LocalPostgresError> {
        self.pg_ctl(&["stop", "-m", "immediate"], "stop")
    }

    /// Starts the server again after [`LocalPostgres::crash`], on the same port and data.
    pub fn start_again(&self) -> Result<(), LocalPostgresError> {
        self.pg_ctl(&["start"], "start again")
    }

    /// Runs `pg_ctl` with `action`, waiting for it to be done, on this server's data and options.
    fn pg_ctl(&self, action: &[&str], what: &str) -> Result<(), LocalPostgresError> {
        let out = as_owner(&self.bin.join("pg_ctl"), self.owner)
            .args(action)
            .args(["-w", "-t"])
            .arg(START_SECONDS.to_string())
            .arg("-D")
            .arg(self.folder.join("data"))
            .arg("-l")
            .arg(self.folder.join("log"))
            .arg("-o")
            .arg(&self.options)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| LocalPostgresError::Io("pg_ctl".into(), e))?;
        match out.status.success() {
            true => Ok(()),
            false => Err(LocalPostgresError::Failed(format!(
                "the PostgreSQL server did not {what}: {}",
                log_tail(&self.folder)
            ))),
        }
    }

    /// Ends every connection to `database` but the caller's (as an administrator stopping the server would):
    /// how many were ended.
    pub fn cut_connections(&self, database: &str) -> Result<u64, LocalPostgresError> {
        let rows = self.as_admin(|admin| {
            admin.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                &[&database],
            )
        })?;
        Ok(rows.len() as u64)
    }

    /// Runs `work` with a connection to the `postgres` database as the superuser, on a thread of its own: the
    /// blocking client may not run on an async thread, and a test or bench may be one.
    fn as_admin<T: Send>(
        &self,
        work: impl FnOnce(&mut postgres::Client) -> Result<T, postgres::Error> + Send,
    ) -> Result<T, LocalPostgresError> {
        let url = self.url("postgres");
        std::thread::scope(|scope| {
            scope
                .spawn(move || {
                    let mut admin = postgres::Client::connect(&url, postgres::NoTls)?;
                    Ok(work(&mut admin)?)
                })
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }
}

impl Drop for LocalPostgres {
    fn drop(&mut self) {
        // Closing the pipe tells the watcher to stop the server and remove the folder; it is waited for, so
        // that nothing of it outlives this value.
        let stop = self.stop.get_mut().map(Option::take);
        drop(stop);
        if let Ok(watcher) = self.watcher.get_mut() {
            let _ = watcher.wait();
        }
    }
}

/// A command that runs `program` as `owner` (user and group), when given.
fn as_owner(program: &Path, owner: Option<(u32, u32)>) -> Command {
    let mut command = Command::new(program);
    if let Some((uid, gid)) = owner {
        use std::os::unix::process::CommandExt;
        command.uid(uid).gid(gid);
    }
    command.env_remove("PGDATA");
    command
}

/// Removes the folders of test programs that are gone: one killed while `initdb` ran, before its server had a
/// watcher, leaves its folder behind (a server that had started is removed by its watcher).
fn sweep_abandoned_folders() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix("crowned-postgres-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        // A folder whose server still runs has its postmaster.pid: its watcher removes it.
        let running = entry.path().join("data/postmaster.pid").exists();
        if !running && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The end of the server's log in `folder`, for a message.
fn log_tail(folder: &Path) -> String {
    let mut text = String::new();
    if let Ok(mut file) = std::fs::File::open(folder.join("log")) {
        let _ = file.read_to_string(&mut text);
    }
    let lines: Vec<&str> = text.lines().rev().take(5).collect();
    lines.into_iter().rev().collect::<Vec<_>>().join(" / ")
}

/// The folder holding `initdb` and `pg_ctl`: on `PATH`, else the newest of Debian's.
fn programs() -> Option<PathBuf> {
    programs_with(&["initdb", "pg_ctl"])
}

/// The folder holding every program of `names`: on `PATH`, else the newest of Debian's.
fn programs_with(names: &[&str]) -> Option<PathBuf> {
    let has_all = |dir: &Path| names.iter().all(|name| dir.join(name).is_file());
    if let Some(path) = std::env::var_os("PATH")
        && let Some(dir) = std::env::split_paths(&path).find(|dir| has_all(dir))
    {
        return Some(dir);
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, dir)| has_all(dir))
        .collect();
    debian.sort();
    debian.pop().map(|(_, dir)| dir)
}

/// Whether this process runs as root: the owner of its own `/proc` entry is its effective user.
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|meta| meta.uid() == 0)
}

/// The user and group numbers of `user` in a `/etc/passwd` text (`name:password:uid:gid:...`); lines that do
/// not read so are passed over.
fn passwd_ids(passwd: &str, user: &str) -> Option<(u32, u32)> {
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        if fields.next()? != user {
            return None;
        }
        let uid = fields.nth(1)?.parse().ok()?;
        let gid = fields.next()?.parse().ok()?;
        Some((uid, gid))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_s_numbers_are_read_from_passwd_and_broken_lines_passed_over() {
        let passwd = "root:x:0:0:root:/root:/bin/bash\n\
                      postgres\n\
                      postgres:x:abc:104::/:/bin/sh\n\
                      postgres:x:101\n\
                      postgres:x:101:104:PostgreSQL administrator:/var/lib/postgresql:/bin/bash\n";
        assert_eq!(passwd_ids(passwd, "postgres"), Some((101, 104)));
        assert_eq!(passwd_ids(passwd, "root"), Some((0, 0)));
        assert_eq!(passwd_ids(passwd, "nobody"), None);
        assert_eq!(passwd_ids("", "postgres"), None);
        assert_eq!(passwd_ids("postgres:x:-1:2:", "postgres"), None);
    }
}
