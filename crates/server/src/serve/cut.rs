//! Ending a connection from outside it: a [`Cut`] shared between the server and the connection's byte stream
//! ([`CutStream`]), which fails every read and write once the cut is made.
//!
//! The SSH layer owns a connection's socket in a task of its own, and its session handle can only ask politely
//! (a disconnect message that waits its turn behind whatever the connection has queued, which is exactly what
//! a client that never reads has filled). Failing the stream underneath ends the connection at once, in every
//! state: before the key exchange, during sign-in, or with a game's frames stuck on a full window.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::sync::futures::OwnedNotified;

/// The switch that ends one connection.
#[derive(Debug, Default)]
pub struct Cut {
    made: AtomicBool,
    notify: Arc<Notify>,
}

impl Cut {
    /// A switch, not yet thrown.
    pub fn new() -> Arc<Cut> {
        Arc::new(Cut::default())
    }

    /// Ends the connection: its stream fails from now on, waking whatever waits on it.
    pub fn make(&self) {
        self.made.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Whether the connection has been cut.
    pub fn is_made(&self) -> bool {
        self.made.load(Ordering::SeqCst)
    }

    fn wait(&self) -> Pin<Box<OwnedNotified>> {
        Box::pin(Arc::clone(&self.notify).notified_owned())
    }
}

/// A byte stream that fails once its [`Cut`] is made.
pub struct CutStream<S> {
    inner: S,
    cut: Arc<Cut>,
    // One waiter for each direction: the two may be polled from different tasks, and a waiter keeps one waker.
    read_wait: Pin<Box<OwnedNotified>>,
    write_wait: Pin<Box<OwnedNotified>>,
}

impl<S> CutStream<S> {
    /// `inner`, ended by `cut`.
    pub fn new(inner: S, cut: Arc<Cut>) -> CutStream<S> {
        // Made before the first poll, the waiters hear a cut made at any time after this.
        let (read_wait, write_wait) = (cut.wait(), cut.wait());
        CutStream {
            inner,
            cut,
            read_wait,
            write_wait,
        }
    }
}

fn cut_off() -> io::Error {
    io::Error::new(
        io::ErrorKind::ConnectionAborted,
        "connection cut by the server",
    )
}

/// `Ready(Err)` once `cut` is made (registering `waiter` to hear of it otherwise).
fn check(cut: &Cut, waiter: &mut Pin<Box<OwnedNotified>>, cx: &mut Context<'_>) -> Poll<io::Error> {
    if cut.is_made() || waiter.as_mut().poll(cx).is_ready() {
        return Poll::Ready(cut_off());
    }
    Poll::Pending
}

impl<S: AsyncRead + Unpin> AsyncRead for CutStream<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Poll::Ready(e) = check(&this.cut, &mut this.read_wait, cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for CutStream<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Poll::Ready(e) = check(&this.cut, &mut this.write_wait, cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Poll::Ready(e) = check(&this.cut, &mut this.write_wait, cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.cut.is_made() {
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_read_waiting_on_a_silent_peer_ends_when_cut() {
        let (ours, _silent_peer) = tokio::io::duplex(64);
        let cut = Cut::new();
        let mut stream = CutStream::new(ours, Arc::clone(&cut));
        let reading = tokio::spawn(async move {
            let mut byte = [0u8; 1];
            stream.read(&mut byte).await
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!reading.is_finished(), "nothing to read yet: it waits");
        cut.make();
        let read = tokio::time::timeout(Duration::from_secs(5), reading)
            .await
            .expect("the cut wakes the reader")
            .expect("no panic");
        assert_eq!(
            read.err().map(|e| e.kind()),
            Some(io::ErrorKind::ConnectionAborted)
        );
    }

    #[tokio::test]
    async fn a_write_stuck_on_a_full_pipe_ends_when_cut() {
        let (ours, _never_reads) = tokio::io::duplex(8);
        let cut = Cut::new();
        let mut stream = CutStream::new(ours, Arc::clone(&cut));
        let writing = tokio::spawn(async move { stream.write_all(&[0u8; 64]).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!writing.is_finished(), "the pipe is full: the write waits");
        cut.make();
        let written = tokio::time::timeout(Duration::from_secs(5), writing)
            .await
            .expect("the cut wakes the writer")
            .expect("no panic");
        assert!(written.is_err());
    }

    #[tokio::test]
    async fn an_uncut_stream_carries_bytes_both_ways() {
        let (ours, mut theirs) = tokio::io::duplex(64);
        let mut stream = CutStream::new(ours, Cut::new());
        stream.write_all(b"ping").await.expect("written");
        let mut got = [0u8; 4];
        theirs.read_exact(&mut got).await.expect("read");
        assert_eq!(&got, b"ping");
        theirs.write_all(b"pong").await.expect("written");
        stream.read_exact(&mut got).await.expect("read");
        assert_eq!(&got, b"pong");
    }
}
