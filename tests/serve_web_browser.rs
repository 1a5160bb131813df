//! The web door in a real browser: Debian's chromium, headless, driven over WebDriver (chromedriver, through
//! fantoccini) against the real binary, with players on SSH beside it. The page's terminal is read from the
//! rows xterm.js draws in the page; screenshots are kept in `target/web-screenshots/` for a person to look at.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator, key::Key};
use hyper_util::client::legacy::connect::HttpConnector;
use tokio::time::Instant;

use crate::common::ssh::{PATIENCE, Server, Terminal, code_on, connect, exec_as, new_key};
use crate::common::web::origin;

/// chromedriver on a port of its own, stopped when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts (Debian: apt-get install chromium chromium-driver)");
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless chromium, `width` x `height`, with a profile of its own and none of its calls home (the machine
/// reaches nothing but loopback).
async fn browser(driver: &Driver, profile: &std::path::Path, width: u32, height: u32) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", "--disable-extensions",
                format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.display()),
            ]
        }),
    );
    let url = format!("http://127.0.0.1:{}", driver.port);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let connected = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&url)
            .await;
        match connected {
            Ok(client) => return client,
            // chromedriver takes a moment to listen.
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("no browser: {e}"),
        }
    }
}

/// What the page's terminal shows: xterm.js's rows, as text.
async fn screen(client: &Client) -> String {
    let text = client
        .execute(
            "const rows = document.querySelector('.xterm-rows'); return rows ? rows.innerText : '';",
            vec![],
        )
        .await
        .expect("the page answers");
    text.as_str().unwrap_or_default().replace('\u{a0}', " ")
}

/// The page's own text outside the terminal (`#who`, `#command`, ...).
async fn text_of(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .expect("the element")
        .text()
        .await
        .expect("its text")
}

/// Waits until the page's terminal shows `text`.
async fn wait_for(client: &Client, text: &str) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let shown = screen(client).await;
        if shown.contains(text) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no {text:?} in the browser after {PATIENCE:?}:\n{shown}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Types `text` into the page's terminal, as a player at the keyboard.
async fn type_keys(client: &Client, text: &str) {
    client
        .find(Locator::Css(".xterm-helper-textarea"))
        .await
        .expect("the terminal's input")
        .send_keys(text)
        .await
        .expect("typed");
}

/// The terminal's rows and columns, as the page fitted them to the window.
async fn size(client: &Client) -> (u64, u64) {
    let answer = client
        .execute(
            "const rows = document.querySelectorAll('.xterm-rows > div'); \
             return [rows.length, rows.length ? rows[0].innerText.length : 0];",
            vec![],
        )
        .await
        .expect("the page answers");
    let pair = answer.as_array().cloned().unwrap_or_default();
    let n = |i: usize| pair.get(i).and_then(serde_json::Value::as_u64).unwrap_or(0);
    (n(0), n(1))
}

/// Keeps a screenshot of the page as `name`.png for a person to look at; its path.
async fn keep_screenshot(client: &Client, name: &str) -> PathBuf {
    let png = client.screenshot().await.expect("a screenshot");
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
    std::fs::create_dir_all(&folder).expect("a folder");
    let path = folder.join(format!("{name}.png"));
    std::fs::write(&path, png).expect("written");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_a_guest_plays_an_ssh_player_links_a_key_watches_by_link_and_resizes() {
    let server =
        Server::start_with_files("web-browser", &[], &["--web", "127.0.0.1:0", "--guests"]);
    let profile = server.home.join("chromium-profile");
    let driver = Driver::start();
    let client = browser(&driver, &profile, 1200, 800).await;
    let site = origin(&server);

    // Ann waits at a table with clocks, from SSH.
    let ann_key = new_key();
    let ann = connect(&server, &ann_key, "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english black 5+3").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());

    // A guest opens the page and sits at her table: timed from opening the address to the seat.
    let opened = Instant::now();
    client
        .goto(&format!("{site}/"))
        .await
        .expect("the page opens");
    wait_for(&client, "crowned · lobby · guest").await;
    let lobby_after = opened.elapsed();
    type_keys(&client, &format!("c{code}{}", char::from(Key::Enter))).await;
    wait_for(&client, "· you").await;
    let seated_after = opened.elapsed();
    println!("browser: lobby after {lobby_after:?}, seated at the table after {seated_after:?}");
    a.wait_for("move 1, Black to play: your move").await;

    // Moves cross both ways, and both clocks tick.
    a.send(b"11-15\r").await;
    wait_for(&client, "1. 11-15").await;
    let before = screen(&client).await;
    let ticked = Instant::now() + PATIENCE;
    while screen(&client).await == before {
        assert!(
            Instant::now() < ticked,
            "the browser's clock stood still:\n{before}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    type_keys(&client, &format!("23-19{}", char::from(Key::Enter))).await;
    a.wait_for("23-19").await;
    wait_for(&client, "23-19").await;
    let shot = keep_screenshot(&client, "guest-at-a-table").await;
    println!("browser: screenshot kept at {}", shot.display());

    // The window shrinks: the page fits the terminal to it and the server draws at the new size.
    let (rows, cols) = size(&client).await;
    client.set_window_size(900, 600).await.expect("resized");
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (now_rows, now_cols) = size(&client).await;
        if now_rows < rows && now_cols < cols && screen(&client).await.contains("23-19") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not redrawn smaller: {rows}x{cols} -> {now_rows}x{now_cols}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    keep_screenshot(&client, "guest-resized").await;

    // A watcher by link, in the same browser: the table read-only, the moves as they come.
    client
        .goto(&format!("{site}/watch/{code}"))
        .await
        .expect("the watching page opens");
    wait_for(&client, "1 watching").await;
    a.wait_for("1 watching").await;

    // The browser links to dora's key: the page shows the command; dora runs it over SSH; the page goes on as
    // dora, with her name and rating at a table.
    client
        .goto(&format!("{site}/"))
        .await
        .expect("the page opens");
    wait_for(&client, "crowned · lobby").await;
    client
        .find(Locator::Id("link"))
        .await
        .expect("the link button")
        .click()
        .await
        .expect("clicked");
    let deadline = Instant::now() + PATIENCE;
    let command = loop {
        let command = text_of(&client, "command").await;
        if !command.is_empty() {
            break command;
        }
        assert!(Instant::now() < deadline, "no command shown");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        command.starts_with(&format!("ssh -p {} ", server.port)),
        "{command}"
    );
    let link = command
        .split(" 127.0.0.1 ")
        .nth(1)
        .expect("the command's words");
    let dora = new_key();
    let (out, err, status) = exec_as(&server, &dora, "dora", link).await;
    assert_eq!(status, Some(0), "{out}{err}");
    wait_for(&client, "crowned · lobby · dora").await;
    assert_eq!(text_of(&client, "who").await, "playing as dora");
    let ann_again = connect(&server, &ann_key, "ann").await;
    let mut b = Terminal::exec(&ann_again, 100, 30, "new english white").await;
    b.wait_for("waiting for an opponent").await;
    let second = code_on(&b.contents());
    type_keys(&client, &format!("c{second}{}", char::from(Key::Enter))).await;
    wait_for(&client, "dora (1500?) · you").await;
    keep_screenshot(&client, "linked-player").await;
    client.close().await.expect("the browser closes");
}
