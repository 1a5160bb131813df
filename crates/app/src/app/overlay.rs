//! What is open over the game and takes the player's input before it: the offer to resume an unfinished game, a
//! yes/no question, the new-game dialog, a list of games, or the help.
//!
//! One value says which, so the keys, the clicks, the app's dispatch and the drawing all ask the same question and
//! get the same answer. At most one of them is open, with one exception: the help opens over a question, the
//! dialog or a list (not over the resume offer, which outranks everything), holds what it covers, and gives it
//! back when it closes.

use super::dialog::NewGameDialog;
use super::library::GameList;
use super::settings_screen::SettingsScreen;
use super::table::OfferKind;
use crate::engine::Players;
use crate::game::{AnyGame, ClockState, RulesPage};
use crate::rules::Color;

/// An unfinished game found at start, offered for resuming.
#[derive(Clone, Debug)]
pub struct ResumeOffer {
    /// The game.
    pub game: AnyGame,
    /// Who played it.
    pub players: Players,
    /// Its clocks as they stood, when it has them.
    pub clock: Option<ClockState>,
}

/// A yes/no question waiting for the player's answer; nothing else is played until it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Does this side (the player's) resign?
    Resign(Color),
    /// `from` offers a draw: does the other side accept?
    Draw {
        /// The side offering.
        from: Color,
    },
    /// The opponent at a table offers something: does the player accept?
    Offered(OfferKind),
    /// A game is in progress: does the player quit (or, at a table, leave it)?
    Quit {
        /// Whether the player is leaving a seat at a table (kept for them a while) rather than quitting.
        leaving: bool,
    },
}

impl Question {
    /// The question in words, with the answers.
    pub fn text(self) -> String {
        self.text_from(None)
    }

    /// The question in words, naming the opponent at a table who asks (`bob offers a draw…`) when known.
    pub fn text_from(self, opponent: Option<&str>) -> String {
        if let (Question::Offered(kind), Some(name)) = (self, opponent) {
            return match kind {
                OfferKind::Draw => format!("{name} offers a draw. Accept? y: accept, n: decline"),
                OfferKind::Pause => format!(
                    "{name} asks to stop the clocks for a while. Agree? y: agree, n: refuse"
                ),
                OfferKind::Takeback => format!(
                    "{name} asks to take back their last move. Allow it? y: allow, n: refuse"
                ),
                OfferKind::Rematch => format!(
                    "{name} offers a rematch, colours swapped, same clock. Accept? y: accept, n: decline"
                ),
            };
        }
        match self {
            Question::Resign(side) => {
                format!("Resign the game for {side}? y: resign, n: play on")
            }
            Question::Draw { from } => format!(
                "{from} offers a draw. {}, do you accept? y: accept, n: decline",
                from.opponent()
            ),
            Question::Offered(OfferKind::Draw) => {
                "Your opponent offers a draw. Accept? y: accept, n: decline".into()
            }
            Question::Offered(OfferKind::Pause) => {
                "Your opponent asks to stop the clocks for a while. Agree? y: agree, n: refuse"
                    .into()
            }
            Question::Offered(OfferKind::Rematch) => {
                "Your opponent offers a rematch, colours swapped, same clock. Accept? y: accept, n: decline"
                    .into()
            }
            Question::Offered(OfferKind::Takeback) => {
                "Your opponent asks to take back their last move. Allow it? y: allow, n: refuse"
                    .into()
            }
            Question::Quit { leaving: true } => {
                "A game is in progress. Leave the table? Your seat is kept a while. y: leave, n: stay"
                    .into()
            }
            Question::Quit { leaving: false } => {
                "A game is in progress. Quit? y: quit, n: play on".into()
            }
        }
    }
}

/// What is open over the game. The first to be asked about a key, a click or an action is the one on top.
#[derive(Clone, Debug)]
pub enum Overlay {
    /// The offer to resume an unfinished game: only its answers count until it is answered.
    Resume(Box<ResumeOffer>),
    /// A question: its answers, the help and quitting count.
    Question(Question),
    /// The new-game dialog.
    Dialog(NewGameDialog),
    /// A list of games to choose from.
    List(Box<GameList>),
    /// The settings screen.
    Settings(Box<SettingsScreen>),
    /// The help, over what it covers.
    Help(Help),
}

/// The help overlay: the keys or the game's rules, how far it is scrolled, and what it was opened over.
#[derive(Clone, Debug)]
pub struct Help {
    scroll: usize,
    /// The rules page on show, made when it was opened; the keys when `None`.
    rules: Option<Box<RulesPage>>,
    /// Never the help itself nor the resume offer: [`OverlaySlot`] builds it only over the others.
    covers: Option<Box<Overlay>>,
}

impl Help {
    /// How far the help is scrolled: lines out of view at the top.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// The rules page, when the help shows it rather than the keys.
    pub fn rules(&self) -> Option<&RulesPage> {
        self.rules.as_deref()
    }

