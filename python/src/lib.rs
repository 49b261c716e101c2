//! `deckhand._deckhand`: the Python binding of the deckhand library. Tables
//! leave as Arrow C streams (the Arrow PyCapsule interface, on arrow's
//! `ffi` module: pyarrow is not needed at run time), conversions run with
//! the GIL released. The Python package (`python/deckhand/`) re-exports it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use arrow_array::ffi::FFI_ArrowSchema;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_schema::SchemaRef;
use deckhand::Error;
use deckhand::dataset::{self, Placement};
use deckhand::pipeline::Options;
use deckhand::read::{self, ReadOptions, Source};
use deckhand::registry::Settings;
use pyo3::exceptions::{
    PyFileExistsError, PyFileNotFoundError, PyIsADirectoryError, PyKeyboardInterrupt,
    PyNotADirectoryError, PyOSError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyCapsule, PyList, PyMemoryView, PyString};

/// A deckhand error as the Python exception a caller expects.
fn py_err(e: Error) -> PyErr {
    let msg = e.to_string();
    match &e {
        Error::Read { path, source } | Error::Write { path, source } => {
            // Python shows `[Errno 2] No such file or directory: 'PATH'`; an
            // error of deckhand's own (a directory given to `read`, a pipe)
            // carries the number of its kind and its own words.
            let errno = source
                .raw_os_error()
                .unwrap_or_else(|| errno_of(source.kind()));
            let text = source.to_string();
            let strerror = match text.find(" (os error") {
                Some(k) => text[..k].to_string(),
                None => text,
            };
            let args = (errno, strerror, path.to_string_lossy().into_owned());
            match source.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
                std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
                _ => PyOSError::new_err(args),
            }
        }
        Error::OutputExists(_) => PyFileExistsError::new_err(msg),
        Error::OutputNotDirectory(_) => PyNotADirectoryError::new_err(msg),
        Error::Settings(_) | Error::WrongNotation(..) | Error::NoInputs(_) => {
            PyValueError::new_err(msg)
        }
        Error::Stopped => PyKeyboardInterrupt::new_err(msg),
        _ => PyRuntimeError::new_err(msg),
    }
}

/// The POSIX error number of an I/O error's kind, for errors that carry
/// none (0 for kinds with no number of their own).
fn errno_of(kind: std::io::ErrorKind) -> i32 {
    use std::io::ErrorKind as K;
    match kind {
        K::NotFound => 2,          // ENOENT
        K::PermissionDenied => 13, // EACCES
        K::AlreadyExists => 17,    // EEXIST
        K::NotADirectory => 20,    // ENOTDIR
        K::IsADirectory => 21,     // EISDIR
        K::InvalidInput => 22,     // EINVAL
        _ => 0,
    }
}

fn settings(rules: bool) -> Settings {
    Settings {
        compute: rules,
        ..Settings::default()
    }
}

/// A path (`str`, `os.PathLike`) or the bytes of a file (`bytes`,
/// `bytearray`, `memoryview`).
fn source_of(obj: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<Source> {
    let held = |bytes: Vec<u8>| Source::Bytes {
        name: name.clone().unwrap_or_else(|| "<bytes>".into()),
        bytes: bytes::Bytes::from(bytes),
    };
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(held(b.as_bytes().to_vec()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(held(b.to_vec()));
    }
    if obj.cast::<PyMemoryView>().is_ok() {
        let b = obj.call_method0("tobytes")?;
        return Ok(held(b.cast::<PyBytes>()?.as_bytes().to_vec()));
    }
    let path: PathBuf = obj.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "source is a path (str, os.PathLike) or a file's bytes, not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    Ok(Source::Path(path))
}

fn column_names(schema: &SchemaRef) -> Vec<String> {
    schema.fields().iter().map(|f| f.name().clone()).collect()
}

fn schema_capsule<'py>(py: Python<'py>, schema: &SchemaRef) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi = FFI_ArrowSchema::try_from(schema.as_ref())
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    PyCapsule::new_with_value(py, ffi, c"arrow_schema")
}

/// One table of one input, read afresh by each consumer: implements the
/// Arrow PyCapsule interface (`pyarrow.table(r)`, `polars.DataFrame(r)`,
/// `duckdb.sql("from r")`, `pandas.DataFrame.from_arrow(r)`).
#[pyclass(module = "deckhand", frozen)]
struct Reader {
    source: Source,
    opts: ReadOptions,
    schema: SchemaRef,
    table: String,
}

