//! Command-line arguments (clap derive). No logic here.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "deckhand",
    version,
    about = "Convert card-game hand records (PPN) to Apache Parquet"
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert PPN files or directories of them into a Parquet dataset directory.
    Convert(ConvertArgs),
}

#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Input files, directories (searched recursively for *.ppn), or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// Output dataset directory: one sub-directory per table.
    #[arg(short, long)]
    pub output: PathBuf,

    /// Worker threads [default: number of CPUs].
    #[arg(short = 'j', long)]
    pub threads: Option<usize>,

    /// Parquet compression.
    #[arg(long, value_enum, default_value_t = CompressionArg::Zstd)]
    pub compression: CompressionArg,

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
pub enum OnErrorArg {
    /// Quarantine the record in the errors table and go on.
    Skip,
    /// Stop with exit status 2.
    Fail,
}
