//! The output is byte-identical whatever the thread count and however the
//! input is chunked for the splitter and grouped for parsing.

use crate::common;

use arrow_array::cast::AsArray;
use deckhand::pipeline::Options;
use std::path::PathBuf;

#[test]
fn threads_and_chunk_sizes_do_not_change_a_byte() {
    let mut inputs = common::fixtures();
    inputs.extend(common::fixtures_in("testdata/hostile"));
    let base_dir = tempfile::tempdir().unwrap();
    common::convert(&inputs, base_dir.path(), &common::quiet(1));
    let want = common::files(base_dir.path());
    assert_eq!(want.len(), common::TABLES.len());
    // (threads, chunk, group, bytes of arrays a window may build: 1 cuts
    // windows to about a group, 1 << 40 never below the splitter's)
    let default = Options::default().window_array_bytes;
    let settings: &[(usize, usize, usize, usize)] = &[
        (2, 1 << 20, 1 << 20, default),
        (1, 1, 1, default),
        (2, 1, 1, default),
        (2, 2, 3, default),
        (2, 3, 7, default),
        (1, 5, 64, default),
        (2, 7, 200, default),
        (2, 13, 1, default),
        (2, 64, 4096, default),
        (2, 1000, 10, default),
        (2, 1 << 20, 1, 1),
        (1, 1 << 20, 300, 1),
        (2, 4096, 2000, 1),
        (2, 4096, 2000, 40_000),
        (2, 1 << 20, 1 << 20, 1 << 40),
    ];
    for &(threads, chunk, group, window_array_bytes) in settings {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            chunk_bytes: chunk,
            group_bytes: group,
            window_array_bytes,
            ..common::quiet(threads)
        };
        common::convert(&inputs, dir.path(), &opts);
        let got = common::files(dir.path());
        common::assert_same_files(
            &want,
            &got,
            &format!(
                "threads={threads} chunk={chunk} group={group} window_array_bytes={window_array_bytes}"
            ),
        );
    }
}

#[test]
fn many_files_and_one_file_agree_on_content() {
    // Converting files together gives the rows of converting them one by one,
    // with hand_ids that keep each file's index.
    let inputs = common::fixtures();
    let all = tempfile::tempdir().unwrap();
    common::convert(&inputs, all.path(), &common::quiet(2));
    let together = common::render(all.path());
    let hands: Vec<&String> = together
        .iter()
        .filter(|l| l.starts_with("pinochle/hands["))
        .collect();
    let mut expected_hands = 0;
    for (i, f) in inputs.iter().enumerate() {
        let one = tempfile::tempdir().unwrap();
        let s = common::convert(std::slice::from_ref(f), one.path(), &common::quiet(2));
        expected_hands += s.total().converted;
        let ids: Vec<String> = common::render(one.path())
            .into_iter()
            .filter(|l| l.starts_with("pinochle/hands["))
            .map(|l| l.split(' ').nth(1).unwrap().to_string())
            .collect();
        for id in ids {
            let local: u64 = id.trim_start_matches("hand_id=").parse().unwrap();
            let global = format!("hand_id={}", ((i as u64) << 40) | local);
            assert!(
                hands
                    .iter()
                    .any(|l| l.split(' ').nth(1) == Some(global.as_str()))
            );
        }
    }
    assert_eq!(hands.len() as u64, expected_hands);
}

