use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use deckhand::pipeline::{self, OnError, Options};
use deckhand::sink::writer::{Codec, Writer};

mod cli;

/// mimalloc: less time in malloc/free and fewer page faults for the many
/// short-lived Arrow buffers (measured in the README's performance notes).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` and `mi_option_allow_thp` (their places
/// in `mi_option_t`, mimalloc 3's `mimalloc.h`; libmimalloc-sys names only
/// the older options).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

/// Gives the memory mimalloc holds freed back to the OS now rather than
/// after its purge delay: `convert` calls it after writing windows of hands
/// with values of megabytes (`Options::release_memory`). Freed blocks that
/// large were not reused before the delay ran out: 20 hands with comments
/// of 50 MB peaked at 823-1045 MB of anonymous memory without it, 434-471
/// MB with it (README's Design).
fn release_memory() {
    // SAFETY: asks mimalloc to collect and purge freed memory; no pointer is
    // passed.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// How mimalloc gives freed memory back to the OS, set as defaults so that
/// `MIMALLOC_PURGE_DELAY` and `MIMALLOC_ALLOW_THP` still override them.
///
/// Purge delay: 3 s instead of mimalloc's 1 s. A convert frees and allocates
/// batches and pages all the time: with 1 s it faulted the same memory in
/// again, zeroed by the kernel each time (about twice the page faults; the
/// README's Design has the measurements). Never (-1) let fragmented free
/// memory pile up: 451 and 513 MB at the peak for a 4 GB archive, against
/// 402-415 MB with 3 s.
///
/// Transparent huge pages: 2 instead of 1, so that where the kernel has them
/// mimalloc purges whole 2 MiB pages only, instead of breaking a huge page
/// up to give back 64 KiB of it (which the next allocation faults in again).
/// Fewer page faults and less system time for the same peak (a 4 GB
/// archive: 86-106 thousand faults against 129-198 thousand, 417-428 MB
/// against 416-427 MB; README's Design).
fn tune_allocator() {
    // SAFETY: sets options' default values; mimalloc reads them when it purges.
    unsafe {
        libmimalloc_sys::mi_option_set_default(MI_OPTION_PURGE_DELAY, 3000);
        libmimalloc_sys::mi_option_set_default(MI_OPTION_ALLOW_THP, 2);
    }
}

use cli::{
    Args, BenchArgs, CheckArgs, Command, CompressionArg, ConvertArgs, ExplainArgs, ExportArgs,
    GenerateArgs, ManifestAction, ManifestArgs, OnErrorArg, RulesArgs, SchemaArgs, WriterArg,
};
use deckhand::registry::Settings;

/// Prints a line on standard output. A reader that has gone away (`deckhand
/// check FILE | head`) ends the run quietly with status 0, as it ends other
/// Unix tools, where `println!` would panic; any other failure to write is
/// an error (status 2).
macro_rules! outln {
    ($($arg:tt)*) => {
        write_line(format_args!($($arg)*))
    };
}

fn write_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("deckhand: error: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// Exit status: 0 all records converted, 1 some records quarantined, 2 fatal error.
fn main() -> ExitCode {
    tune_allocator();
    deckhand::sigbus::install();
    install_interrupt_cleanup();
    match run() {
        Ok(code) => code,
        // Standard output closed by its reader (`deckhand export -o - | head`).
        Err(e) if broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("deckhand: error: {}", message(&e));
            ExitCode::from(2)
        }
    }
}

/// On SIGINT (Ctrl-C) or SIGTERM: the run's temporary files are removed
/// and deckhand exits with 128 + the signal (130, 143), as a shell expects.
fn install_interrupt_cleanup() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            // Held to the exit: no thread makes a file after this.
            let _open = deckhand::sink::temp::remove_all();
            eprintln!("deckhand: interrupted: the run's temporary files are removed");
            std::process::exit(128 + sig);
        }
    });
}

fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes, each cause left out when the message before it
/// already says it (deckhand's errors name their cause in their message).
fn message(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
    }
    msg
}

