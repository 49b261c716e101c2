//! A directory of several notations: each file is routed by its content and
//! its name, pinochle's tables go to `OUT/pinochle/`, every game's
//! diagnostics to `OUT/errors/`, bridge's to `OUT/bridge/`, files of a
//! notation not converted yet are
//! quarantined record by record, and files of no notation are left out (or,
//! named on the command line, reported). Also: no generic module names a
//! notation, a game or one of their tables.

use crate::common;

use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, RecordBatch};
use assert_cmd::Command;

fn deckhand() -> Command {
    Command::cargo_bin("deckhand").unwrap()
}

/// The rows of the `errors` table of a dataset, concatenated.
fn errors(out: &Path) -> RecordBatch {
    let mut batches = Vec::new();
    for e in std::fs::read_dir(out.join("errors")).unwrap() {
        let f = std::fs::File::open(e.unwrap().path()).unwrap();
        let r = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f)
            .unwrap()
            .build()
            .unwrap();
        batches.extend(r.map(|b| b.unwrap()));
    }
    arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap()
}

fn strings(b: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let c = b.column_by_name(name).unwrap().as_string::<i32>().clone();
    (0..c.len())
        .map(|i| (!c.is_null(i)).then(|| c.value(i).to_string()))
        .collect()
}

fn ints(b: &RecordBatch, name: &str) -> Vec<Option<i64>> {
    let c = b
        .column_by_name(name)
        .unwrap()
        .as_primitive::<Int64Type>()
        .clone();
    (0..c.len())
        .map(|i| (!c.is_null(i)).then(|| c.value(i)))
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const REAL: &str = "testdata/real/bridge";

#[test]
fn a_directory_of_several_notations() {
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in");
    std::fs::create_dir(&inp).unwrap();
    std::fs::copy("testdata/pinochle/sample.ppn", inp.join("hands.ppn")).unwrap();
    // PBN with its `% PBN 1.0` header (14 boards), and without one, named
    // `.txt` (2 boards, recognized by their Board and Vulnerable tags).
    std::fs::copy(
        format!("{REAL}/zdenecek-pbn/bigdeal.pbn"),
        inp.join("boards.pbn"),
    )
    .unwrap();
    std::fs::copy(format!("{REAL}/endplay/sample.pbn"), inp.join("boards.txt")).unwrap();
    // PHH: one hand, into the poker tables.
    std::fs::copy(
        "testdata/real/poker/phh-dataset/data/alice-carol-wikipedia.phh",
        inp.join("hand.phh"),
    )
    .unwrap();
    std::fs::write(inp.join("empty.ppn"), b"").unwrap();
    std::fs::write(inp.join("blob.bin"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    std::fs::write(inp.join("notes.md"), b"# Notes\n").unwrap();
    let out = dir.path().join("out");
    let json = dir.path().join("summary.json");
    let run = deckhand()
        .arg("convert")
        .arg(&inp)
        .arg("-o")
        .arg(&out)
        .arg("--summary-json")
        .arg(&json)
        .assert()
        .code(0);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        stderr.contains(
            "2 file(s) in the input directories are of no notation deckhand reads and were left out"
        ),
        "{stderr}"
    );

    // The layout: each game's tables, the shared errors table, the
    // manifest.
    assert_eq!(
        names(&out),
        ["_deckhand.json", "bridge", "errors", "pinochle", "poker"]
    );
    assert_eq!(names(&out.join("poker")), ["actions", "hands", "players"]);
    assert_eq!(
        names(&out.join("pinochle")),
        ["bids", "hands", "notes", "seats", "tricks"]
    );
    assert_eq!(
        names(&out.join("bridge")),
        [
            "boards",
            "calls",
            "double_dummy",
            "notes",
            "plays",
            "score_tables",
            "seats",
            "tricks"
        ]
    );
    for t in common::TABLES {
        assert_eq!(names(&out.join(t)), ["part-00000.parquet"], "{t}");
    }
    let hands = deckhand::columns::render::dataset(&out, &["pinochle/hands"]).unwrap();
    assert_eq!(hands.len(), 8);
    assert!(hands.iter().all(|h| h.contains("notation=\"PPN\"")));
    let boards = deckhand::columns::render::dataset(&out, &["bridge/boards"]).unwrap();
    assert_eq!(boards.len(), 16);
    assert!(boards.iter().all(|h| h.contains("notation=\"PBN\"")));

    let hands = deckhand::columns::render::dataset(&out, &["poker/hands"]).unwrap();
    assert_eq!(hands.len(), 1);
    assert!(hands[0].contains("notation=\"PHH\""), "{}", hands[0]);
    assert!(hands[0].contains("variant=\"FB\""), "{}", hands[0]);
    let e = errors(&out);
    // Every row is a bridge board's (infos: no auction in these files),
    // keyed to its board.
    for k in 0..e.num_rows() {
        assert_eq!(strings(&e, "game")[k].as_deref(), Some("bridge"));
        assert!(ints(&e, "record_id")[k].is_some());
    }

    // The summary: per file with its notation, the files left out.
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(
        (&s["records"], &s["converted"], &s["quarantined"]),
        (&25.into(), &25.into(), &0.into())
    );
    let per: Vec<(String, String, u64, u64)> = s["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let name = f["path"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            (
                name,
                f["notation"].as_str().unwrap().to_string(),
                f["records"].as_u64().unwrap(),
                f["converted"].as_u64().unwrap(),
            )
        })
        .collect();
    let t = |n: &str, k: &str, r, c| (n.to_string(), k.to_string(), r, c);
    assert_eq!(
        per,
        [
            t("boards.pbn", "PBN", 14, 14),
            t("boards.txt", "PBN", 2, 2),
            t("empty.ppn", "PPN", 0, 0),
            t("hand.phh", "PHH", 1, 1),
            t("hands.ppn", "PPN", 8, 8)
        ]
    );
    let left_out: Vec<&str> = s["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(left_out, ["blob.bin", "notes.md"]);
    assert_eq!(s["rows"]["errors"], e.num_rows());
    assert_eq!(s["rows"]["pinochle/hands"], 8);
    assert_eq!(s["rows"]["bridge/boards"], 16);

    // Named on the command line, a file of no notation is an input: one
    // errors row says what it looked like, and the run goes on; one of
    // white space alone holds nothing to lose and gives no row.
    let out2 = dir.path().join("out2");
    std::fs::write(dir.path().join("blank.dat"), b"  \n\n").unwrap();
    deckhand()
        .arg("convert")
        .arg(inp.join("blob.bin"))
        .arg(dir.path().join("blank.dat"))
        .arg(inp.join("hands.ppn"))
        .arg("-q")
        .arg("-o")
        .arg(&out2)
        .assert()
        .code(1);
    let e = errors(&out2);
    assert_eq!(e.num_rows(), 1);
    assert_eq!(strings(&e, "notation"), [None]);
    assert_eq!(strings(&e, "game"), [None]);
    assert_eq!(strings(&e, "code"), [Some("D001".to_string())]);
    let msg = strings(&e, "message")[0].clone().unwrap();
    assert!(
        msg.starts_with("not recognized: this file holds binary data (a NUL byte at offset 8); deckhand reads PPN, PPN-preferans, PBN, RBN, RBX, PHH"),
        "{msg}"
    );
    assert_eq!(
        deckhand::columns::render::dataset(&out2, &["pinochle/hands"])
            .unwrap()
            .len(),
        8
    );
    // A run writes the tables of the games it met, and errors: a
    // Preferans game (named `.ppn` like pinochle's) goes to preferans.
    let out3 = dir.path().join("out3");
    let prefs = dir.path().join("game.ppn");
    std::fs::write(&prefs, b"[Bula 60]\n[Refe 3]\n[Player1 \"Ann Lee\"]\n").unwrap();
    deckhand()
        .arg("convert")
        .arg(&prefs)
        .arg("-q")
        .arg("-o")
        .arg(&out3)
        .assert()
        .code(0);
    assert_eq!(names(&out3), ["_deckhand.json", "errors", "preferans"]);
    let e = errors(&out3);
    assert_eq!(strings(&e, "code"), [Some("F010".to_string())]);
    assert_eq!(
        strings(&e, "message"),
        [Some(
            "required tags missing: Player2, Player3, Result1, Result2, Result3".to_string()
        )]
    );
}

/// The pipeline, the sinks, the columns, the sources, `check`, the
/// documentation and `main` know no notation, game or table by name: each
/// is a module plugged in (the same words as the team's before-stop hook
/// looks for, module paths of the notations, and quoted names of their
/// tables and keys).
#[test]
fn generic_modules_name_no_notation_game_or_table() {
    let generic = [
        "src/pipeline",
        "src/sink",
        "src/columns",
        "src/source",
        "src/split.rs",
        "src/check.rs",
        "src/main.rs",
        "src/docs.rs",
        "src/diagnostics.rs",
        "src/error.rs",
        "src/read.rs",
        "src/dataset.rs",
    ];
    let words = [
        "Ppn",
        "Pbn",
        "Rbn",
        "Rbx",
        "Phh",
        "pinochle",
        "bridge",
        "poker",
        "preferans",
    ];
    let paths = ["ppn", "pbn", "rbn", "rbx", "phh", "preferans"];
    let quoted = [
        "hands", "hand_id", "seats", "bids", "tricks", "notes", "boards", "board_id", "deals",
        "games", "game_id", "players", "actions",
    ];
    let mut files = Vec::new();
    for g in generic {
        let p = Path::new(g);
        if p.is_dir() {
            files.extend(walkdir(p));
        } else {
            files.push(p.to_path_buf());
        }
    }
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut hits = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let mut hit = |what: String| {
                hits.push(format!(
                    "{}:{}: {what}: {}",
                    f.display(),
                    n + 1,
                    line.trim()
                ))
            };
            for w in words {
                for (s, _) in line.match_indices(w) {
                    let e = s + w.len();
                    if !is_word(line[..s].chars().last()) && !is_word(line[e..].chars().next()) {
                        hit(w.to_string());
                    }
                }
            }
            for p in paths {
                if line.contains(&format!("::{p}")) || line.contains(&format!("{p}::")) {
                    hit(format!("path {p}"));
                }
            }
            for q in quoted {
                if line.contains(&format!("\"{q}\"")) || line.contains(&format!("\"{q}=")) {
                    hit(format!("\"{q}\""));
                }
            }
        }
    }
    assert!(hits.is_empty(), "{} hits:\n{}", hits.len(), hits.join("\n"));
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The top-level modules of `src/` (a file or a folder each) and the
/// others each names through `crate::` paths, outside comments; the
/// binary's files (`main.rs`, `cli.rs`) and `lib.rs` stand above them all.
fn module_imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new("src");
    let modules: Vec<String> = names(src)
        .into_iter()
        .map(|n| n.trim_end_matches(".rs").to_string())
        .filter(|n| !["main", "cli", "lib"].contains(&n.as_str()))
        .collect();
    let mut graph = std::collections::BTreeMap::new();
    for m in &modules {
        let mut all = Vec::new();
        let dir = src.join(m);
        if dir.is_dir() {
            files(&dir, &mut all);
        } else {
            all.push(src.join(format!("{m}.rs")));
        }
        let mut uses = std::collections::BTreeSet::new();
        for f in all {
            for line in std::fs::read_to_string(&f).unwrap().lines() {
                let code = match line.find("//") {
                    Some(at) => &line[..at],
                    None => line,
                };
                for (at, _) in code.match_indices("crate::") {
                    let rest = &code[at + "crate::".len()..];
                    let name: String = (rest.chars())
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if name != *m && modules.contains(&name) {
                        uses.insert(name);
                    }
                }
            }
        }
        graph.insert(m.clone(), uses);
    }
    graph
}

