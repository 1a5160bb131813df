//! How a connection comes to a table: the commands that ask for one (`new`, `join CODE`, `watch CODE`), finding
//! the table, taking a seat (or a place among the watchers), and the app's side of it.

use std::time::Duration;

use rand::RngExt;
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

use super::Shared;
use super::codes::read_code;
use super::elsewhere::{TAKE_OVER_MARGIN, take_over_patience};
use super::identity::Identity;
use super::ids::TableCode;
use super::offered::Offered;
use super::play::TableLink;
use super::table::Listing;
use super::table::{Command, TableConfig, TableError, TableHandle, UPDATES_QUEUE};
use super::text::clean_line;
use crate::app::{NewTable, TableView};
use crate::game::TimeControl;
use crate::rules::{Color, GameType, Variant};

/// What a connection asks of the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableAsk {
    /// A new game against a person, waiting for them.
    New(NewTable),
    /// A seat at the game with this code.
    Join(TableCode),
    /// A place among the watchers of the game with this code.
    Watch(TableCode),
}

/// What the commands are, for a refusal.
pub const USAGE: &str = "the commands: `new [VARIANT] [CLOCK] [black|white] [casual] [private|public]` starts a \
                         game against a person and shows its code (e.g. `new english 5+3`; listed in the lobby \
                         for anyone to join unless `private`), `join CODE` plays it, `watch CODE` watches it, \
                         `games` prints your games as PDN, `tournament CODE` enters an event (`tournament CODE \
                         --pdn` prints its games, `tournament new arena|swiss ...` creates one), `blocks` lists the \
                         players you have blocked and `unblock NAME` lets one back, `link CODE` links the browser that shows \
                         the code to your key, `links` lists your linked browsers and `links revoke N` unlinks one; \
                         with no command, the lobby";

/// Why a command asking for a table cannot be read; the text is what the player is shown.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AskError {
    /// `join` or `watch` without a code.
    #[error("which game? give its code, as in `join K7QX`")]
    NoCode,
    /// Words that are not a game's code (as given, made safe to show).
    #[error("`{0}` is not a game's code")]
    NotACode(String),
    /// A word of `new` that means nothing to it (as given, made safe to show), with the variants the server
    /// offers.
    #[error(
        "`{word}` is not a variant ({}), a clock (5+3, 30s), a colour, casual, private or public",
        .variants.join(", ")
    )]
    NotAWord {
        /// The word.
        word: String,
        /// Every variant the server offers, by the word `new` takes.
        variants: Vec<&'static str>,
    },
}

/// Reads a command asking for a table: `None` when it is not one of them (`games`, say). `new` takes the
/// built-in variants and the defined ones the server `offered`.
pub fn read_ask(command: &str, offered: &Offered) -> Option<Result<TableAsk, AskError>> {
    let mut words = command.split_whitespace();
    let first = words.next()?.to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    let code = |rest: &[&str]| match rest {
        [] => Err(AskError::NoCode),
        words => read_code(&words.concat())
            .ok_or_else(|| AskError::NotACode(clean_line(&words.join(" "), 24))),
    };
    Some(match first.as_str() {
        "new" => read_new(&rest, offered).map(TableAsk::New),
        "join" | "play" => code(&rest).map(TableAsk::Join),
        "watch" => code(&rest).map(TableAsk::Watch),
        _ => return None,
    })
}

/// `new`'s words, in any order: a variant, a clock (`5+3`, `30s`), a colour, `casual` or `rated`, `public` or
/// `private`.
fn read_new(words: &[&str], offered: &Offered) -> Result<NewTable, AskError> {
    let mut table = NewTable::default();
    for word in words {
        let lower = word.to_ascii_lowercase();
        // These words are `offered::NEW_WORDS`, which no offered variant is named.
        match lower.as_str() {
            "black" => table.color = Some(Color::Black),
            "white" => table.color = Some(Color::White),
            "random" | "either" => table.color = None,
            "casual" | "unrated" => table.rated = false,
            "rated" => table.rated = true,
            "public" | "open" => table.private = false,
            "private" => table.private = true,
            _ => {
                if let Ok(variant) = lower.parse::<Variant>() {
                    table.variant = variant;
                } else if let Some(defined) = offered.find(&lower) {
                    table.variant = defined.variant();
                } else if let Ok(clock) = lower.parse::<TimeControl>() {
                    table.clock = Some(clock);
                } else {
                    return Err(AskError::NotAWord {
                        word: clean_line(word, 24),
                        variants: offered.words(),
                    });
                }
            }
        }
    }
    Ok(table)
}

