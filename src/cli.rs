//! Command-line arguments (clap derive). No logic here.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "deckhand",
    version,
    about = "Convert card-game hand records (pinochle PPN, PBN, RBN and RBX, Preferans PPN, PHH) to Apache Parquet",
    after_help = "Developer commands:\n  generate  Write a deterministic archive of legal games (pinochle or preferans), for tests and benchmarks\n  bench     Measure parsing throughput (split only, and parse into Arrow batches without writing) on a file"
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert files or directories of them into a Parquet dataset directory
    /// (OUT/<game>/<table>/, OUT/errors/).
    Convert(ConvertArgs),
    /// Validate files against their notation and the rules; print diagnostics.
    Check(CheckArgs),
    /// Rewrite PPN (IMPORT or EXPORT) as canonical EXPORT PPN, filling in what
    /// the rules can derive; or bridge boards in another bridge notation.
    Export(ExportArgs),
    /// Print every table and column of the dataset (of one game, or all)
    /// with its Arrow type and meaning, as Markdown.
    Schema(SchemaArgs),
    /// Explain a diagnostic code of the errors table (P004, D001, ...).
    Explain(ExplainArgs),
    /// The dataset's manifest: `merge` joins the fragments of shards
    /// (`convert --file-index-base`) into OUT/_deckhand.json.
    Manifest(ManifestArgs),
    /// Write a deterministic archive of legal games (for tests and benchmarks).
    #[command(hide = true)]
    Generate(GenerateArgs),
    /// Measure parsing throughput (split only, and parse into Arrow batches
    /// without writing) on a file.
    #[command(hide = true)]
    Bench(BenchArgs),
}

#[derive(clap::Args, Debug)]
pub struct ManifestArgs {
    #[command(subcommand)]
    pub action: ManifestAction,
}

#[derive(clap::Subcommand, Debug)]
pub enum ManifestAction {
    /// Join the shards' manifest fragments into the dataset's manifest
    /// (after every shard has been converted).
    Merge {
        /// The dataset directory.
        out: PathBuf,
    },
}

#[derive(clap::Args, Debug)]
pub struct SchemaArgs {
    /// A game (pinochle, bridge, preferans, poker); all of them if left out.
    pub game: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The code; `all` lists every code.
    #[arg(required_unless_present = "markdown")]
    pub code: Option<String>,

    /// Print every code with its explanation as Markdown (docs/diagnostics.md).
    #[arg(long)]
    pub markdown: bool,
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The archive to measure.
    pub input: PathBuf,

    /// Thread counts to measure, comma separated.
    #[arg(short = 'j', long, value_delimiter = ',', default_value = "1,2", value_parser = at_least_one)]
    pub threads: Vec<usize>,

    /// Runs per measurement; the best is reported.
    #[arg(long, default_value_t = 3, value_parser = at_least_one)]
    pub runs: usize,

    #[command(flatten)]
    pub rules: RulesArgs,
}

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Input files, directories (searched recursively), or - for stdin: of
    /// PPN for `--to ppn`, of PBN, RBN or RBX for the bridge notations.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// The notation to write: ppn (pinochle, canonical EXPORT PPN) or, for
    /// bridge boards of any bridge notation, pbn, rbn or rbx.
    #[arg(long, default_value = "ppn", value_parser = clap::builder::PossibleValuesParser::new(deckhand::registry::EXPORTS))]
    pub to: String,

    /// Output file (- for stdout).
    #[arg(short, long)]
    pub output: PathBuf,

    #[command(flatten)]
    pub rules: RulesArgs,

    /// Worker threads [default: number of CPUs].
    #[arg(short = 'j', long, value_parser = at_least_one)]
    pub threads: Option<usize>,

    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// Rules profile (TOML) to apply to every hand instead of choosing by the
    /// Scoring/Competition tags.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,

    /// Skip the rules engine: no computed columns, no rule warnings.
    #[arg(long, conflicts_with = "rules")]
    pub no_rules: bool,

    /// Read every input as this notation (ppn, pbn, rbn, rbx, preferans-ppn,
    /// phh) instead of recognizing each by its content and name.
    #[arg(long, value_name = "NAME")]
    pub notation: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Input files, directories (searched recursively for files of a notation), or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    #[command(flatten)]
    pub rules: RulesArgs,

    /// Also fail (exit 1) when there are warnings, not only errors.
    #[arg(long)]
    pub deny_warnings: bool,

    /// Also print info diagnostics (why computed values are null).
    #[arg(long)]
    pub info: bool,

    /// Print only the summary.
    #[arg(short, long)]
    pub quiet: bool,

    /// Worker threads [default: number of CPUs].
    #[arg(short = 'j', long, value_parser = at_least_one)]
    pub threads: Option<usize>,
}

/// A count of threads or runs: a whole number from 1 up.
fn at_least_one(v: &str) -> Result<usize, String> {
    match v.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("expected a whole number from 1 up, found {v:?}")),
    }
}

