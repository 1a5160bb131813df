//! Win/draw/loss tables for the rule sets other than English draughts: international draughts first, and any
//! ordinary board of up to 64 squares whose quiet moves are diagonal steps and slides (Brazilian, Russian, pool,
//! Czech, Thai).
//!
//! English draughts has tables with the distance to conversion ([`super::Egdb`]); these hold the outcome only,
//! two bits a position, numbered by the same [`Layout`] on the rule set's board. They are built by
//! `lab::wld_build` and read whole into memory when first needed ([`WldTables`]): up to 5 pieces on 10x10, a few
//! hundred megabytes at most.
//!
//! The outcome is the game's value with best play and no draw rules (no repetition, no move limits): a won
//! position may in practice be drawn by a rule that counts moves, such as international draughts' sixteen moves
//! of three pieces against a lone king.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Once, OnceLock};

use super::index::{Layout, Material, Sets, Shape};
use super::values::{Outcomes, Wld};
use super::{EgdbError, MAX_PIECES};
use crowned_rules::position::{compress, expand};
use crowned_rules::{Bits, Color, Goal, Position, RuleSet, Variant};

/// The first bytes of a table file.
const MAGIC: &[u8; 8] = b"CRWLD\x001\n";
/// The zstd level: the tables are small, so a high level costs little time.
const LEVEL: i32 = 19;

