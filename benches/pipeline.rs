//! Throughput of the splitter alone, of parsing into Arrow batches (no
//! writing), of the Parquet writer alone (batches built beforehand), and of
//! end-to-end conversion into in-memory Parquet files and into files.
//! Input: a generated archive of about 16 MB (seed 1); every throughput is in
//! bytes of that input. The `pbn` group parses the bundled real PBN files
//! (`testdata/real/bridge`: endplay's example2 and example3 and
//! zdenecek's files) joined into one, about 2.3 MB; the `phh` group the
//! bundled real PHH hands (`testdata/real/poker`) as one `.phhs` text,
//! ten times over, about 0.8 MB.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use deckhand::notation::pinochle_ppn::TABLES;
use deckhand::pipeline::{Options, parse_bytes};
use deckhand::registry::Settings;
use deckhand::sink::writer::{Codec, SinkOptions, TableSink, TableSpec, Writer, writer_properties};
use parquet::arrow::ArrowWriter;
use rayon::prelude::*;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn archive() -> Vec<u8> {
    let mut v = Vec::with_capacity(17 << 20);
    let opts = deckhand::notation::pinochle_ppn::generate::GenOptions {
        hands: 18_000,
        seed: 1,
        ..Default::default()
    };
    deckhand::notation::pinochle_ppn::generate::generate(&opts, &mut v).unwrap();
    v
}

fn opts(threads: usize) -> Options {
    Options {
        threads,
        progress: false,
        ..Options::default()
    }
}

fn benches(c: &mut Criterion) {
    let input = archive();
    let mut g = c.benchmark_group("ppn");
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.sample_size(10);
    g.bench_function("split", |b| {
        b.iter(|| deckhand::notation::tagpair::split::split_all(&input, 0).len())
    });
    g.bench_function("parse_without_rules/threads=1", |b| {
        let o = Options {
            settings: Settings {
                compute: false,
                ..Default::default()
            },
            ..opts(1)
        };
        b.iter(|| {
            let mut rows = 0usize;
            parse_bytes(&input, "bench.ppn", &o, &mut |t| {
                rows += t[0].1.iter().map(|b| b.num_rows()).sum::<usize>();
                Ok(())
            })
            .unwrap();
            rows
        })
    });
    for threads in [1, 2] {
        g.bench_function(format!("parse/threads={threads}"), |b| {
            b.iter(|| {
                let mut rows = 0usize;
                parse_bytes(&input, "bench.ppn", &opts(threads), &mut |t| {
                    rows += t[0].1.iter().map(|b| b.num_rows()).sum::<usize>();
                    Ok(())
                })
                .unwrap();
                rows
            })
        });
        g.bench_function(format!("convert_to_memory/threads={threads}"), |b| {
            b.iter(|| {
                let sink = SinkOptions {
                    codec: Codec::Zstd,
                    writer: Writer::Arrow,
                    row_group_rows: 1 << 20,
                    part: 0,
                    metadata: Vec::new(),
                };
                let mut writers: Vec<ArrowWriter<Vec<u8>>> = TABLES
                    .iter()
                    .map(|t| {
                        let spec = TableSpec::of(t);
                        let props = writer_properties(&spec, &sink);
                        ArrowWriter::try_new(Vec::new(), spec.schema, Some(props)).unwrap()
                    })
                    .collect();
                parse_bytes(&input, "bench.ppn", &opts(threads), &mut |t| {
                    for (w, (_, batches)) in writers.iter_mut().zip(t) {
                        for b in batches {
                            w.write(&b).unwrap();
                        }
                    }
                    Ok(())
                })
                .unwrap();
                writers
                    .into_iter()
                    .map(|w| w.into_inner().unwrap().len())
                    .sum::<usize>()
            })
        });
    }
    // The Parquet writer alone, as `convert` drives it (its sinks, zstd, the
    // tables in parallel), on the archive's batches built once beforehand:
    // the most `convert` could reach if parsing cost nothing.
    let mut tables: Vec<Vec<arrow_array::RecordBatch>> = Vec::new();
    parse_bytes(&input, "bench.ppn", &opts(2), &mut |t| {
        tables.resize_with(t.len(), Vec::new);
        for (all, (_, batches)) in tables.iter_mut().zip(t) {
            all.extend(batches);
        }
        Ok(())
    })
    .unwrap();
    for threads in [1, 2] {
        g.bench_function(format!("write_only/threads={threads}"), |b| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let out = tempfile::tempdir().unwrap();
            let sink = SinkOptions {
                codec: Codec::Zstd,
                writer: Writer::Fast,
                row_group_rows: 1 << 20,
                part: 0,
                metadata: Vec::new(),
            };
            b.iter(|| {
                let sinks: Vec<TableSink> = TABLES
                    .iter()
                    .map(|t| TableSink::create(out.path(), &TableSpec::of(t), &sink).unwrap())
                    .collect();
                pool.install(|| {
                    sinks
                        .into_par_iter()
                        .zip(tables.par_iter())
                        .map(|(mut sink, batches)| {
                            for b in batches {
                                sink.write(b.clone()).unwrap();
                            }
                            sink.finish().unwrap()
                        })
                        .sum::<u64>()
                })
            })
        });
    }
    // The real `convert`: files written (to a temporary directory), zstd.
    for rules in [false, true] {
        let name = if rules {
            "convert/threads=2"
        } else {
            "convert_without_rules/threads=2"
        };
        let path = std::env::temp_dir().join("deckhand-bench.ppn");
        std::fs::write(&path, &input).unwrap();
        g.bench_function(name, |b| {
            let o = Options {
                force: true,
                settings: Settings {
                    compute: rules,
                    ..Default::default()
                },
                ..opts(2)
            };
            let out = tempfile::tempdir().unwrap();
            b.iter(|| {
                deckhand::pipeline::convert(std::slice::from_ref(&path), out.path(), &o)
                    .unwrap()
                    .total()
                    .converted
            })
        });
    }
    g.finish();
}

