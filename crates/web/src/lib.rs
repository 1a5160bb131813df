//! The web door (`crowned serve --web ADDR`): the same server in a browser.
//!
//! A door of its own above the server (`crowned-server`): it reaches the server only through the seam every door
//! uses ([`crowned_server::serve::door`]), so the compiler holds that nothing in the game core knows HTTP.
//!
//! The page (`page.rs`) is a terminal drawn by xterm.js; its WebSocket (`socket.rs`) carries what the player
//! types and the window's size one way and the frames the other, to a player's connection exactly like an SSH
//! channel's. A browser is a guest, or plays as the SSH key it was linked to (`link.rs`).
//!
//! The door holds the SSH door's limits, from the same settings: every TCP connection takes a stranger's place
//! (per address, with the sign-in deadline) until its WebSocket opens and signs in; headers must come within a
//! few seconds and fit in a small buffer; frames are bounded; a client that stops reading is cut off after the
//! stall limit, and one that says nothing (not even answering pings) is cut off too. Behind a reverse proxy the
//! client's address is taken from `X-Forwarded-For`, from the proxies named in the settings only.

#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod link;
mod operator;
mod page;
mod socket;
mod tls;

pub use operator::open_operator;
pub use tls::{TlsError, load_tls};

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crowned_server::serve::door::{Cut, CutStream, Shared};
use crowned_server::serve::{Admission, ConnectionLimits, Server, metrics};

/// How the web door runs.
#[derive(Clone, Debug)]
pub struct WebSettings {
    /// Where it listens.
    pub listen: SocketAddr,
    /// TLS, when the door speaks it itself (else plain HTTP, for a reverse proxy in front or a trusted network).
    pub tls: Option<Arc<tokio_rustls::rustls::ServerConfig>>,
    /// The reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    pub proxies: Vec<IpAddr>,
}

/// How long a client has to send a request's headers, from the connection or the last request.
const HEADERS_DEADLINE: Duration = Duration::from_secs(10);
/// How long a TLS handshake may take.
const HANDSHAKE_DEADLINE: Duration = Duration::from_secs(10);
/// The most a request's headers may take, in bytes (hyper's smallest buffer is 8 KiB).
const HEADERS_MAX: usize = 16 * 1024;

/// What every request of the door shares.
pub(crate) struct Door {
    shared: Arc<Shared>,
    limits: Arc<ConnectionLimits>,
    settings: WebSettings,
    /// The SSH door's port, for the commands the page shows (`ssh -p 2222 host link CODE`).
    ssh_port: u16,
}

/// One TCP connection to the door, as each of its requests sees it.
#[derive(Clone)]
struct Conn {
    peer: SocketAddr,
    /// Its stranger's place (none for a connection from a trusted proxy, whose clients take theirs as their
    /// WebSockets open); taken by the WebSocket that upgrades it.
    admission: Arc<Mutex<Option<Admission>>>,
}

impl Conn {
    fn take_admission(&self) -> Option<Admission> {
        self.admission
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// Who sent a request: the client's address (through a trusted proxy, the one it forwarded) and whether the
/// browser reached the server over TLS.
#[derive(Clone, Debug)]
pub(crate) struct Caller {
    client: IpAddr,
    secure: bool,
}

impl FromRequestParts<Arc<Door>> for Caller {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        door: &Arc<Door>,
    ) -> Result<Caller, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<Conn>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.peer.ip());
        Ok(door.caller(peer, &parts.headers))
    }
}

impl Door {
    /// The caller of a request that came from `peer` with `headers`.
    fn caller(&self, peer: IpAddr, headers: &HeaderMap) -> Caller {
        let tls = self.settings.tls.is_some();
        if !self.trusts(peer) {
            return Caller {
                client: peer.to_canonical(),
                secure: tls,
            };
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        Caller {
            client: client_behind(peer, &forwarded, |ip| self.trusts(ip)),
            secure: tls
                || headers
                    .get("x-forwarded-proto")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("https")),
        }
    }

    fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.settings
            .proxies
            .iter()
            .any(|p| p.to_canonical() == address)
    }

    /// Whether a request that changes something (a WebSocket, a code, forgetting a link) comes from this
    /// server's own page: its `Origin` must name the host the request was sent to. Another site's page cannot
    /// open a player's session or link their browser.
    fn same_origin(&self, headers: &HeaderMap, caller: &Caller) -> Result<(), &'static str> {
        let origin = headers
            .get(header::ORIGIN)
            .and_then(|v| v.to_str().ok())
            .ok_or("no Origin: only this server's page may ask this")?;
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .ok_or("no Host")?;
        let (scheme, origin_host) = origin.split_once("://").ok_or("a malformed Origin")?;
        let scheme_fits = match scheme {
            "https" => true,
            "http" => !caller.secure,
            _ => false,
        };
        if scheme_fits && origin_host.eq_ignore_ascii_case(host) {
            Ok(())
        } else {
            Err("another site's page may not ask this")
        }
    }

    /// The host the browser reached the server by, as a command may name it: from the `Host` header when it
    /// is a plain host name or address, else the address the door listens on.
    fn host(&self, headers: &HeaderMap) -> String {
        let named = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .map(host_without_port)
            .filter(|h| {
                !h.is_empty()
                    && h.len() <= 253
                    && h.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':'))
            });
        named.map_or_else(
            || self.settings.listen.ip().to_canonical().to_string(),
            str::to_string,
        )
    }

    /// `ssh -p 2222 host`: how the browser's player reaches the SSH door (no `-p` for SSH's own port), with
    /// `-t` when the command is for a `terminal` (a game).
    fn ssh_command(&self, headers: &HeaderMap, terminal: bool) -> String {
        let host = self.host(headers);
        let t = if terminal { "-t " } else { "" };
        match self.ssh_port {
            22 => format!("ssh {t}{host}"),
            port => format!("ssh {t}-p {port} {host}"),
        }
    }
}

/// `example.org:8080` → `example.org`; `[::1]:8080` → `::1`.
fn host_without_port(host: &str) -> &str {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default();
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// The client behind a chain of proxies: reading `X-Forwarded-For` from the right (each proxy appends the
/// address it was reached from), the first address not of a trusted proxy. Anything to its left was written by
/// the client and is not believed; without a usable address the proxy's own stands.
fn client_behind(peer: IpAddr, forwarded: &[&str], trusted: impl Fn(IpAddr) -> bool) -> IpAddr {
    for entry in forwarded.iter().rev() {
        let Ok(address) = entry.parse::<IpAddr>() else {
            return peer.to_canonical();
        };
        if !trusted(address) {
            return address.to_canonical();
        }
    }
    peer.to_canonical()
}

/// The door's routes.
fn router(door: Arc<Door>) -> Router {
    Router::new()
        .route("/", get(|| async { page::page() }))
        .route("/tv", get(|| async { page::page() }))
        .route(
            "/watch/{code}",
            get(|Path(code): Path<String>| async move {
                match crowned_server::serve::codes::read_code(&code) {
                    Some(_) => page::page(),
                    None => page::not_found(),
                }
            }),
        )
        .route(
            "/assets/{name}",
            get(|Path(name): Path<String>, headers: HeaderMap| async move {
                page::file(&name, &headers)
            }),
        )
        .route("/ws", get(socket::upgrade))
        // For a load balancer or a service manager: alive, and taking players.
        .route("/healthz", get(|| async { (StatusCode::OK, "alive\n") }))
        .route("/readyz", get(ready))
        .route(
            "/link",
            get(link::status).post(link::offer).delete(link::forget),
        )
        .fallback(|| async { page::not_found() })
        .layer(axum::middleware::map_response(guarded))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&door),
            logged,
        ))
        .with_state(door)
}

/// `/readyz` on the web door.
async fn ready(axum::extract::State(door): axum::extract::State<Arc<Door>>) -> Response {
    ready_answer(&door.shared)
}

/// `/readyz`: 200 while the server takes players, 503 with the reason while it does not.
fn ready_answer(shared: &Shared) -> Response {
    match shared.readiness() {
        Ok(()) => (StatusCode::OK, "ready\n").into_response(),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: {why}\n"),
        )
            .into_response(),
    }
}

/// One log line a request, at info: the client (through a trusted proxy, the address it forwarded), the method,
/// the path without its query, the status and the time taken. Never a header: the cookie holds a browser's
/// token. A WebSocket is logged as its upgrade is answered (the session's own lines follow it).
async fn logged(
    caller: Caller,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    // Paths are the server's own (`/watch/K7QX`, `/assets/...`); a client's longer ones are cut, and what
    // they hold is logged only as printable text.
    let path = crowned_server::serve::text::clean_line(request.uri().path(), 80);
    let response = next.run(request).await;
    tracing::info!(
        client = %caller.client,
        %method,
        %path,
        status = response.status().as_u16(),
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "web request"
    );
    response
}

