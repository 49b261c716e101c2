//! A column chunk's dictionary of short values (strings, and 32-bit
//! integers as their four bytes), shared by the page builders.

use parquet::basic::Encoding;

use super::encode::{bit_packed, bit_width, pack, rle_run};

/// A chunk's dictionary of strings: an open-addressing table of indices,
/// the values stored end to end. A value of at most eight bytes is known by
/// its bytes read as one word (no hashing of bytes, no byte comparison).
pub struct StrDict {
    /// One more than an entry's index; 0 for an empty slot.
    table: Vec<u32>,
    /// 64 minus the table size's log2: a hash's top bits are its slot.
    shift: u32,
    /// Per entry: its word (short values) or hash, and its length.
    keys: Vec<(u64, u32)>,
    ends: Vec<u32>,
    data: Vec<u8>,
    /// The PLAIN dictionary page's size: four bytes and the value per entry.
    encoded_size: usize,
    /// The last short value looked up: word, length and index.
    last: (u64, u32, u32),
    /// The index of the last long value (over eight bytes) looked up, if any.
    last_long: Option<u32>,
    /// Per entry: the page that last used it (statistics only).
    pub page: Vec<u32>,
    pub page_no: u32,
    /// The index of each integer in SMALL_MIN.. (SMALL of them; integer
    /// columns only).
    small: Direct,
    /// The index of each string of one byte (seats, suits), by its byte.
    one: Direct,
}

/// Indices of values looked up by position in a table, made on first use.
#[derive(Default)]
struct Direct(Vec<u32>);

impl Direct {
    /// The index at `at` of a table of `size`, if it has one yet.
    #[inline(always)]
    fn get(&mut self, at: usize, size: usize) -> Option<u32> {
        if self.0.is_empty() {
            self.0 = vec![0; size];
        }
        self.0[at].checked_sub(1)
    }

    #[inline(always)]
    fn set(&mut self, at: usize, index: u32) {
        self.0[at] = index + 1;
    }
}

const SMALL_MIN: i32 = -128;
const SMALL: usize = 1152;
const TABLE: usize = 64;
const NO_LAST: (u64, u32, u32) = (0, u32::MAX, 0);

impl StrDict {
    pub fn new() -> StrDict {
        StrDict {
            table: vec![0; TABLE],
            shift: 64 - TABLE.trailing_zeros(),
            keys: Vec::new(),
            ends: vec![0],
            data: Vec::new(),
            encoded_size: 0,
            last: NO_LAST,
            last_long: None,
            page: Vec::new(),
            page_no: 0,
            small: Direct::default(),
            one: Direct::default(),
        }
    }