#[pymethods]
impl Reader {
    /// The table's path in a dataset (`pinochle/hands`, `errors`).
    #[getter]
    fn table(&self) -> String {
        self.table.clone()
    }

    /// The source's name (its path, or the name given with its bytes).
    #[getter]
    fn source(&self) -> String {
        self.source.name()
    }

    /// The column names.
    #[getter]
    fn columns(&self) -> Vec<String> {
        column_names(&self.schema)
    }

    /// The table's schema.
    #[getter]
    fn schema(&self) -> Schema {
        Schema {
            schema: self.schema.clone(),
            table: self.table.clone(),
        }
    }

    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }

    /// A new stream of the table's batches: the input is parsed again (on
    /// a thread of deckhand's, records in parallel) as the consumer reads.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema is deckhand's: a request for another is not honoured
        // (the interface lets a producer ignore it).
        let _ = requested_schema;
        let reader = py
            .detach(|| read::read(self.source.clone(), &self.table, &self.opts))
            .map_err(py_err)?;
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    fn __repr__(&self) -> String {
        format!(
            "deckhand.Reader(source={:?}, table={:?}, file_index={})",
            self.source.name(),
            self.table,
            self.opts.file_index
        )
    }
}

/// One table of one input, as `convert` writes it for that file at
/// `file_index`.
#[pyfunction(name = "read")]
#[pyo3(signature = (source, *, table, game=None, file_index=0, threads=None, name=None, rules=true))]
#[allow(clippy::too_many_arguments)]
fn read_table(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: &str,
    game: Option<String>,
    file_index: u64,
    threads: Option<usize>,
    name: Option<String>,
    rules: bool,
) -> PyResult<Reader> {
    if file_index > deckhand::notation::MAX_FILE_INDEX {
        return Err(PyValueError::new_err(format!(
            "file_index {file_index} is past the largest a record key holds ({})",
            deckhand::notation::MAX_FILE_INDEX
        )));
    }
    let source = source_of(source, name)?;
    let opts = ReadOptions {
        game,
        file_index,
        threads: threads.unwrap_or(0),
        settings: settings(rules),
    };
    let decl = py
        .detach(|| read::table_for(&source, table, &opts))
        .map_err(py_err)?;
    Ok(Reader {
        source,
        opts,
        schema: (decl.schema)(),
        table: decl.path(),
    })
}

/// A table's Arrow schema (`pyarrow.schema(s)` reads it).
#[pyclass(module = "deckhand", frozen)]
struct Schema {
    schema: SchemaRef,
    table: String,
}

#[pymethods]
impl Schema {
    #[getter]
    fn table(&self) -> String {
        self.table.clone()
    }

    /// The column names.
    #[getter]
    fn names(&self) -> Vec<String> {
        column_names(&self.schema)
    }

    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }

    fn __repr__(&self) -> String {
        format!(
            "deckhand.Schema({:?}: {})",
            self.table,
            self.names().join(", ")
        )
    }
}

#[pyfunction]
fn schema(game: &str, table: &str) -> PyResult<Schema> {
    let decl = read::find_table(Some(game), table).map_err(py_err)?;
    Ok(Schema {
        schema: (decl.schema)(),
        table: decl.path(),
    })
}

#[pyfunction]
#[pyo3(signature = (game=None))]
fn tables(game: Option<&str>) -> PyResult<Vec<String>> {
    let t = read::tables(game).map_err(py_err)?;
    Ok(t.iter()
        .map(|t| match game {
            Some(_) => t.name.to_string(),
            None => t.path(),
        })
        .collect())
}

/// The file name extensions deckhand reads (with the dot, lower case),
/// compressed forms aside.
#[pyfunction]
fn extensions() -> Vec<String> {
    deckhand::registry::extensions()
}

#[pyfunction]
fn games() -> Vec<&'static str> {
    read::games()
}

#[pyfunction]
fn explain(code: &str) -> PyResult<String> {
    deckhand::docs::explain(code)
        .map(|t| t.trim_end().to_string())
        .map_err(PyValueError::new_err)
}