#[test]
fn streamed_inputs_give_the_bytes_of_mapped_ones() {
    // A compressed input is read in pieces (the stream path, whose buffer drops
    // what was scanned); a plain one is mapped. With the same paths the Parquet
    // files must be identical byte for byte, whatever the piece size.
    use std::io::Write;
    let mut sources = common::fixtures();
    sources.extend(common::fixtures_in("testdata/hostile"));
    let mut generated = Vec::new();
    let gen_opts = deckhand::notation::pinochle_ppn::generate::GenOptions {
        hands: 300,
        seed: 5,
        malformed: 0.03,
        terminated: 0.05,
        crlf: true,
        style: deckhand::notation::pinochle_ppn::generate::write::Style {
            comments: 0.3,
            chat: 0.2,
            inherit: true,
            ..Default::default()
        },
        ..Default::default()
    };
    deckhand::notation::pinochle_ppn::generate::generate(&gen_opts, &mut generated).unwrap();
    let mut texts: Vec<(String, Vec<u8>)> = sources
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect();
    texts.push(("generated.ppn".into(), generated));
    let dir = tempfile::tempdir().unwrap();
    let inputs: Vec<_> = texts.iter().map(|(n, _)| dir.path().join(n)).collect();
    for ((_, text), path) in texts.iter().zip(&inputs) {
        std::fs::write(path, text).unwrap();
    }
    let base_dir = tempfile::tempdir().unwrap();
    common::convert(&inputs, base_dir.path(), &common::quiet(2));
    let want = common::files(base_dir.path());
    for ((_, text), path) in texts.iter().zip(&inputs) {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(text).unwrap();
        std::fs::write(path, z.finish().unwrap()).unwrap();
    }
    // Small compressed files are decompressed whole when several are parsed
    // at once (`pipeline/small.rs`: with two threads, or joined); with one
    // thread and no joining each is streamed, in pieces of `chunk` bytes.
    let settings = [
        (2, 1 << 20, 1 << 20),
        (1, 1, 1),
        (1, 7, 50),
        (1, 4096, 300),
        (2, 7, 50),
        (2, 4096, 300),
    ];
    for &(threads, chunk, group) in &settings {
        let out = tempfile::tempdir().unwrap();
        let opts = Options {
            chunk_bytes: chunk,
            group_bytes: group,
            join_small_inputs: false,
            ..common::quiet(threads)
        };
        common::convert(&inputs, out.path(), &opts);
        let got = common::files(out.path());
        common::assert_same_files(
            &want,
            &got,
            &format!("streamed with threads={threads} chunk={chunk} group={group}"),
        );
    }
}