/// The top-level modules import each other without a cycle: each layer
/// (error and split; columns; games; notation; source and sink; pipeline;
/// export; the composition root, `registry`; dataset, read, check, docs)
/// uses only those below it.
#[test]
fn top_level_modules_import_each_other_without_a_cycle() {
    let graph = module_imports();
    assert!(graph.len() >= 15, "{graph:?}");
    // The layering the test guards, stated once: these edges exist.
    assert!(graph["pipeline"].contains("notation"));
    assert!(graph["registry"].contains("pipeline"));
    // Depth-first search; a module met again while on the path closes a cycle.
    fn visit(
        m: &str,
        graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in &graph[m] {
            if let Some(c) = visit(n, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    for m in graph.keys() {
        if let Some(cycle) = visit(m, &graph, &mut Vec::new(), &mut done) {
            panic!("an import cycle: {}", cycle.join(" -> "));
        }
    }
}

/// The lines of a source file before its inline tests (`#[cfg(test)]` at
/// the start of a line).
fn non_test_lines(text: &str) -> Vec<&str> {
    text.lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .collect()
}

/// Each function of a file (its name and length in lines, from its
/// `fn` line to the closing brace at the same indent), outside the
/// inline tests. rustfmt's layout makes the closing brace findable.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines = non_test_lines(text);
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let indent = l.len() - l.trim_start().len();
        let mut rest = l.trim_start();
        for prefix in ["pub(crate) ", "pub(super) ", "pub ", "const ", "unsafe "] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        let Some(after) = rest.strip_prefix("fn ") else {
            continue;
        };
        if l.trim_end().ends_with(';') {
            continue;
        }
        let name: String = (after.chars())
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{}}}", " ".repeat(indent));
        if let Some(end) = (i + 1..lines.len()).find(|&j| lines[j] == close) {
            out.push((name, end - i + 1));
        }
    }
    out
}

#[test]
fn function_lengths_are_measured_from_fn_to_its_closing_brace() {
    let text = "fn a() {\n    x();\n}\n\nimpl B {\n    pub(crate) fn c(&self) {\n        if y {\n        }\n    }\n}\n#[cfg(test)]\nfn t() {\n}\n";
    assert_eq!(
        function_lengths(text),
        [("a".to_string(), 3), ("c".to_string(), 4)]
    );
}

/// Rooms a newcomer can hold in mind: no source file over 800 lines
/// outside its inline tests, no function over 150 lines (the core crate
/// and the page writers' crate).
#[test]
fn no_file_over_800_lines_and_no_function_over_150() {
    let mut big = Vec::new();
    let files = walkdir(Path::new("src")).into_iter();
    for f in files.chain(walkdir(Path::new("pages/src"))) {
        let text = std::fs::read_to_string(&f).unwrap();
        let n = non_test_lines(&text).len();
        if n > 800 {
            big.push(format!("{}: {n} lines", f.display()));
        }
        for (name, len) in function_lengths(&text) {
            if len > 150 {
                big.push(format!("{}: fn {name}, {len} lines", f.display()));
            }
        }
    }
    assert!(big.is_empty(), "too big:\n{}", big.join("\n"));
}
