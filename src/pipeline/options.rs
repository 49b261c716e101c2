//! What a conversion is asked to do: its inputs' notations, threads,
//! window and budget, what to do on an error, the sink's settings.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OnError {
    /// Quarantine bad records in the `errors` table and go on.
    #[default]
    Skip,
    /// Stop at the first record that cannot be converted.
    Fail,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub codec: Codec,
    pub row_group_rows: usize,
    pub on_error: OnError,
    /// Show a progress bar (it still hides itself when stderr is not a terminal).
    pub progress: bool,
    /// Replace the tables of an existing output directory.
    pub force: bool,
    /// Add part files to an existing dataset instead (`--append`): nothing
    /// there is removed.
    pub append: bool,
    /// The file index of the first input (the high bits of every record
    /// key): runs that add to one dataset continue where it ends. It also
    /// numbers the run's part files (`part-N.parquet`, [`Options::part`]),
    /// so runs into one dataset never write the same file.
    pub file_index_base: u64,
    /// A shard of a larger run, written beside others into one dataset
    /// (`dataset::Placement::Shard`): the output may hold other files; only
    /// this run's part files are checked (and with `force` replaced), and no
    /// temporary file of another is touched.
    pub shard: bool,
    /// Set (by another thread) to stop the run: it ends with
    /// [`Error::Stopped`] at its next window, its temporary files removed.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The name the records of the input that can be read once only
    /// (standard input, a pipe: [`crate::source::reads_once`]) carry
    /// (`source_file`, the manifest); None: its path (`-` for standard
    /// input) (`--source-name`).
    pub stream_name: Option<String>,
    /// The names the inputs carry (`source_file`, the manifest), one an
    /// input in order, instead of their paths: for inputs copied from
    /// elsewhere (an object store) to a local file. None: their paths.
    pub input_names: Option<Vec<String>>,
    /// Write only these tables (paths in the dataset, `<game>/<table>`,
    /// `errors`); None: every table met (`--tables`).
    pub tables: Option<Vec<String>>,
    /// Bytes fed to the splitter at a time.
    pub chunk_bytes: usize,
    /// Bytes of records parsed by one task.
    pub group_bytes: usize,
    /// Bytes of Arrow arrays one window may build: a window is cut smaller
    /// when, at the ratio of the window before, it would build more (see
    /// `pipeline/budget.rs`).
    pub window_array_bytes: usize,
    /// The writer of the Parquet pages.
    pub writer: Writer,
    /// What the notations are told: rules, a forced notation.
    pub settings: Settings,
    /// The notations a run reads, configured by [`Options::settings`]
    /// (`Options::default()`: every notation of the composition root,
    /// `crate::registry`).
    pub notations: fn(&Settings) -> Result<Registry, String>,
    /// Called on the writer thread after it has written windows of few rows
    /// and many bytes (hands with values of megabytes), so that an
    /// allocator that keeps freed memory a while can give it back at once
    /// (the binary's asks mimalloc to; see `main.rs`). None: nothing.
    pub release_memory: Option<fn()>,
    /// Build the groups of runs of small files together (see
    /// `pipeline/small.rs`); the same bytes are written either way.
    pub join_small_inputs: bool,
    /// With `join_small_inputs`: the rows built together are handed over a
    /// file at a time (slices of the tables, nothing copied), for a consumer
    /// that needs each file's rows apart (`export` writes a header a file).
    pub hand_over_by_file: bool,
}

impl Options {
    /// The default options, reading the notations `notations` gives.
    pub fn with_notations(notations: fn(&Settings) -> Result<Registry, String>) -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            codec: Codec::Zstd,
            row_group_rows: 1 << 20,
            on_error: OnError::Skip,
            progress: true,
            force: false,
            append: false,
            file_index_base: 0,
            shard: false,
            cancel: None,
            tables: None,
            stream_name: None,
            input_names: None,
            chunk_bytes: 4 << 20,
            group_bytes: 256 << 10,
            window_array_bytes: 32 << 20,
            writer: Writer::default(),
            settings: Settings::default(),
            notations,
            release_memory: None,
            join_small_inputs: true,
            hand_over_by_file: false,
        }
    }

    /// The notations of a run with these options.
    pub fn registry(&self) -> Result<Registry, Error> {
        (self.notations)(&self.settings).map_err(Error::Settings)
    }

    /// The number of this run's part files: its first file index (at most
    /// 23 bits, see `notation::MAX_FILE_INDEX`).
    pub fn part(&self) -> u32 {
        self.file_index_base as u32
    }

    /// Bytes of records handed to one window.
    pub(crate) fn window_bytes(&self) -> usize {
        self.group_bytes.max(1) * self.threads.max(1) * 4
    }
}
