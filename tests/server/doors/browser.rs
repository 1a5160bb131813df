//! A real browser for the web door's tests: Debian's chromium, headless, driven over the DevTools protocol (its
//! own WebSocket, spoken with tokio-tungstenite, which the door's tests build already). A WebDriver client crate
//! was tried first and dropped: it brought 73 crates (two generations of ICU among them) into every test build
//! for the six commands these tests send.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::ssh::PATIENCE;

/// A headless chromium with one page, stopped when dropped.
pub struct Browser {
    child: Child,
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
}

impl Browser {
    /// Starts chromium with a profile of its own in `profile`, a page of `width` x `height`, and none of its
    /// calls home (the machine reaches nothing but loopback).
    pub async fn start(profile: &Path, width: u32, height: u32) -> Browser {
        let mut child = Command::new("chromium")
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
                "--disable-extensions",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
                &format!("--user-data-dir={}", profile.display()),
                "about:blank",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts (Debian: apt-get install chromium)");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"
        let stderr = child.stderr.take().expect("stderr");
        let address = tokio::task::spawn_blocking(move || {
            let mut lines = BufReader::new(stderr).lines();
            let address = lines.by_ref().map_while(Result::ok).find_map(|line| {
                line.split("DevTools listening on ")
                    .nth(1)
                    .map(str::to_string)
            });
            // The rest is read and dropped, so that chromium never blocks on a full pipe.
            std::thread::spawn(move || lines.for_each(drop));
            address
        })
        .await
        .expect("read")
        .expect("chromium says where its DevTools listen");
        let (socket, _) = tokio_tungstenite::connect_async(address.trim())
            .await
            .expect("the DevTools socket opens");
        let mut browser = Browser {
            child,
            socket,
            session: String::new(),
            next_id: 0,
        };
        let targets = browser.call("Target.getTargets", json!({}), false).await;
        let page = targets["targetInfos"]
            .as_array()
            .and_then(|t| t.iter().find(|t| t["type"] == "page"))
            .and_then(|t| t["targetId"].as_str())
            .expect("a page")
            .to_string();
        let attached = browser
            .call(
                "Target.attachToTarget",
                json!({"targetId": page, "flatten": true}),
                false,
            )
            .await;
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        browser.send("Page.enable", json!({})).await;
        browser
    }

    /// Sends `method` with `params` (to the page when `to_page`) and waits for its answer, skipping the
    /// events that come meanwhile.
    async fn call(&mut self, method: &str, params: Value, to_page: bool) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if to_page {
            message["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::Text(message.to_string().into()))
            .await
            .expect("sent to chromium");
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(Some(Ok(Message::Text(text)))) = timeout(left, self.socket.next()).await else {
                panic!("no answer to {method} from chromium");
            };
            let answer: Value = serde_json::from_str(text.as_str()).expect("JSON from chromium");
            if answer["id"] == id {
                assert!(answer["error"].is_null(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// [`Browser::call`] on the page.
    pub async fn send(&mut self, method: &str, params: Value) -> Value {
        self.call(method, params, true).await
    }

    /// Opens `url` in the page.
    pub async fn goto(&mut self, url: &str) {
        self.send("Page.navigate", json!({"url": url})).await;
    }

    /// The value of `expression`, run in the page.
    pub async fn eval(&mut self, expression: &str) -> Value {
        let answer = self
            .send(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await;
        answer["result"]["value"].clone()
    }

    /// What the page's terminal shows: xterm.js's rows, as text.
    pub async fn screen(&mut self) -> String {
        let text = self
            .eval("(() => { const r = document.querySelector('.xterm-rows'); return r ? r.innerText : ''; })()")
            .await;
        text.as_str().unwrap_or_default().replace('\u{a0}', " ")
    }

    /// The text of the page's element `id` (outside the terminal).
    pub async fn text_of(&mut self, id: &str) -> String {
        let text = self
            .eval(&format!("(() => {{ const e = document.getElementById('{id}'); return e ? e.textContent : ''; }})()"))
            .await;
        text.as_str().unwrap_or_default().to_string()
    }

    /// Waits until the page's terminal shows `text`.
    pub async fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let shown = self.screen().await;
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

    /// Types `text` into the page's terminal, as a player at the keyboard (`\r` is the Enter key).
    pub async fn type_keys(&mut self, text: &str) {
        for (i, part) in text.split('\r').enumerate() {
            if i > 0 {
                for kind in ["keyDown", "keyUp"] {
                    let mut key = json!({"type": kind, "key": "Enter", "code": "Enter",
                        "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13});
                    if kind == "keyDown" {
                        key["text"] = json!("\r");
                    }
                    self.send("Input.dispatchKeyEvent", key).await;
                }
            }
            for c in part.chars() {
                self.send(
                    "Input.dispatchKeyEvent",
                    json!({"type": "keyDown", "key": c.to_string(), "text": c.to_string()}),
                )
                .await;
                self.send(
                    "Input.dispatchKeyEvent",
                    json!({"type": "keyUp", "key": c.to_string()}),
                )
                .await;
            }
        }
    }

    /// Clicks the terminal's cell at `row`, `col` (from 0), as a player's mouse or finger would.
    pub async fn click_cell(&mut self, row: usize, col: usize) {
        let at = self
            .eval(&format!(
                "(() => {{ const s = document.querySelector('.xterm-screen').getBoundingClientRect(); \
                 const rows = document.querySelectorAll('.xterm-rows > div').length; \
                 const cols = document.querySelector('.xterm-rows > div').innerText.length; \
                 return [s.left + (s.width / cols) * ({col} + 0.5), s.top + (s.height / rows) * ({row} + 0.5)]; }})()"
            ))
            .await;
        let (x, y) = (at[0].as_f64().expect("x"), at[1].as_f64().expect("y"));
        for kind in ["mousePressed", "mouseReleased"] {
            self.send(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .await;
        }
    }

    /// Clicks the page's element `id`.
    pub async fn click(&mut self, id: &str) {
        self.eval(&format!("document.getElementById('{id}').click()"))
            .await;
    }

    /// The page is now `width` x `height`, as if its window had changed size.
    pub async fn resize(&mut self, width: u32, height: u32) {
        self.send(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await;
    }

    /// A screenshot of the page, as PNG.
    pub async fn screenshot(&mut self) -> Vec<u8> {
        use base64ct::{Base64, Encoding};
        let shot = self
            .send("Page.captureScreenshot", json!({"format": "png"}))
            .await;
        Base64::decode_vec(shot["data"].as_str().expect("data")).expect("base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