fn paths_of(inputs: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if inputs.cast::<PyString>().is_ok() || inputs.hasattr("__fspath__")? {
        return Ok(vec![inputs.extract()?]);
    }
    inputs
        .try_iter()?
        .map(|p| p.and_then(|p| p.extract::<PathBuf>()))
        .collect()
}

fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Runs `work` on a thread of its own, the GIL released; a signal Python
/// raises (Ctrl-C: `KeyboardInterrupt`) sets `cancel`, waits for the run
/// to stop (its temporary files removed) and is raised.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    cancel: Arc<AtomicBool>,
    work: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    // Shared with the GIL-free waits below.
    let rx = std::sync::Mutex::new(rx);
    let handle = std::thread::Builder::new()
        .name("deckhand-convert".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    loop {
        let got = py.detach(|| {
            let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
            rx.recv_timeout(Duration::from_millis(50))
        });
        match got {
            Ok(result) => {
                let _ = handle.join();
                return result.map_err(py_err);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    let _ = py.detach(|| handle.join());
                    return Err(e);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                let _ = handle.join();
                return Err(PyRuntimeError::new_err("the conversion thread ended"));
            }
        }
    }
}

/// `deckhand convert` in-process: returns the summary (`--summary-json`'s
/// content, with `notes`).
#[pyfunction]
#[pyo3(signature = (inputs, out, *, threads=None, file_index_base=None, append=false, force=false, progress=true, tables=None, rules=true, names=None))]
#[allow(clippy::too_many_arguments)]
fn convert<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    out: PathBuf,
    threads: Option<usize>,
    file_index_base: Option<u64>,
    append: bool,
    force: bool,
    progress: bool,
    tables: Option<Vec<String>>,
    rules: bool,
    names: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let inputs = paths_of(inputs)?;
    if names.is_some() && inputs.iter().any(|p| p.is_dir()) {
        return Err(PyValueError::new_err(
            "names name the inputs one by one: give files, not directories",
        ));
    }
    let settings = settings(rules);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut opts = Options {
        progress,
        force,
        append,
        settings: settings.clone(),
        cancel: Some(cancel.clone()),
        input_names: names,
        ..Options::default()
    };
    if let Some(t) = threads {
        opts.threads = t.max(1);
    }
    if let Some(names) = tables {
        opts.tables = Some(deckhand::registry::table_paths(&names).map_err(PyValueError::new_err)?);
    }
    let placement = match file_index_base {
        Some(n) => Placement::Shard(n),
        None => Placement::Whole,
    };
    let (text, notes) = interruptible(py, cancel, move || {
        let found = deckhand::registry::find_inputs(&inputs, &settings)?;
        let outcome = dataset::convert(&found.inputs, &out, &opts, placement)?;
        let mut summary = outcome.summary.unwrap_or_default();
        summary.left_out = found
            .left_out
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        Ok((summary.to_json(), outcome.notes))
    })?;
    let d = json_to_py(py, &text)?;
    d.set_item("notes", PyList::new(py, notes)?)?;
    Ok(d)
}

/// The files `convert` reads for `inputs` (directories searched as the
/// CLI searches them), in its order: a file's position is its file index.
#[pyfunction]
#[pyo3(signature = (inputs, *, rules=true))]
fn find_inputs(py: Python<'_>, inputs: &Bound<'_, PyAny>, rules: bool) -> PyResult<Vec<String>> {
    let inputs = paths_of(inputs)?;
    let settings = settings(rules);
    py.detach(|| deckhand::registry::find_inputs(&inputs, &settings))
        .map(|f| {
            f.inputs
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect()
        })
        .map_err(py_err)
}

/// Joins the manifest fragments of shards into the dataset's manifest
/// (`deckhand manifest merge OUT`); returns the manifest.
#[pyfunction]
fn merge_manifests<'py>(py: Python<'py>, out: PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let m = py
        .detach(|| dataset::merge_manifests(&out))
        .map_err(py_err)?;
    let text = serde_json::to_string(&m).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    json_to_py(py, &text)
}

#[pymodule]
fn _deckhand(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Reader>()?;
    m.add_class::<Schema>()?;
    m.add_function(wrap_pyfunction!(read_table, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(tables, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(merge_manifests, m)?)?;
    m.add_function(wrap_pyfunction!(find_inputs, m)?)?;
    m.add_function(wrap_pyfunction!(extensions, m)?)?;
    Ok(())
}
