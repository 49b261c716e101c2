//! `deckhand::read`: one table of one input as Arrow batches, the rows
//! `convert` writes for that file at that file index, from a path or from
//! bytes (plain or compressed); errors at once for a bad table, game or
//! path; a reader dropped early stops the parse.

use crate::common;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use arrow_array::{Array, RecordBatch, RecordBatchReader};
use deckhand::pipeline::{self, Options};
use deckhand::read::{self, ReadOptions, Source};

/// One input of each notation, with the game its tables belong to.
fn inputs() -> Vec<(PathBuf, &'static str)> {
    [
        ("testdata/pinochle/games.ppn", "pinochle"),
        ("testdata/pinochle/spec_example.ppn", "pinochle"),
        ("testdata/bridge/sections.pbn", "bridge"),
        ("testdata/bridge/rbn/database.rbn", "bridge"),
        ("testdata/poker/valid/variants.phhs", "poker"),
        ("testdata/preferans/deals.ppn", "preferans"),
        ("testdata/pinochle/invalid.ppn", "pinochle"),
    ]
    .into_iter()
    .map(|(p, g)| (PathBuf::from(p), g))
    .collect()
}

fn collect(r: read::TableReader) -> (arrow_schema::SchemaRef, Vec<RecordBatch>) {
    let schema = r.schema();
    let batches: Vec<RecordBatch> = r.map(|b| b.unwrap()).collect();
    for b in &batches {
        assert_eq!(b.schema(), schema);
    }
    (schema, batches)
}

fn concat(schema: &arrow_schema::SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(schema, batches).unwrap()
}

/// The table's rows in a dataset (none when it has no file there).
fn parquet_rows(out: &Path, table: &str) -> Option<RecordBatch> {
    let dir = out.join(table);
    dir.exists().then(|| common::read_table(out, table))
}

fn assert_same(read: &RecordBatch, written: &RecordBatch, what: &str) {
    assert_eq!(read.num_rows(), written.num_rows(), "{what}: rows");
    assert_eq!(read.num_columns(), written.num_columns(), "{what}: columns");
    for (i, f) in read.schema().fields().iter().enumerate() {
        assert_eq!(
            f.name(),
            written.schema().field(i).name(),
            "{what}: column {i}"
        );
        assert_eq!(
            read.column(i).to_data(),
            written.column(i).to_data(),
            "{what}: column {}",
            f.name()
        );
    }
}

#[test]
fn every_table_of_every_game_reads_as_convert_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    for (k, (path, game)) in inputs().into_iter().enumerate() {
        let index = 3 + k as u64;
        let out = dir.path().join(format!("out{k}"));
        let opts = Options {
            file_index_base: index,
            ..common::quiet(2)
        };
        pipeline::convert(std::slice::from_ref(&path), &out, &opts).unwrap();
        let plain = std::fs::read(&path).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&plain).unwrap();
        let gz = gz.finish().unwrap();
        let mut read_rows = 0;
        for decl in read::tables(Some(game)).unwrap() {
            let table = decl.path();
            let written = parquet_rows(&out, &table);
            let sources = [
                Source::Path(path.clone()),
                Source::Bytes {
                    name: path.display().to_string(),
                    bytes: plain.clone().into(),
                },
                Source::Bytes {
                    name: path.display().to_string(),
                    bytes: gz.clone().into(),
                },
            ];
            for (s, source) in sources.into_iter().enumerate() {
                let r = read::read(
                    source,
                    decl.name,
                    &ReadOptions {
                        game: Some(game.to_string()),
                        file_index: index,
                        threads: 2,
                        ..ReadOptions::default()
                    },
                )
                .unwrap();
                let (schema, batches) = collect(r);
                assert_eq!(schema, (decl.schema)());
                let got = concat(&schema, &batches);
                let what = format!("{} {table} (source {s})", path.display());
                match &written {
                    Some(w) => assert_same(&got, w, &what),
                    None => assert_eq!(got.num_rows(), 0, "{what}"),
                }
                read_rows += got.num_rows();
            }
        }
        assert!(read_rows > 0, "{}", path.display());
    }
}

