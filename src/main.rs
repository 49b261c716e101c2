use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use deckhand::pipeline::{self, OnError, Options};
use deckhand::sink::parquet::Codec;

mod cli;

/// mimalloc: less time in malloc/free and fewer page faults for the many
/// short-lived Arrow buffers (measured in the README's performance notes).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cli::{Args, Command, CompressionArg, ConvertArgs, OnErrorArg};

/// Exit status: 0 all records converted, 1 some records quarantined, 2 fatal error.
fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("deckhand: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    match args.command {
        Command::Convert(a) => convert(a),
    }
}

fn options(a: &ConvertArgs) -> Options {
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
    o
}

fn convert(a: ConvertArgs) -> anyhow::Result<ExitCode> {
    let opts = options(&a);
    let inputs = deckhand::source::expand_inputs(&a.inputs)?;
    let summary = pipeline::convert(&inputs, &a.output, &opts)?;
    let t = summary.total();
    if !a.quiet {
        let secs = summary.elapsed.as_secs_f64().max(1e-9);
        eprintln!(
            "deckhand: {} records in {} file(s), {:.1} MB in {:.2} s ({:.1} MB/s, {:.0} hands/s)",
            t.records,
            summary.files.len(),
            t.bytes as f64 / 1e6,
            secs,
            t.bytes as f64 / 1e6 / secs,
            t.hands as f64 / secs
        );
        eprintln!(
            "deckhand: {} converted, {} quarantined (see errors table), {} warnings, {} comment-only blocks",
            t.hands, t.quarantined, t.warnings, t.comment_blocks
        );
        let rows: Vec<String> = summary
            .rows
            .iter()
            .map(|(n, r)| format!("{n}={r}"))
            .collect();
        eprintln!(
            "deckhand: wrote {} ({})",
            a.output.display(),
            rows.join(", ")
        );
    }
    Ok(if t.quarantined > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
