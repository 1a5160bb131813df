//! Tournaments played on a real server by scripted SSH clients: a Swiss event of seven players over five rounds,
//! its pairings, colours, byes and tie-breaks checked against the table computed by hand (the one in the
//! pairing's own tests), with the server restarted in the middle of a round; and a short arena of six players,
//! its pairings, a streak and its final table checked.

use std::time::Duration;

use russh::ChannelMsg;
use tokio::time::{Instant, timeout};

use std::sync::Arc;

use crate::doors::ssh::{KnownHost, Server, Terminal, connect, exec_as, new_key, read_all};
use russh::client::Handle;
use russh::keys::PrivateKey;

pub(crate) const NAMES: [&str; 7] = [
    "alpha", "bravo", "charlie", "delta", "foxtrot", "golf", "hotel",
];

/// Runs `command` without a terminal, on a connection of its own with `key` as `name`; what it printed and its
/// status.
async fn ask_as(
    server: &Server,
    key: &Arc<PrivateKey>,
    name: &str,
    command: &str,
) -> (String, Option<u32>) {
    let (out, _, status) = exec_as(server, key, name, command).await;
    (out, status)
}

/// Runs `command` without a terminal; what it printed and its status.
pub(crate) async fn ask(handle: &Handle<KnownHost>, command: &str) -> (String, Option<u32>) {
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel.exec(true, command).await.expect("asked");
    read_all(&mut channel).await
}

/// The code in `tournament new`'s answer.
pub(crate) fn event_code(said: &str) -> String {
    said.split("tournament ")
        .nth(1)
        .map(|rest| rest.chars().take(4).collect())
        .unwrap_or_else(|| panic!("no code in {said:?}"))
}

/// Reads what comes to `t` until `done` holds of its screen or `patience` runs out; whether it held.
pub(crate) async fn read_until(
    t: &mut Terminal,
    patience: Duration,
    done: impl Fn(&str) -> bool,
) -> bool {
    let deadline = Instant::now() + patience;
    while !done(&t.contents()) {
        let left = deadline.saturating_duration_since(Instant::now());
        match timeout(left, t.channel.wait()).await {
            Ok(Some(ChannelMsg::Data { data })) => t.screen.process(&data),
            Ok(Some(ChannelMsg::Eof | ChannelMsg::Close)) | Ok(None) => return done(&t.contents()),
            Ok(Some(_)) => {}
            Err(_) => return false,
        }
    }
    true
}

/// The table a screen shows (its moves pane's title says `table K7QX`), if any.
fn table_on(screen: &str) -> Option<String> {
    screen
        .split("table ")
        .nth(1)
        .map(|rest| rest.chars().take(4).collect())
}

/// The hand-computed event's results: the higher seed wins, except that neighbours in the seeding draw.
fn seeded_result(first: usize, second: usize) -> Option<usize> {
    let (lo, hi) = (first.min(second), first.max(second));
    if hi - lo == 1 { None } else { Some(lo) }
}

/// One game of the event between `first` (who moves first: Black) and `second`, at their terminals: each
/// checks that the other is their opponent and that the colours are as paired, then it ends as
/// [`seeded_result`] says (a resignation, or a draw offered and accepted).
pub(crate) async fn play_game(
    (first, mut a): (usize, Terminal),
    (second, mut b): (usize, Terminal),
    winner: impl Fn(usize, usize) -> Option<usize>,
) -> (Terminal, Terminal) {
    let patience = Duration::from_secs(30);
    let to_move = "move 1, Black to play: your move";
    let thinking = format!("move 1, Black to play: {} is thinking", NAMES[first]);
    assert!(
        read_until(&mut a, patience, |s| s.contains(to_move)
            && s.contains(NAMES[second]))
        .await,
        "{} does not face {} as Black:\n{}",
        NAMES[first],
        NAMES[second],
        a.contents()
    );
    assert!(
        read_until(&mut b, patience, |s| s.contains(&thinking)).await,
        "{} does not face {} as White:\n{}",
        NAMES[second],
        NAMES[first],
        b.contents()
    );
    let ended = match winner(first, second) {
        None => {
            a.send(b":draw\r").await;
            assert!(read_until(&mut b, patience, |s| s.contains("offers a draw")).await);
            b.send(b"y").await;
            "Draw by agreement"
        }
        Some(w) => {
            let loser = if w == first { &mut b } else { &mut a };
            loser.send(b":resign\r").await;
            loser.send(b"y").await;
            "resigned"
        }
    };
    let (a_at, b_at) = (table_on(&a.contents()), table_on(&b.contents()));
    let a_ended = read_until(&mut a, patience, |s| {
        s.contains(ended) || table_on(s) != a_at
    })
    .await;
    let b_ended = read_until(&mut b, patience, |s| {
        s.contains(ended) || table_on(s) != b_at
    })
    .await;
    assert!(
        a_ended && b_ended,
        "no end:\n{}\n{}",
        a.contents(),
        b.contents()
    );
    (a, b)
}

