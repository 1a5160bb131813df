//! Another game between the same two players once one is over, as on lichess: offered by one, accepted by the
//! other (or offered by both), played at a new table with the colours swapped and the same clock. Both players
//! and the watchers are told its code and taken there by their connections.

use super::{
    Color, Fingerprint, OfferKind, Rematch, Table, TableCode, TableEffect, TableError, Update,
};

impl Table {
    /// `color` offers a rematch: the opponent is asked, or, if they offered one already, it is agreed.
    pub(super) fn offer_rematch(&mut self, color: Color) -> Result<(), TableError> {
        if self.game.outcome().is_none() {
            return Err(TableError::RematchTooSoon);
        }
        if self.event.is_some() {
            return Err(TableError::RematchInEvent);
        }
        let opponent = self.seats[color.opponent().index()]
            .as_ref()
            .ok_or(TableError::NobodyToPlay)?;
        if opponent.away_since.is_some() {
            return Err(TableError::OpponentLeft(opponent.who.name.clone()));
        }
        if self.offer == Some((color.opponent(), OfferKind::Rematch)) {
            // Both asked: nobody need answer.
            return self.open_rematch();
        }
        self.offer = Some((color, OfferKind::Rematch));
        self.tell_seat(color.opponent(), Update::Offer(OfferKind::Rematch));
        Ok(())
    }

    /// The rematch agreed: a new table with the same settings is asked for, its seats taken by the same players
    /// with the colours swapped ([`Table::rematch_opened`] tells everyone here its code). Nothing changes here.
    pub(super) fn open_rematch(&mut self) -> Result<(), TableError> {
        self.offer = None;
        let [Some(black), Some(white)] = &self.seats else {
            return Err(TableError::NobodyToPlay);
        };
        // Colours swapped: last game's White plays Black.
        let seats = [
            (white.who.clone(), white.rating),
            (black.who.clone(), black.rating),
        ];
        self.out.push(TableEffect::OpenRematch {
            config: self.config,
            rematch: Rematch { seats },
        });
        Ok(())
    }

    /// The rematch's table is open (everyone here is told its code), or could not be (both players are told
    /// why).
    pub(super) fn rematch_opened(&mut self, opened: Result<TableCode, TableError>) {
        match opened {
            Ok(code) => self.tell_everyone(&Update::Rematch(code.to_string())),
            Err(why) => {
                for color in [Color::Black, Color::White] {
                    self.tell_seat(color, Update::Refused(why.to_string()));
                }
            }
        }
    }

    /// `who` has left the table: a rematch they offered or were offered is off, and the other is told.
    pub(super) fn rematch_off(&mut self, who: &Fingerprint) {
        let Some(leaving) = self.seat_of(who) else {
            return;
        };
        if let Some((from, OfferKind::Rematch)) = self.offer {
            self.offer = None;
            let name = self.name_of(who).unwrap_or_default();
            if from != leaving {
                self.tell_seat(
                    from,
                    Update::Refused(TableError::RematchOff(name).to_string()),
                );
            }
        }
    }

    /// Sends `update` to the player of `color`, when they are connected.
    pub(super) fn tell_seat(&mut self, color: Color, update: Update) {
        if let Some(conn) = self.seats[color.index()].as_ref().and_then(|s| s.conn) {
            self.send(conn, update);
        }
    }
}