/// A fraction for the generator's options: a number from 0 to 1.
fn fraction(v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("expected a fraction from 0 to 1, found {v:?}")),
    }
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The game: pinochle (Portable Pinochle Notation) or preferans
    /// (Portable Preferans Notation; of the options below only --hands,
    /// --seed and --crlf apply).
    #[arg(long, default_value = "pinochle")]
    pub game: String,

    /// Number of hands (deals, for preferans).
    #[arg(long, default_value_t = 1000)]
    pub hands: u64,

    /// Seed: the same seed gives the same archive.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Output file (- for stdout).
    #[arg(short, long)]
    pub output: PathBuf,

    /// IMPORT style: only the tags the rules need (Dealer, Auction, Trump, Play;
    /// Deal for hands that are not played).
    #[arg(long)]
    pub import: bool,

    /// Windows line ends.
    #[arg(long)]
    pub crlf: bool,

    /// Fraction of hands preceded by a comment (some span lines with empty lines).
    #[arg(long, default_value_t = 0.0, value_parser = fraction, allow_negative_numbers = true)]
    pub comments: f64,

    /// Fraction of hands with segmental Chat and Note tags.
    #[arg(long, default_value_t = 0.0, value_parser = fraction, allow_negative_numbers = true)]
    pub chat: f64,

    /// Use `#` and `##` for values repeated from the previous hand.
    #[arg(long)]
    pub inherit: bool,

    /// Fraction of hands cut short with a Termination tag.
    #[arg(long, default_value_t = 0.0, value_parser = fraction, allow_negative_numbers = true)]
    pub terminated: f64,

    /// Write a seat that shows no meld as its points alone, `(0)` (else `...(0)`).
    #[arg(long)]
    pub meld_points_alone: bool,

    /// Fraction of records written with a syntax error.
    #[arg(long, default_value_t = 0.0, value_parser = fraction, allow_negative_numbers = true)]
    pub malformed: f64,
}

#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Input files, directories (searched recursively for files of a notation), or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// Output dataset directory: OUT/<game>/<table>/ and OUT/errors/.
    #[arg(short, long)]
    pub output: PathBuf,

    /// Worker threads [default: number of CPUs].
    #[arg(short = 'j', long, value_parser = at_least_one)]
    pub threads: Option<usize>,

    /// Parquet compression.
    #[arg(long, value_enum, default_value_t = CompressionArg::Zstd)]
    pub compression: CompressionArg,

    /// Which writer encodes the Parquet pages: deckhand's own page builders
    /// where they pay, or the Arrow writer for every column (the same values).
    #[arg(long, value_enum, default_value_t = WriterArg::Fast)]
    pub writer: WriterArg,

    /// Maximum rows per Parquet row group (row groups are also cut at 64 MiB).
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub row_group_size: u64,

    /// What to do with a record that cannot be converted.
    #[arg(long, value_enum, default_value_t = OnErrorArg::Skip)]
    pub on_error: OnErrorArg,

    /// Print nothing but errors; no progress bar.
    #[arg(short, long)]
    pub quiet: bool,

    /// Replace the tables of an existing, non-empty output directory.
    #[arg(long)]
    pub force: bool,

    /// The name of standard input (`-`) or of a pipe (`<(zcat a.gz)`) in the
    /// tables' `source_file` and the manifest.
    #[arg(long, value_name = "NAME")]
    pub source_name: Option<String>,

    /// Write only these tables (comma-separated: `pinochle/hands,errors`, or
    /// a table's name alone for every game that has it: `hands`).
    #[arg(long, value_delimiter = ',')]
    pub tables: Option<Vec<String>>,

    /// Add the inputs the dataset does not hold yet as new part files, their
    /// keys continuing (inputs known by path and content hash, in
    /// OUT/_deckhand.json); an input held already is skipped.
    #[arg(long)]
    pub append: bool,

    /// Convert a shard of a larger run: the inputs get file indices N, N+1,
    /// ... (their keys those of one run over all inputs in order, when N
    /// is the position of the shard's first input), part files
    /// part-N.parquet beside other shards', and a manifest fragment that
    /// `deckhand manifest merge OUT` joins into the manifest.
    #[arg(long, value_name = "N", conflicts_with = "append")]
    pub file_index_base: Option<u64>,

    /// Also write the run's summary (counts per file and per table) as JSON.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,

    #[command(flatten)]
    pub rules: RulesArgs,

    /// Debug: bytes fed to the splitter at a time.
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_size: Option<u64>,

    /// Debug: bytes of records parsed by one task.
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub group_size: Option<u64>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum CompressionArg {
    Zstd,
    Snappy,
    Lz4,
    None,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum WriterArg {
    Fast,
    Arrow,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum OnErrorArg {
    /// Quarantine the record in the errors table and go on.
    Skip,
    /// Stop with exit status 2.
    Fail,
}
