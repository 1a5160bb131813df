//! The commands a connection may run instead of a shell: `new`, `join CODE` and `watch CODE` (a game at a
//! table, in the terminal the command asked for), `games` (the player's games as PDN), `blocks` and
//! `unblock NAME` (whom the player has blocked), and `link CODE` and `links` (the browsers linked to the key).

use russh::ChannelId;
use russh::server::Session as SshSession;

use super::{Connection, refuse};
use crate::SshError;
use crate::serve::door::Start;
use crate::serve::text::clean_line;
use crate::serve::{Identity, seating};

impl Connection {
    /// `new`, `join CODE`, `watch CODE` (the client's `command`): a game at a table on `channel`, or the reason
    /// why not.
    pub(super) async fn exec_table(
        &mut self,
        channel: ChannelId,
        session: &mut SshSession,
        command: &str,
        ask: Result<seating::TableAsk, seating::AskError>,
    ) -> Result<(), SshError> {
        if self.channel != Some(channel) || self.game.is_some() {
            return refuse(channel, session, "crowned: one game per connection.\r\n");
        }
        let (Some(identity), Some(size)) = (self.identity.clone(), self.pty) else {
            self.channel = None;
            return refuse(channel, session, &self.no_terminal(Some(command.trim())));
        };
        let seated = match ask {
            Ok(ask) => seating::take(&self.shared, &identity, ask)
                .await
                .map_err(|why| why.to_string()),
            Err(why) => Err(why.to_string()),
        };
        match seated {
            Ok(seated) => {
                self.spawn_player(channel, size, session, Start::Table(Box::new(seated)));
                Ok(())
            }
            Err(why) => {
                self.channel = None;
                refuse(channel, session, &format!("crowned: {why}.\r\n"))
            }
        }
    }

    /// `ssh host games`: the player's saved and finished games as PDN on the channel (so that `ssh -p 2222 host games
    /// > mine.pdn` keeps them), read on a blocking thread; the channel then closes with status 0.
    pub(super) fn send_games(
        &self,
        identity: Identity,
        channel: ChannelId,
        session: &mut SshSession,
    ) {
        let store = self.shared.store_of(&identity);
        let shared = std::sync::Arc::clone(&self.shared);
        let handle = session.handle();
        tokio::spawn(async move {
            // The games filed on the other nodes too.
            shared.pull_folder(&identity).await;
            // The saved games hold the games against people too: each is filed there as it ends.
            let text = tokio::task::spawn_blocking(move || store.saved_games_pdn()).await;
            // The games on stdout, anything to say about them on stderr (so that `> mine.pdn` is all PDN).
            let (text, note) = match text {
                Ok(Ok((text, 0))) => (Some(text), None),
                Ok(Ok((text, left_out))) => (
                    Some(text),
                    Some(format!(
                        "{left_out} more games were left out: too much at once"
                    )),
                ),
                Ok(Err(e)) => (None, Some(format!("cannot read your games: {e}"))),
                Err(e) => (None, Some(format!("cannot read your games: {e}"))),
            };
            finish_exec(&handle, channel, text, note).await;
        });
    }

    /// `ssh host blocks`: the players this one has blocked, a name a line; `ssh host unblock NAME` lets the one
    /// of that name back (every one of that name, as names are not unique).
    pub(super) fn send_blocks(
        &self,
        identity: Identity,
        unblock: Option<String>,
        channel: ChannelId,
        session: &mut SshSession,
    ) {
        let shared = std::sync::Arc::clone(&self.shared);
        let handle = session.handle();
        tokio::spawn(async move {
            let me = identity.fingerprint.clone();
            let answer = shared
                .read_records(move |records| {
                    let blocked = records.blocks_of(&me)?;
                    let Some(name) = unblock else {
                        return Ok(Ok(blocked
                            .iter()
                            .map(|b| format!("{}\r\n", b.name))
                            .collect::<String>()));
                    };
                    let theirs: Vec<_> = blocked.iter().filter(|b| b.name == name).collect();
                    if theirs.is_empty() {
                        return Ok(Err(format!(
                            "you have not blocked anyone named {} (`blocks` lists whom you have)",
                            clean_line(&name, 40)
                        )));
                    }
                    for b in &theirs {
                        records.set_block(&me, &b.key, &b.name, false)?;
                    }
                    Ok(Ok(format!("{name} is no longer blocked\r\n")))
                })
                .await;
            finish_answer(&handle, channel, answer).await;
        });
    }
}