/// A seat (or a watcher's place) taken: the app's side of the table, its game's rules, and the line to it.
pub struct Seated {
    /// The app's side of the table.
    pub table: TableView,
    /// The game's rules and board.
    pub game_type: GameType,
    /// The line to the table.
    pub link: TableLink,
}

/// Does what `ask` asks: a new game, a seat at one, or a place among its watchers.
pub async fn take(
    shared: &Shared,
    identity: &Identity,
    ask: TableAsk,
) -> Result<Seated, TableError> {
    match ask {
        TableAsk::New(new) => open_new(shared, identity, new).await,
        TableAsk::Join(code) => join(shared, identity, &code).await,
        TableAsk::Watch(code) => watch(shared, identity, &code).await,
    }
}

/// Games in progress one player may have at once: each holds a table until it ends.
pub const MAX_GAMES_EACH: usize = 10;

/// Opens a table for `new` and sits `identity` in it.
pub async fn open_new(
    shared: &Shared,
    identity: &Identity,
    new: NewTable,
) -> Result<Seated, TableError> {
    let mine = shared
        .tables
        .listings()
        .iter()
        .filter(|l| l.seats_player(&identity.fingerprint))
        .count();
    if mine >= MAX_GAMES_EACH {
        return Err(TableError::TooManyGames(mine));
    }
    let config = TableConfig {
        game_type: GameType::standard(new.variant),
        clock: new.clock,
        grace: shared.config.seat_grace,
        // A guest has no rating to change.
        rated: new.rated && !identity.is_guest(),
        private: new.private,
    };
    let (code, table) = match shared.tables.open(config, None) {
        Some(opened) => opened,
        None => {
            // One of several nodes whose reserved codes a burst of new games has used up: more are reserved
            // now (one statement), and the table opened with one of them.
            let cluster = shared.tables.cluster().ok_or(TableError::NoFreeCodes)?;
            if let Err(error) = cluster.top_up(&shared.tables.codes()).await {
                tracing::warn!(%error, "cannot reserve codes for new games");
            }
            shared
                .tables
                .open(config, None)
                .ok_or(TableError::NoFreeCodes)?
        }
    };
    let color = new.color.unwrap_or_else(|| {
        if rand::rng().random_bool(0.5) {
            Color::Black
        } else {
            Color::White
        }
    });
    let listing = Listing {
        code,
        config,
        seats: [None, None],
        plies: 0,
        over: false,
        watchers: 0,
        board: false,
    };
    sit(shared, identity, table, listing, Some(color), false).await
}

/// Takes a seat at the game with `code` (or one's own seat again). When the game's node does not answer (it
/// may have just died), the seat is asked again until another node can have taken the game over.
pub async fn join(
    shared: &Shared,
    identity: &Identity,
    code: &TableCode,
) -> Result<Seated, TableError> {
    let known = in_progress(shared, code).await;
    join_within_take_over(shared, identity, code, known, false).await
}

/// Takes one's seat again at the game `code` after its table went (moved to another node, or its node died)
/// while this connection was at it: as [`join`], except that a newer connection of the player's, seated
/// meanwhile, keeps the seat ([`TableError::SeatedElsewhere`]): the player connected again before this
/// connection found the game, and plays from there.
pub async fn come_back(
    shared: &Shared,
    identity: &Identity,
    code: &TableCode,
) -> Result<Seated, TableError> {
    let known = in_progress(shared, code).await;
    join_within_take_over(shared, identity, code, known, true).await
}

/// Whether the records hold `code` as a game in progress, on a server of several nodes (or cannot say: the
/// records out of reach for a moment). Such a game is waited for when no node lists it yet, as a player coming
/// back is: its node may have just died, or the database be restarting. On one node the tables are the truth.
async fn in_progress(shared: &Shared, code: &TableCode) -> bool {
    if shared.tables.cluster().is_none() || shared.tables.find(code).is_some() {
        return false;
    }
    let code = code.clone();
    shared
        .read_records(move |records| Ok(records.unfinished_codes()?.contains(&code)))
        .await
        .unwrap_or(true)
}

