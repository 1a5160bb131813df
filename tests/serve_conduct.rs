//! A civil public server, end to end: the operator bans a key or an address with `crowned serve ban` beside the
//! running server, and the banned client (russh, and the stock OpenSSH client) is given the reason in one line
//! at its next sign-in while everyone else plays on; players block, report and mute at a table.

use std::process::Command;
use std::sync::Arc;

use russh::keys::ssh_key::LineEnding;
use russh::keys::{HashAlg, PrivateKey};

use crate::common::ssh::{Server, Terminal, connect, new_key};

/// Runs `crowned serve ARGS` on the server's folder (its settings, its records), as its operator would; what it
/// printed, and whether it succeeded.
fn operator(server: &Server, args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .arg("serve")
        .args(args)
        .env("CROWNED_HOME", &server.home)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned()
        + &String::from_utf8_lossy(&out.stderr);
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
    let file = server.home.join(format!("key-{name}"));
    let text = key.to_openssh(LineEnding::LF).expect("an OpenSSH key");
    std::fs::write(&file, text.as_bytes()).expect("written");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("private");
    let out = Command::new("ssh")
        .args(["-tt", "-p", &server.port.to_string(), "-i"])
        .arg(&file)
        .args([
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "LogLevel=ERROR",
            "-l",
            name,
            "127.0.0.1",
        ])
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
    assert!(!ok && said.contains("neither a key's fingerprint"), "{said}");
    let (listed, ok) = operator(&server, &["bans"]);
    assert!(ok && listed.contains(&key) && listed.contains("abuse in chat"), "{listed}");

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
    assert!(printed.contains("banned from this server: abuse in chat"), "{printed}");
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