    /// What the help was opened over, shown again when it closes.
    pub fn covers(&self) -> Option<&Overlay> {
        self.covers.as_deref()
    }
}

/// The app's one place for overlays: nothing, one overlay, or the help over one. Every change goes through here,
/// so the help never covers itself or the resume offer.
#[derive(Clone, Debug, Default)]
pub(super) struct OverlaySlot(Option<Overlay>);

impl OverlaySlot {
    /// The overlay on top, which takes the player's input first.
    pub fn top(&self) -> Option<&Overlay> {
        self.0.as_ref()
    }

    /// The overlay the app's actions go to: the one on top, or the one under the help (the help itself takes only
    /// its own actions).
    pub fn panel(&self) -> Option<&Overlay> {
        match self.0.as_ref()? {
            Overlay::Help(help) => help.covers(),
            other => Some(other),
        }
    }

    /// The new-game dialog, open for changing.
    pub fn dialog_mut(&mut self) -> Option<&mut NewGameDialog> {
        match self.panel_mut()? {
            Overlay::Dialog(dialog) => Some(dialog),
            _ => None,
        }
    }

    /// The list of games, open for changing.
    pub fn list_mut(&mut self) -> Option<&mut GameList> {
        match self.panel_mut()? {
            Overlay::List(list) => Some(list),
            _ => None,
        }
    }

    /// The settings screen, open for changing.
    pub fn settings_mut(&mut self) -> Option<&mut SettingsScreen> {
        match self.panel_mut()? {
            Overlay::Settings(screen) => Some(screen),
            _ => None,
        }
    }

    fn panel_mut(&mut self) -> Option<&mut Overlay> {
        match self.0.as_mut()? {
            Overlay::Help(help) => help.covers.as_deref_mut(),
            other => Some(other),
        }
    }

    /// The help, when it is on top.
    pub fn help(&self) -> Option<&Help> {
        match self.0.as_ref()? {
            Overlay::Help(help) => Some(help),
            _ => None,
        }
    }

    /// Offers to resume an unfinished game.
    pub fn offer_resume(&mut self, offer: ResumeOffer) {
        self.open(Overlay::Resume(Box::new(offer)));
    }

    /// Asks a question.
    pub fn ask(&mut self, question: Question) {
        self.open(Overlay::Question(question));
    }

    /// Opens the new-game dialog.
    pub fn open_dialog(&mut self, dialog: NewGameDialog) {
        self.open(Overlay::Dialog(dialog));
    }

    /// Opens the settings screen.
    pub fn open_settings(&mut self, screen: SettingsScreen) {
        self.open(Overlay::Settings(Box::new(screen)));
    }

    /// Opens a list of games.
    pub fn open_list(&mut self, list: GameList) {
        self.open(Overlay::List(Box::new(list)));
    }

    /// Opens `overlay` (never the help) in place of the one open, under the help when the help is open. The
    /// resume offer outranks everything: nothing opens while it waits, and it opens over everything, the help
    /// included.
    fn open(&mut self, overlay: Overlay) {
        let resume = matches!(overlay, Overlay::Resume(_));
        match &mut self.0 {
            Some(Overlay::Resume(_)) => {}
            Some(Overlay::Help(help)) if !resume => help.covers = Some(Box::new(overlay)),
            slot => *slot = Some(overlay),
        }
    }

    /// Closes the overlay the app's actions go to ([`OverlaySlot::panel`]) and returns it; the help, if it was
    /// over it, stays open over nothing.
    pub fn close_panel(&mut self) -> Option<Overlay> {
        match &mut self.0 {
            Some(Overlay::Help(help)) => help.covers.take().map(|under| *under),
            slot => slot.take(),
        }
    }

    /// Opens the help over what is open, or closes it and shows what it covered. The resume offer keeps it shut.
    pub fn toggle_help(&mut self) {
        match self.0.take() {
            Some(Overlay::Help(help)) => self.0 = help.covers.map(|under| *under),
            under => self.show_help_over(under),
        }
    }

    /// Opens the help at its top over what is open; if it is open already, scrolls it back to the top.
    pub fn show_help(&mut self) {
        match self.0.take() {
            Some(Overlay::Help(help)) => self.show_help_over(help.covers.map(|under| *under)),
            under => self.show_help_over(under),
        }
    }

    /// Puts the help at its top over `under`, unless `under` is the resume offer, which stays as it was.
    fn show_help_over(&mut self, under: Option<Overlay>) {
        self.0 = Some(match under {
            Some(resume @ Overlay::Resume(_)) => resume,
            under => Overlay::Help(Help {
                scroll: 0,
                rules: None,
                covers: under.map(Box::new),
            }),
        });
    }