async fn guarded(mut response: Response) -> Response {
    page::guard(response.headers_mut());
    response
}

/// Opens the web door of `server` on `listener` beside its SSH door, whose address is `ssh` (the port the page's
/// commands name); it serves until the server's shutdown switch is thrown.
pub fn open(server: &Server, listener: TcpListener, settings: WebSettings, ssh: SocketAddr) {
    let door = Arc::new(Door {
        shared: server.shared(),
        limits: server.limits(),
        settings,
        ssh_port: ssh.port(),
    });
    tokio::task::spawn_blocking(page::pack_all);
    tokio::spawn(serve(door, listener, server.shutdown().watch()));
}

/// Takes connections on `listener` until `stop`.
async fn serve(door: Arc<Door>, listener: TcpListener, mut stop: watch::Receiver<bool>) {
    let routes = router(Arc::clone(&door));
    loop {
        let (socket, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a web connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stop.changed() => return,
        };
        // A trusted proxy carries many clients on its connections: each takes its place as its WebSocket opens.
        let admission = match door.trusts(peer.ip()) {
            true => None,
            false => match door.limits.admit(peer.ip()) {
                Ok(admission) => Some(admission),
                Err(refusal) => {
                    tracing::warn!(peer = %peer, ?refusal, "web connection refused");
                    metrics::refused(metrics::Door::Web, metrics::Refused::Limits(refusal));
                    continue;
                }
            },
        };
        let cut = admission.as_ref().map_or_else(Cut::new, Admission::cut);
        if let Some(admission) = &admission {
            tokio::spawn(admission.deadline());
        }
        let _ = socket.set_nodelay(true);
        let socket = CutStream::new(socket, cut);
        let conn = Conn {
            peer,
            admission: Arc::new(Mutex::new(admission)),
        };
        let routes = routes.clone();
        let tls = door.settings.tls.clone();
        tokio::spawn(async move {
            match tls {
                Some(tls) => {
                    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
                    match tokio::time::timeout(HANDSHAKE_DEADLINE, acceptor.accept(socket)).await {
                        Ok(Ok(stream)) => http(routes, stream, conn).await,
                        Ok(Err(e)) => {
                            tracing::debug!(peer = %peer, error = %e, "TLS handshake failed")
                        }
                        Err(_) => tracing::debug!(peer = %peer, "TLS handshake too slow: dropped"),
                    }
                }
                None => http(routes, socket, conn).await,
            }
        });
    }
}

/// Serves HTTP/1.1 on one connection, WebSocket upgrades included.
async fn http<S>(routes: Router, stream: S, conn: Conn)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let peer = conn.peer;
    let service = TowerToHyperService::new(routes.layer(axum::Extension(conn)));
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADERS_DEADLINE)
        .max_buf_size(HEADERS_MAX)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    if let Err(e) = served.await {
        tracing::debug!(peer = %peer, error = %e, "web connection ended with an error");
    }
}

/// A plain answer with `status`.
fn plain(status: StatusCode, text: &'static str) -> Response {
    (status, text).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_behind_proxies_is_the_rightmost_address_no_proxy_wrote() {
        let proxy: IpAddr = "10.0.0.1".parse().expect("ip");
        let trusted = |ip: IpAddr| ip == proxy;
        // The client forged the first entry; the proxy appended the real one.
        assert_eq!(
            client_behind(proxy, &["1.2.3.4", "198.51.100.7"], trusted),
            "198.51.100.7".parse::<IpAddr>().expect("ip")
        );
        // Two proxies of ours in a row.
        assert_eq!(
            client_behind(proxy, &["198.51.100.7", "10.0.0.1"], trusted),
            "198.51.100.7".parse::<IpAddr>().expect("ip")
        );
        // Nothing usable: the proxy's own address.
        assert_eq!(client_behind(proxy, &[], trusted), proxy);
        assert_eq!(client_behind(proxy, &["not an address"], trusted), proxy);
    }

    #[test]
    fn hosts_lose_their_port() {
        assert_eq!(host_without_port("example.org:8080"), "example.org");
        assert_eq!(host_without_port("example.org"), "example.org");
        assert_eq!(host_without_port("[::1]:8080"), "::1");
        assert_eq!(host_without_port("127.0.0.1:80"), "127.0.0.1");
    }
}
