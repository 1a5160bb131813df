//! The web door in a real browser: Debian's chromium, headless, driven over the DevTools protocol
//! ([`Browser`]) against the real binary, with players on SSH beside it. The page's terminal is read from the
//! rows xterm.js draws in the page; screenshots are kept in `target/web-screenshots/` for a person to look at.

use std::path::PathBuf;
use std::time::Duration;

use tokio::time::Instant;

use crate::doors::browser::Browser;
use crate::doors::ssh::{PATIENCE, Server, Terminal, code_on, connect, exec_as, new_key};
use crate::doors::web::origin;

/// The terminal's rows and columns, as the page fitted them to the window.
async fn size(browser: &mut Browser) -> (u64, u64) {
    let answer = browser
        .eval(
            "(() => { const rows = document.querySelectorAll('.xterm-rows > div'); \
             return [rows.length, rows.length ? rows[0].innerText.length : 0]; })()",
        )
        .await;
    let pair = answer.as_array().cloned().unwrap_or_default();
    let n = |i: usize| pair.get(i).and_then(serde_json::Value::as_u64).unwrap_or(0);
    (n(0), n(1))
}

/// Where the board shows square number `square` on `screen`: its row and column (the number sits at the top
/// left of its square).
fn cell_of(screen: &str, square: &str) -> (usize, usize) {
    screen
        .lines()
        .enumerate()
        .find_map(|(row, line)| {
            let chars: Vec<char> = line.chars().collect();
            let wanted: Vec<char> = square.chars().collect();
            (0..chars.len().saturating_sub(wanted.len())).find_map(|col| {
                let here = chars[col..col + wanted.len()] == wanted[..];
                let alone = (col == 0 || !chars[col - 1].is_ascii_digit())
                    && !chars
                        .get(col + wanted.len())
                        .is_some_and(char::is_ascii_digit);
                (here && alone).then_some((row, col))
            })
        })
        .unwrap_or_else(|| panic!("no square {square} on the board:\n{screen}"))
}

/// Keeps a screenshot of the page as `name`.png for a person to look at; its path.
async fn keep_screenshot(browser: &mut Browser, name: &str) -> PathBuf {
    let png = browser.screenshot().await;
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
    let mut client = Browser::start(&profile, 1200, 800).await;
    let site = origin(&server);

    // Ann waits at a table with clocks, from SSH.
    let ann_key = new_key();
    let ann = connect(&server, &ann_key, "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english black 5+3").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());

    // A guest opens the page and sits at her table: timed from opening the address to the seat.
    let opened = Instant::now();
    client.goto(&format!("{site}/")).await;
    client.wait_for("crowned · lobby · guest").await;
    let lobby_after = opened.elapsed();
    client.type_keys(&format!("c{code}\r")).await;
    client.wait_for("· you").await;
    let seated_after = opened.elapsed();
    println!("browser: lobby after {lobby_after:?}, seated at the table after {seated_after:?}");
    a.wait_for("move 1, Black to play: your move").await;

    // Moves cross both ways, and both clocks tick.
    a.send(b"11-15\r").await;
    client.wait_for("1. 11-15").await;
    client.type_keys("23-19\r").await;
    a.wait_for("23-19").await;
    client.wait_for("23-19").await;
    // Each side has moved: White's clock runs now, down from 5:00 on both screens.
    a.send(b"8-11\r").await;
    client.wait_for("8-11").await;
    client.wait_for("4:5").await;
    a.wait_for("4:5").await;
    // A move by the mouse: the piece on 22, then square 18 (each found by its number on the board).
    for square in ["22", "18"] {
        let (row, col) = cell_of(&client.screen().await, square);
        client.click_cell(row + 1, col + 1).await;
    }
    a.wait_for("22-18").await;
    client.wait_for("22-18").await;
    let shot = keep_screenshot(&mut client, "guest-at-a-table").await;
    println!("browser: screenshot kept at {}", shot.display());

    // The window shrinks: the page fits the terminal to it and the server draws at the new size.
    let (rows, cols) = size(&mut client).await;
    client.resize(900, 600).await;
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (now_rows, now_cols) = size(&mut client).await;
        if now_rows < rows && now_cols < cols && client.screen().await.contains("23-19") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not redrawn smaller: {rows}x{cols} -> {now_rows}x{now_cols}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    keep_screenshot(&mut client, "guest-resized").await;

    // A watcher by link, in the same browser: the table read-only, the moves as they come.
    client.goto(&format!("{site}/watch/{code}")).await;
    client.wait_for("1 watching").await;
    a.wait_for("1 watching").await;

    // The browser links to dora's key: the page shows the command; dora runs it over SSH; the page goes on as
    // dora, with her name and rating at a table.
    client.goto(&format!("{site}/")).await;
    client.wait_for("crowned · lobby").await;
    client.click("link").await;
    let deadline = Instant::now() + PATIENCE;
    let command = loop {
        let command = client.text_of("command").await;
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
    client.wait_for("crowned · lobby · dora").await;
    assert_eq!(client.text_of("who").await, "playing as dora");
    let ann_again = connect(&server, &ann_key, "ann").await;
    let mut b = Terminal::exec(&ann_again, 100, 30, "new english white").await;
    b.wait_for("waiting for an opponent").await;
    let second = code_on(&b.contents());
    client.type_keys(&format!("c{second}\r")).await;
    client.wait_for("dora (1500?) · you").await;
    keep_screenshot(&mut client, "linked-player").await;
}
