//! A player entered in a tournament: the event's screen (its table, its pairings, where the player stands)
//! while they wait, and the table of each game the event pairs them for, to which their connection takes them.
//! Leaving the screen (or the connection) makes the player away: an arena does not pair them, a Swiss event
//! pairs them all the same and they lose the game by the grace period's rules.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::codes::read_code;
use super::door::{FrameTerminal, GameEnd, Output};
use super::driver::{Driver, Flow, Part};
use super::elsewhere::take_over_patience;
use super::events::view::View;
use super::events::{EventHandle, EventRequest, NEWS_QUEUE, News};
use super::identity::Identity;
use super::ids::TableCode;
use super::records::Stage;
use crate::app::{EventLeave, EventScreen, InputEvent, KeyMap};
use crate::ui::event::draw;

/// What an event tells a player at one of its boards.
pub enum EventNews {
    /// Their next game is at this table.
    Board(TableCode),
    /// The event has finished.
    Finished,
}

/// Waits until the event seen through `view` has finished (at once if it has); never, should its view stop.
async fn finished(view: &mut watch::Receiver<Arc<View>>) {
    loop {
        if view.borrow().stage == crate::serve::records::Stage::Finished {
            return;
        }
        if view.changed().await.is_err() {
            return std::future::pending().await;
        }
    }
}

/// A player's place in an event: their line to its task and the boards it sends them. Dropped, the player is
/// away.
pub struct Entered {
    handle: EventHandle,
    who: Identity,
    view: watch::Receiver<Arc<View>>,
    /// The boards the event sends.
    pub news: mpsc::Receiver<News>,
    line: mpsc::WeakSender<News>,
    /// The board the player last went to.
    last_board: Option<TableCode>,
}

impl Entered {
    /// The event's next board for the player, or, when `until_finished`, the news that the event has finished
    /// (at once if it has); `None` when the event's news has stopped.
    pub async fn next_news(&mut self, until_finished: bool) -> Option<EventNews> {
        // The boards' line closes as the event ends: its end is still waited for.
        tokio::select! {
            Some(News::Board(code)) = self.news.recv() => Some(EventNews::Board(code)),
            () = finished(&mut self.view), if until_finished => Some(EventNews::Finished),
            else => None,
        }
    }

    /// Enters `who` in the event of `handle` (or brings them back); `None` when the event has ended.
    pub async fn enter(handle: EventHandle, who: Identity) -> Option<Entered> {
        let (news_tx, news) = mpsc::channel(NEWS_QUEUE);
        let line = news_tx.downgrade();
        let view = handle.view();
        let (taken_in, answer) = tokio::sync::oneshot::channel();
        if !handle
            .send(EventRequest::Enter {
                who: who.clone(),
                news: news_tx,
                taken_in,
            })
            .await
        {
            return None;
        }
        // The view the player's screen starts from is one with them in it; an event that ends meanwhile
        // answers nothing.
        answer.await.ok()?;
        Some(Entered {
            handle,
            who,
            view,
            news,
            line,
            last_board: None,
        })
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        let ask = EventRequest::Leave {
            who: self.who.fingerprint.clone(),
            news: self.line.clone(),
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { handle.send(ask).await });
        }
    }
}

