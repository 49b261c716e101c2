//! The documentation generated from the declarations is up to date, and
//! every diagnostic code deckhand can emit is explained.

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;

fn deckhand(args: &[&str]) -> String {
    let out = Command::cargo_bin("deckhand")
        .unwrap()
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn docs_tables_md_is_the_output_of_deckhand_schema() {
    let want = deckhand(&["schema"]);
    let have = std::fs::read_to_string("docs/tables.md").unwrap();
    assert!(
        have == want,
        "docs/tables.md is stale: run `deckhand schema > docs/tables.md`"
    );
    // One game's part is that game's tables alone.
    let pinochle = deckhand(&["schema", "pinochle"]);
    assert!(pinochle.starts_with("## pinochle\n"));
    assert!(pinochle.contains("### `pinochle/hands`") && !pinochle.contains("### `errors`"));
    let errors = deckhand(&["schema", "errors"]);
    assert!(errors.contains("| `col` | Int64, not null |"), "{errors}");
    Command::cargo_bin("deckhand")
        .unwrap()
        .args(["schema", "chess"])
        .assert()
        .code(2);
}

#[test]
fn docs_diagnostics_md_is_the_output_of_deckhand_explain() {
    let want = deckhand(&["explain", "--markdown"]);
    let have = std::fs::read_to_string("docs/diagnostics.md").unwrap();
    assert!(
        have == want,
        "docs/diagnostics.md is stale: run `deckhand explain --markdown > docs/diagnostics.md`"
    );
    assert_eq!(
        deckhand(&["explain", "p004"]).lines().next(),
        Some("P004 (error): text outside a tag pair or section")
    );
    Command::cargo_bin("deckhand")
        .unwrap()
        .args(["explain", "P999"])
        .assert()
        .code(2);
}

/// Every `"X000"` string literal of the sources.
fn codes_in(dir: &Path, out: &mut BTreeSet<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            codes_in(&p, out);
            continue;
        }
        // The registries themselves name every code they explain.
        if p.extension().is_none_or(|e| e != "rs") || p.ends_with("diagnostics.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let b = text.as_bytes();
        for i in 0..b.len().saturating_sub(5) {
            let w = &b[i..i + 6];
            if w[0] == b'"'
                && w[1].is_ascii_uppercase()
                && w[2..5].iter().all(u8::is_ascii_digit)
                && w[5] == b'"'
            {
                out.insert(String::from_utf8(w[1..5].to_vec()).unwrap());
            }
        }
    }
}

#[test]
fn every_code_emitted_is_explained_and_every_code_explained_is_emitted() {
    let mut emitted = BTreeSet::new();
    codes_in(Path::new("src"), &mut emitted);
    // The golden files' codes, which the sources must hold too.
    for dir in ["testdata/pinochle", "testdata/hostile"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "expected") {
                let text = std::fs::read_to_string(&p).unwrap();
                for part in text.split(" code=\"").skip(1) {
                    let code = &part[..4];
                    assert!(
                        emitted.contains(code),
                        "{code} of {} is in no source",
                        p.display()
                    );
                }
            }
        }
    }
    let listed: BTreeSet<String> = deckhand(&["explain", "all"])
        .lines()
        .map(|l| l[..4].to_string())
        .collect();
    // Codes the sources hold only in their tests and the registry itself.
    let missing: Vec<&String> = emitted.difference(&listed).collect();
    assert!(missing.is_empty(), "emitted, not explained: {missing:?}");
    let unused: Vec<&String> = listed.difference(&emitted).collect();
    assert!(unused.is_empty(), "explained, never emitted: {unused:?}");
    assert!(listed.len() >= 48, "{}", listed.len());
}

/// The example rules profile beside docs/rules/pinochle.md is one deckhand
/// takes: its opening bid of 60 makes the sample's openings of 50 break
/// the bidding rules (P062).
#[test]
fn the_example_rules_profile_is_read() {
    let out = deckhand(&[
        "check",
        "--rules",
        "docs/rules/house.toml",
        "testdata/pinochle/sample.ppn",
    ]);
    assert!(out.contains("warning[P062]"), "{out}");
    assert!(out.ends_with("1 file(s), 8 records: 8 converted, 0 errors (records quarantined), 8 warnings, 0 infos\n"), "{out}");
}

/// The README's table of `convert` options lists exactly the options of
/// `deckhand convert --help` (besides `-o`, in the usage line, and `--help`).
#[test]
fn readme_convert_options_are_those_of_the_help() {
    let long = |text: &str| -> std::collections::BTreeSet<String> {
        let mut set = std::collections::BTreeSet::new();
        let b = text.as_bytes();
        let mut i = 0;
        while let Some(p) = text[i..].find("--") {
            let s = i + p + 2;
            let e = s + b[s..]
                .iter()
                .take_while(|c| c.is_ascii_lowercase() || **c == b'-')
                .count();
            if e > s {
                set.insert(text[s..e].to_string());
            }
            i = e.max(s);
        }
        set
    };
    let help = deckhand(&["convert", "--help"]);
    let help: String = help
        .lines()
        .filter(|l| l.trim_start().starts_with('-'))
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let mut from_help = long(&help);
    from_help.remove("help");
    from_help.remove("output");
    let readme = std::fs::read_to_string("README.md").unwrap();
    let usage = &readme[readme.find("## Usage").unwrap()..readme.find("**Exit status:**").unwrap()];
    let rows: String = usage
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split(" | ").next().unwrap().to_string() + "\n")
        .collect();
    assert_eq!(long(&rows), from_help);
}

/// The files a checkout holds that people and programs read: the docs, the
/// code, the tests, the scripts (not `target/` or dot folders but `.ci`).
fn checkout_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if name != "target" && (!name.starts_with('.') || name == ".ci") {
                checkout_files(&p, out);
            }
        } else if [
            "rs", "md", "py", "sh", "toml", "pyi", "txt", "yml", "json", "cfg",
        ]
        .iter()
        .any(|x| p.extension().is_some_and(|e| e == *x))
            || name == "run"
        {
            out.push(p);
        }
    }
}

/// A fresh clone stands alone: no file of it names the folder beside the
/// checkout where the team keeps its references.
#[test]
fn no_file_names_a_path_outside_the_checkout() {
    let outside = concat!("..", "/shared");
    let mut files = Vec::new();
    checkout_files(Path::new("."), &mut files);
    assert!(files.len() > 100, "{}", files.len());
    let named: Vec<String> = files
        .iter()
        .filter(|f| std::fs::read(f).is_ok_and(|b| String::from_utf8_lossy(&b).contains(outside)))
        .map(|f| f.display().to_string())
        .collect();
    assert!(named.is_empty(), "{named:?}");
}

/// Every link of the README and the docs to a file of the project leads to
/// one that exists; the others are public addresses.
#[test]
fn readme_and_docs_links_resolve() {
    let mut pages = vec![
        std::path::PathBuf::from("README.md"),
        "testdata/README.md".into(),
    ];
    let mut files = Vec::new();
    checkout_files(Path::new("docs"), &mut files);
    pages.extend(
        files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "md")),
    );
    let mut broken = Vec::new();
    let mut links = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap();
            links += 1;
            if target.is_empty() || target.starts_with("https://") || target.starts_with("http://")
            {
                continue;
            }
            if !page.parent().unwrap().join(target).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(links > 20, "{links}");
    assert!(broken.is_empty(), "{broken:?}");
}
