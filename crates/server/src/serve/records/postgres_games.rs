//! A game's writes in PostgreSQL (its moves, clocks and result), fenced by its table's lease when the records are
//! those of one node of several, and the reads a table is resumed from.
//!
//! The fence: every write to a game first locks the game's row and checks, in the same transaction, that this
//! node holds a live lease on the game's table. A node that stalled past its lease (a pause, a partition from the
//! database) and wakes to write is refused ([`RecordsError::NotHeld`]) once another node has claimed the table,
//! and already once its lease has run out. The row lock orders the writes with a take-over: the new owner reads
//! the game through [`unfinished_where`] with `lock`, which waits for a write that passed the fence to be kept,
//! so that it resumes from every move its old owner was let write, and nothing is written after it.

use postgres::types::ToSql;
use postgres::{Client, GenericClient};

use super::ratings::{EndedGame, RatingRows, rate_game};
use super::{FinishedGame, RecordsError, Unfinished};
use crate::serve::ids::{Fingerprint, GameId, TableCode};
use crate::serve::rating::Rating;

/// What a node's writes are fenced by: its name, which holds the leases, and the generation it started as.
#[derive(Clone, Debug)]
pub(super) struct Fence {
    pub(super) node: String,
    pub(super) generation: i64,
}

/// A clock reading as the database keeps it (milliseconds fit; a larger one is kept as the largest).
pub(super) fn millis(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A ply as the database keeps it.
pub(super) fn ply_of(ply: usize) -> i32 {
    i32::try_from(ply).unwrap_or(i32::MAX)
}

/// Locks the game's row for the rest of the write's transaction and checks that the fence's node holds a live
/// lease on the game's table, and is still the generation it started as (when there is a fence: the records are
/// a node's). The lease is read as it is now (`clock_timestamp()`, not the transaction's start): a batch that
/// began before the lease ran out does not write after it.
pub(super) fn fence(
    c: &mut Client,
    fence: Option<&Fence>,
    game: GameId,
) -> Result<(), RecordsError> {
    let Some(fence) = fence else {
        return Ok(());
    };
    let row = c.query_opt(
        "SELECT g.code, l.owner = $2 AND l.expires > clock_timestamp() \
             AND EXISTS (SELECT 1 FROM nodes n WHERE n.name = $2 AND n.generation = $3) \
         FROM games g LEFT JOIN room_leases l ON l.code = g.code WHERE g.id = $1 FOR UPDATE OF g",
        &[&game.get(), &fence.node, &fence.generation],
    )?;
    let Some(row) = row else {
        return Err(RecordsError::NoGame(game));
    };
    // No lease at all reads as NULL: not held either.
    match row.get::<_, Option<bool>>(1) {
        Some(true) => Ok(()),
        _ => Err(RecordsError::NotHeld {
            code: row.get::<_, Option<String>>(0).map(TableCode::new),
        }),
    }
}

/// Checks that the fence's node (still the generation it started as) holds a live lease on the table `code`,
/// for a game about to start in it (or on an event's lease key, for a write to the event). Nothing to lock yet:
/// a node taking the table over finds no game behind the lease and gives the table up.
pub(super) fn fence_code(
    c: &mut Client,
    fence: Option<&Fence>,
    code: &TableCode,
) -> Result<(), RecordsError> {
    let Some(fence) = fence else {
        return Ok(());
    };
    let held = c
        .query_opt(
            "SELECT owner = $2 AND expires > clock_timestamp() \
                 AND EXISTS (SELECT 1 FROM nodes n WHERE n.name = $2 AND n.generation = $3) \
             FROM room_leases WHERE code = $1",
            &[&code.as_str(), &fence.node, &fence.generation],
        )?
        .is_some_and(|row| row.get::<_, bool>(0));
    match held {
        true => Ok(()),
        false => Err(RecordsError::NotHeld {
            code: Some(code.clone()),
        }),
    }
}

/// Writes the move at `ply`; the same move there already is kept as it is (a write tried again after its answer
/// was lost), another is refused.
pub(super) fn add_move(
    c: &mut Client,
    game: GameId,
    ply: usize,
    text: &str,
    clocks: Option<[u64; 2]>,
) -> Result<(), RecordsError> {
    let [black, white] = clocks.map_or([None, None], |[b, w]| [Some(millis(b)), Some(millis(w))]);
    let written = c.execute(
        super::games::sql::ADD_MOVE,
        &[&game.get(), &ply_of(ply), &text, &black, &white],
    )?;
    if written == 0 {
        let kept: String = c
            .query_one(super::games::sql::MOVE_AT, &[&game.get(), &ply_of(ply)])?
            .get(0);
        if kept != text {
            return Err(RecordsError::PlyTaken { game, ply });
        }
    }
    Ok(())
}

/// Notes both clocks after `ply` moves, replacing the last note.
pub(super) fn note_clocks(
    c: &mut Client,
    game: GameId,
    ply: usize,
    clocks: [u64; 2],
) -> Result<(), RecordsError> {
    let [black, white] = clocks.map(millis);
    c.execute(
        super::games::sql::NOTE_CLOCKS,
        &[&game.get(), &ply_of(ply), &black, &white],
    )?;
    Ok(())
}

/// Takes back the moves from `ply` on, and the clocks noted at them.
pub(super) fn take_back(c: &mut Client, game: GameId, ply: usize) -> Result<(), RecordsError> {
    c.execute(
        super::games::sql::TAKE_BACK_MOVES,
        &[&game.get(), &ply_of(ply)],
    )?;
    // Clocks noted at a move no longer played are of no use.
    c.execute(
        super::games::sql::TAKE_BACK_CLOCKS,
        &[&game.get(), &ply_of(ply)],
    )?;
    Ok(())
}

/// Ends a game in progress with its result, and changes both ratings when it is rated.
pub(super) fn record_result(
    c: &mut Client,
    game: GameId,
    result: &FinishedGame,
    ended: i64,
) -> Result<(), RecordsError> {
    // The game's row locked, and only while it is in progress: a second server recording the same result
    // waits here, then finds the game ended, and the ratings change once.
    let row = c.query_opt(
        "SELECT variant, black, white, rated FROM games WHERE id = $1 AND ended IS NULL FOR UPDATE",
        &[&game.get()],
    )?;
    let Some(row) = row else {
        return Err(RecordsError::NoGame(game));
    };
    let (variant, black, white, rated): (String, String, String, bool) =
        (row.get(0), row.get(1), row.get(2), row.get(3));
    c.execute(
        super::games::sql::END,
        &[&game.get(), &ended, &result.result, &result.pdn],
    )?;
    let ended = EndedGame {
        variant,
        black: Fingerprint::new(black),
        white: Fingerprint::new(white),
        rated,
    };
    rate_game(&mut Rows(c), &ended, result)
}

/// A game's moves, in order.
pub(super) fn moves_of(c: &mut Client, game: GameId) -> Result<Vec<String>, postgres::Error> {
    let rows = c.query(super::games::sql::MOVES, &[&game.get()])?;
    Ok(rows.iter().map(|row| row.get(0)).collect())
}

/// Which games not ended [`unfinished_where`] reads.
pub(super) enum Which<'a> {
    /// Every one.
    All,
    /// Those with a seat for this player.
    Of(&'a Fingerprint),
    /// The one joined by this code, its row locked for a moment first: a write to it that passed the fence is
    /// kept before it is read.
    Code(&'a TableCode),
}

/// The games not ended that `which` says, oldest first, with what resuming each needs.
pub(super) fn unfinished_where(
    c: &mut Client,
    which: &Which,
) -> Result<Vec<Unfinished>, postgres::Error> {
    let (condition, param): (&str, Option<&str>) = match which {
        Which::All => ("TRUE", None),
        Which::Of(player) => ("(black = $1 OR white = $1)", Some(player.as_str())),
        Which::Code(code) => {
            // Waits for the game's writer (the fence holds its row until the write is kept or undone); its
            // answer is not needed, the rows are read again below as they are now.
            c.query(
                "SELECT id FROM games WHERE code = $1 AND ended IS NULL FOR UPDATE",
                &[&code.as_str()],
            )?;
            ("code = $1", Some(code.as_str()))
        }
    };
    let params: Vec<&(dyn ToSql + Sync)> = param.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
    let rows = c.query(
        &format!(
            "SELECT games.id, variant, black, b.name, white, w.name, rated, clock, code, definition FROM games
             JOIN players b ON b.fingerprint = black JOIN players w ON w.fingerprint = white
             WHERE ended IS NULL AND {condition} ORDER BY games.id"
        ),
        &params,
    )?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let id = GameId::new(row.get(0));
        let moves = moves_of(c, id)?;
        let after_move = c
            .query_opt(super::games::sql::LAST_MOVE_CLOCKS, &[&id.get()])?
            .and_then(|row| {
                let (b, w): (Option<i64>, Option<i64>) = (row.get(0), row.get(1));
                b.zip(w).map(|(b, w)| [b.max(0) as u64, w.max(0) as u64])
            });
        // Noted after the last move (not before a move or a takeback since): the later of the two.
        let noted = c
            .query_opt(
                super::games::sql::NOTED_CLOCKS,
                &[&id.get(), &ply_of(moves.len())],
            )?
            .map(|row| {
                let (b, w): (i64, i64) = (row.get(0), row.get(1));
                [b.max(0) as u64, w.max(0) as u64]
            });
        games.push(Unfinished {
            id,
            variant: row.get(1),
            black: (Fingerprint::new(row.get::<_, String>(2)), row.get(3)),
            white: (Fingerprint::new(row.get::<_, String>(4)), row.get(5)),
            rated: row.get(6),
            clock: row.get(7),
            code: row.get::<_, Option<String>>(8).map(TableCode::new),
            definition: row.get(9),
            moves,
            clocks: noted.or(after_move),
        });
    }
    Ok(games)
}

/// A player's rating in a variant (a new player's when they have none) and their rated games in it.
pub(super) fn rating_in(
    c: &mut impl GenericClient,
    player: &Fingerprint,
    variant: &str,
) -> Result<(Rating, i64), postgres::Error> {
    let row = c.query_opt(super::ratings::sql::RATING, &[&player.as_str(), &variant])?;
    Ok(row.map_or((Rating::default(), 0), |row| {
        (
            Rating {
                rating: row.get(0),
                deviation: row.get(1),
                volatility: row.get(2),
            },
            row.get(3),
        )
    }))
}

/// The rating rules' rows in PostgreSQL, read and written by a client inside the result's transaction.
pub(super) struct Rows<'a, C>(pub(super) &'a mut C);

impl<C: GenericClient> RatingRows for Rows<'_, C> {
    fn lock_players(&mut self, a: &Fingerprint, b: &Fingerprint) -> Result<(), RecordsError> {
        // Both players' rows locked, in one order so that two results at once do not deadlock: their ratings
        // (which may not have a row yet) are read and written by one result at a time.
        self.0.execute(
            "SELECT 1 FROM players WHERE fingerprint IN ($1, $2) ORDER BY fingerprint FOR UPDATE",
            &[&a.as_str(), &b.as_str()],
        )?;
        Ok(())
    }

    fn rating_row(
        &mut self,
        player: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError> {
        Ok(rating_in(self.0, player, variant)?)
    }

    fn store_rating_row(
        &mut self,
        player: &Fingerprint,
        variant: &str,
        rating: Rating,
        games: i64,
    ) -> Result<(), RecordsError> {
        self.0.execute(
            super::ratings::sql::STORE_RATING,
            &[
                &player.as_str(),
                &variant,
                &rating.rating,
                &rating.deviation,
                &rating.volatility,
                &games,
            ],
        )?;
        Ok(())
    }
}
