//! One signature's table on disk: a header, the offsets of its blocks, and the blocks, each a run of table
//! bytes compressed with zstd on its own so that a probe reads and unpacks one block.
//!
//! Header (little-endian): `CRWNEGDB`, format version (u16), bytes a position (u16: 1, or 2 when a distance
//! is over 127 plies), the signature (4 bytes: our men, our kings, their men, their kings), positions (u64),
//! positions per block (u32), blocks (u32); then `blocks + 1` offsets (u64) from the end of the offsets; then
//! the blocks.

use std::fs::File;
use std::io::Read;
#[cfg(not(unix))]
use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};
#[cfg(not(unix))]
use std::sync::Mutex;

use super::EgdbError;
use super::index::Material;
use super::values::{DbValue, MAX_NARROW_DISTANCE, Outcomes};

const MAGIC: &[u8; 8] = b"CRWNEGDB";
const VERSION: u16 = 1;
const HEADER: usize = 32;
/// Positions per block: small enough that a probe unpacks little, large enough for the compressor.
pub const BLOCK: usize = 2048;
/// The zstd level: about as small as the slow levels on these tables, at a fraction of their time.
const LEVEL: i32 = 9;

/// The file name of a signature's table.
pub fn file_name(m: Material) -> String {
    format!("{}.egdb", m.name())
}

/// A table's values as they are written: one byte a position when every distance fits in one, else two.
pub struct Stored {
    codes: Vec<u16>,
    longest: u16,
}

impl Stored {
    /// Values (as [`DbValue::code`] words) whose longest distance is `longest`.
    pub fn new(codes: Vec<u16>, longest: u16) -> Stored {
        Stored { codes, longest }
    }

    /// The longest distance to conversion.
    pub fn longest(&self) -> u16 {
        self.longest
    }