static RELEASED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn count_release() {
    RELEASED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

#[test]
fn hands_with_values_of_megabytes_give_the_same_bytes_and_release_memory() {
    // Generated hands, every fourth with a comment of 3 MB: windows of few
    // rows and many bytes go to the writer without waiting to be joined to
    // 50,000 rows, and the writer calls the release hook after them (never
    // for hands of ordinary size); the bytes written do not depend on the
    // threads or the grouping, although runs are cut by bytes here.
    let released = || RELEASED.load(std::sync::atomic::Ordering::SeqCst);
    let hook = |threads| Options {
        release_memory: Some(count_release),
        ..common::quiet(threads)
    };
    let ordinary = tempfile::tempdir().unwrap();
    common::convert(&common::fixtures(), ordinary.path(), &hook(2));
    assert_eq!(released(), 0);

    let text = String::from_utf8(common::generated(40, 3)).unwrap();
    let mut big = String::new();
    for (i, record) in text.split("\n\n").enumerate() {
        if i % 4 == 1 {
            big.push_str(&format!(
                "{{{}}}\n",
                format!("note {i:>4} ").repeat(300_000)
            ));
        }
        big.push_str(record);
        big.push_str("\n\n");
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.ppn");
    std::fs::write(&input, &big).unwrap();
    let base = tempfile::tempdir().unwrap();
    let summary = common::convert(std::slice::from_ref(&input), base.path(), &hook(2));
    assert_eq!(summary.files[0].converted, 40);
    assert_eq!(summary.files[0].quarantined, 0);
    assert!(released() > 0);
    let want = common::files(base.path());
    let comments = common::render(base.path())
        .iter()
        .filter(|l| l.contains("note   13 note   13"))
        .count();
    assert_eq!(comments, 1, "the comment before hand 13 is in its row");
    for &(threads, chunk, group) in &[(1, 4 << 20, 256 << 10), (2, 1 << 20, 4096)] {
        let out = tempfile::tempdir().unwrap();
        let opts = Options {
            chunk_bytes: chunk,
            group_bytes: group,
            ..hook(threads)
        };
        common::convert(std::slice::from_ref(&input), out.path(), &opts);
        assert!(
            common::files(out.path()) == want,
            "threads={threads} chunk={chunk} group={group}"
        );
    }
}

/// The bytes of Arrow arrays of each window `parse_bytes` hands over.
fn window_array_bytes(bytes: &[u8], opts: &Options, streamed: bool) -> Vec<usize> {
    let mut windows = Vec::new();
    let mut consume = |per_table: deckhand::pipeline::WindowBatches| {
        let b = per_table
            .iter()
            .flat_map(|t| &t.1)
            .map(|b| b.get_array_memory_size());
        windows.push(b.sum());
        Ok(())
    };
    if streamed {
        deckhand::pipeline::parse_reader(&mut &bytes[..], "x.ppn", opts, &mut consume).unwrap();
    } else {
        deckhand::pipeline::parse_bytes(bytes, "x.ppn", opts, &mut consume).unwrap();
    }
    windows
}

#[test]
fn windows_that_build_much_for_their_bytes_are_cut_smaller() {
    // Auctions of 300 equal bids: every bid after the first is a warning,
    // a row of the `errors` table, some 90 bytes of arrays an input byte
    // (generated hands build about 6). At a full window's size such windows
    // held a gigabyte in flight; after the first three (cut at a quarter of
    // a window, before the first is built), a window builds about what
    // `window_array_bytes` allows.
    let record = format!(
        "[Site \"x\"]\n[Dealer \"N\"]\n[Auction \"E\"]\n{}\n\n",
        ["50"; 300].join(" ")
    );
    let text = record.repeat(2_000);
    let budget = 4 << 20;
    let opts = Options {
        group_bytes: 16 << 10,
        window_array_bytes: budget,
        ..common::quiet(2)
    };
    for streamed in [false, true] {
        let cut = window_array_bytes(text.as_bytes(), &opts, streamed);
        assert!(cut.len() > 20, "{streamed}: {} windows", cut.len());
        let largest = cut[3..].iter().max().unwrap();
        assert!(*largest < 2 * budget, "{streamed}: {largest} bytes");
        // Without the budget: the first three (a stream's phases run one
        // after the other: one), then one window of the rest of the 1.9 MB.
        let whole = Options {
            window_array_bytes: 1 << 40,
            ..opts.clone()
        };
        let uncut = window_array_bytes(text.as_bytes(), &whole, streamed);
        let first = if streamed { 1 } else { 3 };
        assert_eq!(uncut.len(), first + 1, "{streamed}");
        assert!(
            uncut[first] > 100 << 20,
            "{streamed}: {} bytes",
            uncut[first]
        );
    }
}

#[test]
fn small_files_built_together_give_the_bytes_and_counts_of_one_at_a_time() {
    // Runs of small files are lexed apart and built together (tables of
    // many files); a compressed file among them is decompressed whole, one
    // with old-Mac line ends runs alone in its turn. Every table and every
    // file's counts must be those of building each file on its own.
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    let mut sources = common::fixtures();
    sources.extend(common::fixtures_in("testdata/hostile"));
    for (i, p) in sources.iter().enumerate() {
        let to = dir.path().join(format!(
            "{i:02}-{}",
            p.file_name().unwrap().to_string_lossy()
        ));
        std::fs::copy(p, &to).unwrap();
        inputs.push(to);
    }
    let text = common::generated(30, 3);
    let gz = dir.path().join("05-generated.ppn.gz");
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(&text).unwrap();
    std::fs::write(&gz, z.finish().unwrap()).unwrap();
    let cr = dir.path().join("09-old-mac.ppn");
    let cr_text: Vec<u8> = text
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    std::fs::write(&cr, cr_text).unwrap();
    // A damaged stream (its summary carries a warning) runs alone in turn.
    let gz_bytes = std::fs::read(&gz).unwrap();
    let cut = dir.path().join("07-cut.ppn.gz");
    std::fs::write(&cut, &gz_bytes[..gz_bytes.len() * 2 / 3]).unwrap();
    inputs.push(gz);
    inputs.push(cr);
    inputs.push(cut);
    inputs.sort();
    for &(threads, group) in &[(1, 1 << 20), (2, 1 << 20), (2, 1), (1, 700), (2, 5000)] {
        let opts = |join| Options {
            group_bytes: group,
            join_small_inputs: join,
            ..common::quiet(threads)
        };
        let (apart, together) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let a = common::convert(&inputs, apart.path(), &opts(false));
        let t = common::convert(&inputs, together.path(), &opts(true));
        assert_eq!(a.files, t.files, "threads={threads} group={group}");
        assert!(t.files.iter().any(|f| f.input_warning.is_some()));
        assert_eq!(a.rows, t.rows);
        let (want, got) = (common::files(apart.path()), common::files(together.path()));
        assert_eq!(want.len(), common::TABLES.len());
        common::assert_same_files(&want, &got, &format!("threads={threads} group={group}"));
    }
}

#[test]
fn check_prints_the_same_lines_with_small_files_built_together() {
    let mut inputs = common::fixtures();
    inputs.extend(common::fixtures_in("testdata/hostile"));
    let run = |join| {
        let opts = Options {
            join_small_inputs: join,
            ..common::quiet(2)
        };
        let mut lines = Vec::new();
        let report = deckhand::check::check(&inputs, &opts, true, &mut |l| lines.push(l)).unwrap();
        (lines, report.files, report.total)
    };
    let (apart, together) = (run(false), run(true));
    assert!(apart.0.len() > 100, "{}", apart.0.len());
    assert_eq!(apart, together);
}

/// Rendered rows of every table with the columns that say where a row came
/// from and the row numbers left out.
fn rows_without_positions(out: &std::path::Path) -> Vec<String> {
    deckhand::columns::render::dataset_unplaced(out, &common::TABLES).unwrap()
}

#[test]
fn files_joined_into_one_give_the_rows_of_each_file() {
    // `cat a.ppn b.ppn > ab.ppn`: each header block is a file of its own.
    // b's hands take no `#`/`##` value from a's and are not checked against
    // a's last hand's scores (P064), whatever the chunking.
    let mut sources: Vec<(PathBuf, Vec<u8>)> = common::fixtures()
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        // Files that begin with a header; not one whose lines end with a
        // lone CR (joined to LF files, its CRs no longer end lines).
        .filter(|(_, b)| b.starts_with(b"% PPN") && b.contains(&b'\n'))
        .collect();
    assert_eq!(sources.len(), 13);
    // Scores that follow hand 2 of `b` (GameScores 10:20, HandScores 5:5),
    // and a `#` and no Site after a `##` one; alone, c has no hand before.
    let b = b"% PPN 1.0\n% ID b\n%\n[Hand \"1\"]\n[Site \"##Club\"]\n[Date \"2020.01.01\"]\n\
              [GameScores \"0:0\"]\n[HandScores \"10:20\"]\n\n[Hand \"2\"]\n[Date \"#\"]\n\
              [GameScores \"10:20\"]\n[HandScores \"5:5\"]\n";
    let c = b"% PPN 1.0\n% ID c\n%\n[Hand \"3\"]\n[Date \"#\"]\n[GameScores \"0:7\"]\n\
              [HandScores \"1:1\"]\n";
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("b.ppn", &b[..]), ("c.ppn", &c[..])] {
        sources.push((dir.path().join(name), text.to_vec()));
    }
    let mut joined = Vec::new();
    let mut want = Vec::new();
    for (i, (_, text)) in sources.iter().enumerate() {
        let alone = dir.path().join(format!("alone{i}.ppn"));
        std::fs::write(&alone, text).unwrap();
        let out = tempfile::tempdir().unwrap();
        common::convert(&[alone], out.path(), &common::quiet(1));
        want.push(rows_without_positions(out.path()));
        joined.extend_from_slice(text);
        joined.extend_from_slice(b"\n\n");
    }
    // Rows come table by table; each table's rows file by file.
    let want: Vec<String> = common::TABLES
        .iter()
        .flat_map(|t| {
            want.iter()
                .flatten()
                .filter(move |l| l.split(' ').next() == Some(*t))
                .cloned()
        })
        .collect();
    // And joined with no line end between them: each file's first header
    // line then follows the last line of the file before on its line.
    let mut run_on = Vec::new();
    for (_, text) in &sources {
        run_on.extend_from_slice(text.trim_ascii_end());
    }
    for (name, bytes) in [("joined.ppn", &joined), ("run_on.ppn", &run_on)] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        for &(threads, chunk, group) in &[(1, 1 << 20, 1 << 20), (2, 7, 3), (2, 1000, 1)] {
            let out = tempfile::tempdir().unwrap();
            let opts = Options {
                chunk_bytes: chunk,
                group_bytes: group,
                ..common::quiet(threads)
            };
            common::convert(std::slice::from_ref(&path), out.path(), &opts);
            let got = rows_without_positions(out.path());
            let what = format!("{name} threads={threads} chunk={chunk} group={group}");
            assert_eq!(got.len(), want.len(), "{what}");
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "{what}");
            }
        }
    }
}