/// [`join`]; when `known` (the records say the game is not over), a game no node lists yet is looked for again
/// too, for as long as a node is waited out: while two nodes race to take a dead node's game over, the one that
/// loses the race finds it nowhere for a moment. A code the records do not know is not waited for: it may
/// name no game.
async fn join_within_take_over(
    shared: &Shared,
    identity: &Identity,
    code: &TableCode,
    known: bool,
    returning: bool,
) -> Result<Seated, TableError> {
    let give_up = tokio::time::Instant::now() + take_over_patience(shared);
    let pause = Duration::from_millis(500);
    loop {
        let found = super::elsewhere::find(shared, code).await;
        let Ok(Some((table, listing))) = found else {
            // A game the records say is in progress that no node runs (a take-over that failed halfway as the
            // records went away, or a node that could not resume its own as it started): taken over here. The
            // lease decides: where another node holds the game, nothing is done.
            if known
                && found.is_ok()
                && let Some(cluster) = shared.tables.cluster()
                && super::elsewhere::take_over(shared, cluster, code).await
            {
                continue;
            }
            // Not listed (or the list out of reach): a game known to be in progress is looked for again.
            let wait = known || found.is_err();
            if wait && tokio::time::Instant::now() < give_up {
                tokio::time::sleep(pause).await;
                continue;
            }
            return Err(no_game(code));
        };
        match sit(shared, identity, table, listing, None, returning).await {
            Err(TableError::NoAnswer) if tokio::time::Instant::now() < give_up => {
                tokio::time::sleep(pause).await;
            }
            // A game the records say is not over, whose table ended as the player came (the node that lost a
            // take-over race stops its copy): it is looked for again, as when no node lists it.
            Err(TableError::NoGame(_)) if known && tokio::time::Instant::now() < give_up => {
                tokio::time::sleep(pause).await;
            }
            seated => return seated,
        }
    }
}

