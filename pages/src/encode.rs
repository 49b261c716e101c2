//! Pieces of Parquet encoding shared by the pages built here: levels and
//! indices as RLE / bit-packed runs, DELTA_BINARY_PACKED, and the codecs.

use parquet::basic::Compression;
use parquet::errors::{ParquetError, Result};

/// Bit-packed runs are cut at 63 groups of 8 levels, so that each header is
/// one byte (as the Arrow writer and parquet-mr cut them).
pub const MAX_GROUPS: usize = 63;
/// Values in a delta block, and miniblocks in a block.
pub const BLOCK: usize = 128;
pub const MINIBLOCKS: usize = 4;
pub const MINI: usize = BLOCK / MINIBLOCKS;

pub enum Compressor {
    None,
    /// At this level, through the thread's context (see [`ZSTD`]).
    Zstd(i32),
    Snappy(Box<snap::raw::Encoder>),
    Lz4Raw,
}

thread_local! {
    /// One zstd context per thread and level, shared by every column a
    /// thread compresses: a context keeps its tables once used, and a
    /// convert writes about 90 columns (one context each took about 10 MB
    /// more peak memory on the 1 GB bench archive). A page is compressed
    /// whole, so the bytes do not depend on what the context did before.
    static ZSTD: std::cell::RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
        const { std::cell::RefCell::new(None) };
}

impl Compressor {
    pub fn new(c: Compression) -> Option<Compressor> {
        Some(match c {
            Compression::UNCOMPRESSED => Compressor::None,
            // (`ZstdLevel` holds only levels zstd takes.)
            Compression::ZSTD(level) => Compressor::Zstd(level.compression_level()),
            Compression::SNAPPY => Compressor::Snappy(Box::new(snap::raw::Encoder::new())),
            Compression::LZ4_RAW => Compressor::Lz4Raw,
            _ => return None,
        })
    }

    /// `input` compressed as the Arrow writer's codecs compress it.
    pub fn compress(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        out.clear();
        match self {
            Compressor::None => out.extend_from_slice(input),
            Compressor::Zstd(level) => {
                out.reserve(zstd::zstd_safe::compress_bound(input.len()));
                ZSTD.with_borrow_mut(|z| -> Result<()> {
                    let z = match z {
                        Some((l, z)) if *l == *level => z,
                        _ => &mut z.insert((*level, zstd::bulk::Compressor::new(*level)?)).1,
                    };
                    z.compress_to_buffer(input, out)?;
                    Ok(())
                })?;
            }
            Compressor::Snappy(s) => {
                out.resize(snap::raw::max_compress_len(input.len()), 0);
                let n = s
                    .compress(input, out)
                    .map_err(|e| ParquetError::External(Box::new(e)))?;
                out.truncate(n);
            }
            Compressor::Lz4Raw => {
                out.resize(lz4_flex::block::get_maximum_output_size(input.len()), 0);
                let n = lz4_flex::block::compress_into(input, out)
                    .map_err(|e| ParquetError::External(Box::new(e)))?;
                out.truncate(n);
            }
        }
        Ok(())
    }
}

/// Room for the four-byte length that precedes a v1 page's levels.
pub fn start_levels(buf: &mut Vec<u8>) -> usize {
    buf.extend_from_slice(&[0; 4]);
    buf.len()
}

pub fn end_levels(buf: &mut [u8], at: usize) {
    let len = (buf.len() - at) as u32;
    buf[at - 4..at].copy_from_slice(&len.to_le_bytes());
}

pub fn bit_width(max: u32) -> u32 {
    32 - max.leading_zeros()
}