#[test]
fn utf16_files_give_the_bytes_of_their_utf8_text() {
    // A file saved as UTF-16 (with its byte-order mark or without, either
    // byte order, also compressed) is read as the UTF-8 text it holds: the same tables
    // byte for byte, offsets included, whether it is read alone (streamed)
    // or with other small files (read whole).
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let names = ["constructs.ppn", "games.ppn", "sample.ppn"];
    let inputs: Vec<PathBuf> = names.iter().map(|n| dir.path().join(n)).collect();
    let texts: Vec<String> = names
        .iter()
        .map(|n| std::fs::read_to_string(format!("testdata/pinochle/{n}")).unwrap())
        .collect();
    let write_all = |encode: &dyn Fn(&str) -> Vec<u8>| {
        for (t, p) in texts.iter().zip(&inputs) {
            std::fs::write(p, encode(t)).unwrap();
        }
    };
    let settings = [(1, false), (2, true)];
    let convert_all = |what: &str| {
        settings
            .iter()
            .map(|&(threads, join)| {
                let out = tempfile::tempdir().unwrap();
                let opts = Options {
                    join_small_inputs: join,
                    ..common::quiet(threads)
                };
                let s = common::convert(&inputs, out.path(), &opts);
                assert_eq!(s.total().quarantined, 1, "{what}");
                common::files(out.path())
            })
            .collect::<Vec<_>>()
    };
    write_all(&|t| t.as_bytes().to_vec());
    let want = convert_all("utf-8");
    let utf16 = |t: &str, be: bool| -> Vec<u8> {
        let mark: [u8; 2] = if be { [0xFE, 0xFF] } else { [0xFF, 0xFE] };
        mark.into_iter()
            .chain(t.encode_utf16().flat_map(
                |u| {
                    if be { u.to_be_bytes() } else { u.to_le_bytes() }
                },
            ))
            .collect()
    };
    let gz = |b: Vec<u8>| {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(&b).unwrap();
        z.finish().unwrap()
    };
    for (what, encode) in [
        (
            "utf-16le",
            &(|t: &str| utf16(t, false)) as &dyn Fn(&str) -> Vec<u8>,
        ),
        ("utf-16be", &|t: &str| utf16(t, true)),
        ("gzip utf-16le", &|t: &str| gz(utf16(t, false))),
        // Without the mark (known by the zero beside each of the first two
        // characters).
        ("utf-16le without a mark", &|t: &str| {
            utf16(t, false)[2..].to_vec()
        }),
        ("utf-16be without a mark", &|t: &str| {
            utf16(t, true)[2..].to_vec()
        }),
    ] {
        write_all(encode);
        let got = convert_all(what);
        for (w, g) in want.iter().zip(&got) {
            common::assert_same_files(w, g, what);
        }
    }
}

