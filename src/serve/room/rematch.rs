//! Another game between the same two players once one is over, as on lichess: offered by one, accepted by the
//! other (or offered by both), played at a new table with the colours swapped and the same clock. Both players
//! and the watchers are told its code and taken there by their connections.

use super::delivery::send_or_drop;
use super::{Color, Fingerprint, Identity, OfferKind, Room, RoomError, Update, Weak};

/// The players of a rematch, seated in its room before their connections arrive.
#[derive(Clone, Debug)]
pub struct Rematch {
    /// Black's and White's players, with the ratings they were shown with.
    pub seats: [(Identity, Option<i32>); 2],
}

impl Room {
    /// `color` offers a rematch: the opponent is asked, or, if they offered one already, it is agreed.
    pub(super) fn offer_rematch(&mut self, color: Color) -> Result<(), RoomError> {
        if self.game.outcome().is_none() {
            return Err(RoomError::RematchTooSoon);
        }
        let opponent = self.seats[color.opponent().index()]
            .as_ref()
            .ok_or(RoomError::NobodyToPlay)?;
        if opponent.away_since.is_some() {
            return Err(RoomError::OpponentLeft(opponent.who.name.clone()));
        }
        if self.offer == Some((color.opponent(), OfferKind::Rematch)) {
            // Both asked: nobody need answer.
            return self.open_rematch().map(|_| ());
        }
        self.offer = Some((color, OfferKind::Rematch));
        send_or_drop(&opponent.updates, Update::Offer(OfferKind::Rematch));
        Ok(())
    }

    /// The rematch agreed: a new room with the same settings, its seats taken by the same players with the
    /// colours swapped, and everyone here told its code. Nothing changes here.
    pub(super) fn open_rematch(&mut self) -> Result<bool, RoomError> {
        self.offer = None;
        let tables = self
            .tables
            .as_ref()
            .and_then(Weak::upgrade)
            .ok_or(RoomError::CannotOpenAnother)?;
        let [Some(black), Some(white)] = &self.seats else {
            return Err(RoomError::NobodyToPlay);
        };
        // Colours swapped: last game's White plays Black.
        let seats = [
            (white.who.clone(), white.rating),
            (black.who.clone(), black.rating),
        ];
        let (code, _) = tables
            .open_rematch(self.config, Rematch { seats })
            .ok_or(RoomError::NoFreeCodes)?;
        self.tell_everyone(&Update::Rematch(code.to_string()));
        Ok(false)
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
                    Update::Refused(RoomError::RematchOff(name).to_string()),
                );
            }
        }
    }

    fn tell_seat(&self, color: Color, update: Update) {
        if let Some(seat) = &self.seats[color.index()] {
            send_or_drop(&seat.updates, update);
        }
    }
}
