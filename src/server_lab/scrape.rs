//! Reading a running server's metrics (`crowned serve --metrics ADDR`), as a Prometheus scraper would: one
//! HTTP/1.1 GET of `/metrics`, and the value of one series in the text it answers.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use thiserror::Error;

/// The most a scrape reads: a server's metrics are a few kilobytes.
const MAX_ANSWER: u64 = 1 << 20;

/// Why a scrape failed.
#[derive(Debug, Error)]
pub enum ScrapeError {
    /// The listener could not be reached or read in time.
    #[error("cannot read {0}/metrics: {1}")]
    Io(SocketAddr, std::io::Error),
    /// It answered something other than 200 and a body.
    #[error("{0}/metrics answered {1:?}")]
    Answer(SocketAddr, String),
}

/// A scrape: the text, and how long it took from connecting to the last byte.
#[derive(Clone, Debug)]
pub struct Scraped {
    /// The metrics in Prometheus's text format.
    pub text: String,
    /// The time the scrape took.
    pub took: Duration,
}

impl Scraped {
    /// The value of `series`, written as the text writes it (the name, with its labels in braces if it has
    /// any): `None` when the text has no such series.
    pub fn value(&self, series: &str) -> Option<f64> {
        self.text.lines().find_map(|line| {
            line.strip_prefix(series)?
                .strip_prefix(' ')?
                .trim()
                .parse()
                .ok()
        })
    }
}

/// Reads the metrics at `address` (the operator's listener), waiting at most `patience` for each step.
pub fn scrape(address: SocketAddr, patience: Duration) -> Result<Scraped, ScrapeError> {
    let started = Instant::now();
    let io = |e| ScrapeError::Io(address, e);
    let mut stream = TcpStream::connect_timeout(&address, patience).map_err(io)?;
    stream.set_read_timeout(Some(patience)).map_err(io)?;
    stream.set_write_timeout(Some(patience)).map_err(io)?;
    write!(
        stream,
        "GET /metrics HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(io)?;
    let mut answer = Vec::new();
    stream
        .take(MAX_ANSWER)
        .read_to_end(&mut answer)
        .map_err(io)?;
    let took = started.elapsed();
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .ok_or_else(|| ScrapeError::Answer(address, answer.chars().take(80).collect()))?;
    let status = head.lines().next().unwrap_or_default();
    if !status.starts_with("HTTP/1.1 200") {
        return Err(ScrapeError::Answer(address, status.to_string()));
    }
    Ok(Scraped {
        text: body.to_string(),
        took,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_is_read_by_its_name_and_labels_and_nothing_else() {
        let scraped = Scraped {
            text: "# HELP crowned_moves_total Moves.\n# TYPE crowned_moves_total counter\n\
                   crowned_moves_total 42\ncrowned_moves_total_other 7\n\
                   crowned_sessions{door=\"ssh\"} 3\ncrowned_sessions{door=\"web\"} 0\n"
                .into(),
            took: Duration::ZERO,
        };
        assert_eq!(scraped.value("crowned_moves_total"), Some(42.0));
        assert_eq!(scraped.value(r#"crowned_sessions{door="ssh"}"#), Some(3.0));
        assert_eq!(scraped.value(r#"crowned_sessions{door="web"}"#), Some(0.0));
        assert_eq!(
            scraped.value("crowned_sessions"),
            None,
            "labels are part of the name"
        );
        assert_eq!(scraped.value("crowned_tables"), None);
    }

    #[test]
    fn a_listener_that_is_not_one_is_an_error_not_a_hang() {
        // A port nobody listens on: refused at once.
        let free = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let address = free.local_addr().expect("its address");
        drop(free);
        assert!(matches!(
            scrape(address, Duration::from_secs(2)),
            Err(ScrapeError::Io(..))
        ));
        // A listener that answers something else.
        let server = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let address = server.local_addr().expect("its address");
        let answering = std::thread::spawn(move || {
            let (mut conn, _) = server.accept().expect("a connection");
            // The whole request is read before the answer: a socket closed with bytes unread is reset, and the
            // client would see the reset rather than the answer.
            let mut request = Vec::new();
            let mut chunk = [0u8; 256];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match conn.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&chunk[..n]),
                }
            }
            let _ = conn.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
        });
        assert!(matches!(
            scrape(address, Duration::from_secs(2)),
            Err(ScrapeError::Answer(..))
        ));
        answering.join().expect("the listener thread");
    }
}
