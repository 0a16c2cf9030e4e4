//! `read_games`: export's rows as a stream of Arrow record batches, handed to Python through the
//! Arrow C stream interface (the PyCapsule protocol, `__arrow_c_stream__`).
//!
//! A producer thread runs the library's pipeline (`run`, on every core the jobs allow) over a
//! `Batches` destination, which cuts the rows into record batches as they come in input order
//! and sends each through a channel of [`IN_FLIGHT`] batches: the pipeline waits while the reader
//! is behind, so memory stays flat however large the archive. The thread never touches Python
//! objects (no GIL is held while games are read). A reader dropped before its end closes the
//! channel; the run then stops at its next batch and the thread is joined.
//!
//! An input that fails while it is read (a corrupt compressed stream) does not stop the others:
//! its error, as the command line words it, ends the stream after every other row, and pyarrow
//! raises it as an `OSError`.

use std::io;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use arrow_array::RecordBatchReader;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_schema::ArrowError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::errors::options_error;
use crate::inputs::{InputErrors, Inputs};
use crate::library::{
    BATCH_ROWS, Batches, DEFAULT_RULINGS_BUDGET, ExportFormat, ExportOptions, ExportPlan,
    RecordBatch, ReplayOptions, SchemaRef, run, schema,
};

/// Record batches in the channel at most, beside the one the reader holds and the one the
/// producer builds.
const IN_FLIGHT: usize = 2;

/// What the producer sends.
enum Message {
    Batch(RecordBatch),
    /// An input error, or the run's own: the stream ends with it.
    Failed(io::Error),
}

/// The receiving end: a [`RecordBatchReader`] over the producer's batches.
struct Receiving {
    schema: SchemaRef,
    batches: Option<Receiver<Message>>,
    producer: Option<JoinHandle<()>>,
}

impl Iterator for Receiving {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        let message = self.batches.as_ref()?.recv();
        match message {
            Ok(Message::Batch(batch)) => Some(Ok(batch)),
            Ok(Message::Failed(err)) => {
                self.stop();
                Some(Err(ArrowError::IoError(err.to_string(), err)))
            }
            Err(_) => self.stop().then(|| {
                Err(ArrowError::ExternalError(
                    "the reading thread failed".into(),
                ))
            }),
        }
    }
}

impl RecordBatchReader for Receiving {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

impl Receiving {
    /// Closes the channel and waits for the producer; true when it panicked.
    fn stop(&mut self) -> bool {
        self.batches = None;
        self.producer.take().is_some_and(|p| p.join().is_err())
    }
}

impl Drop for Receiving {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts the producer of `plan`'s rows over `inputs`.
fn start(plan: ExportPlan, inputs: Inputs, rulings_budget: u64, batch_rows: usize) -> Receiving {
    let columns = plan.columns();
    let schema = SchemaRef::new(schema(&columns));
    let (send, batches) = sync_channel(IN_FLIGHT);
    let producer =
        std::thread::spawn(move || produce(plan, inputs, rulings_budget, batch_rows, send));
    Receiving {
        schema,
        batches: Some(batches),
        producer: Some(producer),
    }
}

/// The producer thread: the whole run, its batches sent as they fill, then its input errors.
fn produce(
    plan: ExportPlan,
    inputs: Inputs,
    rulings_budget: u64,
    batch_rows: usize,
    send: SyncSender<Message>,
) {
    let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "the reader was closed");
    let mut out = Batches::new(&plan.columns(), batch_rows, |batch| {
        send.send(Message::Batch(batch)).map_err(|_| closed())
    });
    let options = ReplayOptions {
        rulings_budget,
        ..plan.replay_options()
    };
    let errors = InputErrors::default();
    let ran = run(
        &inputs.paths,
        inputs.range.clone(),
        plan.jobs(inputs.jobs),
        &options,
        || plan.formatter(),
        &mut out,
        &errors,
    );
    let ended = ran.and_then(|_| out.finish());
    let failed = match ended {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return,
        Err(err) => Some(err),
        Ok(()) => errors.take().map(io::Error::other),
    };
    if let Some(err) = failed {
        let _ = send.send(Message::Failed(err));
    }
}

/// A stream of export's rows as Arrow record batches, read once. Hand it to
/// `pyarrow.RecordBatchReader.from_stream`, `polars.from_arrow`, DuckDB or any reader of the Arrow
/// PyCapsule stream protocol (`arbiter.read_games` does the first).
#[pyclass(module = "arbiter._arbiter", frozen)]
pub struct GameStream {
    schema: SchemaRef,
    receiving: Mutex<Option<Receiving>>,
}

#[pymethods]
impl GameStream {
    /// The Arrow C stream of the batches, as a PyCapsule named `arrow_array_stream` (the Arrow
    /// PyCapsule protocol). The stream can be taken once. A `requested_schema` is not supported:
    /// the rows have export's schema.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let taken = self
            .receiving
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let Some(receiving) = taken else {
            return Err(PyValueError::new_err(
                "this stream of games was read already; call read_games again",
            ));
        };
        let stream = FFI_ArrowArrayStream::new(Box::new(receiving));
        PyCapsule::new_with_value(py, Stream(stream), c"arrow_array_stream")
    }

