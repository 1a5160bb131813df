//! Drawing a tournament as an entrant sees it on a server: the event's heading and where the player stands (their
//! game, or the wait for one), then its table and pairings, and the keys.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::{Context, EventScreen, KeyMap};

/// The keys' line of the tournament screen under `keys`: `j/k scroll · w withdraw · ? keys · q leave`.
pub fn keys_line(keys: &KeyMap) -> String {
    let key = |name: &str, fallback: &str| {
        keys.first_key(Context::Event, name)
            .map_or_else(|| fallback.to_string(), |k| k.to_string())
    };
    format!(
        "{}/{} scroll · {} withdraw · {} keys · {} leave (you are not paired while away)",
        key("down", "Down"),
        key("up", "Up"),
        key("withdraw", "w"),
        key("help", "?"),
        key("leave", "q"),
    )
}

/// What the keys' line asks once the player has pressed the key that withdraws: withdrawing cannot be undone,
/// so one key alone does not do it.
pub const CONFIRM_WITHDRAWAL: &str =
    "Withdraw from the event for good? y withdraws · any other key stays in";

/// Draws the tournament screen on the whole frame.
pub fn draw(frame: &mut Frame, screen: &EventScreen) {
    let [status, table, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    frame.render_widget(
        Paragraph::new(Line::styled(
            screen.status.as_str(),
            Style::default().add_modifier(Modifier::BOLD),
        )),
        status,
    );
    let lines: Vec<Line> = screen.table.lines().map(Line::from).collect();
    frame.render_widget(
        Paragraph::new(lines).scroll((screen.scroll, 0)).block(
            Block::default()
                .borders(Borders::ALL)
                .title(screen.title.as_str()),
        ),
        table,
    );
    let line = match screen.confirming_withdrawal {
        true => Line::styled(
            CONFIRM_WITHDRAWAL,
            Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        ),
        false => Line::from(keys_line(screen.keys())),
    };
    frame.render_widget(Paragraph::new(line), keys);
    if let Some(help) = &screen.help {
        let mut lines = vec![Line::default()];
        lines.extend(
            help.iter()
                .map(|(keys, what)| Line::from(format!(" {keys:<18}{what}"))),
        );
        lines.push(Line::from(" Ctrl-c            leave the server at once"));
        lines.push(Line::default());
        lines.push(Line::from(" Any key closes this."));
        let area = frame.area();
        super::lobby::overlay(frame.buffer_mut(), area, " Tournament keys ", lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// Draws `screen` and reads the whole buffer back as text.
    fn drawn(terminal: &mut Terminal<TestBackend>, screen: &EventScreen) -> String {
        terminal.draw(|f| draw(f, screen)).expect("drawn");
        terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect()
    }

    #[test]
    fn shows_the_status_the_table_and_the_keys() {
        let mut terminal = Terminal::new(TestBackend::new(60, 8)).expect("a terminal");
        let mut screen = EventScreen::new(crate::config::Settings::defaults().keys);
        screen.title = "Autumn (K7QX)".into();
        screen.status = "Waiting for your pairing".into();
        screen.table = "  1  ann  4\n  2  bob  2\n".into();
        screen.scroll = 1;
        let shown = drawn(&mut terminal, &screen);
        assert!(shown.contains("Waiting for your pairing"), "{shown}");
        assert!(shown.contains("Autumn (K7QX)"), "{shown}");
        assert!(
            shown.contains("2  bob  2") && !shown.contains("1  ann"),
            "{shown}"
        );
        assert!(
            shown.contains("w withdraw") && shown.contains("? keys"),
            "{shown}"
        );
    }

    #[test]
    fn the_help_lists_the_screen_s_keys_as_bound() {
        let mut terminal = Terminal::new(TestBackend::new(90, 16)).expect("a terminal");
        let mut keys = crate::config::Settings::defaults().keys;
        keys.bind(
            Context::Event,
            "withdraw",
            &[crate::app::KeyChord::new(
                crate::app::KeyCode::Char('x'),
                crate::app::Modifiers::NONE,
            )],
        )
        .expect("bound");
        let mut screen = EventScreen::new(keys);
        screen.help = Some(screen.keys().help(Context::Event));
        let shown = drawn(&mut terminal, &screen);
        assert!(shown.contains("Tournament keys"), "{shown}");
        assert!(shown.contains("withdraw from the event"), "{shown}");
        assert!(shown.contains("x withdraw"), "{shown}");
    }

    #[test]
    fn withdrawing_is_asked_about_on_the_keys_line() {
        let mut terminal = Terminal::new(TestBackend::new(80, 6)).expect("a terminal");
        let mut screen = EventScreen::new(crate::config::Settings::defaults().keys);
        screen.confirming_withdrawal = true;
        let shown = drawn(&mut terminal, &screen);
        assert!(shown.contains(CONFIRM_WITHDRAWAL), "{shown}");
        assert!(!shown.contains("w withdraw"), "{shown}");
    }
}