    pub fn clear(&mut self) {
        *self = StrDict::new();
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The PLAIN dictionary page's size (`strings` have a length before
    /// them; integers are their four bytes).
    pub fn page_bytes(&self, strings: bool) -> usize {
        match strings {
            true => self.encoded_size,
            false => self.data.len(),
        }
    }

    /// The PLAIN dictionary page's body: each entry in order, a string's
    /// length before it (`strings`).
    pub fn plain_page(&self, strings: bool) -> Vec<u8> {
        let mut plain = Vec::with_capacity(self.page_bytes(strings));
        for i in 0..self.len() as u32 {
            let v = self.get(i);
            if strings {
                plain.extend_from_slice(&(v.len() as u32).to_le_bytes());
            }
            plain.extend_from_slice(v);
        }
        plain
    }

    /// A data page's values as indices into this dictionary: their bit
    /// width, then one RLE run when they are all one index, else bit-packed
    /// runs (`scratch` holds the packed bits meanwhile).
    pub fn encode_indices(&self, buf: &mut Vec<u8>, scratch: &mut Vec<u8>, indices: &[u32]) {
        let width = bit_width(self.len().saturating_sub(1) as u32).max(1);
        buf.push(width as u8);
        match indices.first() {
            None => {}
            Some(&first) if indices.iter().all(|&i| i == first) => {
                rle_run(buf, first, indices.len(), width);
            }
            Some(_) => {
                scratch.clear();
                pack(scratch, indices.iter().copied(), width);
                bit_packed(buf, scratch, indices.len(), width);
            }
        }
    }

    /// A data page's values after its levels: indices into `dict` while the
    /// chunk's pages use it (a page without values too, as the Arrow writer
    /// writes it), else the PLAIN bytes. Returns the page's encoding.
    pub fn page_values(
        dict: Option<&StrDict>,
        buf: &mut Vec<u8>,
        scratch: &mut Vec<u8>,
        indices: &[u32],
        plain: &[u8],
    ) -> Encoding {
        match dict {
            Some(dict) => {
                dict.encode_indices(buf, scratch, indices);
                Encoding::RLE_DICTIONARY
            }
            None => {
                buf.extend_from_slice(plain);
                Encoding::PLAIN
            }
        }
    }

    pub fn get(&self, i: u32) -> &[u8] {
        &self.data[self.ends[i as usize] as usize..self.ends[i as usize + 1] as usize]
    }

    /// The index of `data[a..b]`, added if new.
    #[inline(always)]
    pub fn index(&mut self, data: &[u8], a: usize, b: usize) -> u32 {
        let len = (b - a) as u32;
        if len == 1 {
            let byte = data[a] as usize;
            if let Some(i) = self.one.get(byte, 256) {
                return i;
            }
            let i = self.index_word(byte as u64, 1, &data[a..b]);
            self.one.set(byte, i);
            return i;
        }
        if len <= 8 {
            let word = match data.get(a..a + 8) {
                Some(w) => {
                    let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
                    if len == 8 {
                        w
                    } else {
                        w & ((1u64 << (len * 8)) - 1)
                    }
                }
                None => {
                    let mut w = [0u8; 8];
                    w[..len as usize].copy_from_slice(&data[a..b]);
                    u64::from_le_bytes(w)
                }
            };
            self.index_word(word, len, &data[a..b])
        } else {
            // Runs of one long value (a file's name, a game's players) are
            // common: the last one is compared before hashing.
            let v = &data[a..b];
            if let Some(i) = self.last_long
                && self.get(i) == v
            {
                return i;
            }
            let h = hash(v);
            let i = self.find(h, (h, len), |d, i| d.get(i) == v, v);
            self.last_long = Some(i);
            i
        }
    }

    /// The index of an integer (its four bytes): small ones through a
    /// table, the rest as short values.
    #[inline(always)]
    pub fn index_int(&mut self, v: &[u8]) -> u32 {
        let n = int32(v);
        let Some(at) = n.checked_sub(SMALL_MIN).filter(|&k| (k as usize) < SMALL) else {
            return self.index_word(n as u32 as u64, 4, v);
        };
        let at = at as usize;
        if let Some(i) = self.small.get(at, SMALL) {
            return i;
        }
        let i = self.index_word(n as u32 as u64, 4, v);
        self.small.set(at, i);
        i
    }

    /// The index of the short value `v` (at most eight bytes), read as
    /// `word`.
    #[inline]
    fn index_word(&mut self, word: u64, len: u32, v: &[u8]) -> u32 {
        if self.last.0 == word && self.last.1 == len {
            return self.last.2;
        }
        let h = word.wrapping_add(len as u64).wrapping_mul(K);
        let i = self.find(h, (word, len), |_, _| true, v);
        self.last = (word, len, i);
        i
    }

    /// The entry with this key (and for which `same` holds), added with
    /// the bytes `v` if there is none.
    #[inline]
    fn find(
        &mut self,
        h: u64,
        key: (u64, u32),
        same: impl Fn(&StrDict, u32) -> bool,
        v: &[u8],
    ) -> u32 {
        let mask = self.table.len() - 1;
        let mut at = (h >> self.shift) as usize;
        loop {
            let slot = self.table[at];
            if slot == 0 {
                break;
            }
            let i = slot - 1;
            if self.keys[i as usize] == key && same(self, i) {
                return i;
            }
            at = (at + 1) & mask;
        }
        let i = self.len() as u32;
        self.table[at] = i + 1;
        self.keys.push(key);
        self.data.extend_from_slice(v);
        self.ends.push(self.data.len() as u32);
        self.encoded_size += 4 + v.len();
        self.page.push(u32::MAX);
        if self.len() * 2 > self.table.len() {
            self.grow();
        }
        i
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        self.table.clear();
        self.table.resize(size, 0);
        self.shift -= 1;
        let mask = size - 1;
        for i in 0..self.keys.len() as u32 {
            let (key, len) = self.keys[i as usize];
            let h = if len <= 8 {
                key.wrapping_add(len as u64).wrapping_mul(K)
            } else {
                key
            };
            let mut at = (h >> self.shift) as usize;
            while self.table[at] != 0 {
                at = (at + 1) & mask;
            }
            self.table[at] = i + 1;
        }
    }
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// A hash of a byte string longer than eight bytes: its words multiplied and
/// folded.
fn hash(v: &[u8]) -> u64 {
    let mut h = (v.len() as u64).wrapping_mul(K);
    let mut words = v.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(29);
    }
    h.wrapping_mul(K)
}

/// A 32-bit integer from its four little-endian bytes.
pub fn int32(v: &[u8]) -> i32 {
    i32::from_le_bytes(v.try_into().expect("four bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_byte_short_and_long_values_keep_their_first_index() {
        // Values of one byte (their own table), up to eight (one word) and
        // longer (hashed), each repeated: an entry's index is the order it
        // was first seen, and its bytes are kept.
        let values: [&[u8]; 8] = [
            b"N",
            b"NE",
            b"",
            b"E",
            b"No Trump",
            b"a value over eight bytes",
            b"N",
            b"\xff",
        ];
        let data: Vec<u8> = values.concat();
        let mut at = 0;
        let mut d = StrDict::new();
        let mut got = Vec::new();
        for _ in 0..3 {
            for v in values {
                got.push(d.index(&data, at % data.len(), at % data.len() + v.len()));
                at += v.len();
            }
        }
        let want = [0, 1, 2, 3, 4, 5, 0, 6];
        assert_eq!(got, [want, want, want].concat());
        assert_eq!(d.len(), 7);
        assert_eq!(d.get(0), b"N");
        assert_eq!(d.get(3), b"E");
        assert_eq!(d.get(6), b"\xff");
        // Cleared, the one-byte table starts over too.
        d.clear();
        assert_eq!(d.index(b"E", 0, 1), 0);
        assert_eq!(d.index(b"N", 0, 1), 1);
        assert_eq!(d.get(1), b"N");
    }

    #[test]
    fn runs_of_long_values_and_values_that_differ_from_the_last() {
        // Long values in runs, one of the same length but other bytes, a
        // short value between two long ones, and a run across a clear.
        let values: [&[u8]; 9] = [
            b"first long value",
            b"first long value",
            b"first long valuE",
            b"first long value",
            b"N",
            b"first long value",
            b"second long value",
            b"second long value",
            b"first long value",
        ];
        let mut d = StrDict::new();
        let got: Vec<u32> = values.iter().map(|v| d.index(v, 0, v.len())).collect();
        assert_eq!(got, [0, 0, 1, 0, 2, 0, 3, 3, 0]);
        assert_eq!(d.len(), 4);
        assert_eq!(d.get(1), b"first long valuE");
        assert_eq!(d.get(3), b"second long value");
        d.clear();
        assert_eq!(d.index(b"second long value", 0, 17), 0);
        assert_eq!(d.index(b"first long value", 0, 16), 1);
        assert_eq!(d.index(b"first long value", 0, 16), 1);
        assert_eq!(d.len(), 2);
    }
}