#[test]
fn a_table_name_alone_is_found_by_the_inputs_game() {
    // `hands` is pinochle's and poker's: the input says which.
    let r = read::read(
        Source::Path("testdata/poker/valid/variants.phhs".into()),
        "hands",
        &ReadOptions {
            ..ReadOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        r.schema(),
        (read::find_table(Some("poker"), "hands").unwrap().schema)()
    );
    let (_, b) = collect(r);
    assert!(b.iter().map(|b| b.num_rows()).sum::<usize>() > 0);
    // A name one game has needs no game; `<game>/<table>` names both.
    assert_eq!(
        read::find_table(None, "boards").unwrap().path(),
        "bridge/boards"
    );
    assert_eq!(
        read::find_table(None, "preferans/deals").unwrap().path(),
        "preferans/deals"
    );
    assert_eq!(
        read::find_table(Some("poker"), "errors").unwrap().path(),
        "errors"
    );
}

#[test]
fn bad_names_and_paths_are_errors_that_say_what_is_valid() {
    let msg = |e: deckhand::Error| e.to_string();
    assert_eq!(
        msg(read::find_table(Some("chess"), "hands").unwrap_err()),
        "unknown game 'chess': deckhand's games are bridge, pinochle, poker, preferans"
    );
    assert_eq!(
        msg(read::find_table(Some("bridge"), "hands").unwrap_err()),
        "game 'bridge' has no table 'hands': its tables are boards, seats, calls, plays, tricks, notes, score_tables, double_dummy, errors"
    );
    assert!(
        msg(read::find_table(None, "nope").unwrap_err())
            .starts_with("no table 'nope': the tables are pinochle/hands, ")
    );
    let e = read::read(
        Source::Path("testdata/no/such.ppn".into()),
        "errors",
        &ReadOptions {
            ..ReadOptions::default()
        },
    )
    .err()
    .unwrap();
    match &e {
        deckhand::Error::Read { path, source } => {
            assert_eq!(path, Path::new("testdata/no/such.ppn"));
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other}"),
    }
    // What can be read once only is refused at once (opening a FIFO with
    // no writer waited forever; each scan reads afresh).
    #[cfg(unix)]
    {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f.ppn");
        common::mkfifo(&fifo);
        for p in [fifo.as_path(), Path::new("-")] {
            match read::read(Source::Path(p.into()), "errors", &ReadOptions::default()).err() {
                Some(deckhand::Error::Read { path, source }) => {
                    assert_eq!(path, p);
                    assert_eq!(source.kind(), std::io::ErrorKind::InvalidInput);
                    assert!(source.to_string().starts_with("can be read once only"));
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

/// A reader dropped after its first batch returns: the parse, blocked on
/// a full channel (20,000 hands are some ten windows; the channel holds
/// four batches), sees the channel closed and stops, and the drop joins it.
/// A drop that joined before closing the channel would wait forever: the
/// watchdog turns that into a failure after a minute (a bound on a hang,
/// not a measurement).
#[test]
fn a_reader_dropped_early_stops_the_parse() {
    let bytes = common::generated(20_000, 7);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut r = read::read(
            Source::Bytes {
                name: "big.ppn".into(),
                bytes: bytes.into(),
            },
            "pinochle/tricks",
            &ReadOptions {
                threads: 2,
                ..ReadOptions::default()
            },
        )
        .unwrap();
        let first = r.next().unwrap().unwrap();
        drop(r);
        tx.send(first.num_rows()).unwrap();
    });
    let rows = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the reader's drop returns");
    assert!(rows > 0);
    assert!(rows < 20_000 * 20);
}

#[test]
fn the_summary_counts_the_input() {
    let mut r = read::read(
        Source::Path("testdata/pinochle/invalid.ppn".into()),
        "errors",
        &ReadOptions {
            ..ReadOptions::default()
        },
    )
    .unwrap();
    let mut rows = 0;
    while let Some(b) = r.next_batch() {
        rows += b.unwrap().num_rows();
    }
    let s = r.summary().unwrap();
    assert_eq!(s.records, 8);
    assert_eq!(s.quarantined, 5);
    assert_eq!(rows as u64, s.quarantined + s.warnings + s.infos);
}
