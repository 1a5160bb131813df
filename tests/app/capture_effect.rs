//! The optional capture effect (`display.capture-effect = "explode"`): bursts over taken pieces on their own
//! timer, ended by any key, never in the way of play; what it looks like; and what it costs over the wire.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::Duration;

use crowned::app::{
    Action, App, BURST_FRAME, CaptureEffect, Context, Effect, KeyMap, Player, Players, Preferences,
    Timer,
};
use crowned::engine::Level;
use crowned::rules::Square;
use crowned::ui::{self, Options, PieceStyle, Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{TerminalOptions, Viewport};

use crate::common;

use common::app::{HUMANS, app_from, sq};
use common::screen::{render, screen, text};

/// Black's 14 takes 18 and 27 in a double jump, landing on 32; White's 25 plays on.
const DOUBLE_JUMP: &str = "B:W18,25,27:B14";

/// An app on [`DOUBLE_JUMP`] with the capture effect as given and the animation's step (`None`: off).
fn app_with(effect: CaptureEffect, step: Option<Duration>, players: Players) -> App {
    let mut app = app_from(DOUBLE_JUMP, players);
    app.set_preferences(Preferences {
        capture_effect: effect,
        animation_step: step,
        ..Preferences::default()
    });
    app
}

fn wakes(effects: &[Effect], timer: Timer) -> usize {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::Wake { timer: t, .. } if *t == timer))
        .count()
}

fn sparks(app: &App) -> Vec<(Square, usize)> {
    app.burst().sparks().to_vec()
}

#[test]
fn off_by_default_a_capture_bursts_nothing() {
    assert_eq!(Preferences::default().capture_effect, CaptureEffect::None);
    let mut app = app_from(DOUBLE_JUMP, HUMANS);
    let mut effects = app.update(Action::Submit("14x23x32".into()));
    while app.animation().is_some() {
        effects.extend(app.update(Action::Timer(Timer::Animation)));
    }
    assert_eq!(wakes(&effects, Timer::Burst), 0);
    assert!(app.burst().is_empty());
}

#[test]
fn with_the_animation_each_piece_bursts_as_it_is_jumped_and_the_bursts_end_on_their_timer() {
    let step = Some(Duration::from_millis(150));
    let mut app = app_with(CaptureEffect::Explode, step, HUMANS);
    let effects = app.update(Action::Submit("14x23x32".into()));
    assert_eq!(wakes(&effects, Timer::Animation), 1);
    assert!(
        app.burst().is_empty(),
        "nothing taken before the first jump"
    );

    let effects = app.update(Action::Timer(Timer::Animation));
    assert_eq!(sparks(&app), vec![(sq(18), 0)], "18 bursts as it is jumped");
    assert_eq!(wakes(&effects, Timer::Burst), 1);
    let first_frame = screen(&app, 80, 24);
    assert!(first_frame.contains('✸'), "{first_frame}");

    let _ = app.update(Action::Timer(Timer::Burst));
    assert_eq!(sparks(&app), vec![(sq(18), 1)]);
    assert!(screen(&app, 80, 24).contains('✺'));

    // The last landing: the picture is the game's, and 27 bursts, joining the running timer.
    let effects = app.update(Action::Timer(Timer::Animation));
    assert!(app.animation().is_none());
    assert_eq!(sparks(&app), vec![(sq(18), 1), (sq(27), 0)]);
    assert_eq!(wakes(&effects, Timer::Burst), 0, "one timer for them all");

    let effects = app.update(Action::Timer(Timer::Burst));
    assert_eq!(sparks(&app), vec![(sq(18), 2), (sq(27), 1)]);
    assert_eq!(wakes(&effects, Timer::Burst), 1);
    let _ = app.update(Action::Timer(Timer::Burst));
    assert_eq!(sparks(&app), vec![(sq(27), 2)]);
    let effects = app.update(Action::Timer(Timer::Burst));
    assert!(app.burst().is_empty());
    assert_eq!(wakes(&effects, Timer::Burst), 0, "over: no more wake-ups");
    let after = screen(&app, 80, 24);
    assert!(!after.contains('✸') && !after.contains('✺'), "{after}");
}

#[test]
fn without_the_animation_every_taken_piece_bursts_at_once() {
    let mut app = app_with(CaptureEffect::Explode, None, HUMANS);
    let effects = app.update(Action::Submit("14x23x32".into()));
    assert_eq!(wakes(&effects, Timer::Animation), 0);
    let wake = effects.iter().find_map(|e| match e {
        Effect::Wake {
            timer: Timer::Burst,
            after,
        } => Some(*after),
        _ => None,
    });
    assert_eq!(wake, Some(BURST_FRAME));
    let mut taken = sparks(&app);
    taken.sort();
    assert_eq!(taken, vec![(sq(18), 0), (sq(27), 0)]);
    for _ in 0..3 {
        let _ = app.update(Action::Timer(Timer::Burst));
    }
    assert!(app.burst().is_empty(), "three frames, then gone");
}

#[test]
fn a_key_ends_the_bursts_at_once_and_a_late_timer_does_nothing() {
    let mut app = app_with(CaptureEffect::Explode, None, HUMANS);
    let _ = app.update(Action::Submit("14x23x32".into()));
    assert!(!app.burst().is_empty());
    let _ = app.update(Action::Left);
    assert!(app.burst().is_empty());
    let effects = app.update(Action::Timer(Timer::Burst));
    assert!(effects.is_empty(), "{effects:?}");
    assert!(app.burst().is_empty());
}