/// The bundled real PBN files endplay reads, joined (each followed by a
/// blank line).
fn pbn_archive() -> Vec<u8> {
    let dir = std::path::Path::new("testdata/real/bridge");
    let mut files: Vec<std::path::PathBuf> = ["endplay/example2.pbn", "endplay/example3.pbn"]
        .iter()
        .map(|f| dir.join(f))
        .collect();
    let mut z: Vec<_> = std::fs::read_dir(dir.join("zdenecek-pbn"))
        .expect("testdata/real/bridge/zdenecek-pbn")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pbn"))
        .collect();
    z.sort();
    files.extend(z);
    let mut v = Vec::new();
    for f in files {
        v.extend(std::fs::read(f).unwrap());
        v.extend(b"\n\n");
    }
    v
}

/// A group `name` parsing `input` (as a file named `file`) at 1 and 2
/// threads.
fn parse_group(c: &mut Criterion, name: &str, input: &[u8], file: &str) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.sample_size(10);
    for threads in [1, 2] {
        g.bench_function(format!("parse/threads={threads}"), |b| {
            b.iter(|| {
                let mut rows = 0usize;
                parse_bytes(input, file, &opts(threads), &mut |t| {
                    rows += t[0].1.iter().map(|b| b.num_rows()).sum::<usize>();
                    Ok(())
                })
                .unwrap();
                rows
            })
        });
    }
    g.finish();
}

fn pbn(c: &mut Criterion) {
    parse_group(c, "pbn", &pbn_archive(), "bench.pbn");
}

/// The bundled real PHH hands (testdata/real/poker, 113 hands of the
/// 11 variants), each a table `[N]` of one `.phhs` text, repeated ten times.
fn phh_archive() -> Vec<u8> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "phh") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(std::path::Path::new("testdata/real/poker"), &mut files);
    files.sort();
    let hands: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let mut v = Vec::new();
    let mut n = 0;
    for _ in 0..10 {
        for h in &hands {
            n += 1;
            v.extend(format!("[{n}]\n").as_bytes());
            v.extend(h);
            v.extend(b"\n\n");
        }
    }
    v
}

fn phh(c: &mut Criterion) {
    parse_group(c, "phh", &phh_archive(), "bench.phhs");
}

criterion_group!(pipeline, benches, pbn, phh);
criterion_main!(pipeline);