/// Why a rule set has no win/draw/loss tables.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// English draughts has its own databases, with distances.
    #[error("English draughts has databases of its own (crowned egdb build --pieces N)")]
    English,
    /// The board does not fit the numbering.
    #[error("{0}'s board is not an ordinary board of at most 64 squares")]
    Board(&'static str),
    /// The game is not won by leaving the opponent without a move, or a quiet move is not a diagonal step or
    /// slide, or the rules look at the game's past.
    #[error("{0}'s rules are not the kind these tables are solved for")]
    Rules(&'static str),
}

/// The board of rule set `R` when win/draw/loss tables can be solved for it (`English` is allowed, for checks
/// against its own databases).
pub fn shape_of<R: RuleSet>() -> Result<Shape, Unsupported> {
    let name = R::NAME;
    let shape = Shape::of(R::GEOMETRY).ok_or(Unsupported::Board(name))?;
    let ordinary = matches!(
        R::VARIANT,
        Variant::English
            | Variant::International
            | Variant::Brazilian
            | Variant::Russian
            | Variant::Pool
            | Variant::Czech
            | Variant::Thai
    );
    if !ordinary || R::GOAL != Goal::NoMoveLoses || R::VARIANT.king_moves_in_a_row() > 0 {
        return Err(Unsupported::Rules(name));
    }
    Ok(shape)
}

/// The normalised form of `pos` on `shape`: the side to move is "us", moving like Black.
#[inline]
pub fn sets_of<R: RuleSet>(shape: Shape, pos: &Position<R>) -> Sets {
    let g = R::GEOMETRY;
    // The board holds at most 64 squares (checked by `shape_of`), so the square sets fit 64 bits.
    let black = compress(g, pos.pieces[Color::Black.index()]) as u64;
    let white = compress(g, pos.pieces[Color::White.index()]) as u64;
    let kings = compress(g, pos.kings) as u64;
    let sets = Sets {
        our_men: black & !kings,
        our_kings: black & kings,
        their_men: white & !kings,
        their_kings: white & kings,
    };
    match pos.side_to_move() {
        Color::Black => sets,
        Color::White => sets.flipped(shape),
    }
}

/// The position of normalised `sets`, with Black ("us") to move.
#[inline]
pub fn position_of<R: RuleSet>(sets: Sets) -> Position<R> {
    let g = R::GEOMETRY;
    let mut pos = Position::<R>::empty(Color::Black);
    pos.pieces[Color::Black.index()] = expand(g, u128::from(sets.our_men | sets.our_kings));
    pos.pieces[Color::White.index()] = expand(g, u128::from(sets.their_men | sets.their_kings));
    pos.kings = expand(g, u128::from(sets.our_kings | sets.their_kings));
    pos
}

/// The directory of a rule set's tables inside the databases' directory.
pub fn dir_for(databases: &Path, variant: Variant) -> PathBuf {
    databases.join(variant.name())
}

/// The file name of a signature's table.
pub fn file_name(m: Material) -> String {
    format!("{}.wld", m.name())
}

/// Writes the outcomes of the `positions` of signature `m` under `variant`, through a temporary file.
pub fn write_table(
    path: &Path,
    variant: Variant,
    m: Material,
    positions: u64,
    packed: &[u8],
) -> Result<u64, EgdbError> {
    let mut packer = zstd::bulk::Compressor::new(LEVEL).map_err(|e| EgdbError::io(path, e))?;
    packer
        .include_checksum(true)
        .map_err(|e| EgdbError::io(path, e))?;
    let body = packer
        .compress(packed)
        .map_err(|e| EgdbError::io(path, e))?;
    let name = variant.name().as_bytes();
    let mut out = Vec::with_capacity(body.len() + 64);
    out.extend_from_slice(MAGIC);
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.extend_from_slice(&[m.our_men, m.our_kings, m.their_men, m.their_kings]);
    out.extend_from_slice(&positions.to_le_bytes());
    out.extend_from_slice(&(packed.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    super::file::write_atomic(path, &out).map_err(|e| EgdbError::io(path, e))?;
    Ok(out.len() as u64)
}

/// Reads a table written by [`write_table`], checking that it is the table of `m` under `variant` with
/// `positions` positions; its outcomes packed four to a byte.
pub fn read_table(
    path: &Path,
    variant: Variant,
    m: Material,
    positions: u64,
) -> Result<Outcomes, EgdbError> {
    let bytes = std::fs::read(path).map_err(|e| EgdbError::io(path, e))?;
    let corrupt = |why: &str| EgdbError::Corrupt(path.to_path_buf(), why.to_string());
    let rest = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| corrupt("not a win/draw/loss table"))?;
    let (&name_len, rest) = rest.split_first().ok_or_else(|| corrupt("cut short"))?;
    let name_len = usize::from(name_len);
    if rest.len() < name_len + 4 + 16 {
        return Err(corrupt("cut short"));
    }
    let (name, rest) = rest.split_at(name_len);
    if name != variant.name().as_bytes() {
        return Err(corrupt(&format!(
            "a table of another variant, not {}",
            variant.name()
        )));
    }
    let (signature, rest) = rest.split_at(4);
    if signature != [m.our_men, m.our_kings, m.their_men, m.their_kings] {
        return Err(corrupt(&format!("not the table of {}", m.name())));
    }
    let word = |b: &[u8]| {
        let mut w = [0; 8];
        w.copy_from_slice(&b[..8]);
        u64::from_le_bytes(w)
    };
    let (stored_positions, packed_len) = (word(rest), word(&rest[8..]));
    if stored_positions != positions || packed_len != positions.div_ceil(4) {
        return Err(corrupt("the wrong number of positions"));
    }
    let packed = zstd::bulk::decompress(&rest[16..], packed_len as usize)
        .map_err(|e| corrupt(&format!("damaged: {e}")))?;
    if packed.len() as u64 != packed_len {
        return Err(corrupt("the wrong number of positions"));
    }
    Ok(Outcomes::from_packed(packed))
}

/// One signature's table: its file, its numbering and, once read, its outcomes.
#[derive(Debug)]
struct Table {
    path: PathBuf,
    material: Material,
    layout: Layout,
    /// The outcomes once read; `None` inside when the file turned out damaged (warned once, never probed).
    outcomes: OnceLock<Option<Outcomes>>,
}

impl Table {
    /// The table of `m` in `dir` on `shape`, not read yet.
    fn unread(dir: &Path, shape: Shape, m: Material) -> Table {
        Table {
            path: dir.join(file_name(m)),
            material: m,
            layout: Layout::on(shape, m),
            outcomes: OnceLock::new(),
        }
    }

    /// The outcomes, read now if no thread has read them yet; the reading's error when the file is damaged.
    fn load(&self, variant: Variant) -> Result<&Outcomes, EgdbError> {
        let mut failure = None;
        let outcomes = self.outcomes.get_or_init(|| {
            read_table(&self.path, variant, self.material, self.layout.size())
                .map_err(|e| failure = Some(e))
                .ok()
        });
        match (outcomes, failure) {
            (Some(outcomes), _) => Ok(outcomes),
            (None, Some(e)) => Err(e),
            // Found damaged earlier, by another thread: read again for the reason.
            (None, None) => Err(
                read_table(&self.path, variant, self.material, self.layout.size())
                    .err()
                    .unwrap_or_else(|| {
                        EgdbError::Corrupt(self.path.clone(), "damaged when first read".into())
                    }),
            ),
        }
    }
}

/// One rule set's tables, every signature up to some number of pieces.
#[derive(Debug)]
struct VariantTables {
    variant: Variant,
    shape: Shape,
    pieces: u32,
    /// By [`Material::slot`]; shared with the thread that reads them.
    tables: Arc<[Option<Table>]>,
    /// Starts reading the tables on a thread of their own, once.
    loading: Once,
}

/// The win/draw/loss tables of the rule sets that have them.
///
/// Opening them only looks at which files are there; the outcomes are read when they are first needed: the
/// first probe of a rule set starts reading all of its tables on a thread of their own, fewest pieces first (the
/// most probed), and until a table is read its positions are not answered. So a program that never reaches an
/// ending of that rule set (the terminal app at its start, a server's other games) never pays for them, and a
/// search is never held up by a file. [`WldTables::load`] reads them all at once, for analysis that wants them
/// from its first node.
#[derive(Debug, Default)]
pub struct WldTables {
    variants: Vec<VariantTables>,
}

impl WldTables {
    /// The tables under `databases` (one directory per rule set, named as [`dir_for`]) of every supported rule
    /// set: for each, the signatures of up to the most pieces whose files are all there. `None` when there are
    /// none. The files are read later (see the type's documentation); a damaged one is left out with a warning.
    pub fn open(databases: &Path) -> Option<WldTables> {
        let variants: Vec<VariantTables> = [
            Variant::International,
            Variant::Brazilian,
            Variant::Russian,
            Variant::Pool,
            Variant::Czech,
            Variant::Thai,
        ]
        .into_iter()
        .filter_map(|variant| {
            let shape = shape_for(variant)?;
            VariantTables::find(&dir_for(databases, variant), variant, shape)
        })
        .collect();
        (!variants.is_empty()).then_some(WldTables { variants })
    }

    /// The tables of `variant` in `dir` (its own directory), up to the most pieces whose files are all there,
    /// every one read and checked: `None` when not even the two-piece ones are there, an error when one is
    /// damaged.
    pub fn open_variant(dir: &Path, variant: Variant) -> Result<Option<WldTables>, EgdbError> {
        let Some(tables) =
            shape_for(variant).and_then(|shape| VariantTables::find(dir, variant, shape))
        else {
            return Ok(None);
        };
        let tables = WldTables {
            variants: vec![tables],
        };
        tables.load(variant)?;
        Ok(Some(tables))
    }

    /// The tables of one rule set read from `dir`, every signature of up to `pieces` pieces (an error if one
    /// is missing or damaged).
    pub fn read<R: RuleSet>(dir: &Path, pieces: u32) -> Result<WldTables, EgdbError> {
        let shape = shape_of::<R>()?;
        let mut tables: Vec<Option<Table>> = (0..SLOTS).map(|_| None).collect();
        for m in Material::all_up_to(pieces) {
            let table = Table::unread(dir, shape, m);
            table.load(R::VARIANT)?;
            tables[m.slot()] = Some(table);
        }
        Ok(WldTables {
            variants: vec![VariantTables {
                variant: R::VARIANT,
                shape,
                pieces,
                tables: tables.into(),
                loading: Once::new(),
            }],
        })
    }

    /// Reads every table of `variant` that is not read yet, on this thread (waiting for the one another thread
    /// is reading); the first damaged table's error, after the others are read.
    pub fn load(&self, variant: Variant) -> Result<(), EgdbError> {
        let Some(tables) = self.variants.iter().find(|t| t.variant == variant) else {
            return Ok(());
        };
        let mut first = None;
        for table in tables.tables.iter().flatten() {
            if let Err(e) = table.load(variant) {
                first.get_or_insert(e);
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// The most pieces the tables of `variant` hold (0 without tables).
    pub fn pieces(&self, variant: Variant) -> u32 {
        self.variants
            .iter()
            .find(|t| t.variant == variant)
            .map_or(0, |t| t.pieces)
    }

    /// The rule sets with tables, and the most pieces each holds.
    pub fn variants(&self) -> impl Iterator<Item = (Variant, u32)> + '_ {
        self.variants.iter().map(|t| (t.variant, t.pieces))
    }

    /// The memory the outcomes read so far take, in bytes.
    pub fn bytes(&self) -> usize {
        let tables = self.variants.iter().flat_map(|t| t.tables.iter().flatten());
        let read = tables.filter_map(|t| t.outcomes.get().and_then(Option::as_ref));
        read.map(Outcomes::bytes).sum()
    }

    /// The outcome of `pos` for its side to move, when the tables hold its rule set and its pieces and that
    /// table has been read (the first probe of a rule set starts reading its tables).
    #[inline]
    pub fn outcome<R: RuleSet>(&self, pos: &Position<R>) -> Option<Wld> {
        let tables = self.variants.iter().find(|t| t.variant == R::VARIANT)?;
        let pieces = (pos.pieces[0] | pos.pieces[1]).count_ones();
        if pieces > tables.pieces {
            return None;
        }
        let sets = sets_of(tables.shape, pos);
        let table = tables.tables.get(sets.material().slot())?.as_ref()?;
        match table.outcomes.get() {
            Some(outcomes) => Some(outcomes.as_ref()?.get(table.layout.index_of(sets))),
            None => {
                tables.start_loading();
                None
            }
        }
    }
}

/// Slots of signatures ([`Material::slot`]): four counts of at most nine.
const SLOTS: usize = 10_000;

/// The board of a rule set the tables can be solved for, chosen at run time (English draughts has its own
/// databases, so none here).
pub fn shape_for(variant: Variant) -> Option<Shape> {
    use crowned_rules::{Brazilian, Czech, International, Pool, Russian, Thai};
    match variant {
        Variant::International => shape_of::<International>().ok(),
        Variant::Brazilian => shape_of::<Brazilian>().ok(),
        Variant::Russian => shape_of::<Russian>().ok(),
        Variant::Pool => shape_of::<Pool>().ok(),
        Variant::Czech => shape_of::<Czech>().ok(),
        Variant::Thai => shape_of::<Thai>().ok(),
        _ => None,
    }
}

impl VariantTables {
    /// The tables in `dir`, up to the most pieces whose signatures' files are all there (none read yet); `None`
    /// if not even the two-piece ones are.
    fn find(dir: &Path, variant: Variant, shape: Shape) -> Option<VariantTables> {
        if !dir.is_dir() {
            return None;
        }
        let mut tables: Vec<Option<Table>> = (0..SLOTS).map(|_| None).collect();
        let mut found = 0;
        for pieces in 2..=MAX_PIECES {
            let level: Vec<Material> = Material::all_up_to(pieces)
                .into_iter()
                .filter(|m| m.pieces() == pieces)
                .collect();
            if !level.iter().all(|&m| dir.join(file_name(m)).is_file()) {
                break;
            }
            for m in level {
                tables[m.slot()] = Some(Table::unread(dir, shape, m));
            }
            found = pieces;
        }
        (found >= 2).then(|| VariantTables {
            variant,
            shape,
            pieces: found,
            tables: tables.into(),
            loading: Once::new(),
        })
    }

    /// Starts reading every table on a thread of its own, fewest pieces first, once. The thread holds the
    /// tables weakly: when they are dropped (the engine closed) it stops at the next table.
    fn start_loading(&self) {
        self.loading.call_once(|| {
            let tables = Arc::downgrade(&self.tables);
            let variant = self.variant;
            let mut order: Vec<usize> = (0..self.tables.len())
                .filter(|&s| self.tables[s].is_some())
                .collect();
            order.sort_by_key(|&s| self.tables[s].as_ref().map_or(0, |t| t.material.pieces()));
            let spawned = std::thread::Builder::new()
                .name("wld-tables".into())
                .spawn(move || {
                    for s in order {
                        let Some(tables) = tables.upgrade() else {
                            return;
                        };
                        if let Some(Err(e)) = tables[s].as_ref().map(|t| t.load(variant)) {
                            tracing::warn!("{} table left out: {e}", variant.name());
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::warn!("{} tables: no thread to read them: {e}", variant.name());
            }
        });
    }
}