    fn wide(&self) -> bool {
        self.longest > MAX_NARROW_DISTANCE
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The value of position `i`.
    pub fn value(&self, i: usize) -> DbValue {
        DbValue::from_code(self.codes[i])
    }

    fn width(&self) -> usize {
        if self.wide() { 2 } else { 1 }
    }

    fn bytes(&self) -> Vec<u8> {
        if self.wide() {
            self.codes.iter().flat_map(|c| c.to_le_bytes()).collect()
        } else {
            self.codes
                .iter()
                .map(|&c| DbValue::from_code(c).narrow_code())
                .collect()
        }
    }
}

/// The value at position `within` of an unpacked block `width` bytes a position.
#[inline]
pub fn value_in(block: &[u8], width: usize, within: usize) -> Option<DbValue> {
    if width == 2 {
        let b = block.get(2 * within..2 * within + 2)?;
        Some(DbValue::from_code(u16::from_le_bytes([b[0], b[1]])))
    } else {
        block.get(within).map(|&c| DbValue::from_narrow_code(c))
    }
}

/// Writes the values of `m` to `path` (whole or not at all). Returns the file's size.
pub fn write_table(path: &Path, m: Material, stored: &Stored) -> Result<u64, EgdbError> {
    let width = stored.width();
    let bytes = stored.bytes();
    let blocks: Vec<Vec<u8>> = bytes
        .chunks(BLOCK * width)
        .map(|block| zstd::bulk::compress(block, LEVEL))
        .collect::<Result<_, _>>()
        .map_err(|e| EgdbError::io(path, e))?;
    let mut out = Vec::with_capacity(
        HEADER + 8 * (blocks.len() + 1) + blocks.iter().map(Vec::len).sum::<usize>(),
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(width as u16).to_le_bytes());
    out.extend_from_slice(&[m.our_men, m.our_kings, m.their_men, m.their_kings]);
    out.extend_from_slice(&(stored.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for b in &blocks {
        offset += b.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    write_atomic(path, &out).map_err(|e| EgdbError::io(path, e))?;
    Ok(out.len() as u64)
}

/// Writes `contents` to `path` through a temporary file beside it, so that an interrupted build leaves no
/// partial table under the real name.
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".part");
    let temporary = PathBuf::from(temporary);
    let written = std::fs::write(&temporary, contents)
        .and_then(|()| File::open(&temporary)?.sync_all())
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// An open table file.
pub struct TableFile {
    path: PathBuf,
    material: Material,
    positions: u64,
    block_len: u64,
    width: usize,
    offsets: Vec<u64>,
    data_start: u64,
    /// Read at an offset without a lock where the system can (every search thread reads blocks at once);
    /// elsewhere through a lock around the seek and the read.
    #[cfg(unix)]
    file: File,
    #[cfg(not(unix))]
    file: Mutex<File>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(word)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(word)
}

impl TableFile {
    /// Opens and checks the header of a table file.
    pub fn open(path: &Path) -> Result<TableFile, EgdbError> {
        let corrupt = |why: &str| EgdbError::Corrupt(path.to_path_buf(), why.to_string());
        let mut file = File::open(path).map_err(|e| EgdbError::io(path, e))?;
        let length = file.metadata().map_err(|e| EgdbError::io(path, e))?.len();
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header)
            .map_err(|_| corrupt("too short for a header"))?;
        if &header[..8] != MAGIC {
            return Err(corrupt("not a crowned endgame table"));
        }
        if u16::from_le_bytes([header[8], header[9]]) != VERSION {
            return Err(corrupt("written by another version of the format"));
        }
        let width = usize::from(u16::from_le_bytes([header[10], header[11]]));
        if width != 1 && width != 2 {
            return Err(corrupt("not one or two bytes a position"));
        }
        let material = Material {
            our_men: header[12],
            our_kings: header[13],
            their_men: header[14],
            their_kings: header[15],
        };
        let positions = u64_at(&header, 16);
        let block_len = u64::from(u32_at(&header, 24));
        let blocks = u64::from(u32_at(&header, 28));
        if block_len == 0 || positions.div_ceil(block_len) != blocks {
            return Err(corrupt("block count does not match the positions"));
        }
        let table_bytes = 8 * (blocks + 1);
        if HEADER as u64 + table_bytes > length {
            return Err(corrupt("truncated block table"));
        }
        let mut raw = vec![0u8; table_bytes as usize];
        file.read_exact(&mut raw)
            .map_err(|e| EgdbError::io(path, e))?;
        let offsets: Vec<u64> = raw.chunks(8).map(|c| u64_at(c, 0)).collect();
        let data_start = HEADER as u64 + table_bytes;
        let ordered = offsets.windows(2).all(|w| w[0] <= w[1]);
        if offsets.first() != Some(&0)
            || !ordered
            || offsets.last().map(|&l| data_start + l) != Some(length)
        {
            return Err(corrupt("block offsets do not fit the file"));
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            material,
            positions,
            block_len,
            width,
            offsets,
            data_start,
            #[cfg(unix)]
            file,
            #[cfg(not(unix))]
            file: Mutex::new(file),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The signature of the table.
    pub fn material(&self) -> Material {
        self.material
    }

    /// How many positions the table holds.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Bytes a position.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Positions per block.
    pub fn block_len(&self) -> u64 {
        self.block_len
    }

    /// How many blocks the table has.
    pub fn blocks(&self) -> u64 {
        self.offsets.len() as u64 - 1
    }

    /// The bytes of block `n`, unpacked.
    pub fn block(&self, n: u64) -> Result<Vec<u8>, EgdbError> {
        let corrupt = |why: &str| EgdbError::Corrupt(self.path.clone(), why.to_string());
        let (start, end) = match (
            self.offsets.get(n as usize),
            self.offsets.get(n as usize + 1),
        ) {
            (Some(&s), Some(&e)) => (s, e),
            _ => return Err(corrupt("no such block")),
        };
        let mut packed = vec![0u8; (end - start) as usize];
        self.read_at(self.data_start + start, &mut packed)?;
        let expected =
            self.width * self.block_len.min(self.positions - n * self.block_len) as usize;
        // One decompression context per thread, kept: making one costs more than unpacking a block.
        thread_local! {
            static UNPACKER: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
                const { std::cell::RefCell::new(None) };
        }
        let bytes = UNPACKER
            .with(|cell| {
                let mut cell = cell.borrow_mut();
                if cell.is_none() {
                    *cell = Some(zstd::bulk::Decompressor::new()?);
                }
                match cell.as_mut() {
                    Some(unpacker) => unpacker.decompress(&packed, expected),
                    None => Err(std::io::Error::other("no decompressor")),
                }
            })
            .map_err(|_| corrupt("a block does not unpack"))?;
        if bytes.len() != expected {
            return Err(corrupt("a block unpacks to the wrong length"));
        }
        Ok(bytes)
    }

    #[cfg(unix)]
    fn read_at(&self, at: u64, into: &mut [u8]) -> Result<(), EgdbError> {
        use std::os::unix::fs::FileExt;
        self.file
            .read_exact_at(into, at)
            .map_err(|e| EgdbError::io(&self.path, e))
    }

    #[cfg(not(unix))]
    fn read_at(&self, at: u64, into: &mut [u8]) -> Result<(), EgdbError> {
        let mut file = self.file.lock().map_err(|_| EgdbError::Thread)?;
        file.seek(SeekFrom::Start(at))
            .and_then(|_| file.read_exact(into))
            .map_err(|e| EgdbError::io(&self.path, e))
    }

    /// The win/draw/loss outcome of every position, two bits each (what the search needs, a quarter of the
    /// bytes of the values or less). A position whose side must capture gets the filler stored for it: the
    /// probes resolve captures themselves.
    pub fn outcomes(&self) -> Result<Outcomes, EgdbError> {
        if !self.block_len.is_multiple_of(4) {
            return Err(EgdbError::Corrupt(
                self.path.clone(),
                "blocks that do not hold a multiple of four positions".into(),
            ));
        }
        let mut bits = Vec::with_capacity(self.positions.div_ceil(4) as usize);
        for n in 0..self.blocks() {
            let block = self.block(n)?;
            // Every block but the last holds a multiple of four positions, so each packs from a byte's start.
            let values = block.len() / self.width;
            for first in (0..values).step_by(4) {
                let mut byte = 0;
                for k in 0..4.min(values - first) {
                    let value = value_in(&block, self.width, first + k).unwrap_or(DbValue::Draw);
                    byte |= value.outcome().bits() << (2 * k);
                }
                bits.push(byte);
            }
        }
        Ok(Outcomes::from_packed(bits))
    }

    /// Every value of the table.
    pub fn read_all(&self) -> Result<Stored, EgdbError> {
        let mut codes = Vec::with_capacity(self.positions as usize);
        let mut longest = 0;
        for n in 0..self.blocks() {
            let block = self.block(n)?;
            for within in 0..block.len() / self.width {
                let value = value_in(&block, self.width, within).unwrap_or(DbValue::Draw);
                if let DbValue::Win(d) | DbValue::Loss(d) = value {
                    longest = longest.max(d);
                }
                codes.push(value.code());
            }
        }
        Ok(Stored::new(codes, longest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crowned-egdb-file-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        dir
    }

    #[test]
    fn what_is_written_is_read_back() {
        let dir = scratch("round");
        let m = Material::from_name("1m1k-0m2k").expect("name");
        let path = dir.join(file_name(m));
        for (longest, width) in [(100u16, 1), (300, 2)] {
            let codes: Vec<u16> = (0..BLOCK * 2 + 100)
                .map(|i| [0, DbValue::Win(longest).code(), DbValue::Loss(7).code()][i % 3])
                .collect();
            let stored = Stored::new(codes.clone(), longest);
            let size = write_table(&path, m, &stored).expect("written");
            assert!(size < codes.len() as u64 / 10, "compressed to {size}");
            let table = TableFile::open(&path).expect("opens");
            assert_eq!(table.material(), m);
            assert_eq!(table.width(), width);
            assert_eq!(table.positions(), codes.len() as u64);
            assert_eq!(table.block(2).expect("last block").len(), 100 * width);
            let back = table.read_all().expect("reads");
            assert_eq!(back.codes, codes);
            let outcomes = table.outcomes().expect("reads");
            for (i, &code) in codes.iter().enumerate() {
                assert_eq!(outcomes.get(i as u64), DbValue::from_code(code).outcome());
            }
            assert_eq!(outcomes.bytes(), codes.len().div_ceil(4));
            assert!(table.block(3).is_err());
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let dir = scratch("damaged");
        let m = Material::from_name("0m1k-0m1k").expect("name");
        let path = dir.join(file_name(m));
        write_table(&path, m, &Stored::new(vec![1; 5000], 1)).expect("written");
        let good = std::fs::read(&path).expect("read");
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("empty", Vec::new()),
            ("magic", [b"XXXXXXXX".as_slice(), &good[8..]].concat()),
            ("truncated", good[..good.len() - 3].to_vec()),
            ("longer", [good.as_slice(), &[0]].concat()),
            ("count", {
                let mut b = good.clone();
                b[16] = b[16].wrapping_add(200);
                b[17] = 0x40;
                b
            }),
        ];
        for (what, bytes) in cases {
            std::fs::write(&path, bytes).expect("write");
            assert!(
                matches!(TableFile::open(&path), Err(EgdbError::Corrupt(..))),
                "{what}"
            );
        }
        // A block that does not unpack is found when it is read.
        let mut bad = good.clone();
        let last = bad.len() - 2;
        bad[last] ^= 0xFF;
        bad[HEADER + 8 * (5000usize.div_ceil(BLOCK) + 1)] ^= 0x55;
        std::fs::write(&path, &bad).expect("write");
        let table = TableFile::open(&path).expect("the header is whole");
        assert!(matches!(table.read_all(), Err(EgdbError::Corrupt(..))));
        let _ = std::fs::remove_dir_all(dir);
    }
}
