//! A browser's side of the web door without a browser: the page's WebSocket spoken by a real WebSocket client
//! (tokio-tungstenite), its screen read through a terminal emulator (vt100), and the page's HTTP calls made by
//! hand. The tests in a real browser are in `serve_web_browser.rs`.

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::ssh::{PATIENCE, Server, nz};

/// The web door's address, `http://127.0.0.1:PORT`.
pub fn origin(server: &Server) -> String {
    format!(
        "http://127.0.0.1:{}",
        server.web.expect("a server with a web door")
    )
}

/// A browser's terminal on the web door.
pub struct WebTerminal {
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub screen: vt100::Parser,
    pub closed: bool,
    /// Bytes of frames received.
    pub received: usize,
}

/// What opening a socket came to: a terminal, or the HTTP status it was refused with.
pub async fn try_open(
    server: &Server,
    query: &str,
    origin_header: Option<&str>,
    cookie: Option<&str>,
) -> Result<WebSocketStream<MaybeTlsStream<TcpStream>>, tungstenite::Error> {
    let port = server.web.expect("a web door");
    let mut request = format!("ws://127.0.0.1:{port}/ws?{query}")
        .into_client_request()
        .expect("a request");
    if let Some(origin) = origin_header {
        request
            .headers_mut()
            .insert("origin", HeaderValue::from_str(origin).expect("ascii"));
    }
    if let Some(cookie) = cookie {
        request
            .headers_mut()
            .insert("cookie", HeaderValue::from_str(cookie).expect("ascii"));
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
}

impl WebTerminal {
    /// The page's terminal, `cols` x `rows`, asking for `query` (`watch=K7QX`, `tv=1` or nothing), with the
    /// browser's `cookie` if it has one.
    pub async fn open(
        server: &Server,
        query: &str,
        cookie: Option<&str>,
        cols: u16,
        rows: u16,
    ) -> WebTerminal {
        let query = match query {
            "" => format!("cols={cols}&rows={rows}"),
            q => format!("{q}&cols={cols}&rows={rows}"),
        };
        let socket = try_open(server, &query, Some(&origin(server)), cookie)
            .await
            .expect("the socket opens");
        WebTerminal::on(socket, cols, rows)
    }

    /// A terminal of `cols` x `rows` on a socket already open.
    pub fn on(
        socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
        cols: u16,
        rows: u16,
    ) -> WebTerminal {
        WebTerminal {
            socket,
            screen: vt100::Parser::new(nz(rows), nz(cols), 0),
            closed: false,
            received: 0,
        }
    }

    pub fn contents(&self) -> String {
        self.screen.screen().contents()
    }

    /// Reads frames until `done` holds of the screen; fails the test after [`PATIENCE`].
    pub async fn until(&mut self, what: &str, done: impl Fn(&WebTerminal) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match timeout(left, self.socket.next()).await {
                Ok(Some(Ok(Message::Binary(bytes)))) => {
                    self.received += bytes.len();
                    self.screen.process(&bytes);
                }
                Ok(Some(Ok(Message::Close(_)))) | Ok(Some(Err(_))) | Ok(None) => {
                    self.closed = true;
                    if !done(self) {
                        panic!("the socket closed before {what}:\n{}", self.contents());
                    }
                }
                Ok(Some(Ok(_))) => {}
                Err(_) => panic!("no {what} after {PATIENCE:?}:\n{}", self.contents()),
            }
        }
    }

    pub async fn wait_for(&mut self, text: &str) {
        self.until(text, |t| t.contents().contains(text)).await;
    }

    /// Takes in whatever has come already, without waiting.
    pub async fn drain(&mut self) {
        while let Ok(Some(message)) = timeout(std::time::Duration::ZERO, self.socket.next()).await {
            match message {
                Ok(Message::Binary(bytes)) => {
                    self.received += bytes.len();
                    self.screen.process(&bytes);
                }
                Ok(Message::Close(_)) | Err(_) => self.closed = true,
                Ok(_) => {}
            }
        }
    }

    /// Types `bytes`, as the page sends what xterm.js gives it.
    pub async fn send(&mut self, bytes: &[u8]) {
        self.socket
            .send(Message::Binary(bytes.to_vec().into()))
            .await
            .expect("sent");
    }

    /// The window changes size, as the page says it.
    pub async fn resize(&mut self, cols: u16, rows: u16) {
        self.socket
            .send(Message::Text(
                format!("{{\"cols\":{cols},\"rows\":{rows}}}").into(),
            ))
            .await
            .expect("sent");
        self.screen.screen_mut().set_size(nz(rows), nz(cols));
    }

    pub async fn wait_closed(&mut self) {
        self.until("the socket's end", |t| t.closed).await;
    }
}

/// One HTTP/1.1 request to the web door, by hand: the status, the headers (lower-case names) and the body.
pub async fn http(
    server: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, String) {
    http_to(server.web.expect("a web door"), method, path, headers).await
}

/// [`http`] to the port `port` on loopback.
pub async fn http_to(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connects");
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: 0\r\n"
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = Vec::new();
    timeout(PATIENCE, stream.read_to_end(&mut answer))
        .await
        .expect("an answer in time")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

/// The value of header `name` in `headers`.
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Asks the door for a link code as the page does: the code, the command shown, and the browser's cookie.
pub async fn ask_for_code(server: &Server) -> (String, String, String) {
    let origin = origin(server);
    let (status, headers, body) = http(server, "POST", "/link", &[("Origin", &origin)]).await;
    assert_eq!(status, 200, "{body}");
    let offer: serde_json::Value = serde_json::from_str(&body).expect("json");
    let cookie = header(&headers, "set-cookie")
        .and_then(|c| c.split(';').next())
        .expect("a cookie")
        .to_string();
    (
        offer["code"].as_str().expect("a code").to_string(),
        offer["command"].as_str().expect("a command").to_string(),
        cookie,
    )
}

/// Whom the door takes the browser with `cookie` for: `Some(name)` when it is linked.
pub async fn linked_as(server: &Server, cookie: &str) -> Option<String> {
    let (status, _, body) = http(server, "GET", "/link", &[("Cookie", cookie)]).await;
    assert_eq!(status, 200, "{body}");
    let me: serde_json::Value = serde_json::from_str(&body).expect("json");
    me["linked"]
        .as_bool()
        .expect("linked")
        .then(|| me["name"].as_str().expect("a name").to_string())
}

/// The value of the series `series` (its name and labels, as written) on the server's `/metrics`.
pub async fn metric(server: &Server, series: &str) -> Option<f64> {
    let port = server.metrics.expect("an operator's listener");
    let (status, headers, text) = http_to(port, "GET", "/metrics", &[]).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// Waits up to five seconds for `series` to read `wanted`.
pub async fn metric_reaches(server: &Server, series: &str, wanted: f64) {
    let mut seen = None;
    for _ in 0..50 {
        seen = metric(server, series).await;
        if seen == Some(wanted) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{series} is {seen:?}, not {wanted}");
}
