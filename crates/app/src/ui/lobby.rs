//! Drawing the lobby of a server ([`crate::app::lobby`]): the player and their rating at the top, the list (what
//! to do, their games, open games, games to watch) with the cursor, the leaderboard beside it when the screen is
//! wide enough, the form, the code being typed or the keys over it, and the status line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::app::lobby::{FORM_ROWS, Item, Lobby, LobbyGame, Panel, rating_text};
use crate::app::{Context, TrainingKind};
use crate::game::count;

/// The lobby's help: its own keys, the form's (the new-game dialog's), and Ctrl-c.
fn key_help(lobby: &Lobby) -> Vec<(String, &'static str)> {
    let keys = lobby.keys();
    let dialog = |names: &[&str]| {
        names
            .iter()
            .filter_map(|name| keys.first_key(Context::Dialog, name))
            .map(|key| key.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut lines = keys.help(Context::Lobby);
    lines.push((dialog(&["up", "down"]), "in the form: choose a row"));
    lines.push((dialog(&["left", "right"]), "in the form: change it"));
    lines.push((dialog(&["pick"]), "in the form: open the game"));
    lines.push(("Ctrl-c".to_string(), "leave at once"));
    lines
}

/// Draws the lobby on the whole frame.
pub fn draw(frame: &mut Frame, lobby: &Lobby) {
    let area = frame.area();
    let [main, status] = Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(area);
    let wide = main.width >= 100;
    let [list_area, side] = if wide {
        Layout::horizontal([Constraint::Min(60), Constraint::Length(34)]).areas(main)
    } else {
        [main, Rect::default()]
    };
    let buf = frame.buffer_mut();
    let title = format!(" crowned · lobby · {} ", lobby.name);
    let block = Block::bordered().title(title);
    let inner = block.inner(list_area);
    block.render(list_area, buf);
    Paragraph::new(list_lines(
        lobby,
        usize::from(inner.width),
        usize::from(inner.height),
    ))
    .render(inner, buf);
    if wide {
        leaderboard(buf, side, lobby);
    }
    Paragraph::new(Line::from(format!(" {}", lobby.message))).render(status, buf);
    match &lobby.panel {
        Some(Panel::Settings(screen)) => super::settings::draw(buf, main, screen),
        Some(Panel::Form(form)) => {
            let values = form.values();
            let mut lines = vec![Line::default()];
            for (row, (name, value)) in FORM_ROWS.iter().zip(values).enumerate() {
                let text = format!(" {name:<13} ‹ {value} ›");
                lines.push(if row == form.row {
                    Line::styled(text, Style::new().add_modifier(Modifier::REVERSED))
                } else {
                    Line::from(text)
                });
            }
            lines.push(Line::default());
            lines.push(Line::from(
                " Enter opens the game and shows its code; Esc goes back",
            ));
            overlay(buf, area, " A game against a person ", lines);
        }
        Some(Panel::Code(code)) => {
            let lines = vec![
                Line::default(),
                Line::from(format!(" Code: {code}_")),
                Line::default(),
                Line::from(" Enter joins, Esc goes back"),
            ];
            overlay(buf, area, " Join by code ", lines);
        }
        Some(Panel::NewEvent(words)) => {
            let lines = vec![
                Line::default(),
                Line::from(" arena or swiss, a variant, a clock, casual, private,"),
                Line::from(" in=MINUTES or at=HH:MM (UTC), minutes=N or rounds=N,"),
                Line::from(" name= and the name"),
                Line::default(),
                Line::from(format!(" {words}_")),
                Line::default(),
                Line::from(" Enter creates it and enters you, Esc goes back"),
            ];
            overlay(buf, area, " A new tournament ", lines);
        }
        Some(Panel::Help) => {
            let mut lines = vec![Line::default()];
            lines.extend(
                key_help(lobby)
                    .into_iter()
                    .map(|(keys, what)| Line::from(format!(" {keys:<18}{what}"))),
            );
            lines.push(Line::default());
            lines.push(Line::from(
                " In a game, ? lists the game's keys. Any key closes this.",
            ));
            overlay(buf, area, " Lobby keys ", lines);
        }
        Some(Panel::News(news)) => {
            // The newest first, each wrapped to the window, a blank line between them.
            let room = usize::from(area.width.saturating_sub(6)).clamp(20, 72);
            let mut lines = vec![Line::default()];
            for item in news.iter().rev() {
                for line in super::wrap_words(item, room) {
                    lines.push(Line::from(format!(" {line}")));
                }
                lines.push(Line::default());
            }
            lines.push(Line::from(" Any key closes this."));
            overlay(buf, area, " While you were away ", lines);
        }
        None => {}
    }
}

/// The list's lines that fit: a heading over each group, the cursor's line reversed, scrolled to keep it in
/// view.
fn list_lines(lobby: &Lobby, width: usize, height: usize) -> Vec<Line<'static>> {
    let rating = match (lobby.guest, lobby.rating) {
        (true, _) => "a guest: your games are not kept".to_string(),
        (false, Some(own)) => {
            let settled = match own.provisional {
                true => " (provisional)",
                false => "",
            };
            format!(
                "English rating {} after {}{settled}",
                rating_text(own.rating, own.provisional),
                count(
                    usize::try_from(own.games).unwrap_or(0),
                    "rated game",
                    "rated games"
                )
            )
        }
        (false, None) => "English rating: none yet".to_string(),
    };
    let mut lines: Vec<(Option<usize>, Line<'static>)> =
        vec![(None, Line::from(format!(" {rating}")))];
    for line in problems_lines(lobby) {
        lines.push((None, Line::from(format!(" {line}"))));
    }
    lines.push((None, Line::default()));
    let mut heading = "";
    for (index, item) in lobby.items.iter().enumerate() {
        let group = match item {
            Item::Mine(_) => "Your games in progress",
            Item::Open(_) => "Waiting for an opponent",
            Item::Live(_) => "Being played (Enter watches)",
            Item::Event(_) | Item::NewEvent => "Tournaments (Enter enters)",
            _ => "",
        };
        if group != heading {
            lines.push((None, Line::default()));
            if !group.is_empty() {
                lines.push((
                    None,
                    Line::styled(
                        format!(" {group}"),
                        Style::new().add_modifier(Modifier::BOLD),
                    ),
                ));
            }
            heading = group;
        }
        let text = format!("  {}", item_text(item));
        // A line cut to the width says so.
        let text: String = match text.chars().count() > width {
            true => text
                .chars()
                .take(width.saturating_sub(1))
                .chain(std::iter::once('…'))
                .collect(),
            false => text,
        };
        let line = if index == lobby.cursor {
            Line::from(Span::styled(
                format!("{text:<width$}"),
                Style::new().add_modifier(Modifier::REVERSED),
            ))
        } else {
            Line::from(text)
        };
        lines.push((Some(index), line));
    }
    let at = lines
        .iter()
        .position(|(index, _)| *index == Some(lobby.cursor))
        .unwrap_or(0);
    let skip = (at + 1).saturating_sub(height);
    lines.into_iter().skip(skip).map(|(_, line)| line).collect()
}

/// The player's problem standing and the problem of the day, when known.
fn problems_lines(lobby: &Lobby) -> Vec<String> {
    let standing = match (lobby.guest, lobby.problems) {
        (true, _) => None,
        (false, Some(p)) if p.tried > 0 || p.best_streak > 0 => Some(format!(
            "Problem rating {} after {} · best streak {}",
            p.rating,
            count(usize::try_from(p.tried).unwrap_or(0), "problem", "problems"),
            p.best_streak
        )),
        (false, _) => Some("Problem rating: none yet".to_string()),
    };
    let daily = lobby
        .daily
        .as_ref()
        .map(|t| format!("The problem of the day: {t}"));
    standing.into_iter().chain(daily).collect()
}

fn item_text(item: &Item) -> String {
    match item {
        Item::Engine => "Play the engine (e)".into(),
        Item::SavedGames => "Your saved games, to replay or go on with (o)".into(),
        Item::NewGame => "A new game against a person… (n)".into(),
        Item::JoinByCode => "Join a game by its code… (c)".into(),
        Item::Problems(TrainingKind::Daily) => "The problem of the day (d)".into(),
        Item::Problems(TrainingKind::Streak) => {
            "A problem streak: harder and harder, until a miss (s)".into()
        }
        Item::Problems(_) => "Problems near your problem rating (P)".into(),
        Item::Quit => "Leave (q)".into(),
        Item::Mine(game) | Item::Open(game) | Item::Live(game) => game_text(game),
        Item::Event(event) => format!("{}  {}", event.code, event.summary),
        Item::NewEvent => "A new tournament…".into(),
    }
}

/// A game in a list: `K7QX  ann – bob  english  5+3  rated  12 plies  2 watching`.
fn game_text(game: &LobbyGame) -> String {
    let name = |i: usize| {
        game.players[i]
            .clone()
            .unwrap_or_else(|| "(free)".to_string())
    };
    let clock = game
        .clock
        .map_or_else(|| "no clock".to_string(), |c| c.to_string());
    let mut text = format!(
        "{}  {} – {}  {}  {}  {}",
        game.code,
        name(0),
        name(1),
        game.game_type,
        clock,
        if game.rated { "rated" } else { "casual" }
    );
    if game.plies > 0 {
        text.push_str(&format!("  {} plies", game.plies));
    }
    if game.watchers > 0 {
        text.push_str(&format!("  {} watching", game.watchers));
    }
    text
}

fn leaderboard(buf: &mut ratatui::buffer::Buffer, area: Rect, lobby: &Lobby) {
    let block = Block::bordered().title(" Best English players ");
    let inner = block.inner(area);
    block.render(area, buf);
    let lines: Vec<Line> = match lobby.leaders.is_empty() {
        true => vec![Line::from(" no rated games yet")],
        false => lobby
            .leaders
            .iter()
            .enumerate()
            .map(|(rank, s)| {
                let name: String = s.name.chars().take(18).collect();
                let rating = rating_text(s.rating.round() as i32, s.provisional);
                Line::from(format!("{:>3}. {name:<18} {rating:>5}", rank + 1))
            })
            .collect(),
    };
    Paragraph::new(lines).render(inner, buf);
}

/// A bordered box in the middle of `area` holding `lines` (the lobby's panels, and the tournament screen's help).
pub(super) fn overlay(
    buf: &mut ratatui::buffer::Buffer,
    area: Rect,
    title: &str,
    lines: Vec<Line>,
) {
    let width = (lines.iter().map(Line::width).max().unwrap_or(20) as u16 + 4).min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    Clear.render(rect, buf);
    let block = Block::bordered().title(title.to_string());
    let inner = block.inner(rect);
    block.render(rect, buf);
    Paragraph::new(lines).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::app::lobby::Leader;
    use crate::app::{Key, KeyCode, KeyMap};
    use crate::rules::{GameType, Variant};

    fn game(code: &str, players: [Option<&str>; 2], plies: usize, watchers: usize) -> LobbyGame {
        LobbyGame {
            code: code.into(),
            game_type: GameType::standard(Variant::English),
            clock: "5+3".parse().ok(),
            rated: true,
            private: false,
            players: players.map(|p| p.map(str::to_string)),
            mine: players.contains(&Some("ann")),
            plies,
            over: false,
            watchers,
        }
    }

    fn drawn(lobby: &Lobby, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a terminal");
        terminal.draw(|frame| draw(frame, lobby)).expect("drawn");
        let buffer = terminal.backend().buffer();
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn lobby() -> Lobby {
        let mut lobby = Lobby::new("ann", false, KeyMap::default());
        lobby.rating = Some(crate::app::lobby::OwnRating {
            rating: 1512,
            games: 4,
            provisional: true,
        });
        lobby.problems = Some(crate::app::lobby::ProblemsShown {
            rating: 1534,
            tried: 7,
            best_streak: 3,
        });
        lobby.daily = Some("Gould's Problems #5".into());
        lobby.leaders = vec![Leader {
            name: "bob".into(),
            rating: 1620.4,
            games: 9,
            provisional: false,
        }];
        lobby.refresh(vec![
            game("K7QX", [Some("ann"), Some("bob")], 12, 0),
            game("M4TR", [Some("cy"), None], 0, 0),
            game("W9HD", [Some("dan"), Some("eve")], 31, 2),
        ]);
        lobby
    }

    #[test]
    fn a_line_cut_to_the_width_ends_with_an_ellipsis() {
        let mut lobby = lobby();
        lobby.list_events(vec![crate::app::lobby::LobbyEvent {
            code: "T4RN".into(),
            summary: format!(
                "Evening arena  arena 1 min 15 s  english 3+2  rated  {}",
                "x".repeat(80)
            ),
        }]);
        lobby.refresh(Vec::new());
        let shown = drawn(&lobby, 80, 60);
        let line = shown
            .lines()
            .find(|l| l.contains("T4RN"))
            .unwrap_or_else(|| panic!("{shown}"));
        assert!(line.trim_end_matches('│').ends_with('…'), "{line:?}");
        assert!(line.contains("arena 1 min 15 s"), "{line}");
    }

    #[test]
    fn the_lobby_80x24() {
        insta::assert_snapshot!(drawn(&lobby(), 80, 24));
    }

    #[test]
    fn one_rated_game_is_one_game() {
        let mut lobby = lobby();
        lobby.rating = Some(crate::app::lobby::OwnRating {
            rating: 1516,
            games: 1,
            provisional: true,
        });
        let screen = drawn(&lobby, 80, 24);
        assert!(screen.contains("after 1 rated game"), "{screen}");
        assert!(!screen.contains("1 rated games"), "{screen}");
    }

    #[test]
    fn the_lobby_with_its_leaderboard_and_the_form_120x30() {
        let mut lobby = lobby();
        let _ = lobby.key(Key::char('n'));
        let _ = lobby.key(Key::plain(KeyCode::Down));
        insta::assert_snapshot!(drawn(&lobby, 120, 30));
    }

    #[test]
    fn the_lobby_s_keys_80x24() {
        let mut lobby = lobby();
        let _ = lobby.key(Key::char('?'));
        insta::assert_snapshot!(drawn(&lobby, 80, 24));
    }
}