fn run() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    match args.command {
        Command::Convert(a) => convert(a),
        Command::Check(a) => check(a),
        Command::Generate(a) => generate(a),
        Command::Export(a) => export(a),
        Command::Bench(a) => bench(a),
        Command::Schema(a) => schema(a),
        Command::Explain(a) => explain(a),
        Command::Manifest(a) => manifest(a),
    }
}

fn manifest(a: ManifestArgs) -> anyhow::Result<ExitCode> {
    match a.action {
        ManifestAction::Merge { out } => {
            let m = deckhand::dataset::merge_manifests(&out)?;
            eprintln!(
                "deckhand: {} holds {} inputs (file indices {})",
                out.join(deckhand::pipeline::manifest::NAME).display(),
                m.inputs.len(),
                match (m.inputs.first(), m.inputs.last()) {
                    (Some(f), Some(l)) => format!("{} to {}", f.file_index, l.file_index),
                    _ => "none".into(),
                }
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn schema(a: SchemaArgs) -> anyhow::Result<ExitCode> {
    let text = deckhand::docs::tables(a.game.as_deref()).map_err(anyhow::Error::msg)?;
    outln!("{}", text.trim_end());
    Ok(ExitCode::SUCCESS)
}

fn explain(a: ExplainArgs) -> anyhow::Result<ExitCode> {
    let text = match (&a.code, a.markdown) {
        (_, true) => deckhand::docs::diagnostics(),
        (Some(code), false) => deckhand::docs::explain(code).map_err(anyhow::Error::msg)?,
        (None, false) => unreachable!("clap requires a code without --markdown"),
    };
    outln!("{}", text.trim_end());
    Ok(ExitCode::SUCCESS)
}

fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    use std::time::Instant;
    let source = deckhand::source::Source::open(&a.input)?;
    let bytes = source.bytes();
    let mb = bytes.len() as f64 / 1e6;
    let runs = a.runs.max(1);
    // One untimed split first (as criterion warms up): the first pass over a
    // mapped file otherwise measures page faults and a cold heap, not the splitter.
    std::hint::black_box(deckhand::registry::split_records(bytes));
    let best = |f: &mut dyn FnMut() -> anyhow::Result<u64>| -> anyhow::Result<(f64, u64)> {
        let mut best = f64::MAX;
        let mut n = 0;
        for _ in 0..runs {
            let t = Instant::now();
            n = f()?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        Ok((best, n))
    };
    outln!(
        "{:<28} {:>9} {:>10} {:>12}",
        "measurement",
        "seconds",
        "MB/s",
        "records/s"
    );
    let (secs, records) = best(&mut || Ok(deckhand::registry::split_records(bytes)))?;
    outln!(
        "{:<28} {:>9.3} {:>10.1} {:>12.0}",
        "split (1 thread)",
        secs,
        mb / secs,
        records as f64 / secs
    );
    // Splitting and tokenizing only (no values read, no columns built): the
    // part that compares with a PGN tokenizer.
    let (secs, records) = best(&mut || Ok(deckhand::registry::tokenize(bytes).0))?;
    outln!(
        "{:<28} {:>9.3} {:>10.1} {:>12.0}",
        "tokenize (1 thread)",
        secs,
        mb / secs,
        records as f64 / secs
    );
    // The column data each parse built (the same for every run).
    let mut size = deckhand::columns::size::Size::default();
    for &threads in &a.threads {
        let opts = quiet_options(&a.rules, Some(threads), true)?;
        let (secs, hands) = best(&mut || {
            size = Default::default();
            let fs = deckhand::pipeline::parse_bytes(
                bytes,
                &a.input.to_string_lossy(),
                &opts,
                &mut |tables| {
                    for b in tables.iter().flat_map(|t| &t.1) {
                        size.add(b)?;
                    }
                    Ok(())
                },
            )?;
            Ok(fs.converted)
        })?;
        outln!(
            "{:<28} {:>9.3} {:>10.1} {:>12.0}",
            format!(
                "parse ({threads} thread{})",
                if threads == 1 { "" } else { "s" }
            ),
            secs,
            mb / secs,
            hands as f64 / secs
        );
    }
    if !a.threads.is_empty() && !bytes.is_empty() {
        let per_byte = |n: u64| n as f64 / bytes.len() as f64;
        outln!(
            "\ncolumns built by a parse: {} values ({:.3} per input byte), {:.1} MB of Arrow arrays ({:.2} bytes per input byte)",
            size.values,
            per_byte(size.values),
            size.bytes as f64 / 1e6,
            per_byte(size.bytes)
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn export(a: ExportArgs) -> anyhow::Result<ExitCode> {
    let opts = quiet_options(&a.rules, a.threads, a.quiet)?;
    let mut inputs = deckhand::registry::expand_inputs(&a.inputs, &opts.settings)?;
    if a.output.as_os_str() != "-"
        && let Some(left) = deckhand::source::leave_out_output(&mut inputs, &a.inputs, &a.output)
        && !a.quiet
    {
        eprintln!(
            "deckhand: note: {} is this export's output: not read as an input",
            left.display()
        );
    }
    let report = if a.output.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut w = std::io::BufWriter::new(stdout.lock());
        deckhand::registry::export_to(&inputs, &opts, &a.to, &mut w)?
    } else {
        // Written under a temporary name and renamed when complete, except
        // into what is not a regular file (`-o /dev/null`, a FIFO), which is
        // written in place: a rename onto /dev/null replaced the device
        // itself with a regular file.
        let special = std::fs::metadata(&a.output).is_ok_and(|m| !m.is_file() && !m.is_dir());
        let tmp = (!special).then(|| {
            let mut name = a.output.clone().into_os_string();
            name.push(".tmp");
            std::path::PathBuf::from(name)
        });
        let path = tmp.as_ref().unwrap_or(&a.output);
        let f = match &tmp {
            // Noted as it is made, so that an interrupt removes it.
            Some(t) => deckhand::sink::temp::create(t),
            None => std::fs::OpenOptions::new().write(true).open(path),
        }
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        let r = deckhand::registry::export_to(&inputs, &opts, &a.to, &mut w);
        drop(w);
        match (r, &tmp) {
            (Ok(r), Some(tmp)) => {
                std::fs::rename(tmp, &a.output)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", a.output.display()))?;
                deckhand::sink::temp::unregister(tmp);
                r
            }
            (Ok(r), None) => r,
            (Err(e), tmp) => {
                if let Some(tmp) = tmp {
                    let _ = std::fs::remove_file(tmp);
                    deckhand::sink::temp::unregister(tmp);
                }
                return Err(e.into());
            }
        }
    };
    let t = &report.total;
    if !a.quiet {
        eprintln!("deckhand: {}", report.summary(&a.to));
        for (what, n) in &report.lost {
            eprintln!(
                "deckhand: warning: {} cannot hold {what}: {n}",
                a.to.to_ascii_uppercase()
            );
        }
    }
    Ok(if t.quarantined > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// What the notations are told, from the command line; a rules profile
/// that cannot be read or a notation that does not exist is an error.
fn settings(a: &RulesArgs) -> anyhow::Result<Settings> {
    let mut s = Settings {
        compute: !a.no_rules,
        notation: a.notation.clone(),
        ..Settings::default()
    };
    if let Some(path) = &a.rules {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read rules profile {}: {e}", path.display()))?;
        s.rules_file = Some((path.clone(), text));
    }
    deckhand::registry::notations(&s).map_err(anyhow::Error::msg)?;
    Ok(s)
}

/// Options for the commands that parse without writing Parquet.
fn quiet_options(
    rules: &RulesArgs,
    threads: Option<usize>,
    quiet: bool,
) -> anyhow::Result<Options> {
    let mut opts = Options {
        // The bar on standard error, when it is a terminal.
        progress: !quiet && std::io::stderr().is_terminal(),
        settings: settings(rules)?,
        ..Options::default()
    };
    if let Some(t) = threads {
        opts.threads = t.max(1);
    }
    Ok(opts)
}

fn check(a: CheckArgs) -> anyhow::Result<ExitCode> {
    let opts = quiet_options(&a.rules, a.threads, a.quiet)?;
    let inputs = deckhand::registry::expand_inputs(&a.inputs, &opts.settings)?;
    let report = deckhand::check::check(&inputs, &opts, a.info, &mut |line| {
        if !a.quiet {
            outln!("{line}");
        }
    })?;
    let t = &report.total;
    outln!(
        "{} file(s), {} records: {} converted, {} errors (records quarantined), {} warnings, {} infos",
        report.files,
        t.records,
        t.converted,
        t.quarantined,
        t.warnings,
        t.infos
    );
    Ok(
        if t.quarantined > 0 || (a.deny_warnings && t.warnings > 0) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

fn generate(a: GenerateArgs) -> anyhow::Result<ExitCode> {
    use deckhand::registry::generate;
    use deckhand::registry::generator::{GenOptions, write::Style};
    let opts = GenOptions {
        hands: a.hands,
        seed: a.seed,
        style: Style {
            import: a.import,
            comments: a.comments,
            chat: a.chat,
            inherit: a.inherit,
            points_alone: a.meld_points_alone,
        },
        crlf: a.crlf,
        terminated: a.terminated,
        malformed: a.malformed,
        ..GenOptions::default()
    };
    deckhand::registry::generate_check(&a.game, &opts).map_err(anyhow::Error::msg)?;
    let started = std::time::Instant::now();
    let stats = if a.output.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut w = std::io::BufWriter::new(stdout.lock());
        generate(&a.game, &opts, &mut w)?
    } else {
        let f = std::fs::File::create(&a.output)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", a.output.display()))?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        let s = generate(&a.game, &opts, &mut w)?;
        use std::io::Write;
        w.flush()?;
        s
    };
    let extra = if stats.terminated + stats.malformed > 0 {
        format!(
            " ({} terminated, {} malformed)",
            stats.terminated, stats.malformed
        )
    } else {
        String::new()
    };
    eprintln!(
        "deckhand: generated {} {} in {} games{extra}, {:.1} MB in {:.2} s",
        stats.hands,
        deckhand::registry::generated_unit(&a.game),
        stats.games,
        stats.bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn options(a: &ConvertArgs) -> anyhow::Result<Options> {
    let mut o = Options {
        codec: match a.compression {
            CompressionArg::Zstd => Codec::Zstd,
            CompressionArg::Snappy => Codec::Snappy,
            CompressionArg::Lz4 => Codec::Lz4,
            CompressionArg::None => Codec::None,
        },
        row_group_rows: a.row_group_size as usize,
        on_error: match a.on_error {
            OnErrorArg::Skip => OnError::Skip,
            OnErrorArg::Fail => OnError::Fail,
        },
        progress: !a.quiet && std::io::stderr().is_terminal(),
        force: a.force,
        writer: match a.writer {
            WriterArg::Fast => Writer::Fast,
            WriterArg::Arrow => Writer::Arrow,
        },
        settings: settings(&a.rules)?,
        release_memory: Some(release_memory),
        ..Options::default()
    };
    if let Some(t) = a.threads {
        o.threads = t.max(1);
    }
    if let Some(c) = a.chunk_size {
        o.chunk_bytes = c as usize;
    }
    if let Some(g) = a.group_size {
        o.group_bytes = g as usize;
    }
    Ok(o)
}

fn convert(a: ConvertArgs) -> anyhow::Result<ExitCode> {
    use std::io::Write;
    let opts = options(&a)?;
    // Every input, and the summary's path, checked before any work.
    let found = deckhand::registry::find_inputs(&a.inputs, &opts.settings)?;
    let mut summary_out: Option<Box<dyn Write>> = match &a.summary_json {
        None => None,
        Some(p) if p.as_os_str() == "-" => Some(Box::new(std::io::stdout())),
        Some(p) => Some(Box::new(std::fs::File::create(p).map_err(|e| {
            anyhow::anyhow!("cannot write the summary to {}: {e}", p.display())
        })?)),
    };
    if !a.quiet {
        for p in &found.repeated {
            eprintln!(
                "deckhand: note: {} is given more than once: converted once",
                p.display()
            );
        }
    }
    let mut opts = opts;
    if let Some(n) = &a.source_name {
        let once = found
            .inputs
            .iter()
            .filter(|p| deckhand::source::reads_once(p))
            .count();
        if once != 1 {
            anyhow::bail!(
                "--source-name names standard input or a pipe, the one input read once: {once} such inputs given"
            );
        }
        opts.stream_name = Some(n.clone());
    }
    if let Some(names) = &a.tables {
        opts.tables = Some(deckhand::registry::table_paths(names).map_err(anyhow::Error::msg)?);
    }
    opts.append = a.append;
    let placement = match a.file_index_base {
        Some(n) => deckhand::dataset::Placement::Shard(n),
        None => deckhand::dataset::Placement::Whole,
    };
    let outcome = deckhand::dataset::convert(&found.inputs, &a.output, &opts, placement);
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            // No summary of a run that failed: the file made early goes.
            if let Some(p) = &a.summary_json
                && p.as_os_str() != "-"
            {
                summary_out = None;
                let _ = std::fs::remove_file(p);
            }
            drop(summary_out);
            return Err(e.into());
        }
    };
    if !a.quiet {
        for n in &outcome.notes {
            eprintln!("deckhand: note: {n}");
        }
    }
    let Some(mut summary) = outcome.summary else {
        return Ok(ExitCode::SUCCESS);
    };
    summary.left_out = (found.left_out.iter())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if !a.quiet && !summary.left_out.is_empty() {
        let n = summary.left_out.len();
        let first: Vec<&str> = summary
            .left_out
            .iter()
            .take(3)
            .map(String::as_str)
            .collect();
        eprintln!(
            "deckhand: note: {n} file(s) in the input directories are of no notation deckhand reads and were left out: {}{}",
            first.join(", "),
            if n > 3 { ", ..." } else { "" }
        );
    }
    let t = summary.total();
    for f in &summary.files {
        if let Some(w) = &f.input_warning {
            eprintln!("deckhand: warning: {}: {w}", f.path);
        }
    }
    if let Some(mut w) = summary_out {
        w.write_all((summary.to_json() + "\n").as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", summary_name(&a)))?;
    }
    if !a.quiet {
        for line in summary_lines(&summary, &a.output, &a.inputs) {
            eprintln!("{line}");
        }
    }
    Ok(if t.quarantined > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The `--summary-json` destination, for messages.
fn summary_name(a: &ConvertArgs) -> String {
    match &a.summary_json {
        Some(p) if p.as_os_str() == "-" => "standard output".into(),
        Some(p) => p.display().to_string(),
        None => String::new(),
    }
}

/// `n` with thousands separators (`1,234,567`).
fn thousands(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::with_capacity(d.len() + d.len() / 3);
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes as MB (10^6 bytes) with the precision their size needs.
fn mb(bytes: u64) -> String {
    let x = bytes as f64 / 1e6;
    if x >= 100.0 {
        format!("{} MB", thousands(x.round() as u64))
    } else if x >= 10.0 {
        format!("{x:.1} MB")
    } else if x >= 1.0 {
        format!("{x:.2} MB")
    } else {
        format!("{x:.3} MB")
    }
}

/// What `convert` says when it is done: inputs and records by notation,
/// the dataset and its tables, and when anything was quarantined or warned
/// about, the counts by code, the first diagnostics and how to see all.
fn summary_lines(
    summary: &pipeline::Summary,
    out: &std::path::Path,
    inputs: &[std::path::PathBuf],
) -> Vec<String> {
    let t = summary.total();
    let secs = summary.elapsed.as_secs_f64().max(1e-9);
    let mut v = Vec::new();
    v.push(format!(
        "deckhand: {} input{} ({}) in {:.2} s: {}/s, {} records/s",
        thousands(summary.files.len() as u64),
        if summary.files.len() == 1 { "" } else { "s" },
        mb(t.bytes),
        secs,
        mb((t.bytes as f64 / secs) as u64),
        thousands((t.converted as f64 / secs) as u64)
    ));
    let mut by: Vec<(&str, u64, u64)> = Vec::new();
    for f in &summary.files {
        let n = f.notation.unwrap_or("unrecognized");
        match by.iter_mut().find(|x| x.0 == n) {
            Some(x) => {
                x.1 += f.records;
                x.2 += 1;
            }
            None => by.push((n, f.records, 1)),
        }
    }
    let by: Vec<String> = by
        .iter()
        .map(|(n, r, f)| {
            format!(
                "{n} {} in {} file{}",
                thousands(*r),
                thousands(*f),
                if *f == 1 { "" } else { "s" }
            )
        })
        .collect();
    let blocks = if t.comment_blocks > 0 {
        format!(", {} comment-only blocks", thousands(t.comment_blocks))
    } else {
        String::new()
    };
    v.push(format!(
        "  records {}: {} converted, {} quarantined; {} warnings, {} infos{blocks} ({})",
        thousands(t.records),
        thousands(t.converted),
        thousands(t.quarantined),
        thousands(t.warnings),
        thousands(t.infos),
        by.join("; ")
    ));
    let rows: Vec<String> = (summary.rows.iter())
        .map(|(n, r)| format!("{n} {}", thousands(*r)))
        .collect();
    v.push(format!("  dataset {}: {}", out.display(), rows.join(", ")));
    v.push(format!(
        "  read a table, not the dataset's root: {}/<game>/<table> (`deckhand schema` lists them)",
        out.display()
    ));
    if t.quarantined + t.warnings > 0 {
        let mut codes: Vec<(&String, &u64)> = t.codes.iter().collect();
        codes.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let top: Vec<String> = (codes.iter().take(6))
            .map(|(c, n)| format!("{c} {}", thousands(**n)))
            .collect();
        let more = if codes.len() > 6 { ", ..." } else { "" };
        v.push(format!(
            "  by code: {}{more} (`deckhand explain CODE`)",
            top.join(", ")
        ));
        // Quarantined records first, then warnings.
        let mut first: Vec<&String> = t.first.iter().collect();
        first.sort_by_key(|d| !d.contains(": error["));
        for d in first.iter().take(pipeline::FIRST_DIAGNOSTICS) {
            v.push(format!("  {d}"));
        }
        let mut named: Vec<String> = Vec::new();
        for p in inputs {
            let p = p.display().to_string();
            if !named.contains(&p) {
                named.push(p);
            }
        }
        v.push(format!(
            "  every diagnostic: deckhand check {} (or the table {}/errors)",
            named.join(" "),
            out.display()
        ));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sizes_read_as_people_write_them() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(mb(1234), "0.001 MB");
        assert_eq!(mb(2_345_678), "2.35 MB");
        assert_eq!(mb(23_456_789), "23.5 MB");
        assert_eq!(mb(1_234_567_890), "1,235 MB");
    }

    #[test]
    fn the_allocator_options_are_the_ones_they_are_named_for() {
        // SAFETY: reads and sets options' values.
        let get = |o| unsafe { libmimalloc_sys::mi_option_get(o) };
        let env = |name| std::env::var_os(name).is_some();
        if !env("MIMALLOC_PURGE_DELAY") && !env("MIMALLOC_ALLOW_THP") {
            // mimalloc 3's defaults: no other option defaults to 1000, and
            // allow_thp is the only 1 among its neighbours.
            assert_eq!(get(MI_OPTION_PURGE_DELAY), 1000);
            assert_eq!(get(MI_OPTION_ALLOW_THP), 1);
            tune_allocator();
            assert_eq!(get(MI_OPTION_PURGE_DELAY), 3000);
            assert_eq!(get(MI_OPTION_ALLOW_THP), 2);
        }
        // Their neighbours are not changed.
        assert_eq!(get(MI_OPTION_PURGE_DELAY + 1), 0); // use_numa_nodes
        assert_eq!(get(MI_OPTION_PURGE_DELAY + 4), 32); // max_errors
        assert_eq!(get(MI_OPTION_ALLOW_THP - 1), 32); // page_cross_thread_max_reclaim
        assert_eq!(get(MI_OPTION_ALLOW_THP + 1), 0); // minimal_purge_size
    }
}