/// A `#` whose hand before holds no tag that inheritance reads (a Note
/// alone) names that hand, not the file's start, however the records fall
/// into windows (found by the `ppn_parse` fuzz target: with the hand before
/// in an earlier window, the message said no hand came before).
#[test]
fn a_hash_after_a_hand_of_notes_alone_names_the_hand_before() {
    let bytes = b"[Note \"x\"]\n\n[Site \"#\"]\n";
    for group_bytes in [1, 1 << 20] {
        let opts = Options {
            threads: 1,
            progress: false,
            group_bytes,
            chunk_bytes: 3,
            ..Options::default()
        };
        let mut messages = Vec::new();
        let mut keep = |t: deckhand::pipeline::WindowBatches| {
            let mut all = Vec::new();
            common::place(&mut all, t);
            for b in &all[5] {
                let code = b.column_by_name("code").unwrap();
                let msg = b.column_by_name("message").unwrap();
                let (code, msg) = (code.as_string::<i32>(), msg.as_string::<i32>());
                for i in 0..b.num_rows() {
                    if code.value(i) == "P040" {
                        messages.push(msg.value(i).to_string());
                    }
                }
            }
            Ok(())
        };
        deckhand::pipeline::parse_bytes(bytes, "x.ppn", &opts, &mut keep).unwrap();
        deckhand::pipeline::parse_reader(&mut &bytes[..], "x.ppn", &opts, &mut keep).unwrap();
        assert_eq!(
            messages,
            ["tag Site is \"#\" but the hand before has no Site tag; its value is null"; 2],
            "group_bytes {group_bytes}"
        );
    }
}
