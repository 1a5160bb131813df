//! The web door end to end without a browser: the real binary with `--web`, the page's WebSocket spoken by a
//! real WebSocket client, players on SSH beside it, and hostile clients (a wrong Origin, huge frames, floods,
//! forged tokens, slow headers). The same door in a real browser: `serve_web_browser.rs`.

use std::time::Duration;

use crowned::game::AnyGame;
use crowned::rules::GameType;
use futures_util::SinkExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout};
use tokio_tungstenite::tungstenite::Message;

use crate::doors::ssh::{
    Server, Terminal, TwoAtATable, code_on, connect, exec_as, new_key, your_move,
};
use crate::doors::web::{
    WebTerminal, ask_for_code, header, http, http_to, linked_as, metric, metric_reaches, origin,
    try_open,
};

/// A server with a web door on a port of its own, guests let in.
fn web_server(name: &str) -> Server {
    Server::start_with_files(name, &[], &["--web", "127.0.0.1:0", "--guests"])
}

/// A server with a web door and the operator's listener (metrics and health).
fn watched_web_server(name: &str) -> Server {
    Server::start_with_files(
        name,
        &[],
        &[
            "--web",
            "127.0.0.1:0",
            "--guests",
            "--metrics",
            "127.0.0.1:0",
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_guest_and_an_ssh_player_play_one_game_and_the_moves_cross_both_ways() {
    let server = web_server("web-play");
    let ann = connect(&server, &new_key(), "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());

    // The browser opens the lobby as a guest and joins the table by its code.
    let mut w = WebTerminal::open(&server, "", None, 100, 30).await;
    w.wait_for("crowned · lobby · guest").await;
    w.send(b"c").await;
    w.send(code.as_bytes()).await;
    w.send(b"\r").await;
    let game = AnyGame::new(GameType::default());
    a.wait_for(&your_move(&game)).await;
    w.wait_for("guest").await;
    a.send(b"11-15\r").await;
    w.wait_for("1. 11-15").await;
    w.send(b"23-19\r").await;
    a.wait_for("23-19").await;
    // The page's window changes size: the game is drawn again at the new size.
    w.resize(120, 40).await;
    w.until("a frame 120 wide", |t| {
        t.contents().lines().any(|l| l.chars().count() > 100)
    })
    .await;
    assert!(w.contents().contains("23-19"), "{}", w.contents());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_linked_by_a_code_proved_over_ssh_plays_as_that_key_until_the_link_is_revoked() {
    let server = web_server("web-link");
    let key = new_key();
    let (code, command, cookie) = ask_for_code(&server).await;
    assert!(
        command.starts_with(&format!("ssh -p {} 127.0.0.1 link ", server.port)),
        "{command}"
    );
    assert!(command.ends_with(&code), "{command}");
    assert_eq!(linked_as(&server, &cookie).await, None);

    // A wrong code links nothing; the right one links the browser, once.
    let (out, err, status) = exec_as(&server, &key, "dora", "link ZZZZ-ZZZZ").await;
    assert_eq!(status, Some(1), "{out}{err}");
    assert!(
        err.contains("no browser is waiting with that code"),
        "{err}"
    );
    let (out, _, status) = exec_as(
        &server,
        &key,
        "dora",
        &format!("link {}", code.to_lowercase()),
    )
    .await;
    assert_eq!(status, Some(0), "{out}");
    assert!(out.contains("the browser is linked"), "{out}");
    assert_eq!(linked_as(&server, &cookie).await.as_deref(), Some("dora"));
    let (_, err, status) = exec_as(&server, &new_key(), "eve", &format!("link {code}")).await;
    assert_eq!(status, Some(1));
    assert!(err.contains("no browser is waiting"), "{err}");

    // The browser plays as dora: her lobby, her name.
    let mut w = WebTerminal::open(&server, "", Some(&cookie), 100, 30).await;
    w.wait_for("crowned · lobby · dora").await;

    // A forged token is a guest; the records keep no token, only its hash.
    let forged = format!("crowned_token={}", "A".repeat(43));
    assert_eq!(linked_as(&server, &forged).await, None);
    let token = cookie.split('=').nth(1).expect("a token");
    let records = std::fs::read(server.home.join("data/server/records.sqlite")).expect("records");
    assert!(
        !records.windows(token.len()).any(|w| w == token.as_bytes()),
        "the token itself is in the records"
    );

    // `links` lists the browser; revoking it makes the browser a guest again.
    let (out, _, status) = exec_as(&server, &key, "dora", "links").await;
    assert_eq!(status, Some(0));
    assert!(out.contains("1. ") && out.contains("127.0.0.1"), "{out}");
    let (out, _, status) = exec_as(&server, &key, "dora", "links revoke 1").await;
    assert_eq!(status, Some(0), "{out}");
    assert_eq!(linked_as(&server, &cookie).await, None);
    let mut w = WebTerminal::open(&server, "", Some(&cookie), 100, 30).await;
    w.wait_for("crowned · lobby · guest").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_watches_a_table_and_the_tv_shows_the_game_in_play_without_an_identity() {
    // No guests: a browser without a link may only watch.
    let server = Server::start_with_files("web-watch", &[], &["--web", "127.0.0.1:0"]);
    let (ann, bob) = (new_key(), new_key());
    let ann = connect(&server, &ann, "ann").await;
    let bob = connect(&server, &bob, "bob").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    b.wait_for("bob (1500?) · you").await;

    // The lobby is not for a browser without a key here.
    let mut lobby = WebTerminal::open(&server, "", None, 100, 30).await;
    lobby.wait_closed().await;
    assert!(
        lobby.contents().contains("SSH key only"),
        "{}",
        lobby.contents()
    );

    let mut watcher = WebTerminal::open(&server, &format!("watch={code}"), None, 100, 30).await;
    watcher.wait_for("1 watching").await;
    let mut tv = WebTerminal::open(&server, "tv=1", None, 100, 30).await;
    tv.wait_for("2 watching").await;
    a.send(b"11-15\r").await;
    watcher.wait_for("1. 11-15").await;
    tv.wait_for("1. 11-15").await;
    // A watcher cannot move.
    watcher.send(b"22-18\r").await;
    b.send(b"22-18\r").await;
    a.wait_for("22-18").await;

    // The game ends: the TV shows the end, then waits for the next game.
    b.send(b":resign\r").await;
    b.send(b"y").await;
    tv.wait_for("Black wins: White resigned").await;
    tv.wait_for("No game between people is in play now").await;
    let bad = try_open(&server, "watch=%1b[31m", Some(&origin(&server)), None).await;
    let mut bad = WebTerminal::on(bad.expect("opens, to be told"), 80, 24);
    bad.wait_closed().await;
    assert!(
        bad.contents().contains("not a table's code"),
        "{}",
        bad.contents()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_browsers_are_refused_or_bounded_and_a_player_beside_them_plays_on() {
    let server = Server::start_with_files(
        "web-hostile",
        &[(
            "config/config.toml",
            "[server]\nidle-timeout = 600\nsign-in-deadline = 3\nmax-strangers-per-address = 6\n",
        )],
        &["--web", "127.0.0.1:0", "--guests"],
    );
    let port = server.web.expect("a web door");

    // Another site's page, or none, may not open a session or ask for a code.
    for bad in [
        Some("http://evil.example"),
        Some("https://127.0.0.1:1"),
        None,
    ] {
        let refused = try_open(&server, "", bad, None).await;
        assert!(refused.is_err(), "{bad:?}: opened");
        let origin_header: Vec<(&str, &str)> = bad.map(|o| vec![("Origin", o)]).unwrap_or_default();
        let (status, _, _) = http(&server, "POST", "/link", &origin_header).await;
        assert_eq!(status, 403, "{bad:?}");
    }

    // A player beside the hostile clients.
    let mut player = WebTerminal::open(&server, "", None, 100, 30).await;
    player.wait_for("crowned · lobby").await;

    // A frame past the limit ends that socket alone.
    let mut huge = WebTerminal::open(&server, "", None, 80, 24).await;
    huge.wait_for("crowned · lobby").await;
    let _ = huge
        .socket
        .send(Message::Binary(vec![b'x'; 1 << 20].into()))
        .await;
    huge.until("the huge frame's socket closed", |t| t.closed)
        .await;

    // A flood of keys: the flooder is read at its budget, and the player's keys are answered meanwhile.
    let mut flood = WebTerminal::open(&server, "", None, 80, 24).await;
    flood.wait_for("crowned · lobby").await;
    let flooding = tokio::spawn(async move {
        let until = Instant::now() + Duration::from_secs(3);
        let mut sent = 0usize;
        while Instant::now() < until {
            let keys = vec![b'j'; 4096];
            if timeout(Duration::from_millis(200), flood.send(&keys))
                .await
                .is_err()
            {
                break;
            }
            sent += keys.len();
            flood.drain().await;
        }
        sent
    });
    let started = Instant::now();
    player.send(b"?").await;
    player.wait_for("Lobby keys").await;
    let answered = started.elapsed();
    let sent = flooding.await.expect("the flood ends");
    assert!(
        answered < Duration::from_secs(3),
        "the player waited {answered:?}"
    );
    println!("web flood: {sent} bytes offered in 3 s; the player's key answered in {answered:?}");

    // Slow headers: a byte a second is cut off at the sign-in deadline (3 s here), with no answer.
    let mut slow = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connects");
    let began = Instant::now();
    let mut cut = false;
    for byte in b"GET / HTTP/1.1\r\nHost: x\r\n".iter() {
        if slow.write_all(&[*byte]).await.is_err() {
            cut = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut buf = [0u8; 64];
        if let Ok(Ok(0)) = timeout(Duration::from_millis(1), slow.read(&mut buf)).await {
            cut = true;
            break;
        }
    }
    assert!(cut, "a slow client was not cut off");
    assert!(
        began.elapsed() < Duration::from_secs(8),
        "{:?}",
        began.elapsed()
    );

    // Strangers from one address are bounded: past six, the oldest silent one is cut.
    let mut idle = Vec::new();
    for _ in 0..10 {
        idle.push(
            TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("connects"),
        );
    }
    let mut closed = 0;
    for socket in &mut idle {
        let mut buf = [0u8; 8];
        if let Ok(Ok(0) | Err(_)) = timeout(Duration::from_millis(200), socket.read(&mut buf)).await
        {
            closed += 1;
        }
    }
    assert!(
        closed >= 4,
        "only {closed} of 10 silent connections were turned away"
    );
    drop(idle);
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Through it all the player plays on (a key closes the help, the next starts a game).
    player.send(b"x").await;
    player.send(b"e").await;
    player.wait_for("Moves").await;
    let (status, headers, _) = http(&server, "GET", "/", &[]).await;
    assert_eq!(status, 200);
    let policy = header(&headers, "content-security-policy").expect("a policy");
    assert!(policy.contains("script-src 'self'"), "{policy}");
    assert_eq!(header(&headers, "x-frame-options"), Some("DENY"));
}

/// The same game watched from both doors: the bytes each watcher is sent for the moves and for a stretch with
/// only the clocks running, side by side (the payload: the frames, without SSH's or WebSocket's framing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_is_sent_what_an_ssh_client_is_sent_for_the_same_game() {
    let server = web_server("web-bytes");
    let ann = connect(&server, &new_key(), "ann").await;
    let bob = connect(&server, &new_key(), "bob").await;
    let cy = connect(&server, &new_key(), "cy").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english black 10+0").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    b.wait_for("bob (1500?) · you").await;
    let mut ssh = Terminal::exec(&cy, 100, 30, &format!("watch {code}")).await;
    ssh.wait_for("watching").await;
    let mut web = WebTerminal::open(&server, &format!("watch={code}"), None, 100, 30).await;
    web.wait_for("2 watching").await;
    ssh.wait_for("2 watching").await;
    let (ssh_start, web_start) = (ssh.received, web.received);

    let moves = ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14"];
    for (n, mv) in moves.iter().enumerate() {
        let mover = if n % 2 == 0 { &mut a } else { &mut b };
        mover.send(format!("{mv}\r").as_bytes()).await;
        ssh.wait_for(mv).await;
        web.wait_for(mv).await;
    }
    // A moment for the last frames of the moves, then the clock alone for five seconds.
    tokio::time::sleep(Duration::from_millis(300)).await;
    ssh.drain().await;
    web.drain().await;
    let (ssh_moves, web_moves) = (ssh.received - ssh_start, web.received - web_start);
    tokio::time::sleep(Duration::from_secs(5)).await;
    ssh.drain().await;
    web.drain().await;
    let ssh_idle = ssh.received - ssh_start - ssh_moves;
    let web_idle = web.received - web_start - web_moves;
    let per_move = |bytes: usize| bytes as f64 / moves.len() as f64;
    println!(
        "bytes per move: SSH {:.0}, web {:.0}; per minute with only the clock running: SSH {}, web {}",
        per_move(ssh_moves),
        per_move(web_moves),
        ssh_idle * 12,
        web_idle * 12
    );
    // The same frames go to both: what a door adds is its framing, not more frames.
    let near = |x: usize, y: usize| (x as f64) <= 1.5 * (y as f64) + 200.0;
    assert!(
        near(web_moves, ssh_moves) && near(ssh_moves, web_moves),
        "{web_moves} vs {ssh_moves}"
    );
    assert!(
        near(web_idle, ssh_idle) && near(ssh_idle, web_idle),
        "{web_idle} vs {ssh_idle}"
    );
    assert!(web_idle > 0, "the clock ran and nothing was sent");
}

/// The web door speaking TLS itself: the page over HTTPS to a client that trusts the server's certificate, the
/// link cookie marked Secure; a certificate that does not load stops the server with the file's name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_certificate_the_door_speaks_tls_and_its_cookie_is_secure() {
    use std::sync::Arc;
    use tokio_rustls::rustls::{self, pki_types::ServerName};

    let files = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web");
    let (cert, key) = (files.join("cert.pem"), files.join("key.pem"));
    let (cert, key) = (cert.to_str().expect("utf-8"), key.to_str().expect("utf-8"));
    let server = Server::start_with_files(
        "web-tls",
        &[],
        &["--web", "127.0.0.1:0", "--web-cert", cert, "--web-key", key],
    );
    let port = server.web.expect("a web door");
    let mut roots = rustls::RootCertStore::empty();
    let pem = std::fs::read(cert).expect("the certificate");
    for der in rustls_pemfile_certs(&pem) {
        roots.add(der).expect("a certificate");
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_root_certificates(roots)
    .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let ask = |request: String| {
        let connector = connector.clone();
        async move {
            let tcp = TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("connects");
            let name = ServerName::try_from("127.0.0.1").expect("a name");
            let mut tls = connector.connect(name, tcp).await.expect("a TLS handshake");
            tls.write_all(request.as_bytes()).await.expect("sent");
            let mut answer = Vec::new();
            let _ = timeout(Duration::from_secs(10), tls.read_to_end(&mut answer)).await;
            String::from_utf8_lossy(&answer).into_owned()
        }
    };
    let host = format!("127.0.0.1:{port}");
    let page = ask(format!(
        "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    ))
    .await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("/assets/xterm.js"), "{page}");
    let offer = ask(format!(
        "POST /link HTTP/1.1\r\nHost: {host}\r\nOrigin: https://{host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    ))
    .await;
    let cookie = offer
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("no cookie: {offer}"));
    assert!(
        cookie.contains("; Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    // Plain HTTP to a TLS door gets no page (a TLS alert, then the end).
    let mut plain = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connects");
    plain
        .write_all(format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes())
        .await
        .expect("sent");
    let mut answer = Vec::new();
    let _ = timeout(Duration::from_secs(10), plain.read_to_end(&mut answer)).await;
    assert!(
        !answer.starts_with(b"HTTP/"),
        "{}",
        String::from_utf8_lossy(&answer)
    );

    // A certificate that is not one: the server says which file and does not start.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["serve", "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0"])
        .args(["--web-cert", key, "--web-key", key])
        .env("CROWNED_HOME", server.home.join("other"))
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("key.pem"), "{said}");
}

/// The certificates of a PEM file, as DER.
fn rustls_pemfile_certs(pem: &[u8]) -> Vec<rustls_pki_types::CertificateDer<'static>> {
    use rustls_pki_types::pem::PemObject;
    rustls_pki_types::CertificateDer::pem_slice_iter(pem)
        .collect::<Result<_, _>>()
        .expect("PEM certificates")
}

/// Two nodes on one PostgreSQL, each with a web door: a browser asks for its code at one node's door, the
/// player proves it over SSH at the other node, and the browser plays as that player at either door, at a
/// table opened on the other node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_linked_on_one_node_plays_as_its_player_on_another() {
    let url = crate::serve_nodes::fresh_database("web_nodes");
    let start = |name: &str| {
        Server::start_with_files(
            &format!("web-nodes-{name}"),
            &[],
            &[
                "--records",
                &url,
                "--node-name",
                name,
                "--lease-term",
                "2",
                "--web",
                "127.0.0.1:0",
            ],
        )
    };
    let (one, two) = (start("w1"), start("w2"));
    let (code, _, cookie) = ask_for_code(&one).await;
    let dora = new_key();
    let (out, err, status) = exec_as(&two, &dora, "dora", &format!("link {code}")).await;
    assert_eq!(status, Some(0), "{out}{err}");
    assert_eq!(linked_as(&one, &cookie).await.as_deref(), Some("dora"));
    assert_eq!(linked_as(&two, &cookie).await.as_deref(), Some("dora"));

    let ann = connect(&one, &new_key(), "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english black").await;
    a.wait_for("waiting for an opponent").await;
    let table = code_on(&a.contents());
    let mut w = WebTerminal::open(&two, "", Some(&cookie), 100, 30).await;
    w.wait_for("crowned · lobby · dora").await;
    w.send(format!("c{table}\r").as_bytes()).await;
    w.wait_for("dora (1500?) · you").await;
    a.send(b"11-15\r").await;
    w.wait_for("1. 11-15").await;
}

/// Lowers the server's file-size limit to one byte (every write that would grow a file fails, as on a full
/// disk), or lifts it, with prlimit(1).
fn disk_full(server: &Server, full: bool) {
    let limit = match full {
        true => "--fsize=1:",
        false => "--fsize=unlimited:",
    };
    let status = std::process::Command::new("prlimit")
        .args(["--pid", &server.child.id().to_string(), limit])
        .status()
        .expect("prlimit (util-linux) runs");
    assert!(status.success(), "prlimit {limit}: {status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_says_alive_and_readiness_follows_whether_the_records_can_be_written() {
    let server = watched_web_server("web-health");
    assert_eq!(http(&server, "GET", "/healthz", &[]).await.0, 200);
    let (status, _, body) = http(&server, "GET", "/readyz", &[]).await;
    assert_eq!((status, body.as_str()), (200, "ready\n"));
    // A full disk: the next move is refused, and the server says it should be sent no more players.
    let TwoAtATable { mut a, mut b, .. } =
        TwoAtATable::seat(&server, "new english 5+3 black").await;
    disk_full(&server, true);
    a.send(b"11-15\r").await;
    a.wait_for("cannot save moves").await;
    let (status, _, body) = http(&server, "GET", "/readyz", &[]).await;
    assert_eq!(
        (status, body.as_str()),
        (503, "not ready: the server cannot write its records\n")
    );
    // The operator's listener says the same, and its metrics count the refused commit and no move.
    let port = server.metrics.expect("an operator's listener");
    let (status, _, body) = http_to(port, "GET", "/readyz", &[]).await;
    assert_eq!(
        (status, body.as_str()),
        (503, "not ready: the server cannot write its records\n")
    );
    assert_eq!(metric(&server, "crowned_ready").await, Some(0.0));
    assert_eq!(metric(&server, "crowned_moves_total").await, Some(0.0));
    assert!(metric(&server, "crowned_records_commits_failed_total").await >= Some(1.0));
    assert_eq!(
        http(&server, "GET", "/healthz", &[]).await.0,
        200,
        "still alive"
    );
    // The disk mends: the move goes through and the server is ready again.
    disk_full(&server, false);
    a.send(b"11-15\r").await;
    b.wait_for("11-15").await;
    let mut ready = false;
    for _ in 0..50 {
        if http(&server, "GET", "/readyz", &[]).await.0 == 200 {
            ready = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(ready, "ready again once the records take writes");
    // One move written, its commit timed; one table; two players by SSH.
    metric_reaches(&server, "crowned_ready", 1.0).await;
    assert_eq!(metric(&server, "crowned_moves_total").await, Some(1.0));
    assert!(metric(&server, "crowned_records_commit_seconds_count").await >= Some(1.0));
    assert_eq!(metric(&server, "crowned_tables").await, Some(1.0));
    assert_eq!(
        metric(&server, r#"crowned_sessions{door="ssh"}"#).await,
        Some(2.0)
    );
    assert_eq!(
        metric(&server, r#"crowned_sessions{door="web"}"#).await,
        Some(0.0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drained_server_takes_no_one_new_keeps_its_players_and_stops_as_the_last_leaves() {
    use tokio::io::AsyncReadExt;
    let mut server = watched_web_server("web-drain");
    let ann = connect(&server, &new_key(), "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english 5+3 black").await;
    a.wait_for("waiting for an opponent").await;
    let mut browser = WebTerminal::open(&server, "", None, 100, 30).await;
    browser.wait_for("crowned · lobby").await;
    metric_reaches(&server, r#"crowned_sessions{door="ssh"}"#, 1.0).await;
    metric_reaches(&server, r#"crowned_sessions{door="web"}"#, 1.0).await;
    assert_eq!(metric(&server, "crowned_ready").await, Some(1.0));
    // SAFETY: kill with a child's own pid only sends it a signal.
    unsafe {
        libc::kill(server.child.id() as i32, libc::SIGUSR1);
    }
    let mut status = (0, String::new());
    for _ in 0..50 {
        let (code, _, body) = http(&server, "GET", "/readyz", &[]).await;
        status = (code, body);
        if code == 503 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        status,
        (503, "not ready: the server is draining\n".to_string())
    );
    // No one new: an SSH client is closed on before the server says a word, a browser's session is refused.
    let mut ssh = tokio::net::TcpStream::connect(("127.0.0.1", server.port))
        .await
        .expect("connects");
    let mut greeting = [0u8; 64];
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), ssh.read(&mut greeting))
        .await
        .expect("an answer in time");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    assert!(
        try_open(&server, "", Some(&origin(&server)), None)
            .await
            .is_err()
    );
    // Counted by door and reason; the operator's listener says the server is not ready either.
    let refused = |door: &str| {
        format!(r#"crowned_connections_refused_total{{door="{door}",reason="draining"}}"#)
    };
    metric_reaches(&server, &refused("ssh"), 1.0).await;
    metric_reaches(&server, &refused("web"), 1.0).await;
    assert_eq!(metric(&server, "crowned_ready").await, Some(0.0));
    let (status, _, body) = http_to(
        server.metrics.expect("an operator's listener"),
        "GET",
        "/readyz",
        &[],
    )
    .await;
    assert_eq!(
        (status, body.as_str()),
        (503, "not ready: the server is draining\n")
    );
    // The players connected play on: the table and the lobby still answer them.
    a.send(b":say still here\r").await;
    a.wait_for("ann: still here").await;
    browser.send(b"?").await;
    browser.drain().await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert!(server.is_running(), "not while players are connected");
    // The last ones leave: the server stops by itself, cleanly.
    drop((a, ann, browser));
    let stopped = server.stopped_within(Duration::from_secs(10)).await;
    let exit = stopped.expect("the drained server stops once empty");
    assert!(exit.success(), "{exit}");
}
