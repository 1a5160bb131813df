//! The operator's commands beside a running server, end to end. A civil public server: the operator bans a key
//! or an address with `crowned serve ban`, and the banned client (russh, and the stock OpenSSH client) is given
//! the reason in one line at its next sign-in while everyone else plays on; players block, report and mute at a
//! table. Backups: `crowned serve backup` copies the records while games are played, and the copy put back in
//! place is what the server restarts on.

use std::process::Command;
use std::sync::Arc;

use russh::keys::{HashAlg, PrivateKey};

use crate::doors::ssh::{
    OneFinishedOneInPlay, Server, Terminal, TwoAtATable, code_on, connect, exec_as, new_key,
    read_ports,
};

/// Runs `crowned serve ARGS` on the server's folder (its settings, its records), as its operator would; what it
/// printed, and whether it succeeded.
fn operator(server: &Server, args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .arg("serve")
        .args(args)
        .env("CROWNED_HOME", &server.home)
        .output()
        .expect("runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (text, out.status.success())
}

fn fingerprint(key: &PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}

/// A player opening the game with a terminal: the lobby's screen, or the one line they are given instead.
async fn lobby_or_refusal(server: &Server, key: &Arc<PrivateKey>, name: &str) -> Terminal {
    let handle = connect(server, key, name).await;
    let mut t = Terminal::open(&handle, 100, 30).await;
    t.until("the lobby or a refusal", |t| {
        let text = t.contents();
        text.contains("· lobby ·") || text.contains("banned") || t.closed
    })
    .await;
    t
}

/// The stock OpenSSH client signing in with `key` and asking for a terminal: what it printed and its status.
fn openssh(server: &Server, key: &PrivateKey, name: &str) -> (String, Option<i32>) {
    let out = crate::doors::ssh::openssh(server, key, name, name)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the OpenSSH client (openssh-client) runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_turns_a_key_or_an_address_away_with_its_reason_on_every_client() {
    let server = Server::start("conduct-bans");
    let (mallory, bob) = (new_key(), new_key());
    let t = lobby_or_refusal(&server, &mallory, "mallory").await;
    assert!(t.contents().contains("· lobby ·"), "{}", t.contents());
    drop(t);

    // The operator bans the key beside the running server; nothing else is needed.
    let key = fingerprint(&mallory);
    let (said, ok) = operator(&server, &["ban", &key, "abuse", "in", "chat"]);
    assert!(ok, "{said}");
    assert!(said.contains("banned key SHA256:"), "{said}");
    let (said, ok) = operator(&server, &["ban", "not-a-key", "x"]);
    assert!(
        !ok && said.contains("neither a key's fingerprint"),
        "{said}"
    );
    let (listed, ok) = operator(&server, &["bans"]);
    assert!(
        ok && listed.contains(&key) && listed.contains("abuse in chat"),
        "{listed}"
    );

    let mut t = lobby_or_refusal(&server, &mallory, "mallory").await;
    t.wait_closed().await;
    assert!(
        t.contents()
            .contains("this key is banned from this server: abuse in chat"),
        "{}",
        t.contents()
    );
    assert_ne!(t.exit_status, Some(0));
    // The stock client is given the same line.
    let (printed, status) = openssh(&server, &mallory, "mallory");
    assert!(
        printed.contains("banned from this server: abuse in chat"),
        "{printed}"
    );
    assert_ne!(status, Some(0));
    // Another key plays on.
    let t = lobby_or_refusal(&server, &bob, "bob").await;
    assert!(t.contents().contains("· lobby ·"), "{}", t.contents());
    drop(t);

    // An address ban holds back every key from it, until it is lifted.
    let (said, ok) = operator(&server, &["ban", "127.0.0.1", "flooding"]);
    assert!(ok, "{said}");
    let mut t = lobby_or_refusal(&server, &bob, "bob").await;
    t.wait_closed().await;
    assert!(
        t.contents()
            .contains("connections from your address are banned from this server: flooding"),
        "{}",
        t.contents()
    );
    let (said, ok) = operator(&server, &["unban", "127.0.0.1"]);
    assert!(ok && said.contains("lifted"), "{said}");
    let (said, ok) = operator(&server, &["unban", "127.0.0.1"]);
    assert!(!ok && said.contains("not banned"), "{said}");
    let t = lobby_or_refusal(&server, &bob, "bob").await;
    assert!(t.contents().contains("· lobby ·"), "{}", t.contents());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_mutes_reports_and_blocks_an_opponent_who_is_then_never_seated_with_them() {
    let server = Server::start("conduct-block");
    let TwoAtATable {
        keys: [ann_key, bob_key],
        handles: [ann, _bob],
        mut a,
        mut b,
        code,
    } = TwoAtATable::seat(&server, "new english 5+3 black").await;
    b.send(b":say hello\r").await;
    a.wait_for("bob: hello").await;

    // Muted, the table's chat is not shown; heard again after a second :mute.
    a.send(b":mute\r").await;
    a.wait_for("chat is muted").await;
    b.send(b":say noisy line\r").await;
    b.wait_for("bob: noisy line").await;
    a.send(b":mute\r").await;
    a.wait_for("heard again").await;
    b.send(b":say after\r").await;
    a.wait_for("bob: after").await;
    assert!(!a.contents().contains("noisy line"), "{}", a.contents());

    // A report is kept with the game's code, for the operator to read.
    a.send(b":report rude in chat\r").await;
    a.wait_for("kept for the server's operator").await;
    let (reports, ok) = operator(&server, &["reports"]);
    assert!(ok, "{reports}");
    assert!(
        reports.contains(&format!(
            "ann ({}) reported bob ({}) at game {code}: rude in chat",
            fingerprint(&ann_key),
            fingerprint(&bob_key)
        )),
        "{reports}"
    );

    // Blocked: Bob's chat and his offers no longer reach Ann (an offer is declined for her, unseen).
    a.send(b":block\r").await;
    a.wait_for("you have blocked bob").await;
    b.send(b":say still here\r").await;
    b.wait_for("bob: still here").await;
    b.send(b":draw\r").await;
    b.wait_for("declines a draw").await;
    assert!(!a.contents().contains("still here"), "{}", a.contents());
    assert!(!a.contents().contains("offers a draw"), "{}", a.contents());
    // The game in progress stays theirs to finish: Ann, dropped, comes back to her seat at it.
    drop(a);
    drop(ann);
    let ann_back = connect(&server, &ann_key, "ann").await;
    let mut a = Terminal::exec(&ann_back, 100, 30, &format!("join {code}")).await;
    a.wait_for(&format!("table {code}")).await;
    a.wait_for("ann (").await;
    assert!(
        !a.contents().contains("blocked the other"),
        "{}",
        a.contents()
    );
    // She ends it herself: she has no game left to be taken back to.
    a.send(b":resign\r").await;
    a.send(b"y").await;
    a.wait_for("Black resigned").await;
    // Never seated together again, whoever opens the table; `blocks` lists him, `unblock` lets him back.
    let bob_again = connect(&server, &bob_key, "bob").await;
    let mut t = Terminal::exec(&bob_again, 100, 30, "new english 5+3 black").await;
    t.wait_for("waiting for an opponent").await;
    let second = code_on(&t.contents());
    // The lobby does not offer Ann the table Bob waits at; another player's lobby does.
    let cid = connect(&server, &new_key(), "cid").await;
    let mut c = Terminal::open(&cid, 100, 30).await;
    c.wait_for(&second).await;
    let ann_lobby = connect(&server, &ann_key, "ann").await;
    let mut l = Terminal::open(&ann_lobby, 100, 30).await;
    l.wait_for("· lobby ·").await;
    assert!(!l.contents().contains(&second), "{}", l.contents());
    let ann_refused = connect(&server, &ann_key, "ann").await;
    let mut r = Terminal::exec(&ann_refused, 100, 30, &format!("join {second}")).await;
    r.wait_for("you cannot play bob: one of you has blocked the other")
        .await;
    let (listed, _, _) = exec_as(&server, &ann_key, "ann", "blocks").await;
    assert_eq!(listed.trim(), "bob");
    let (said, _, _) = exec_as(&server, &ann_key, "ann", "unblock bob").await;
    assert!(said.contains("bob is no longer blocked"), "{said}");
    let ann_again = connect(&server, &ann_key, "ann").await;
    let mut joined = Terminal::exec(&ann_again, 100, 30, &format!("join {second}")).await;
    joined.wait_for("bob").await;
    assert!(
        !joined.contents().contains("blocked"),
        "{}",
        joined.contents()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_made_while_a_player_plays_cuts_their_connection_and_no_one_else_s() {
    let server = Server::start("conduct-ban-live");
    let (mallory, bob) = (new_key(), new_key());
    let mut m = lobby_or_refusal(&server, &mallory, "mallory").await;
    let mut b = lobby_or_refusal(&server, &bob, "bob").await;
    assert!(m.contents().contains("· lobby ·"), "{}", m.contents());
    let (said, ok) = operator(&server, &["ban", &fingerprint(&mallory), "spam"]);
    assert!(ok, "{said}");
    // Within the server's look for new bans (every 5 s): mallory's connection ends, bob's goes on.
    m.wait_closed().await;
    b.send(b"?").await;
    b.wait_for("Lobby keys").await;
    // And mallory, coming back, is told why.
    let again = lobby_or_refusal(&server, &mallory, "mallory").await;
    assert!(
        again.contents().contains("banned from this server: spam"),
        "{}",
        again.contents()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_people_play_restores_to_records_that_hold_every_finished_game() {
    use crowned::serve::records::backup::check;
    let server = Server::start("conduct-backup");
    // One game finished, and a second in play as the copy is taken.
    let OneFinishedOneInPlay {
        keys: [ann_key, _],
        second,
        held,
    } = OneFinishedOneInPlay::play(&server).await;

    let copy = server.home.join("records-backup.sqlite");
    let (said, ok) = operator(&server, &["backup", copy.to_str().expect("a path")]);
    assert!(ok, "{said}");
    assert!(said.contains("2 players and 2 games (1 finished"), "{said}");
    let figures = check(&copy).expect("the copy passes the check");
    assert_eq!((figures.games, figures.finished), (2, 1));
    // Never over a file: a second backup to the same place is refused, the first left as it was.
    let (said, ok) = operator(&server, &["backup", copy.to_str().expect("a path")]);
    assert!(!ok && said.contains("already exists"), "{said}");
    assert_eq!(check(&copy).expect("unchanged").games, 2);

    // Restored: the server stopped, the copy put in the records' place, the server started on it. The game in
    // play as the copy was taken comes back with its move.
    drop(held);
    let server = server.stop_and_restart_after(|home| {
        let records = home.join("data/server/records.sqlite");
        for extra in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{extra}", records.display()));
        }
        std::fs::copy(&copy, &records).expect("the copy put back");
    });
    let ann = connect(&server, &ann_key, "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, &format!("join {second}")).await;
    a.wait_for("9-13").await;
    let again = server.home.join("records-again.sqlite");
    let (said, ok) = operator(&server, &["backup", again.to_str().expect("a path")]);
    assert!(ok && said.contains("(1 finished"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_check_says_what_a_server_needs_without_serving() {
    let server = Server::start("conduct-check");
    // The server's own folder: its host key and records are found, and the SSH port it holds is not free.
    let taken = format!("127.0.0.1:{}", server.port);
    let (said, ok) = operator(&server, &["--check", "--listen", &taken]);
    assert!(!ok, "{said}");
    assert!(
        said.contains(&format!("ok      host key: {}", server.fingerprint)),
        "{said}"
    );
    assert!(said.contains("ok      records: SQLite at"), "{said}");
    assert!(said.contains("passes SQLite's integrity check"), "{said}");
    assert!(
        said.contains(&format!("FAILED  SSH door: cannot listen on {taken}")),
        "{said}"
    );
    assert!(said.contains("1 check(s) failed"), "{said}");
    let (said, ok) = operator(&server, &["--check", "--listen", "127.0.0.1:0"]);
    assert!(ok, "{said}");
    // A broken authorized-keys file and a certificate that is not there: each named, nothing served.
    let keys = server.home.join("authorized_keys");
    std::fs::write(&keys, "ssh-ed25519 not-a-key\n").expect("written");
    let (said, ok) = operator(
        &server,
        &[
            "--check",
            "--listen",
            "127.0.0.1:0",
            "--authorized-keys",
            keys.to_str().expect("a path"),
            "--web",
            "127.0.0.1:0",
            "--web-cert",
            "/nonexistent/cert.pem",
            "--web-key",
            "/nonexistent/key.pem",
        ],
    );
    assert!(!ok, "{said}");
    assert!(said.contains("FAILED  authorized keys:"), "{said}");
    assert!(said.contains("FAILED  web door:"), "{said}");
    assert!(said.contains("2 check(s) failed"), "{said}");
}

#[test]
fn with_log_format_json_every_log_line_is_a_json_object_with_its_fields_at_the_top_and_no_cookie() {
    use std::io::{BufReader, Read};
    let home = std::env::temp_dir().join(format!("crowned-log-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("a folder");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--web",
            "127.0.0.1:0",
            "--log-format",
            "json",
        ])
        .env("CROWNED_HOME", &home)
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (_, port, web) = read_ports(&mut stdout, true);
    let web = web.expect("a web door");
    // A stranger who connects and says nothing, then goes: logged as a connection.
    drop(std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects"));
    // A browser's request, its cookie holding a token: a line for the request, nothing of the cookie.
    {
        use std::io::Write;
        let mut http = std::net::TcpStream::connect(("127.0.0.1", web)).expect("connects");
        write!(
            http,
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{web}\r\nCookie: crowned=secret-token-4711\r\n\
             Connection: close\r\n\r\n"
        )
        .expect("sent");
        let mut answer = String::new();
        http.read_to_string(&mut answer).expect("answered");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: kill with a child's own pid only sends it a signal.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    assert!(child.wait().expect("exits").success());
    let mut log = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut log)
        .expect("read");
    let _ = std::fs::remove_dir_all(&home);
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() >= 2, "{log}");
    for line in &lines {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(
            value["level"].is_string() && value["message"].is_string(),
            "{line}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("\"message\":\"web request\"")
                && l.contains("\"path\":\"/healthz\"")
                && l.contains("\"status\":200")),
        "{log}"
    );
    assert!(!log.contains("secret-token-4711"), "{log}");
}
