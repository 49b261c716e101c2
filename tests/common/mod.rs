#![allow(dead_code)]

use std::path::{Path, PathBuf};

use deckhand::pipeline::{self, Options, Summary};

/// The tables of a pinochle dataset, by their paths in it.
pub const TABLES: [&str; 6] = [
    "pinochle/hands",
    "pinochle/seats",
    "pinochle/bids",
    "pinochle/tricks",
    "pinochle/notes",
    "errors",
];

/// Every fixture under testdata/pinochle, in name order.
pub fn fixtures() -> Vec<PathBuf> {
    fixtures_in("testdata/pinochle")
}

/// Every `.ppn` file under `dir`, in name order.
pub fn fixtures_in(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ppn"))
        .collect();
    v.sort();
    assert!(v.len() >= 6, "fixtures missing");
    v
}

/// `hands` generated hands of seed `seed` with the generator's defaults.
pub fn generated(hands: u64, seed: u64) -> Vec<u8> {
    let opts = deckhand::notation::pinochle_ppn::generate::GenOptions {
        hands,
        seed,
        ..Default::default()
    };
    let mut out = Vec::new();
    deckhand::notation::pinochle_ppn::generate::generate(&opts, &mut out).unwrap();
    out
}

/// Quiet options of `threads` threads; the Parquet writer is the one
/// `DECKHAND_WRITER` names (`arrow`: every column by the Arrow writer, as
/// `scripts/test.sh` runs the golden and equivalence suites a second time),
/// else the default.
pub fn quiet(threads: usize) -> Options {
    Options {
        threads,
        progress: false,
        force: true,
        writer: writer(),
        ..Options::default()
    }
}

/// The writer `DECKHAND_WRITER` names.
pub fn writer() -> deckhand::sink::writer::Writer {
    use deckhand::sink::writer::Writer;
    match std::env::var("DECKHAND_WRITER").as_deref() {
        Ok("arrow") => Writer::Arrow,
        Ok("fast") | Err(_) => Writer::Fast,
        Ok(other) => panic!("DECKHAND_WRITER={other}: expected arrow or fast"),
    }
}

pub fn convert(inputs: &[PathBuf], out: &Path, opts: &Options) -> Summary {
    pipeline::convert(inputs, out, opts).expect("conversion runs")
}

pub fn render(out: &Path) -> Vec<String> {
    deckhand::columns::render::dataset(out, &TABLES).unwrap()
}

pub fn table_names() -> Vec<String> {
    deckhand::notation::pinochle_ppn::TABLES
        .iter()
        .map(|t| t.path())
        .collect()
}

/// The bytes of every Parquet file in a dataset, by relative path.
pub fn files(out: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v = Vec::new();
    for t in TABLES {
        for e in std::fs::read_dir(out.join(t)).unwrap() {
            let p = e.unwrap().path();
            v.push((
                p.strip_prefix(out).unwrap().display().to_string(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    v.sort();
    v
}

/// The bytes of every Parquet file of `tables` in a dataset, by relative
/// path; tables a run did not write are left out.
pub fn table_files(out: &Path, tables: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut v = Vec::new();
    for t in tables {
        let Ok(dir) = std::fs::read_dir(out.join(t)) else {
            continue;
        };
        for e in dir {
            let p = e.unwrap().path();
            v.push((
                p.strip_prefix(out).unwrap().display().to_string(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    v.sort();
    v
}

/// Every file under `dir` (recursively) with one of `extensions`, in path
/// order.
pub fn files_with(dir: &str, extensions: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, extensions, out);
            } else if p
                .extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
            {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(Path::new(dir), extensions, &mut v);
    v.sort();
    v
}

/// Asserts that two outputs (from [`files`]) hold the same files, byte for
/// byte; `what` names the settings in the message.
pub fn assert_same_files(want: &[(String, Vec<u8>)], got: &[(String, Vec<u8>)], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for ((wn, wb), (gn, gb)) in want.iter().zip(got) {
        assert_eq!(wn, gn);
        assert!(wb == gb, "{wn} differs with {what}");
    }
}

/// Adds a window's batches to `all`, one list per table of [`TABLES`] (the
/// window of an input of no notation holds its `errors` batch alone).
pub fn place(all: &mut Vec<Vec<arrow_array::RecordBatch>>, t: deckhand::pipeline::WindowBatches) {
    all.resize_with(TABLES.len(), Vec::new);
    for (decl, batches) in t {
        let i = TABLES
            .iter()
            .position(|p| *p == decl.path())
            .expect("a pinochle table");
        all[i].extend(batches);
    }
}

/// Compares `got` with the golden file beside `fixture` (`.expected`), or
/// writes it there under `DECKHAND_BLESS`; a difference is added to
/// `failures`, naming the first line that differs.
pub fn golden_compare(fixture: &Path, got: &str, what: &str, failures: &mut Vec<String>) {
    let golden = fixture.with_extension("expected");
    if std::env::var_os("DECKHAND_BLESS").is_some() {
        std::fs::write(&golden, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    if want != got {
        let first = want
            .lines()
            .zip(got.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(got.lines().count()));
        failures.push(format!(
            "{} ({what}): differs at line {}:\n  want: {}\n  got:  {}",
            fixture.display(),
            first + 1,
            want.lines().nth(first).unwrap_or("<end>"),
            got.lines().nth(first).unwrap_or("<end>")
        ));
    }
}

/// The value of `column` in a rendered row (`None` when null; a quoted
/// string without its quotes, up to its first `"`).
pub fn value<'a>(row: &'a str, column: &str) -> Option<&'a str> {
    let key = format!(" {column}=");
    let at = row.find(&key)? + key.len();
    let rest = &row[at..];
    if let Some(q) = rest.strip_prefix('"') {
        return Some(&q[..q.find('"').unwrap()]);
    }
    Some(rest.split(' ').next().unwrap())
}

/// The rendered rows of `table` (`table[i] ...`, or `table ...` as
/// `render::dataset_unplaced` writes them).
pub fn rows<'a>(all: &'a [String], table: &str) -> Vec<&'a str> {
    all.iter()
        .filter(|l| {
            l.strip_prefix(table)
                .is_some_and(|r| r.starts_with('[') || r.starts_with(' '))
        })
        .map(|l| l.as_str())
        .collect()
}

/// One Parquet file read back as one batch.
pub fn read_parquet(path: &Path) -> arrow_array::RecordBatch {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap();
    let schema = arrow_array::RecordBatchReader::schema(&r);
    let batches: Vec<_> = r.map(|b| b.unwrap()).collect();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// One table of a dataset (`preferans/games`), its part files in order,
/// as one batch.
pub fn read_table(out: &Path, table: &str) -> arrow_array::RecordBatch {
    let mut parts: Vec<PathBuf> = std::fs::read_dir(out.join(table))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    parts.sort();
    let batches: Vec<_> = parts.iter().map(|p| read_parquet(p)).collect();
    arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap()
}

/// Applies property-test edits to bytes: each overwrites (0), inserts (1)
/// or removes (2) a byte at its index.
pub fn mutate(v: &mut Vec<u8>, edits: Vec<(proptest::sample::Index, u8, u8)>) {
    for (at, byte, op) in edits {
        let len = v.len();
        let i = at.index(len.max(1));
        match op {
            0 if len > 0 => v[i.min(len - 1)] = byte,
            1 => v.insert(i.min(len), byte),
            _ if len > 0 => {
                v.remove(i.min(len - 1));
            }
            _ => {}
        }
    }
}

/// Makes a FIFO at `path`.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}