pub fn varint(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push(v as u8 | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

pub fn zigzag(buf: &mut Vec<u8>, v: i64) {
    varint(buf, ((v << 1) ^ (v >> 63)) as u64);
}

/// An RLE run of `n` copies of `value`, `width` bits wide.
pub fn rle_run(buf: &mut Vec<u8>, value: u32, n: usize, width: u32) {
    if n == 0 {
        return;
    }
    varint(buf, (n as u64) << 1);
    buf.extend_from_slice(&value.to_le_bytes()[..width.div_ceil(8) as usize]);
}

/// `n` values already bit-packed `width` bits wide, as bit-packed runs
/// (padded with zero bytes if `packed` is short of whole groups).
pub fn bit_packed(buf: &mut Vec<u8>, packed: &mut Vec<u8>, n: usize, width: u32) {
    let group = width as usize;
    packed.resize(n.div_ceil(8) * group, 0);
    for run in packed.chunks(MAX_GROUPS * group) {
        buf.push(((run.len() / group) << 1 | 1) as u8);
        buf.extend_from_slice(run);
    }
}

/// Values packed `width` bits wide, least significant bit first, padded with
/// zero bits to a whole byte.
pub fn pack(buf: &mut Vec<u8>, values: impl Iterator<Item = u32>, width: u32) {
    let (mut acc, mut bits) = (0u64, 0u32);
    for v in values {
        acc |= (v as u64) << bits;
        bits += width;
        while bits >= 8 {
            buf.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        buf.push(acc as u8);
    }
}

/// Small values (`width` <= 8 bits) packed eight at a time: `width` bytes a
/// group of eight, the last group padded with zeros.
pub fn pack_small(buf: &mut Vec<u8>, values: &[u8], width: u32) {
    let w = width as usize;
    let group =
        |g: &[u8]| (g.iter().enumerate()).fold(0u64, |acc, (i, &v)| acc | (v as u64) << (i * w));
    let whole = values.chunks_exact(8);
    let rest = whole.remainder();
    buf.reserve(values.len().div_ceil(8) * w + 8);
    // All eight bytes of a group's word are copied (a fixed-size move, not
    // a call for `w` bytes) and the ones past `w` cut off again.
    let mut put = |word: u64| {
        let at = buf.len();
        buf.extend_from_slice(&word.to_le_bytes());
        buf.truncate(at + w);
    };
    for g in whole {
        let g: &[u8; 8] = g.try_into().expect("eight values");
        put(group(g));
    }
    if !rest.is_empty() {
        put(group(rest));
    }
}

/// DELTA_BINARY_PACKED: blocks of 128 deltas in four miniblocks of 32, each
/// miniblock packed at its own width above the block's smallest delta.
pub fn delta_packed(buf: &mut Vec<u8>, values: &[i32]) {
    varint(buf, BLOCK as u64);
    varint(buf, MINIBLOCKS as u64);
    varint(buf, values.len() as u64);
    zigzag(buf, values.first().copied().unwrap_or(0) as i64);
    let mut deltas = [0i64; BLOCK];
    for start in (1..values.len()).step_by(BLOCK) {
        let n = BLOCK.min(values.len() - start);
        let run = &values[start - 1..start + n];
        if run.iter().all(|&v| v == run[0]) {
            // Every delta 0 (every value of the same length): a smallest
            // delta of 0 and four widths of 0, no packed bits.
            buf.extend_from_slice(&[0; 1 + MINIBLOCKS]);
            continue;
        }
        for (k, d) in deltas[..n].iter_mut().enumerate() {
            *d = values[start + k] as i64 - values[start + k - 1] as i64;
        }
        let min = deltas[..n].iter().copied().min().unwrap_or(0);
        zigzag(buf, min);
        let minis = n.div_ceil(MINI);
        let mut widths = [0u32; MINIBLOCKS];
        for (m, width) in widths.iter_mut().enumerate().take(minis) {
            let part = &deltas[m * MINI..((m + 1) * MINI).min(n)];
            let max = part.iter().map(|&d| (d - min) as u64).max().unwrap_or(0);
            *width = 64 - max.leading_zeros();
        }
        buf.extend(widths.iter().map(|&w| w as u8));
        for (m, &width) in widths.iter().enumerate().take(minis) {
            if width == 0 {
                continue;
            }
            let part = &deltas[m * MINI..((m + 1) * MINI).min(n)];
            let padded = part
                .iter()
                .map(|&d| (d - min) as u32)
                .chain(std::iter::repeat(0))
                .take(MINI);
            pack(buf, padded, width);
        }
    }
}

/// A v1 page's levels section for `levels` (each at most `width` <= 8
/// bits): its length, then one RLE run when they are all one level, else
/// bit-packed runs (`scratch` holds the packed bits meanwhile).
pub fn small_levels(buf: &mut Vec<u8>, scratch: &mut Vec<u8>, levels: &[u8], width: u32) {
    let at = start_levels(buf);
    match levels.first() {
        Some(&first) if levels.iter().any(|&l| l != first) => {
            scratch.clear();
            pack_small(scratch, levels, width);
            bit_packed(buf, scratch, levels.len(), width);
        }
        first => rle_run(buf, first.copied().unwrap_or(0) as u32, levels.len(), width),
    }
    end_levels(buf, at);
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::basic::ZstdLevel;

    #[test]
    fn zstd_pages_do_not_depend_on_what_the_thread_compressed_before() {
        // The thread's context is shared by every column at a level, and
        // made anew when the level changes: each page as zstd compresses
        // it alone.
        let page: Vec<u8> = (0..20_000u32)
            .flat_map(|i| (i % 251 * i).to_le_bytes())
            .collect();
        let other: Vec<u8> = (0..5_000u32).flat_map(|i| (i * 7).to_le_bytes()).collect();
        let mut out = Vec::new();
        for level in [1, 9, 1, 3] {
            let mut c = Compressor::new(Compression::ZSTD(ZstdLevel::try_new(level).unwrap()))
                .expect("a zstd level");
            for input in [&page, &other, &page] {
                c.compress(input, &mut out).unwrap();
                assert_eq!(
                    out,
                    zstd::bulk::compress(input, level).unwrap(),
                    "level {level}"
                );
            }
        }
        assert_ne!(
            zstd::bulk::compress(&page, 1).unwrap(),
            zstd::bulk::compress(&page, 9).unwrap()
        );
    }
}