/// Goes back to the game not over where `identity` has a seat, if there is one: on one node the one opened or
/// played in last, and on several the one begun last as the records say (a game begins as its second player
/// sits, and the records have it before either sees it begun), wherever it runs (a node knows only its own tables,
/// and another node may hold a later game of the player's, or a game of theirs whose node has just died).
pub async fn rejoin(shared: &Shared, identity: &Identity) -> Option<Result<Seated, TableError>> {
    if shared.tables.cluster().is_some() {
        // The records may be out of reach for a moment (a database restarting): asked again meanwhile. This
        // node's own tables are no answer: the player's latest game may be on another node.
        let give_up = tokio::time::Instant::now() + TAKE_OVER_MARGIN;
        loop {
            let fingerprint = identity.fingerprint.clone();
            let latest = shared
                .read_records(move |records| {
                    Ok(records
                        .unfinished_games_of(&fingerprint)?
                        .into_iter()
                        .rev()
                        .find_map(|game| game.code))
                })
                .await;
            match latest {
                Some(Some(code)) => {
                    return Some(join_within_take_over(shared, identity, &code, true, false).await);
                }
                // None begun: a table waiting for an opponent, if the player has one.
                Some(None) => break,
                None if tokio::time::Instant::now() < give_up => {
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                None => return Some(Err(TableError::NoAnswer)),
            }
        }
    }
    let (table, listing) = shared.tables.seat_of(&identity.fingerprint)?;
    // Here, at once; elsewhere, by its code, so that a node that has just died is waited out.
    Some(match shared.tables.find(&listing.code) {
        Some(_) => sit(shared, identity, table, listing, None, false).await,
        None => join_within_take_over(shared, identity, &listing.code, true, false).await,
    })
}

/// Watches the game with `code`.
pub async fn watch(
    shared: &Shared,
    identity: &Identity,
    code: &TableCode,
) -> Result<Seated, TableError> {
    let (table, listing) = super::elsewhere::find(shared, code)
        .await
        .ok()
        .flatten()
        .ok_or_else(|| no_game(code))?;
    let (updates, news) = mpsc::channel(UPDATES_QUEUE);
    let line = updates.downgrade();
    let watching = table
        .send(Command::Watch {
            who: identity.clone(),
            updates,
        })
        .await;
    if !watching {
        return Err(no_game(code));
    }
    Ok(Seated {
        table: TableView::new(None, listing.code.to_string()),
        game_type: listing.config.game_type,
        link: TableLink {
            table,
            code: listing.code.clone(),
            who: identity.fingerprint.clone(),
            updates: news,
            line,
        },
    })
}

fn no_game(code: &TableCode) -> TableError {
    TableError::NoGame(code.clone())
}

/// Sits `identity` at `table` (in `color`'s seat if given, else the first free one, or their own seat again);
/// `returning` as for [`Command::Sit`].
async fn sit(
    shared: &Shared,
    identity: &Identity,
    table: TableHandle,
    listing: Listing,
    color: Option<Color>,
    returning: bool,
) -> Result<Seated, TableError> {
    if let Some(why) = super::civility::refuses_to_seat(shared, identity, &listing.seats).await {
        return Err(TableError::Blocked(why));
    }
    let (rating, provisional) = match (listing.config.rated, identity.is_guest()) {
        (true, false) => {
            let fingerprint = identity.fingerprint.clone();
            let variant = listing.config.game_type.to_string();
            let read = shared
                .read_records(move |records| records.rating(&fingerprint, &variant))
                .await;
            match read {
                Some((rating, _)) => (Some(rating.rating.round() as i32), rating.is_provisional()),
                None => (None, false),
            }
        }
        _ => (None, false),
    };
    let (updates, news) = mpsc::channel(UPDATES_QUEUE);
    let line = updates.downgrade();
    let (reply, answer) = oneshot::channel();
    let asked = table
        .send(Command::Sit {
            who: identity.clone(),
            color,
            rating,
            provisional,
            returning,
            updates,
            reply,
        })
        .await;
    if !asked {
        return Err(no_game(&listing.code));
    }
    let seat = answer.await.map_err(|_| no_game(&listing.code))??;
    let mut view = TableView::new(Some(seat), listing.code.to_string());
    view.set_in_event(listing.board);
    Ok(Seated {
        table: view,
        game_type: listing.config.game_type,
        link: TableLink {
            table,
            code: listing.code.clone(),
            who: identity.fingerprint.clone(),
            updates: news,
            line,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usage_names_every_command_a_connection_takes() {
        for command in [
            "`new ",
            "`join CODE`",
            "`watch CODE`",
            "`games`",
            "`tournament CODE`",
            "tournament new",
            "`blocks`",
            "`unblock NAME`",
        ] {
            assert!(
                USAGE.contains(command),
                "{command} is missing from: {USAGE}"
            );
        }
    }

    #[test]
    fn table_commands_are_read_with_reasons_for_bad_ones() {
        let offered = Offered::default();
        let read_ask = |command: &str| read_ask(command, &offered);
        assert_eq!(read_ask("games"), None);
        assert_eq!(
            read_ask("join k7-qx"),
            Some(Ok(TableAsk::Join("K7QX".into())))
        );
        assert_eq!(
            read_ask("watch K7QX"),
            Some(Ok(TableAsk::Watch("K7QX".into())))
        );
        assert!(matches!(read_ask("join"), Some(Err(_))));
        assert!(matches!(read_ask("join OOOO"), Some(Err(_))));
        let Some(Ok(TableAsk::New(new))) = read_ask("new russian 5+3 white casual public") else {
            panic!("a new game");
        };
        assert_eq!(new.variant, Variant::Russian);
        assert_eq!(new.clock, "5+3".parse().ok());
        assert_eq!(new.color, Some(Color::White));
        assert!(!new.rated && !new.private);
        assert_eq!(
            read_ask("new"),
            Some(Ok(TableAsk::New(NewTable::default())))
        );
        let Some(Err(why)) = read_ask("new \x1b[2Jfrobnicate") else {
            panic!("refused");
        };
        assert!(
            matches!(&why, AskError::NotAWord { word, .. } if word == "[2Jfrobnicate"),
            "{why}"
        );
        assert!(
            why.to_string().contains("is not a variant (english, "),
            "{why}"
        );
    }

    #[test]
    fn new_takes_the_defined_variants_offered_and_names_them_when_refusing() {
        let folder = std::env::temp_dir().join(format!("crowned-seating-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a folder");
        let file = folder.join("holes.toml");
        std::fs::write(&file, include_str!("../../../../variants/holes.toml")).expect("written");
        let (offered, problems) = Offered::load(None, std::slice::from_ref(&file));
        let _ = std::fs::remove_dir_all(&folder);
        assert!(problems.is_empty(), "{problems:?}");
        let Some(Ok(TableAsk::New(new))) = read_ask("new Holes 3+2 casual", &offered) else {
            panic!("a new game with holes");
        };
        let holes = offered.find("holes").expect("offered");
        assert_eq!(new.variant, holes.variant());
        assert_eq!(new.clock, "3+2".parse().ok());
        // Turkish is always offered: played from its built-in definition (or its own generator).
        let Some(Ok(TableAsk::New(new))) = read_ask("new turkish", &offered) else {
            panic!("a new game of Turkish");
        };
        assert!(
            new.variant.title().starts_with("Turkish"),
            "{:?}",
            new.variant
        );
        let Some(Err(why)) = read_ask("new leapers", &offered) else {
            panic!("refused: the server does not offer it");
        };
        let why = why.to_string();
        assert!(
            why.contains("`leapers` is not a variant")
                && why.contains("frysk, ")
                && why.contains("turkish")
                && why.contains(", holes)"),
            "{why}"
        );
    }
}