/// Plays the boards `boards` (first, second) side by side with the players' terminals.
async fn play_round(terminals: &mut [Option<Terminal>], boards: &[(usize, usize)]) {
    let mut games = Vec::new();
    for &(first, second) in boards {
        let a = terminals[first].take().expect("first player's terminal");
        let b = terminals[second].take().expect("second player's terminal");
        games.push(tokio::spawn(async move {
            let (a, b) = play_game((first, a), (second, b), seeded_result).await;
            (first, a, second, b)
        }));
    }
    for game in games {
        let (first, a, second, b) = game.await.expect("a game played");
        terminals[first] = Some(a);
        terminals[second] = Some(b);
    }
}

/// Enters each player in the event `code` in seed order (each sees that they are in before the next comes).
pub(crate) async fn enter_all(
    handles: &[Handle<KnownHost>],
    code: &str,
    expect: &str,
) -> Vec<Option<Terminal>> {
    let mut terminals = Vec::new();
    for handle in handles {
        let mut t = Terminal::exec(handle, 100, 40, &format!("tournament {code}")).await;
        // Entered: the event's screen, or already their board, where a busy machine let the event start before
        // the screen was read (the board of the player to move says whose move it is, the other's that the
        // opponent is thinking). As long as the round's own wait below: the board opens through the node that
        // runs the event.
        assert!(
            read_until(&mut t, Duration::from_secs(30), |s| s.contains(expect)
                || s.contains("Black to play")
                || s.contains("is thinking"))
            .await,
            "not entered (waiting for {expect:?}):\n{}",
            t.contents()
        );
        terminals.push(Some(t));
    }
    terminals
}