#[test]
fn the_engine_is_asked_for_its_move_as_the_players_capture_bursts() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Easy),
    };
    let mut app = app_with(CaptureEffect::Explode, None, players);
    let effects = app.update(Action::Submit("14x23x32".into()));
    assert_eq!(wakes(&effects, Timer::Burst), 1, "the player's move bursts");
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Think { .. })),
        "the engine thinks at once: {effects:?}"
    );
}

#[test]
fn the_key_and_the_command_toggle_it_for_the_session() {
    let x = "X".parse().expect("a key");
    assert_eq!(
        KeyMap::default()
            .command_for(Context::Board, x)
            .map(|c| c.name),
        Some("capture-effect")
    );
    let mut app = app_from(DOUBLE_JUMP, HUMANS);
    let _ = app.update(Action::ToggleCaptureEffect);
    assert_eq!(app.preferences().capture_effect, CaptureEffect::Explode);
    assert!(
        app.status().contains("capture effect on"),
        "{}",
        app.status()
    );
    let _ = app.update(Action::Submit(":explode".into()));
    assert_eq!(app.preferences().capture_effect, CaptureEffect::None);
    assert!(
        app.status().contains("capture effect off"),
        "{}",
        app.status()
    );
    let _ = app.update(Action::Submit(":effect".into()));
    assert_eq!(app.preferences().capture_effect, CaptureEffect::Explode);
}

/// The first frame of the double jump's bursts, both pieces at once (no animation).
fn bursting() -> App {
    let mut app = app_with(CaptureEffect::Explode, None, HUMANS);
    let _ = app.update(Action::Submit("14x23x32".into()));
    app
}

#[test]
fn a_burst_frame_80x24() {
    insta::assert_snapshot!(screen(&bursting(), 80, 24));
}

#[test]
fn a_burst_frame_in_ascii_80x24() {
    let options = Options {
        pieces: PieceStyle::Ascii,
        ..Options::default()
    };
    insta::assert_snapshot!(text(&render(&bursting(), 80, 24, &options)));
}

#[test]
fn the_burst_is_coloured_by_the_theme_and_plain_without_colour() {
    let app = bursting();
    let find = |buf: &ratatui::buffer::Buffer| {
        buf.content()
            .iter()
            .find(|cell| cell.symbol() == "✸")
            .cloned()
            .expect("a burst on screen")
    };
    let classic = find(&render(&app, 80, 24, &Options::default()));
    assert_eq!(
        Some(classic.fg),
        Theme::new(ThemeName::Classic, false).burst.fg
    );
    let mono = Options {
        theme: Theme::new(ThemeName::Classic, true),
        ..Options::default()
    };
    let plain = find(&render(&app, 80, 24, &mono));
    assert_eq!(
        plain.fg,
        ratatui::style::Color::Reset,
        "NO_COLOR: the glyph alone"
    );
}

/// A terminal that only counts the bytes it is sent.
#[derive(Clone, Default)]
struct Counted(Rc<Cell<usize>>);

impl Write for Counted {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.set(self.0.get() + bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The bytes a terminal is sent for the frames after the double jump, drawn as the front end draws them (after
/// every update, the timers firing in the order of their deadlines), on an 80x24 screen.
fn bytes_after_the_move(effect: CaptureEffect, step: Option<Duration>) -> (usize, usize) {
    let mut app = app_with(effect, step, HUMANS);
    let options = TerminalOptions {
        viewport: Viewport::Fixed(Rect::new(0, 0, 80, 24)),
    };
    let sent = Counted::default();
    let mut terminal =
        Terminal::with_options(CrosstermBackend::new(sent.clone()), options).expect("terminal");
    let draw = |terminal: &mut Terminal<CrosstermBackend<Counted>>, app: &App| {
        terminal
            .draw(|frame| ui::draw(frame, app, &Options::default()))
            .expect("draw");
    };
    draw(&mut terminal, &app);
    let before = sent.0.get();
    let mut now = Duration::ZERO;
    let mut timers: BTreeMap<Timer, Duration> = BTreeMap::new();
    let mut effects = app.update(Action::Submit("14x23x32".into()));
    let mut frames = 0;
    loop {
        draw(&mut terminal, &app);
        frames += 1;
        for effect in effects {
            if let Effect::Wake { timer, after } = effect {
                timers.insert(timer, now + after);
            }
        }
        let Some((&timer, &at)) = timers.iter().min_by_key(|(_, at)| **at) else {
            break;
        };
        timers.remove(&timer);
        now = at;
        effects = app.update(Action::Timer(timer));
    }
    (sent.0.get() - before, frames)
}

/// The figure for the capture effect's cost over the wire: `cargo test --test app bytes_over_the_wire -- --ignored
/// --nocapture`.
#[test]
#[ignore = "prints a measurement"]
fn bytes_over_the_wire() {
    for (name, step) in [
        ("animation 0.15 s", Some(Duration::from_millis(150))),
        ("no animation", None),
    ] {
        let (off, off_frames) = bytes_after_the_move(CaptureEffect::None, step);
        let (on, on_frames) = bytes_after_the_move(CaptureEffect::Explode, step);
        println!(
            "{name}: effect off {off} bytes in {off_frames} frames, on {on} bytes in {on_frames} frames \
             (+{} bytes)",
            on - off
        );
    }
}
