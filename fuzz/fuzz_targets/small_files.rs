//! Runs of small files built together (`pipeline/small.rs`) against each
//! file built alone: the input is cut into files at each `|||`; both ways
//! must write the same bytes and count the same in every file, and the
//! export of the files together must be the exports of each alone.
#![no_main]

use deckhand::pipeline::{Options, convert};
use libfuzzer_sys::fuzz_target;

/// Every input read as PPN (`--notation ppn`).
fn ppn() -> deckhand::registry::Settings {
    deckhand::registry::Settings {
        notation: Some("ppn".into()),
        ..Default::default()
    }
}

fn tables(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    // Every file of the dataset (`OUT/<game>/<table>/`, `OUT/errors/`).
    let mut v = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                v.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    v.sort();
    v
}

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    let mut rest = data;
    loop {
        let cut = rest.windows(3).position(|w| w == b"|||");
        let (file, more) = match cut {
            Some(i) if inputs.len() < 7 => (&rest[..i], Some(&rest[i + 3..])),
            _ => (rest, None),
        };
        let p = dir.path().join(format!("{}.ppn", inputs.len()));
        std::fs::write(&p, file).unwrap();
        inputs.push(p);
        match more {
            Some(m) => rest = m,
            None => break,
        }
    }
    let threads = 1 + data.len() % 2;
    let run = |join: bool| {
        let out = dir.path().join(format!("out-{join}"));
        let opts = Options {
            threads,
            progress: false,
            join_small_inputs: join,
            settings: ppn(),
            ..Options::default()
        };
        let s = convert(&inputs, &out, &opts).expect("content never makes convert fail");
        let t = tables(&out)
            .into_iter()
            .map(|(n, b)| (n.replace(&format!("out-{join}"), "out"), b))
            .collect::<Vec<_>>();
        (s.files, s.rows, t)
    };
    assert!(run(false) == run(true));
    // Export: the files together give the text of each file alone.
    let export = |inputs: &[std::path::PathBuf]| {
        let opts = Options {
            threads,
            progress: false,
            settings: ppn(),
            ..Options::default()
        };
        let mut out = Vec::new();
        deckhand::export::pinochle::export(inputs, &opts, &mut out).expect("content never makes export fail");
        out
    };
    let bare = export(&[]);
    let mut alone: Vec<u8> = Vec::new();
    for p in &inputs {
        let t = export(std::slice::from_ref(p));
        if t != bare {
            alone.extend(t);
        }
    }
    if alone.is_empty() {
        alone = bare;
    }
    assert!(export(&inputs) == alone);
});