/// Enters a player in the event `code` when it waits or runs (here, or on another node) and they may play in
/// it: their place, or `None` (the caller then shows the table). When the event's node does not answer (it may
/// have just died), the event is asked again until another node can have taken it over.
pub async fn enter(
    shared: &crate::serve::Shared,
    identity: &Identity,
    code: &str,
) -> Option<Entered> {
    if identity.is_guest() {
        return None;
    }
    let code = read_code(code)?;
    let give_up = Instant::now() + take_over_patience(shared);
    loop {
        let event = super::events::across::find(shared, &code).await?;
        if event.view().borrow().stage == Stage::Finished {
            return None;
        }
        let entered = Entered::enter(event, identity.clone()).await;
        if entered.is_some() || Instant::now() >= give_up {
            return entered;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Creates the event set up by `words` (as `tournament new` takes them) for `by`, connected from `address`, within
/// the caps on players' events: its code, or why not (the text the player is shown).
pub async fn create_event(
    shared: &super::Shared,
    by: &Identity,
    address: Option<std::net::IpAddr>,
    words: &str,
) -> Result<TableCode, String> {
    if by.is_guest() {
        return Err("a guest cannot create a tournament: connect with an SSH key".to_string());
    }
    let spec = super::events::create::read_spec(
        words,
        Some(by.fingerprint.clone()),
        super::events::unix_now(),
    )
    .map_err(|e| e.to_string())?;
    let creator = super::events::caps::Creator {
        key: by.fingerprint.clone(),
        address,
    };
    shared
        .events
        .create(spec, Some(&creator))
        .await
        .map_err(|e| e.to_string())
}

/// Creates the event set up by `words` for `by` (connected from `address`) and enters them in it, as its
/// creator: their place in it, or why not (the text the player is shown).
pub async fn create_and_enter(
    shared: &super::Shared,
    by: &Identity,
    address: Option<std::net::IpAddr>,
    words: &str,
) -> Result<Entered, String> {
    let code = create_event(shared, by, address, words).await?;
    enter(shared, by, code.as_str())
        .await
        .ok_or_else(|| format!("tournament {code} cannot be entered"))
}

/// What the player does from the event's screen.
pub enum EventChoice {
    /// Goes to their game at this table.
    Board(TableCode),
    /// Leaves the event's screen (away, or withdrawn), for the lobby.
    Leave,
}

/// Shows the event to `entered` on `driver` until they are paired (their table), or leave, or the connection,
/// the server or the idle timeout ends it. The screen's keys are the player's `keys`.
pub async fn run_event(
    entered: &mut Entered,
    driver: &mut Driver,
    out: &mut Output,
    keys: &KeyMap,
) -> Result<EventChoice, GameEnd> {
    // The view as it stands as the player comes (back from a board): while it has not changed, the board it
    // shows them at, if it is the one they have just left, is not one to go back to (a view from another node is
    // as fresh as its last heartbeat, and may not know yet that the game is over).
    let came_at = entered.view.borrow().clone();
    let mut part = AtEvent {
        entered,
        screen: EventScreen::new(keys.clone()),
        live: true,
        came_at,
    };
    driver.drive(out, &mut part).await
}

/// The event's screen, as a connection shows it.
struct AtEvent<'a> {
    entered: &'a mut Entered,
    screen: EventScreen,
    /// Whether the event's view still changes (it stops when the event is gone).
    live: bool,
    /// The view as the player came.
    came_at: Arc<View>,
}

/// What the event said while its screen waited.
enum Came {
    /// The player's next board.
    Board(TableCode),
    /// Its view changed (`false`: the event is gone, and nothing more will change).
    Changed(bool),
}

impl Part for AtEvent<'_> {
    type News = Came;
    type Exit = EventChoice;

    async fn settle(&mut self) -> Option<EventChoice> {
        let entered = &mut *self.entered;
        let view = entered.view.borrow_and_update().clone();
        // A game under way is where the player belongs (back after a drop, or paired as they came).
        if let Some((code, _)) = view.boards.get(&entered.who.fingerprint)
            && !(Arc::ptr_eq(&view, &self.came_at) && entered.last_board.as_ref() == Some(code))
        {
            entered.last_board = Some(code.clone());
            return Some(EventChoice::Board(code.clone()));
        }
        shape(&mut self.screen, &view, &entered.who);
        None
    }

    fn draw(&mut self, terminal: &mut FrameTerminal) -> io::Result<()> {
        terminal.draw(|frame| draw(frame, &self.screen)).map(drop)
    }

    async fn news(&mut self) -> Came {
        let live = self.live;
        let entered = &mut *self.entered;
        tokio::select! {
            Some(News::Board(code)) = entered.news.recv() => Came::Board(code),
            changed = entered.view.changed(), if live => Came::Changed(changed.is_ok()),
            else => std::future::pending().await,
        }
    }

    fn deadline(&self) -> Option<Instant> {
        // The wait before the start counts down on the screen.
        Some(Instant::now() + Duration::from_secs(1))
    }

    async fn input(&mut self, events: Vec<InputEvent>, _: &mut Output) -> Flow<EventChoice> {
        for event in events {
            let InputEvent::Key(key) = event else {
                continue;
            };
            match self.screen.key(key) {
                None => {}
                Some(EventLeave::Leave) => return Flow::Leave(EventChoice::Leave),
                Some(EventLeave::Withdraw) => {
                    let entered = &self.entered;
                    entered
                        .handle
                        .send(EventRequest::Withdraw(entered.who.fingerprint.clone()))
                        .await;
                    return Flow::Leave(EventChoice::Leave);
                }
            }
        }
        Flow::Stay
    }

    async fn heard(&mut self, news: Came, _: &mut Output) -> Flow<EventChoice> {
        match news {
            Came::Board(code) => {
                self.entered.last_board = Some(code.clone());
                Flow::Leave(EventChoice::Board(code))
            }
            Came::Changed(still) => {
                self.live = still;
                // An event that runs is not idle: its players wait for their pairing.
                Flow::Busy
            }
        }
    }
}

/// The screen for `view` as `who` sees it.
fn shape(screen: &mut EventScreen, view: &View, who: &Identity) {
    screen.title = format!(" {} ({}) ", view.spec.name, view.spec.code);
    screen.status = match view.stage {
        Stage::Waiting => {
            let left = view.spec.starts - super::events::unix_now();
            format!(
                "{}: you are in; it starts in {}. {} entered.",
                who.name,
                show_wait(left),
                view.entrants
            )
        }
        Stage::Running => format!("{}: waiting for your pairing…", who.name),
        Stage::Finished => "The event is over: the final table.".to_string(),
    };
    screen.table = view.text.clone();
}

/// A wait in minutes and seconds.
fn show_wait(seconds: i64) -> String {
    let seconds = seconds.max(0);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// An event in one line, as the lobby lists it: `Evening arena  arena 30 min  english 3+2  rated  18:00 UTC  12
/// in`.
pub fn event_summary(view: &View) -> String {
    let spec = &view.spec;
    let kind = match spec.kind {
        super::records::EventKind::Arena => {
            format!(
                "arena {}",
                super::event_rules::table::length_text(spec.seconds)
            )
        }
        super::records::EventKind::Swiss => format!("Swiss {} rounds", spec.rounds),
    };
    let when = match view.stage {
        Stage::Waiting => {
            let day = spec.starts.rem_euclid(86_400);
            format!(
                "{:02}:{:02} UTC (in {})",
                day / 3600,
                day % 3600 / 60,
                show_wait(spec.starts - super::events::unix_now())
            )
        }
        Stage::Running => "under way".to_string(),
        Stage::Finished => "over".to_string(),
    };
    format!(
        "{}  {kind}  {} {}  {}  {when}  {} in",
        spec.name,
        spec.variant,
        spec.clock,
        if spec.rated { "rated" } else { "casual" },
        view.entrants
    )
}