impl Connection {
    /// `ssh host link CODE`: the browser that shows `CODE` plays as this key from now on.
    pub(super) fn send_link(
        &self,
        identity: Identity,
        code: &str,
        channel: ChannelId,
        session: &mut SshSession,
    ) {
        let shared = std::sync::Arc::clone(&self.shared);
        let handle = session.handle();
        let code = crate::serve::browser_links::read_code(code);
        tokio::spawn(async move {
            let Some(code) = code else {
                let note = "a link code is eight letters and digits, as the web page shows it: `link K7QX-M2PA`";
                finish_exec(&handle, channel, None, Some(note.to_string())).await;
                return;
            };
            let (player, name) = (identity.fingerprint.clone(), identity.name.clone());
            let proof = shared
                .read_records(move |records| records.prove_link(&code, &player, &name, unix_now()))
                .await;
            if matches!(proof, Some(crate::serve::records::links::Proof::Linked)) {
                tracing::info!(player = %identity.fingerprint, "a browser was linked");
            }
            let (text, note) = match crate::serve::browser_links::prove_text(proof) {
                Ok(text) => (Some(text), None),
                Err(why) => (None, Some(why)),
            };
            finish_exec(&handle, channel, text, note).await;
        });
    }

    /// `ssh host links`: the player's linked browsers; `links revoke N` unlinks one.
    pub(super) fn send_links(
        &self,
        identity: Identity,
        rest: &str,
        channel: ChannelId,
        session: &mut SshSession,
    ) {
        let shared = std::sync::Arc::clone(&self.shared);
        let handle = session.handle();
        let revoke = match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [] => Ok(None),
            ["revoke", n] => n.parse::<usize>().map(Some).map_err(|_| ()),
            _ => Err(()),
        };
        tokio::spawn(async move {
            let Ok(revoke) = revoke else {
                let note = "`links` lists your linked browsers; `links revoke N` unlinks browser N";
                finish_exec(&handle, channel, None, Some(note.to_string())).await;
                return;
            };
            let player = identity.fingerprint.clone();
            let answer = shared
                .read_records(move |records| {
                    crate::serve::browser_links::links_text(records, &player, revoke)
                })
                .await;
            finish_answer(&handle, channel, answer).await;
        });
    }
}

/// Seconds since the epoch.
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Ends a command's channel: `text` on its standard output, `note` (if any) as a line on its standard error, then
/// its status (0 when there is text, else 1), the end of its output, and the channel closed.
/// Ends a command answered from the records: its text on the channel (status 0), or why not on stderr (status
/// 1), `None` being records that cannot be read now.
async fn finish_answer(
    handle: &russh::server::Handle,
    channel: ChannelId,
    answer: Option<Result<String, String>>,
) {
    let (text, note) = match answer {
        Some(Ok(text)) => (Some(text), None),
        Some(Err(why)) => (None, Some(why)),
        None => (None, Some("the records cannot be read now".to_string())),
    };
    finish_exec(handle, channel, text, note).await;
}

pub(super) async fn finish_exec(
    handle: &russh::server::Handle,
    channel: ChannelId,
    text: Option<String>,
    note: Option<String>,
) {
    const STDERR: u32 = 1;
    let status = u32::from(text.is_none());
    if let Some(text) = text {
        let _ = handle.data(channel, text.into_bytes()).await;
    }
    if let Some(note) = note {
        let line = format!("crowned: {note}\r\n");
        let _ = handle
            .extended_data(channel, STDERR, line.into_bytes())
            .await;
    }
    let _ = handle.exit_status_request(channel, status).await;
    let _ = handle.eof(channel).await;
    let _ = handle.close(channel).await;
}
