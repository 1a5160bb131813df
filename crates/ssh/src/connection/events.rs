//! `ssh host tournament CODE`: an event's table and pairings as text, and `ssh host tournament CODE --pdn` all its
//! finished games as PDN (each with its `[Event]` and `[Round]` tags), read from the records.

use russh::ChannelId;
use russh::server::Session as SshSession;

use super::Connection;
use super::commands::finish_exec;
use crate::serve::at_event::create_event;
use crate::serve::codes::read_code;
use crate::serve::event_rules::director::Director;
use crate::serve::event_rules::table::render;

/// What `tournament` is asked.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ask {
    /// The table.
    Table(String),
    /// The games.
    Pdn(String),
    /// A new event, set up by these words.
    New(String),
}

/// Reads `tournament CODE [--pdn]`; `None` when the command is not one.
pub(super) fn read_ask(command: &str) -> Option<Result<Ask, &'static str>> {
    let mut words = command.split_whitespace();
    if words.next() != Some("tournament") {
        return None;
    }
    const USAGE: &str = "usage: tournament CODE [--pdn], or tournament new arena|swiss [VARIANT] [CLOCK] \
                         [casual] [private] [in=MINUTES|at=HH:MM] [minutes=N|rounds=N] [name=NAME]";
    let (Some(code), rest) = (words.next(), words.collect::<Vec<_>>()) else {
        return Some(Err(USAGE));
    };
    if code == "new" {
        return Some(Ok(Ask::New(rest.join(" "))));
    }
    Some(match rest.as_slice() {
        [] => Ok(Ask::Table(code.to_string())),
        ["--pdn"] => Ok(Ask::Pdn(code.to_string())),
        _ => Err(USAGE),
    })
}

impl Connection {
    /// Answers `tournament CODE [--pdn]` on `channel` from the records, on a blocking thread; the channel then
    /// closes, with status 0 when the event was found.
    pub(super) fn send_event(
        &self,
        ask: Result<Ask, &'static str>,
        channel: ChannelId,
        session: &mut SshSession,
    ) {
        let shared = std::sync::Arc::clone(&self.shared);
        let handle = session.handle();
        let identity = self.identity.clone();
        let reached = self.reached.map(super::ssh_command);
        let address = self.peer.ip();
        tokio::spawn(async move {
            let answer: Result<String, String> = match ask {
                Err(usage) => Err(usage.to_string()),
                Ok(Ask::New(words)) => match identity.as_ref() {
                    Some(by) => create_event(&shared, by, Some(address), &words).await.map(
                        |code| {
                            let join = reached.as_deref().unwrap_or("ssh -t HOST");
                            format!(
                                "tournament {code}\r\njoin it with: {join} tournament {code}\r\n"
                            )
                        },
                    ),
                    None => Err("sign in first".to_string()),
                },
                Ok(Ask::Table(code) | Ask::Pdn(code)) if read_code(&code).is_none() => {
                    Err(format!("no tournament {code}"))
                }
                Ok(Ask::Table(code)) => {
                    let Some(code) = read_code(&code) else { return };
                    let shown = code.to_string();
                    // An event under way here is shown as it stands now.
                    if let Some(event) = shared.event_here(&code) {
                        let text = event.view().borrow().text.clone();
                        finish_exec(&handle, channel, Some(text.replace('\n', "\r\n")), None).await;
                        return;
                    }
                    match shared.read_records(move |r| r.event(&code)).await {
                        Some(Some(record)) => {
                            Ok(render(&Director::restore(&record)).replace('\n', "\r\n"))
                        }
                        Some(None) => Err(format!("no tournament {shown}")),
                        None => Err("the records cannot be read now".to_string()),
                    }
                }
                Ok(Ask::Pdn(code)) => {
                    let Some(code) = read_code(&code) else { return };
                    let shown = code.to_string();
                    let read = shared
                        .read_records(move |r| {
                            Ok(match r.event(&code)? {
                                Some(_) => Some(r.event_games(&code)?),
                                None => None,
                            })
                        })
                        .await;
                    match read {
                        Some(Some(games)) => Ok(games.join("\n")),
                        Some(None) => Err(format!("no tournament {shown}")),
                        None => Err("the records cannot be read now".to_string()),
                    }
                }
            };
            match answer {
                Ok(text) => finish_exec(&handle, channel, Some(text), None).await,
                Err(why) => finish_exec(&handle, channel, None, Some(format!("{why}."))).await,
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_command() {
        assert_eq!(read_ask("games"), None);
        assert_eq!(
            read_ask("tournament K7QX"),
            Some(Ok(Ask::Table("K7QX".into())))
        );
        assert_eq!(
            read_ask(" tournament K7QX --pdn "),
            Some(Ok(Ask::Pdn("K7QX".into())))
        );
        assert!(matches!(read_ask("tournament"), Some(Err(_))));
        assert_eq!(
            read_ask("tournament new swiss rounds=3"),
            Some(Ok(Ask::New("swiss rounds=3".into())))
        );
        assert!(matches!(read_ask("tournament K7QX --nope"), Some(Err(_))));
    }
}