    /// The names of the columns, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<arbiter.GameStream of {} columns>",
            self.schema.fields().len()
        )
    }
}

/// The C stream struct, moved into the capsule whole (the capsule's pointer is the struct, as the
/// protocol asks). Its fields are raw pointers, so it is not `Send` by itself; the stream it
/// points to is (`Receiving` is `Send`), and the struct is only ever moved out by its consumer.
#[repr(transparent)]
struct Stream(FFI_ArrowArrayStream);

// SAFETY: `FFI_ArrowArrayStream::new` boxes a `Send` reader (`Receiving`) behind the pointers;
// the callbacks touch nothing else, so calling them, or the release, from another thread is sound.
unsafe impl Send for Stream {}

/// The export options as keyword arguments, checked into a plan.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    plies: bool,
    columns: &str,
    tags: Vec<String>,
    where_: Option<String>,
    position: Vec<String>,
    eco: bool,
    movetext: bool,
    fen: bool,
    comments: bool,
    format: ExportFormat,
) -> PyResult<ExportPlan> {
    let lichess = match columns {
        "arbiter" => false,
        "lichess" => true,
        other => {
            return Err(options_error(format!(
                "columns: {other:?} is not a set of columns; say \"arbiter\" or \"lichess\""
            )));
        }
    };
    let options = ExportOptions {
        plies,
        fen,
        comments,
        lichess,
        eco,
        movetext,
        tags,
        filter: where_,
        positions: position,
    };
    ExportPlan::new(&options, format).map_err(options_error)
}

/// The rows `arbiter export --format parquet` writes for `paths`, as a stream of Arrow record
/// batches (a `GameStream`; `arbiter.read_games` wraps it in a `pyarrow.RecordBatchReader`).
#[pyfunction]
#[pyo3(signature = (
    paths, *, plies = false, columns = "arbiter", tags = Vec::new(), r#where = None,
    position = Vec::new(), eco = false, movetext = false, fen = false, comments = false,
    jobs = None, range = None, rulings_budget = DEFAULT_RULINGS_BUDGET, batch_rows = BATCH_ROWS
))]
#[allow(clippy::too_many_arguments)]
pub fn read_games(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    plies: bool,
    columns: &str,
    tags: Vec<String>,
    r#where: Option<String>,
    position: Vec<String>,
    eco: bool,
    movetext: bool,
    fen: bool,
    comments: bool,
    jobs: Option<usize>,
    range: Option<(u64, u64)>,
    rulings_budget: u64,
    batch_rows: usize,
) -> PyResult<GameStream> {
    let plan = plan(
        plies,
        columns,
        tags,
        r#where,
        position,
        eco,
        movetext,
        fen,
        comments,
        ExportFormat::Parquet,
    )?;
    let inputs = Inputs::new(paths, range, jobs)?;
    let receiving = py.detach(|| start(plan, inputs, rulings_budget, batch_rows));
    Ok(GameStream {
        schema: receiving.schema.clone(),
        receiving: Mutex::new(Some(receiving)),
    })
}
