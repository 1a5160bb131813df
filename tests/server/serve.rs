//! `crowned serve` end to end: the real binary serving on a loopback port chosen at run time, driven by a real
//! SSH client library (russh) inside the test, with the screen read through a terminal emulator (vt100).

use crate::common;
mod stalled;
mod strangers;

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use crate::doors::ssh::{
    KnownHost, PATIENCE, Server, Terminal, connect, has_file, new_key, read_all, read_both,
};
use common::screen::first_line_has_two_moves;
use russh::keys::PrivateKeyWithHashAlg;
use russh::{ChannelMsg, client};
use tokio::time::{Instant, timeout};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_the_engine_resize_drop_and_resume() {
    let server = Server::start("play");
    let alice = new_key();
    let handle = connect(&server, &alice, "alice").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Black to play").await;
    // A typed move, and the engine's answer in the move list.
    t.send(b"11-15\r").await;
    t.wait_for("1. 11-15").await;
    t.until("the engine's reply", |t| {
        first_line_has_two_moves(&t.contents())
    })
    .await;
    t.wait_for("Black to play").await;
    // Too small a window gets the enlarge screen; a big one the game again, redrawn to its size.
    t.resize(40, 12).await;
    t.wait_for("nlarge").await;
    t.resize(120, 40).await;
    t.wait_for("Black to play").await;
    assert!(t.contents().contains("1. 11-15"));
    // The connection drops without a word: the game was saved as it went.
    drop(t);
    drop(handle);
    let dirs = server.player_dirs();
    assert_eq!(dirs.len(), 1, "one folder for alice: {dirs:?}");
    let deadline = Instant::now() + PATIENCE;
    while !has_file(&dirs[0].join("data"), "autosave.pdn") {
        assert!(
            Instant::now() < deadline,
            "no autosave in {}",
            dirs[0].display()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The same key again: the unfinished game is offered, and resumes.
    let handle = connect(&server, &alice, "alice").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Resume?").await;
    t.send(b"y").await;
    t.until("the resumed game", |t| {
        first_line_has_two_moves(&t.contents())
    })
    .await;
    // A second key gets a game of its own, with no offer, in a folder of its own.
    let bob = new_key();
    let other = connect(&server, &bob, "bob").await;
    let mut b = Terminal::to_engine(&other, 80, 24).await;
    b.wait_for("Black to play").await;
    assert!(!b.contents().contains("Resume?"));
    assert!(b.contents().contains("no moves yet"), "{}", b.contents());
    assert_eq!(server.player_dirs().len(), 2);
    // Ctrl-c quits; the player's terminal is given back and the channel ends with status 0.
    b.send(b"\x03").await;
    b.wait_closed().await;
    assert_eq!(b.exit_status, Some(0));
    assert!(
        !b.screen.screen().alternate_screen(),
        "the main screen is back"
    );
    assert!(
        !b.screen.screen().hide_cursor(),
        "the cursor is shown again"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_a_terminal_are_refused_with_a_reason() {
    // The settings file's [server] table is read: one connection per address.
    let server = Server::start_with("refuse", "[server]\nmax-per-address = 1\n");
    let key = new_key();
    let handle = connect(&server, &key, "carol").await;
    // A shell without a pty.
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel.request_shell(true).await.expect("asked");
    let said = read_all(&mut channel).await;
    let port = server.port;
    assert!(
        said.0.contains(&format!(
            "needs a terminal; connect with `ssh -t -p {port} 127.0.0.1`"
        )),
        "{said:?}"
    );
    assert_eq!(said.1, Some(1));
    // A command.
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel.exec(true, "ls -la").await.expect("asked");
    let said = read_all(&mut channel).await;
    assert!(said.0.contains("`join CODE` plays it"), "{said:?}");
    // The help names every word `new` takes.
    assert!(said.0.contains("[private|public]"), "{said:?}");
    // A table command without a terminal.
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel.exec(true, "join K7QX").await.expect("asked");
    let said = read_all(&mut channel).await;
    // Told how to ask for one with the command it ran, not to leave the command out.
    assert!(
        said.0.contains(&format!(
            "`join K7QX` needs a terminal; ask ssh for one with -t: `ssh -t -p {port} 127.0.0.1 join K7QX`"
        )),
        "{said:?}"
    );
    assert!(!said.0.contains("without a command"), "{said:?}");
    // A subsystem (sftp) is refused outright.
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel
        .request_subsystem(true, "sftp")
        .await
        .expect("asked");
    let refused = timeout(PATIENCE, channel.wait()).await.expect("an answer");
    assert!(matches!(refused, Some(ChannelMsg::Failure)), "{refused:?}");
    // X11 and port forwarding.
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel
        .request_x11(true, false, "MIT-MAGIC-COOKIE-1", "00", 0)
        .await
        .expect("asked");
    let refused = timeout(PATIENCE, channel.wait()).await.expect("an answer");
    assert!(matches!(refused, Some(ChannelMsg::Failure)), "{refused:?}");
    let forward = handle
        .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5555)
        .await;
    assert!(forward.is_err(), "port forwarding is refused");
    assert!(
        !handle
            .tcpip_forward("127.0.0.1", 0)
            .await
            .is_ok_and(|port| port > 0),
        "remote forwarding is refused"
    );
    // A second player from the same address is over the limit the settings set: it may knock (strangers have
    // places of their own), and once signed in it is told why it cannot play.
    let config = Arc::new(client::Config::default());
    let second = connect(&server, &new_key(), "bob").await;
    let mut turned_away = second.channel_open_session().await.expect("a session");
    turned_away.request_shell(true).await.expect("asked");
    let (said, status) = read_all(&mut turned_away).await;
    assert!(said.contains("your address already holds"), "{said:?}");
    assert_eq!(status, Some(1));
    // Once the first has gone, there is room again.
    handle
        .disconnect(russh::Disconnect::ByApplication, "bye", "en")
        .await
        .expect("disconnected");
    drop(second);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let again = connect(&server, &new_key(), "carol").await;
        let mut channel = again.channel_open_session().await.expect("a session");
        channel.request_shell(true).await.expect("asked");
        let (said, _) = read_all(&mut channel).await;
        if !said.contains("your address already holds") {
            // The shell without a terminal is refused for that reason alone.
            assert!(said.contains("needs a terminal"), "{said:?}");
            break;
        }
        assert!(Instant::now() < deadline, "never table again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut anonymous = client::connect(
        Arc::clone(&config),
        ("127.0.0.1", server.port),
        KnownHost(server.fingerprint.clone()),
    )
    .await
    .expect("a stranger may knock");
    // No key at all: refused.
    let none = anonymous
        .authenticate_none("mallory")
        .await
        .expect("answered");
    assert!(!none.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_and_absurd_windows_do_not_hurt_and_sigterm_stops_cleanly() {
    let mut server = Server::start("garbage");
    let key = new_key();
    let handle = connect(&server, &key, "\x1b[31mdave\x07").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Black to play").await;
    // Invalid UTF-8, broken escape sequences, a paste that never ends, an endless CSI (what is dropped of them
    // leaves digits, typed into the input box).
    let mut junk: Vec<u8> = (0x80..=0xffu8).cycle().take(10_000).collect();
    for broken in [
        &b"\x1b[<"[..],
        b"\x1b]",
        b"\x1bP",
        b"\x1b[1;",
        b"\x1bO",
        b"\xe2\x82",
    ] {
        junk.extend(broken.iter().cycle().take(3_000));
    }
    junk.extend(b"\x1b[200~");
    junk.extend(std::iter::repeat_n(b'9', 100_000));
    junk.extend(b"\x1b[");
    junk.extend(std::iter::repeat_n(b'1', 10_000));
    for chunk in junk.chunks(7_001) {
        t.send(chunk).await;
    }
    // Past its input budget, the junk is taken at the budget's pace (some seconds): another player is served
    // meanwhile, at once.
    let other = connect(&server, &new_key(), "erin").await;
    let mut e = Terminal::to_engine(&other, 80, 24).await;
    e.wait_for("Black to play").await;
    t.channel.window_change(0, 0, 0, 0).await.expect("sent");
    t.channel
        .window_change(10_000, 10_000, 0, 0)
        .await
        .expect("sent");
    // Back to a real size: the game is still there and answers keys (Ctrl-u empties the input box, then the
    // help). Neither starts with an Esc, so a server still busy with the junk, reading the two together, takes
    // them as the same two keys.
    t.resize(80, 24).await;
    t.send(b"\x15?").await;
    t.wait_for("Up/Down scroll · Tab rules · other keys close")
        .await;
    assert!(server.is_running());
    // SIGTERM: every game is told, and the server exits by itself.
    // SAFETY: kill with a child's own pid only sends it a signal.
    unsafe {
        libc::kill(server.child.id() as i32, libc::SIGTERM);
    }
    e.wait_for("shutting down").await;
    let deadline = Instant::now() + PATIENCE;
    while server.is_running() {
        assert!(Instant::now() < deadline, "the server did not stop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(server.child.wait().expect("exited").success());
}

/// The load benchmark, tiny: a server of its own, sixteen players at once by SSH and four by the web door,
/// every one served.
#[test]
fn the_load_benchmark_runs_small() {
    let text = bench(&[
        "serve",
        "--sessions",
        "16",
        "--web",
        "4",
        "--keys",
        "3",
        "--pause",
        "20",
        "--engine-every",
        "4",
        "--flood",
        "1",
    ]);
    assert!(
        text.starts_with(
            "players: 20 asked (16 by SSH, 4 by the web door), 20 completed, 0 failed\n"
        ),
        "{text}"
    );
    assert!(text.contains("key to frame (48 keys"), "{text}");
    assert!(
        text.contains("key to frame on the web door (12 keys"),
        "{text}"
    );
    assert!(
        text.contains("key to frame while 1 connections flooded"),
        "{text}"
    );
    assert!(
        text.contains("engine answers (5 players asking at once"),
        "{text}"
    );
    assert!(text.contains("MB per player"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_folder_is_refused_while_the_first_runs() {
    let mut first = Server::start("twice");
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("CROWNED_HOME", &first.home)
        .output()
        .expect("runs");
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(
        said.contains("another crowned serve is running on"),
        "{said}"
    );
    // The first serves on, untouched.
    assert!(first.is_running());
    let handle = connect(&first, &new_key(), "ann").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Black to play").await;
}

#[test]
fn a_missing_authorized_keys_file_is_named_with_the_system_s_reason_once() {
    let home = std::env::temp_dir().join(format!("crowned-serve-nokeys-{}", std::process::id()));
    let missing = home.join("no-such-authorized-keys");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["serve", "--listen", "127.0.0.1:0", "--authorized-keys"])
        .arg(&missing)
        .env("CROWNED_HOME", &home)
        .output()
        .expect("runs");
    let _ = std::fs::remove_dir_all(&home);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&missing.display().to_string()), "{said}");
    // The system's words for a missing file on Linux, said once (the error and its cause used to say it twice).
    assert_eq!(
        said.matches("No such file or directory").count(),
        1,
        "the reason once: {said}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_authorized_keys_get_in_and_guests_play_without_keeping_anything() {
    let alice = new_key();
    let folder = std::env::temp_dir().join(format!("crowned-serve-keys-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a folder");
    let keys = folder.join("authorized_keys");
    let line = alice.public_key().to_openssh().expect("an OpenSSH line");
    std::fs::write(&keys, format!("# who may play\n{line} alice@home\n")).expect("written");

    // With an allow-list and guests both asked for, the server does not start: guests would walk past the list.
    let both = format!(
        "[server]\nauthorized-keys = \"{}\"\nguests = true\n",
        keys.display()
    );
    let home = folder.join("both");
    std::fs::create_dir_all(home.join("config")).expect("a config folder");
    std::fs::write(home.join("config/config.toml"), both).expect("settings written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("CROWNED_HOME", &home)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("choose one (--authorized-keys or --guests)"),
        "{said}"
    );

    let settings = format!("[server]\nauthorized-keys = \"{}\"\n", keys.display());
    let server = Server::start_with("authorized", &settings);
    let handle = connect(&server, &alice, "alice").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Black to play").await;
    // Another key is not let in, nor a client without a key.
    let config = Arc::new(client::Config::default());
    let mut other = client::connect(
        Arc::clone(&config),
        ("127.0.0.1", server.port),
        KnownHost(server.fingerprint.clone()),
    )
    .await
    .expect("connects");
    let refused = other
        .authenticate_publickey("bob", PrivateKeyWithHashAlg::new(new_key(), None))
        .await
        .expect("answered");
    assert!(!refused.success());
    let mut stranger = client::connect(
        Arc::clone(&config),
        ("127.0.0.1", server.port),
        KnownHost(server.fingerprint.clone()),
    )
    .await
    .expect("connects");
    let asked = stranger
        .authenticate_keyboard_interactive_start("visitor", None)
        .await
        .expect("answered");
    let answered = match asked {
        client::KeyboardInteractiveAuthResponse::InfoRequest { .. } => stranger
            .authenticate_keyboard_interactive_respond(Vec::new())
            .await
            .expect("answered"),
        other => other,
    };
    assert!(
        !matches!(answered, client::KeyboardInteractiveAuthResponse::Success),
        "a client without a key stays out of an allow-listed server"
    );

    // A server open to guests: no key at all plays as a guest, told so, whose game is not kept.
    let guests = Server::start_with("guests", "[server]\nguests = true\n");
    let guest = as_guest(&guests, &config).await;
    let mut g = Terminal::to_engine(&guest, 80, 24).await;
    g.wait_for("not kept").await;
    g.send(b"11-15\r").await;
    g.wait_for("1. 11-15").await;
    // A guest has no key to link a browser to, nor games kept: each command says so and changes nothing.
    for (command, said) in [
        ("link K7QX-M2PA", "connect with yours to link it"),
        ("links", "connect with yours to link it"),
        ("links revoke 1", "connect with yours to link it"),
        ("games", "a guest has no games kept"),
    ] {
        let mut channel = as_guest(&guests, &config)
            .await
            .channel_open_session()
            .await
            .expect("a session");
        channel.exec(true, command).await.expect("asked");
        let (out, err, status) = read_both(&mut channel).await;
        assert!(
            out.contains(said) || err.contains(said),
            "{command}: {out:?} {err:?}"
        );
        assert_ne!(status, Some(0), "{command}");
    }
    g.send(b"\x03").await;
    g.wait_closed().await;
    // The guest left nothing behind.
    assert!(
        guests.player_dirs().is_empty(),
        "{:?}",
        guests.player_dirs()
    );
    assert_eq!(server.player_dirs().len(), 1, "alice's folder");
    let _ = std::fs::remove_dir_all(&folder);
}

/// A connection to `server` (open to guests) with no key: told what a guest is, then let in.
async fn as_guest(server: &Server, config: &Arc<client::Config>) -> client::Handle<KnownHost> {
    let mut guest = client::connect(
        Arc::clone(config),
        ("127.0.0.1", server.port),
        KnownHost(server.fingerprint.clone()),
    )
    .await
    .expect("connects");
    let asked = guest
        .authenticate_keyboard_interactive_start("visitor", None)
        .await
        .expect("answered");
    let client::KeyboardInteractiveAuthResponse::InfoRequest { instructions, .. } = asked else {
        panic!("a guest is told what a guest is: {asked:?}");
    };
    assert!(instructions.contains("guest"), "{instructions}");
    let accepted = guest
        .authenticate_keyboard_interactive_respond(Vec::new())
        .await
        .expect("answered");
    assert!(matches!(
        accepted,
        client::KeyboardInteractiveAuthResponse::Success
    ));
    guest
}

/// Whether any cell on the screen has a colour.
fn coloured(t: &Terminal) -> bool {
    let screen = t.screen.screen();
    let (rows, cols) = screen.size();
    (0..rows.get()).any(|row| {
        (0..cols.get()).any(|col| {
            screen.cell(row, col).is_some_and(|cell| {
                cell.fgcolor() != vt100::Color::Default || cell.bgcolor() != vt100::Color::Default
            })
        })
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_color_sent_by_the_client_is_honoured() {
    let server = Server::start("no-color");
    let handle = connect(&server, &new_key(), "frank").await;
    let mut plain = Terminal::to_engine_with(&handle, 80, 24, &[("NO_COLOR", "1")]).await;
    plain.wait_for("Black to play").await;
    assert!(!coloured(&plain), "{}", plain.contents());
    let other = connect(&server, &new_key(), "grace").await;
    let mut colourful = Terminal::to_engine(&other, 80, 24).await;
    colourful.wait_for("Black to play").await;
    assert!(coloured(&colourful));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copy_reaches_the_ssh_client_s_terminal_as_its_clipboard_sequence() {
    let server = Server::start("copy");
    let handle = connect(&server, &new_key(), "hana").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Black to play").await;
    t.send(b":copy fen\r").await;
    // The bytes as they arrive, looked at raw: the terminal emulator does not keep the sequence.
    let wanted = crowned::session::clipboard_sequence("B:W21-32:B1-12").expect("short");
    let mut seen = Vec::new();
    let deadline = Instant::now() + PATIENCE;
    while !seen.windows(wanted.len()).any(|w| w == wanted.as_slice()) {
        let left = deadline.saturating_duration_since(Instant::now());
        match timeout(left, t.channel.wait()).await {
            Ok(Some(ChannelMsg::Data { data })) => {
                t.screen.process(&data);
                seen.extend_from_slice(&data);
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => panic!(
                "no clipboard sequence: {:?}\n{}",
                String::from_utf8_lossy(&seen),
                t.contents()
            ),
        }
    }
    t.wait_for("sent to your terminal's clipboard").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_come_back_as_pdn_that_reads_back() {
    let server = Server::start("games");
    let alice = new_key();
    let handle = connect(&server, &alice, "alice").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Black to play").await;
    t.send(b"11-15\r").await;
    t.until("the engine's reply", |t| {
        first_line_has_two_moves(&t.contents())
    })
    .await;
    t.send(b":save first game\r").await;
    t.wait_for("saved as").await;
    // `ssh -p PORT host games > mine.pdn`, from another connection with the same key.
    let again = connect(&server, &alice, "alice").await;
    let mut channel = again.channel_open_session().await.expect("a session");
    channel.exec(true, "games").await.expect("asked");
    let (pdn, status) = read_all(&mut channel).await;
    assert_eq!(status, Some(0), "{pdn}");
    assert!(pdn.contains("11-15"), "{pdn}");
    let file = server.home.join("mine.pdn");
    std::fs::write(&file, &pdn).expect("written");
    let check = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["pdn", "check"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "games 1 ok 1 errors 0\n",
        "{pdn}"
    );
    // Another key has its own (empty) list.
    let bob = connect(&server, &new_key(), "bob").await;
    let mut channel = bob.channel_open_session().await.expect("a session");
    channel.exec(true, "games").await.expect("asked");
    assert_eq!(read_all(&mut channel).await, (String::new(), Some(0)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_game_is_put_away_and_the_player_told() {
    // The shortest idle timeout there is: ten seconds.
    let server = Server::start_with("idle", "[server]\nidle-timeout = 10\n");
    let handle = connect(&server, &new_key(), "hana").await;
    let mut t = Terminal::to_engine(&handle, 80, 24).await;
    t.wait_for("Black to play").await;
    t.send(b"11-15\r").await;
    t.wait_for("1. 11-15").await;
    // Then nothing: after ten seconds the game is put away, saved, and the terminal given back.
    t.wait_for("the game was put away").await;
    t.wait_closed().await;
    assert_eq!(t.exit_status, Some(0));
    assert!(!t.screen.screen().alternate_screen());
    let dirs = server.player_dirs();
    assert!(dirs[0].join("data/autosave.pdn").exists(), "{dirs:?}");
}

/// The load benchmark of games between people, tiny: four games with two watchers, played to their end on one
/// node with its embedded records, then on two nodes of one PostgreSQL database, and every one found once in the
/// records afterwards.
#[test]
fn the_tables_benchmark_runs_small_on_one_node_and_on_two() {
    let out = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args([
            "bench",
            "tables",
            "--games",
            "4",
            "--watchers",
            "2",
            "--plies",
            "16",
            "--think",
            "10",
            "--nodes",
            "2",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (alone, nodes) = text
        .split_once("== 2 nodes, one PostgreSQL")
        .unwrap_or_else(|| panic!("no run on two nodes: {text}"));
    for run in [alone, nodes] {
        assert!(
            run.contains("games: 4 asked, 4 finished, 0 failed\n"),
            "{text}"
        );
        assert!(
            run.contains("move to the opponent's screen (64 moves)"),
            "{text}"
        );
        assert!(run.contains("records: 4 games kept"), "{text}");
        assert!(
            run.contains("0 of 4 finished games missing, wrong or recorded twice"),
            "{text}"
        );
    }
    assert!(alone.starts_with("== one node, embedded records"), "{text}");
    assert!(nodes.contains("2 nodes' CPU"), "{text}");
    assert!(
        nodes.contains("== 2 nodes against one node, same load, same run ==\nmove to the opponent's screen: p50"),
        "{text}"
    );
}

/// The arena load benchmark, tiny: ten players in an arena of 20 seconds, every one paired again and again;
/// then every game of the event is found once in the records, and the table agrees with the games.
#[test]
fn the_arena_benchmark_runs_small() {
    let text = bench(&[
        "arena",
        "--players",
        "10",
        "--seconds",
        "12",
        "--start-in",
        "4",
        "--plies",
        "16",
        "--think",
        "10",
    ]);
    assert!(
        text.starts_with("players: 10 asked, 10 joined, 0 failed\n"),
        "{text}"
    );
    let number = |after: &str, before: &str| -> usize {
        let rest = text
            .split(after)
            .nth(1)
            .unwrap_or_else(|| panic!("no {after:?}: {text}"));
        rest.split(before)
            .next()
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no number after {after:?}: {text}"))
    };
    let started = number("games: ", " started");
    let finished = number(" started, ", " finished");
    let kept = number("records: ", " games of the event");
    // Ten players paired as they come free for 12 seconds play many rounds of short games.
    assert!(started >= 10, "{text}");
    assert_eq!((finished, kept), (started, started), "{text}");
    assert!(
        text.contains(&format!("{kept} games as both players saw them")),
        "{text}"
    );
    assert!(
        text.contains("the table of 10 players is the games' scoring"),
        "{text}"
    );
    assert!(text.contains("printed the same table (10 lines)"), "{text}");
    assert!(
        text.contains("from the end of a game to the next board ("),
        "{text}"
    );
    // The server's metrics agree with its records (the bench fails otherwise), and were scraped as it ran.
    let moves = number("metrics: ", " moves written");
    assert_eq!(moves, number("the records' games hold ", ")"), "{text}");
    assert!(moves > 0, "{text}");
    let metrics_line = text
        .lines()
        .find(|line| line.starts_with("metrics: "))
        .unwrap_or_default();
    let scrapes: usize = metrics_line
        .split(" ms (")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no scrapes counted: {metrics_line}"));
    assert!(scrapes > 0, "{metrics_line}");
}

/// `crowned bench ARGS`, which must succeed: what it printed.
fn bench(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .arg("bench")
        .args(args)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The chaos benchmark on three nodes of one server on a real PostgreSQL, tiny: two games, each game's players at
/// two nodes, while a node is killed and started again, a node is stopped past its lease and let go on, the
/// database is stopped and started again, twice a node's disk refuses writes (its log's among them: a log line
/// that cannot be written must not take a thread down), and two nodes are upgraded in place in turn (drained, their
/// tables handed over, stopped and started again); every move the players saw is in the records.
#[test]
fn the_chaos_benchmark_on_nodes_runs_small_and_finds_nothing_lost() {
    let text = bench(&[
        "chaos",
        "--nodes",
        "3",
        "--lease-term",
        "2",
        "--games",
        "2",
        "--plies",
        "20",
        "--think",
        "60",
        "--kills",
        "1",
        "--stalls",
        "1",
        "--outages",
        "1",
        "--full-disks",
        "2",
        "--upgrades",
        "2",
        "--every",
        "1000",
        "--double-every",
        "0",
    ]);
    assert!(text.contains("anomalies: 0"), "{text}");
    assert!(
        text.contains(
            "1 kills -9 of a node of 3, 2 full disks, 1 stalls past the lease, 1 database outages, 2 upgrades \
             in place"
        ),
        "{text}"
    );
    // Both upgrades drained their node, waiting on its metrics for its tables to be handed over (within the
    // lease's term as a rule; an outage just before one may slow the database's answer past it, and the node's
    // tables are then taken over after their lease, which the records' check covers as well).
    assert!(text.contains("(2 drains of "), "{text}");
    assert!(
        text.contains("0 stopped by a failure of the load"),
        "{text}"
    );
}

/// The chaos benchmark, tiny (light, as it shares the machine with the other server tests): two games on a server
/// killed (kill -9) and started again twice and whose disk refuses writes twice, players connecting to their
/// tables a second time now and then; every move the players saw is in the records.
#[test]
fn the_chaos_benchmark_runs_small_and_finds_nothing_lost() {
    let text = bench(&[
        "chaos",
        "--games",
        "2",
        "--plies",
        "30",
        "--think",
        "60",
        "--kills",
        "2",
        "--full-disks",
        "2",
        "--every",
        "700",
        "--double-every",
        "6",
    ]);
    assert!(text.contains("anomalies: 0"), "{text}");
    assert!(
        text.contains("2 kills -9 of the server, 2 full disks"),
        "{text}"
    );
    assert!(
        text.contains("0 stopped by a failure of the load"),
        "{text}"
    );
}

/// Whether any cell is drawn in 24-bit colour (the wood theme's).
fn in_true_colour(t: &Terminal) -> bool {
    let screen = t.screen.screen();
    let (rows, cols) = screen.size();
    (0..rows.get()).any(|row| {
        (0..cols.get()).any(|col| {
            screen.cell(row, col).is_some_and(|cell| {
                matches!(cell.bgcolor(), vt100::Color::Rgb(..))
                    || matches!(cell.fgcolor(), vt100::Color::Rgb(..))
            })
        })
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_changed_over_ssh_hold_at_once_and_at_the_next_connection() {
    const RIGHT: &[u8] = b"\x1b[C";
    const DOWN: &[u8] = b"\x1b[B";
    const UP: &[u8] = b"\x1b[A";
    let server = Server::start("settings");
    let olive = new_key();
    let handle = connect(&server, &olive, "olive").await;
    let mut t = Terminal::open(&handle, 100, 30).await;
    t.wait_for("· lobby ·").await;
    // From the lobby: the colours, the notation, and a key of the lobby's own.
    t.send(b"O").await;
    t.wait_for("Settings · kept in config.toml").await;
    t.send(RIGHT).await;
    t.wait_for("display.theme = wood: kept in config.toml")
        .await;
    t.send(DOWN).await;
    t.send(DOWN).await;
    t.send(RIGHT).await;
    t.wait_for("display.notation = numbers").await;
    t.send(RIGHT).await;
    t.wait_for("display.notation = coordinates").await;
    // The lobby's help, above its quit and the tournament screen's five keys at the end, goes from ? to h.
    t.send(b"\x1b[F").await;
    for _ in 0..6 {
        t.send(UP).await;
    }
    t.send(b"\r").await;
    t.wait_for("press the key for help").await;
    t.send(b"h").await;
    t.wait_for("keys.lobby.help = h").await;
    t.send(b"\x1b").await;
    t.until("the lobby again", |t| !t.contents().contains("Settings ·"))
        .await;
    t.send(b"h").await;
    t.wait_for("Lobby keys").await;
    let dirs = server.player_dirs();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let file = dirs[0].join("config/config.toml");
    let text = std::fs::read_to_string(&file).expect("the player's settings file");
    assert!(text.contains("theme = \"wood\""), "{text}");
    assert!(text.contains("notation = \"coordinates\""), "{text}");
    assert!(text.contains("[keys.lobby]\nhelp = [\"h\"]"), "{text}");
    drop(t);
    drop(handle);

    // The next connection follows them: its game is in wood colours and writes moves in coordinates, and the
    // screen opens from the game as well.
    let handle = connect(&server, &olive, "olive").await;
    let mut t = Terminal::to_engine(&handle, 100, 30).await;
    t.wait_for("Black to play").await;
    assert!(in_true_colour(&t), "{}", t.contents());
    t.send(b"11-15\r").await;
    t.wait_for("1. f6-e5").await;
    t.send(b"O").await;
    t.wait_for("Colours                  ‹ wood ›").await;
    t.send(b"q").await;
    t.until("the game again", |t| !t.contents().contains("Settings ·"))
        .await;
}