/// The event's table as printed by `tournament CODE`, once it is over: for each row, its words.
pub(crate) async fn final_table(server: &Server, code: &str) -> (String, Vec<Vec<String>>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let observer = new_key();
    loop {
        let (text, status) = ask_as(server, &observer, "zulu", &format!("tournament {code}")).await;
        assert_eq!(status, Some(0), "{text}");
        if text.lines().next().is_some_and(|l| l.contains("finished")) {
            let rows = text
                .lines()
                .skip(2)
                .take_while(|l| !l.starts_with("Round"))
                .map(|l| l.split_whitespace().map(str::to_string).collect())
                .collect();
            return (text, rows);
        }
        assert!(
            Instant::now() < deadline,
            "the event does not finish:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// What `command` prints once it holds `count` games of the Night Swiss (it may take a moment to be written);
/// fails if it never does, or holds more.
async fn until_count(
    server: &Server,
    key: &Arc<PrivateKey>,
    command: &str,
    count: usize,
) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (text, _) = ask_as(server, key, "alpha", command).await;
        let found = text.matches("[Event \"Night Swiss\"]").count();
        assert!(found <= count, "{found} games:\n{text}");
        if found == count {
            return text;
        }
        assert!(Instant::now() < deadline, "{found} games:\n{text}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_event_of_seven_is_paired_scored_and_resumed_after_a_restart_as_computed_by_hand() {
    let server = Server::start_with(
        "tournament-swiss",
        "[server]\nidle-timeout = 600\nseat-grace = 60\n",
    );
    let keys: Vec<_> = NAMES.iter().map(|_| new_key()).collect();
    let mut handles = Vec::new();
    for (key, name) in keys.iter().zip(NAMES) {
        handles.push(connect(&server, key, name).await);
    }
    let (said, status) = ask(
        &handles[0],
        "tournament new swiss rounds=5 3+2 in-seconds=6 name=Night Swiss",
    )
    .await;
    assert_eq!(status, Some(0), "{said}");
    let code = event_code(&said);
    let mut terminals = enter_all(&handles, &code, "you are in").await;
    // The last to enter is counted on their first screen: a player's screen starts once the event has taken
    // them in.
    let last = terminals[6].as_ref().expect("hotel's terminal");
    assert!(last.contents().contains("7 entered"), "{}", last.contents());

    // The pairings computed by hand (see the pairing's tests): (first, second) by board, and the bye.
    let (a, b, c, d, e, f, g) = (0, 1, 2, 3, 4, 5, 6);
    play_round(&mut terminals, &[(a, d), (e, b), (c, f)]).await;
    play_round(&mut terminals, &[(c, a), (b, g), (d, e)]).await;

    // Round 3: one game ends, then the server stops with the two others under way, and comes back.
    play_round(&mut terminals, &[(a, b)]).await;
    for (who, needle) in [
        (g, "move 1, Black to play: your move"),
        (f, "move 1, Black to play: your move"),
    ] {
        let t = terminals[who].as_mut().expect("a terminal");
        assert!(read_until(t, Duration::from_secs(30), |s| s.contains(needle)).await);
    }
    drop(terminals);
    drop(handles);
    let server = server.stop_and_restart();
    let mut handles = Vec::new();
    for (key, name) in keys.iter().zip(NAMES) {
        handles.push(connect(&server, key, name).await);
    }
    let mut terminals = enter_all(&handles, &code, "waiting for your pairing").await;
    play_round(&mut terminals, &[(g, c), (f, d)]).await;

    play_round(&mut terminals, &[(e, a), (b, c), (g, f)]).await;
    play_round(&mut terminals, &[(f, a), (d, b), (e, g)]).await;

    // Someone not in the event asks for its table (a player's connection holds their game).
    let (text, rows) = final_table(&server, &code).await;
    let expected = [
        ("alpha", "4.5", "14", "12"),
        ("bravo", "4", "14.5", "10.5"),
        ("charlie", "3.5", "11.5", "5"),
        ("delta", "2.5", "12.5", "2.75"),
        ("foxtrot", "2.5", "12.5", "2.75"),
        ("golf", "1.5", "12", "0.75"),
        ("hotel", "1.5", "11.5", "0.75"),
    ];
    assert_eq!(rows.len(), 7, "{text}");
    for (place, (row, (name, points, buchholz, sb))) in rows.iter().zip(expected).enumerate() {
        let want: Vec<String> = [&(place + 1).to_string(), name, points, buchholz, sb]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(row, &want, "{text}");
    }
    // Byes went to hotel, golf, foxtrot, delta, charlie, one a round.
    let byes: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with(" bye"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        byes,
        ["hotel", "golf", "foxtrot", "delta", "charlie"],
        "{text}"
    );

    // Every game carries the event's tags, in the event's games and in each player's own (the last ones are
    // written as the event ends).
    let pdn = until_count(&server, &new_key(), &format!("tournament {code} --pdn"), 15).await;
    for round in 1..=5 {
        assert_eq!(
            pdn.matches(&format!("[Round \"{round}\"]")).count(),
            3,
            "{pdn}"
        );
    }
    // On a connection of its own: alpha's first one still holds the event's screen.
    // alpha played in every round.
    until_count(&server, &keys[0], "games", 5).await;
}

/// One arena player's games, in order: (opponent, whether they moved first, whether they won).
type Played = Vec<(usize, bool, bool)>;

/// Plays `me`'s arena games until `until`: at each board (the event sends them there) they check who they face,
/// and the player listed first in [`NAMES`] wins (the other resigns).
async fn arena_player(
    me: usize,
    mut t: Terminal,
    players: usize,
    until: Instant,
) -> (Terminal, Played) {
    let mut played = Vec::new();
    let fresh = |s: &str| s.contains("move 1, Black to play: ") && !s.contains("resigned");
    loop {
        // Past the end, a player waits a while for a board paired before it (their screen may lag).
        let left = until.saturating_duration_since(Instant::now()) + Duration::from_secs(8);
        if !read_until(&mut t, left, |s| {
            fresh(s) && (s.contains("your move") || s.contains("is thinking"))
        })
        .await
        {
            break;
        }
        let screen = t.contents();
        let first = screen.contains("Black to play: your move");
        let opponents: Vec<usize> = (0..players)
            .filter(|&o| o != me && screen.contains(NAMES[o]))
            .collect();
        assert_eq!(opponents.len(), 1, "{} faces whom?\n{screen}", NAMES[me]);
        let opponent = opponents[0];
        let won = me < opponent;
        if !won {
            // Not at once: the winner's screen shows each board before it ends, so that both count every game
            // (a board resigned as it appears could go by between two reads of the winner's screen).
            tokio::time::sleep(Duration::from_millis(300)).await;
            t.send(b":resign\r").await;
            t.send(b"y").await;
        }
        // The end shows, and the next pairing may take the player on at once.
        let at = table_on(&screen);
        assert!(
            read_until(&mut t, Duration::from_secs(20), |s| s.contains("resigned")
                || table_on(s) != at)
            .await,
            "no end:\n{}",
            t.contents()
        );
        played.push((opponent, first, won));
    }
    (t, played)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_six_pairs_free_players_scores_streaks_and_ends_on_time() {
    use crowned::serve::event_rules::arena::ArenaPlayer;
    use crowned::serve::event_rules::{Colour, PlayerScore};

    const PLAYERS: usize = 6;
    let server = Server::start_with(
        "tournament-arena",
        "[server]\nidle-timeout = 600\nseat-grace = 60\n",
    );
    let mut handles = Vec::new();
    for name in &NAMES[..PLAYERS] {
        handles.push(connect(&server, &new_key(), name).await);
    }
    let (said, status) = ask(
        &handles[0],
        "tournament new arena seconds=12 3+2 in-seconds=4 casual name=Quick arena",
    )
    .await;
    assert_eq!(status, Some(0), "{said}");
    let code = event_code(&said);
    let terminals = enter_all(&handles, &code, "you are in").await;
    // The arena pairs for 12 seconds from its start (4 seconds after it was created); its last games finish.
    let until = Instant::now() + Duration::from_secs(16);
    let mut players = Vec::new();
    for (me, t) in terminals.into_iter().enumerate() {
        let t = t.expect("a terminal");
        players.push(tokio::spawn(arena_player(me, t, PLAYERS, until)));
    }
    let mut games: Vec<Played> = Vec::new();
    let mut screens = Vec::new();
    for player in players {
        let (t, played) = player.await.expect("an arena player");
        games.push(played);
        screens.push(t);
    }
    // Once the arena is over, its players leave their last boards for its final table by themselves.
    for t in &mut screens {
        t.wait_for("The event is over: the final table.").await;
    }
    let (text, rows) = final_table(&server, &code).await;

    // Every game was seen by both its players, the same way round.
    let total: usize = games.iter().map(Vec::len).sum();
    assert!(total >= 2 * PLAYERS, "too few games: {games:?}\n{text}");
    for (me, mine) in games.iter().enumerate() {
        for &(opponent, _, won) in mine {
            let theirs = games[opponent].iter().filter(|g| g.0 == me).count();
            let ours = mine.iter().filter(|g| g.0 == opponent).count();
            assert_eq!(theirs, ours, "{me} and {opponent}: {games:?}");
            assert_eq!(won, me < opponent, "{games:?}");
        }
        // Never the same opponent twice in a row.
        for pair in mine.windows(2) {
            assert_ne!(
                pair[0].0, pair[1].0,
                "{} met {} twice in a row",
                NAMES[me], NAMES[pair[0].0]
            );
        }
    }
    // The table is the arena's scoring of the games played: a win is 2, a draw 1, and doubled on a streak
    // (two wins in a row); alpha, who wins every game, leads on fire.
    let mut scored: Vec<ArenaPlayer> = (0..PLAYERS as u32).map(ArenaPlayer::new).collect();
    for (me, mine) in games.iter().enumerate() {
        for &(opponent, first, won) in mine {
            let colour = if first { Colour::First } else { Colour::Second };
            let score = if won {
                PlayerScore::Win
            } else {
                PlayerScore::Loss
            };
            scored[me].record(opponent as u32, colour, score);
        }
    }
    assert!(games[0].len() >= 3, "{games:?}");
    assert!(
        scored[0].points > 2 * scored[0].won,
        "no streak bonus: {text}"
    );
    assert_eq!(rows.len(), PLAYERS, "{text}");
    for row in &rows {
        let name = row.get(1).expect("a name");
        let who = NAMES.iter().position(|n| n == name).expect("an entrant");
        let p = &scored[who];
        assert_eq!(row[2], p.points.to_string(), "{name}: {text}");
        assert_eq!(
            row[3],
            format!("{}-{}-{}", p.won, p.drawn, p.lost),
            "{name}: {text}"
        );
    }
    assert_eq!(rows[0][1], "alpha", "{text}");
    assert!(rows[0].len() > 4 && text.contains("(on fire)"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn withdrawing_asks_first_and_a_withdrawn_player_is_not_paired() {
    let server = Server::start_with("tournament-withdraw", "[server]\nidle-timeout = 600\n");
    let names = ["bravo", "charlie"];
    let mut handles = Vec::new();
    for name in names {
        handles.push(connect(&server, &new_key(), name).await);
    }
    let (said, status) = ask(
        &handles[0],
        "tournament new swiss rounds=1 3+2 in-seconds=5 name=Short Swiss",
    )
    .await;
    assert_eq!(status, Some(0), "{said}");
    let code = event_code(&said);
    let mut terminals = enter_all(&handles, &code, "you are in").await;
    let bravo = terminals[0].as_mut().expect("bravo's terminal");

    // `w` asks; any other key keeps them in.
    bravo.send(b"w").await;
    assert!(
        read_until(bravo, Duration::from_secs(10), |s| s
            .contains("Withdraw from the event for good?"))
        .await,
        "{}",
        bravo.contents()
    );
    bravo.send(b"n").await;
    assert!(
        read_until(bravo, Duration::from_secs(10), |s| s.contains("w withdraw")
            && !s.contains("for good?"))
        .await,
        "{}",
        bravo.contents()
    );
    // `?` lists the screen's keys (from the key map, as everywhere); any key closes the list.
    bravo.send(b"?").await;
    assert!(
        read_until(bravo, Duration::from_secs(10), |s| s
            .contains("Tournament keys")
            && s.contains("withdraw from the event (asks first)"))
        .await,
        "{}",
        bravo.contents()
    );
    bravo.send(b"x").await;
    assert!(
        read_until(bravo, Duration::from_secs(10), |s| !s
            .contains("Tournament keys"))
        .await,
        "{}",
        bravo.contents()
    );
    // `w` then `y` withdraws, and leaves the event's screen.
    bravo.send(b"w").await;
    assert!(read_until(bravo, Duration::from_secs(10), |s| s.contains("for good?")).await);
    bravo.send(b"y").await;
    assert!(
        read_until(bravo, Duration::from_secs(10), |s| !s
            .contains("you are in"))
        .await,
        "{}",
        bravo.contents()
    );

    // Charlie is left alone: no one to pair, so the event ends with no round played and no board shown (had
    // bravo stayed in, the two would have met in round 1).
    let (text, rows) = final_table(&server, &code).await;
    let charlie = terminals[1].as_ref().expect("charlie's terminal");
    assert!(
        !charlie.contents().contains("Black to play"),
        "{}",
        charlie.contents()
    );
    assert!(!text.contains("Round 1"), "{text}");
    assert_eq!(
        rows.iter().filter(|row| !row.is_empty()).count(),
        2,
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_created_in_a_terminal_enters_its_creator() {
    let server = Server::start_with("tournament-creator", "[server]\nidle-timeout = 600\n");
    let alpha = connect(&server, &new_key(), "alpha").await;
    let mut t = Terminal::exec(
        &alpha,
        100,
        30,
        "tournament new swiss rounds=1 3+2 in-seconds=120 name=Own Swiss",
    )
    .await;
    // Straight to the event's screen, entered: no code to copy and type again.
    t.wait_for("you are in").await;
    t.wait_for("1 entered").await;
    assert!(t.contents().contains("Own Swiss"), "{}", t.contents());
}

/// Strangers cannot fill the server with events: one key creates as many as a day allows, fresh keys from one
/// address share that address's cap, and each refusal says which cap and when to try again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_a_key_or_an_address_creates_are_capped_with_the_reason() {
    let server = Server::start_with(
        "tournament-caps",
        "[server]\nidle-timeout = 600\nevents-per-key = 1\nevents-per-address = 2\n",
    );
    let words = "tournament new arena in=30 minutes=5 casual";
    let alpha = new_key();
    let (said, status) = ask_as(&server, &alpha, "alpha", words).await;
    assert_eq!(status, Some(0), "{said}");
    event_code(&said);
    let (_, said, status) = exec_as(&server, &alpha, "alpha", words).await;
    assert_ne!(status, Some(0), "{said}");
    assert!(said.contains("in the last 24 hours"), "{said}");
    assert!(said.contains("try tomorrow"), "{said}");
    // A fresh key from the same address: its first event is the address's second, and the last it may have.
    let (said, status) = ask_as(&server, &new_key(), "bravo", words).await;
    assert_eq!(status, Some(0), "{said}");
    let (_, said, status) = exec_as(&server, &new_key(), "charlie", words).await;
    assert_ne!(status, Some(0), "{said}");
    assert!(said.contains("from your address"), "{said}");
}