    /// Shows the rules page made by `page` (the help opening at it over what is open); from the rules page, goes
    /// back to the keys. The resume offer keeps the help shut.
    pub fn toggle_rules(&mut self, page: impl FnOnce() -> RulesPage) {
        if self.help().is_none() {
            self.show_help();
        }
        if let Some(Overlay::Help(help)) = &mut self.0 {
            help.rules = match help.rules {
                Some(_) => None,
                None => Some(Box::new(page())),
            };
            help.scroll = 0;
        }
    }

    /// Closes the help, if it is open, showing what it covered.
    pub fn close_help(&mut self) {
        if let Some(Overlay::Help(help)) = self.0.take_if(|o| matches!(o, Overlay::Help(_))) {
            self.0 = help.covers.map(|under| *under);
        }
    }

    /// Scrolls the open help by `lines`, never past line `last`.
    pub fn scroll_help(&mut self, lines: isize, last: usize) {
        if let Some(Overlay::Help(help)) = &mut self.0 {
            help.scroll = help.scroll.saturating_add_signed(lines).min(last);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::library::ListPurpose;
    use crate::engine::{Level, Player};

    fn dialog() -> NewGameDialog {
        NewGameDialog::new(
            crate::rules::GameType::default(),
            Players {
                black: Player::Human,
                white: Player::Engine(Level::Easy),
            },
        )
    }

    fn resume() -> ResumeOffer {
        ResumeOffer {
            game: AnyGame::default(),
            players: Players {
                black: Player::Human,
                white: Player::Human,
            },
            clock: None,
        }
    }

    #[test]
    fn the_help_covers_what_is_open_and_gives_it_back() {
        let mut slot = OverlaySlot::default();
        slot.open_dialog(dialog());
        slot.toggle_help();
        assert!(slot.help().is_some(), "the help is on top");
        assert!(matches!(slot.panel(), Some(Overlay::Dialog(_))));
        slot.scroll_help(3, 10);
        assert_eq!(slot.help().map(Help::scroll), Some(3));
        slot.toggle_help();
        assert!(matches!(slot.top(), Some(Overlay::Dialog(_))));

        // What opens while the help is open goes under it; what closes under it leaves the help over nothing.
        slot.show_help();
        slot.ask(Question::Resign(Color::White));
        assert!(matches!(slot.panel(), Some(Overlay::Question(_))));
        assert!(matches!(slot.close_panel(), Some(Overlay::Question(_))));
        assert!(slot.help().is_some_and(|h| h.covers().is_none()));
        slot.close_help();
        assert!(slot.top().is_none());
    }

    #[test]
    fn the_rules_page_opens_over_what_is_open_and_turns_back_to_the_keys() {
        let mut slot = OverlaySlot::default();
        slot.open_dialog(dialog());
        slot.toggle_rules(|| RulesPage::of(&AnyGame::default()));
        let rules = slot
            .help()
            .and_then(Help::rules)
            .map(|page| page.title.clone());
        assert_eq!(rules.as_deref(), Some("English draughts"));
        assert!(matches!(slot.panel(), Some(Overlay::Dialog(_))));
        slot.scroll_help(2, 10);
        slot.toggle_rules(|| unreachable!("the page is open: no new one is made"));
        assert!(
            slot.help()
                .is_some_and(|help| help.rules().is_none() && help.scroll() == 0)
        );
        slot.toggle_help();
        assert!(matches!(slot.top(), Some(Overlay::Dialog(_))));
        // The resume offer keeps the rules shut as it keeps the help.
        let mut slot = OverlaySlot::default();
        slot.offer_resume(resume());
        slot.toggle_rules(|| RulesPage::of(&AnyGame::default()));
        assert!(matches!(slot.top(), Some(Overlay::Resume(_))));
    }

    #[test]
    fn showing_the_help_again_scrolls_it_to_the_top() {
        let mut slot = OverlaySlot::default();
        slot.show_help();
        slot.scroll_help(5, 3);
        assert_eq!(slot.help().map(Help::scroll), Some(3), "never past the end");
        slot.show_help();
        assert_eq!(slot.help().map(Help::scroll), Some(0));
        assert!(slot.help().is_some_and(|h| h.covers().is_none()));
    }

    #[test]
    fn the_resume_offer_outranks_everything() {
        let mut slot = OverlaySlot::default();
        slot.offer_resume(resume());
        slot.toggle_help();
        slot.show_help();
        slot.open_dialog(dialog());
        assert!(matches!(slot.top(), Some(Overlay::Resume(_))));
        assert!(slot.help().is_none());
        assert!(matches!(slot.close_panel(), Some(Overlay::Resume(_))));
        assert!(slot.top().is_none());

        // Offered while the help is open, it takes the help's place rather than hide under it.
        slot.open_list(GameList::new("t", Vec::new(), ListPurpose::Load));
        slot.show_help();
        slot.offer_resume(resume());
        assert!(matches!(slot.top(), Some(Overlay::Resume(_))));
    }
}
