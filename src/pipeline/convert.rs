//! A conversion to Parquet: the inputs parsed, every table's batches
//! written to its sink, the summary and the manifest.

use super::out_dir::prepare_out_dir;
use super::sinks::{JOINED_BYTES, JOINED_ROWS, Sinks, WINDOWS_IN_FLIGHT, compact, join_tables};
use super::*;

/// Converts inputs into a dataset directory: `OUT/<game>/<table>/` for the
/// games met, `OUT/errors/` always.
pub fn convert(inputs: &[PathBuf], out_dir: &Path, opts: &Options) -> Result<Summary, Error> {
    let registry = opts.registry()?;
    convert_with(&registry, inputs, out_dir, opts)
}

/// [`convert`] with the notations of `registry`.
pub fn convert_with(
    registry: &Registry,
    inputs: &[PathBuf],
    out_dir: &Path,
    opts: &Options,
) -> Result<Summary, Error> {
    let started = Instant::now();
    let all = registry.tables();
    let paths: Vec<String> = all.iter().map(|t| t.path()).collect();
    let pool = thread_pool(opts);
    let routed = route_inputs(registry, inputs, &pool)?;
    prepare_out_dir(out_dir, &paths, opts)?;
    let inputs_json =
        serde_json::to_string(&inputs.iter().map(|p| file_name(p)).collect::<Vec<_>>())
            .expect("strings serialize");
    let sink_opts = SinkOptions {
        codec: opts.codec,
        writer: opts.writer,
        row_group_rows: opts.row_group_rows,
        part: opts.part(),
        metadata: vec![
            ("deckhand.version".into(), env!("CARGO_PKG_VERSION").into()),
            ("deckhand.schema_version".into(), SCHEMA_VERSION.into()),
            ("deckhand.inputs".into(), inputs_json),
        ],
    };
    // The errors table is always written; the other tables once their
    // game is met.
    let mut sinks = Sinks {
        dir: out_dir,
        opts: &sink_opts,
        sinks: Vec::new(),
        only: opts.tables.as_deref(),
    };
    if sinks.wanted(ERRORS) {
        sinks.open(ERRORS)?;
    }
    let sizes = sizes_of(inputs);
    let bar = progress_bar(opts, &sizes);
    let mut summary = Summary::default();
    // Writing runs on its own thread, one window behind parsing, through a
    // bounded channel (back-pressure: at most WINDOWS_IN_FLIGHT windows wait).
    // Each message says whether its windows hold large values (few rows,
    // many bytes).
    let (tx, rx) = std::sync::mpsc::sync_channel::<(WindowBatches, bool)>(WINDOWS_IN_FLIGHT);
    let release_memory = opts.release_memory;
    let parsed: Result<(), Error> = std::thread::scope(|scope| {
        let pool = &pool;
        let writer = scope.spawn(move || -> Result<Vec<TableSink>, Error> {
            for (per_table, large) in rx {
                sinks.write(pool, per_table)?;
                if let (true, Some(release)) = (large, release_memory) {
                    release();
                }
            }
            Ok(sinks.sinks)
        });
        // Small windows (a small file gives one) are joined before they go
        // to the writer, so that the parser does not wait on the writer for
        // each one (the channel holds two). A closed channel means the
        // writer stopped on an error, which its join below reports.
        let mut pending: WindowBatches = Vec::new();
        let (mut pending_rows, mut pending_bytes) = (0, 0);
        let mut send = |_: &FileInfo, per_table: WindowBatches| {
            stopped(opts)?;
            for (_, batches) in &per_table {
                for b in batches {
                    pending_rows += b.num_rows();
                    pending_bytes += b.get_array_memory_size();
                }
            }
            join_tables(&mut pending, per_table);
            if pending_rows >= JOINED_ROWS || pending_bytes >= JOINED_BYTES {
                let large = pending_rows < JOINED_ROWS;
                let _ = tx.send((compact(std::mem::take(&mut pending))?, large));
                (pending_rows, pending_bytes) = (0, 0);
            }
            Ok(())
        };
        let cx = Shared {
            opts,
            pool,
            bar: &bar,
            started,
            inputs: inputs.len(),
        };
        let result = run_all(
            registry,
            inputs,
            &routed,
            &sizes,
            &cx,
            &mut send,
            &mut summary.files,
            opts.join_small_inputs,
        );
        if !pending.is_empty() {
            let _ = tx.send((compact(pending)?, false));
        }
        drop(tx);
        let mut sinks = writer.join().expect("writer thread does not panic")?;
        result?;
        bar.finish_and_clear();
        // Tables in the order of their declarations.
        sinks.sort_by_key(|s| paths.iter().position(|p| p == s.table()));
        // Each table's last row group is encoded and its file closed in
        // parallel, as the tables were written; then, with every file's
        // write-out started, each is synced and renamed.
        let rows: Vec<(String, Result<u64, Error>)> = pool.install(|| {
            let closed: Vec<_> = sinks
                .into_par_iter()
                .map(|s| (s.table().to_string(), s.close()))
                .collect();
            closed
                .into_par_iter()
                .map(|(t, c)| (t, c.and_then(Closed::commit)))
                .collect()
        });
        for (t, n) in rows {
            summary.rows.push((t, n?));
        }
        Ok(())
    });
    parsed?;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// The run's progress bar (hidden unless `opts.progress`): MB of the
/// inputs read, of their total.
pub(super) fn progress_bar(opts: &Options, sizes: &[Option<u64>]) -> ProgressBar {
    let total: u64 = sizes.iter().flatten().sum();
    let bar = if opts.progress {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{bar:30}] {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} {msg} ETA {eta}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    bar
}
