//! A player's screen over SSH: the frames a game sends (see [`Screen`]) written into the session's channel, one
//! at a time, each within the stall limit; a client that stops taking them is cut off.

use std::sync::Arc;
use std::time::Duration;

use russh::ChannelId;
use russh::server::Handle;
use tokio::sync::mpsc;

use crate::serve::door::{Cut, Screen, ToDoor};

/// Where one channel's frames go, and how long one may wait for the client.
pub struct SshScreen {
    /// The connection.
    pub handle: Handle,
    /// The session channel.
    pub channel: ChannelId,
    /// Cuts the connection off when a frame stalls.
    pub cut: Arc<Cut>,
    /// How long a frame may wait for the client to make room for it (an SSH client that stops reading its
    /// channel stops making room, though it may still answer keepalives). Longer than any real link needs for
    /// a frame; past it the connection is cut off, so that it holds neither a place nor the memory of what it
    /// missed.
    pub stall: Duration,
}

impl SshScreen {
    /// A [`Screen`] whose frames a task of its own writes into the channel until the game closes it, the client
    /// goes, or a frame stalls.
    pub fn open(self) -> Screen {
        let (screen, frames) = Screen::new();
        tokio::spawn(self.write(frames));
        screen
    }

    async fn write(self, mut frames: mpsc::Receiver<ToDoor>) {
        while let Some(out) = frames.recv().await {
            match out {
                ToDoor::Bytes(bytes) => {
                    match tokio::time::timeout(self.stall, self.handle.data(self.channel, bytes))
                        .await
                    {
                        Ok(Ok(())) => {}
                        // The connection has gone.
                        Ok(Err(_)) => return,
                        Err(_) => {
                            tracing::info!(
                                seconds = self.stall.as_secs(),
                                "the client took no frame: connection cut off"
                            );
                            self.cut.make();
                            return;
                        }
                    }
                }
                ToDoor::Close(status) => {
                    let _ = self.handle.exit_status_request(self.channel, status).await;
                    let _ = self.handle.eof(self.channel).await;
                    let _ = self.handle.close(self.channel).await;
                    return;
                }
            }
        }
    }
}
