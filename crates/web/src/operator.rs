//! The operator's listener (`crowned serve --metrics ADDR`): `/metrics` in Prometheus's text format, and
//! `/healthz` and `/readyz` as on the web door, for a load balancer, a service manager or a dashboard.
//!
//! A listener of its own rather than paths on the web door: what a server counts is the operator's business, so
//! it is served where the operator chooses (loopback, or a private network), and a server with no web door has
//! its health answered too. It takes a few connections at a time, and a client that sends no request in time
//! is dropped, as on the web door.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crowned_server::serve::door::Shared;
use crowned_server::serve::metrics::Metrics;
use crowned_server::serve::{ConnectionLimits, Server};

use super::{HEADERS_DEADLINE, HEADERS_MAX, ready_answer};

/// The connections served at once: a scraper or two and a load balancer's checks. Others wait to be accepted.
const AT_ONCE: usize = 8;

/// The content type of Prometheus's text format.
const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

struct Operator {
    shared: Arc<Shared>,
    limits: Arc<ConnectionLimits>,
    metrics: Metrics,
}

/// Serves `server`'s metrics and health on `listener` until its shutdown switch is thrown; the address it
/// listens on.
pub fn open_operator(
    server: &Server,
    listener: TcpListener,
    metrics: Metrics,
) -> std::io::Result<SocketAddr> {
    let address = listener.local_addr()?;
    let operator = Arc::new(Operator {
        shared: server.shared(),
        limits: server.limits(),
        metrics,
    });
    let routes =
        Router::new()
            .route("/metrics", get(scrape))
            .route("/healthz", get(|| async { (StatusCode::OK, "alive\n") }))
            .route(
                "/readyz",
                get(|State(operator): State<Arc<Operator>>| async move {
                    ready_answer(&operator.shared)
                }),
            )
            .fallback(|| async { (StatusCode::NOT_FOUND, "/metrics, /healthz or /readyz\n") })
            .with_state(operator);
    tokio::spawn(serve(routes, listener, server.shutdown().watch()));
    Ok(address)
}

/// `/metrics`: rendered on a blocking thread, as it walks every series under the recorder's locks.
async fn scrape(State(operator): State<Arc<Operator>>) -> Response {
    let rendered = tokio::task::spawn_blocking(move || {
        operator.metrics.render(&operator.shared, &operator.limits)
    })
    .await;
    match rendered {
        Ok(text) => ([(header::CONTENT_TYPE, PROMETHEUS_TEXT)], text).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "cannot render the metrics");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "cannot render the metrics\n",
            )
                .into_response()
        }
    }
}

/// Takes connections on `listener`, `AT_ONCE` at most, until `stop`.
async fn serve(
    routes: Router,
    listener: TcpListener,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let places = Arc::new(Semaphore::new(AT_ONCE));
    loop {
        let place = tokio::select! {
            place = Arc::clone(&places).acquire_owned() => match place {
                Ok(place) => place,
                Err(_) => return,
            },
            _ = stop.changed() => return,
        };
        let (socket, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection to the metrics");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stop.changed() => return,
        };
        let service = TowerToHyperService::new(routes.clone());
        tokio::spawn(async move {
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADERS_DEADLINE)
                .max_buf_size(HEADERS_MAX)
                .serve_connection(TokioIo::new(socket), service);
            if let Err(e) = served.await {
                tracing::debug!(peer = %peer, error = %e, "a connection to the metrics ended with an error");
            }
            drop(place);
        });
    }
}
