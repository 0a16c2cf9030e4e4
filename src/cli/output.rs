//! The output of every writer (`-o FILE` of `export` and `validate`, or standard output), opened
//! and closed in this one place by the rules the library's [`arbiter::sink`] keeps:
//!
//! - an output that is also an input (the same file, however named, or standard output
//!   redirected onto an input) is refused before anything is read;
//! - `-o -` is standard output;
//! - SIGINT, SIGTERM and SIGHUP remove the temporary file, then end the process by the same
//!   signal (a signal ignored when arbiter started, as under `nohup`, stays ignored);
//! - the temporary file is renamed over the target only when the run ends with status 0 or 1;
//!   after a run that ends with status 2, one line says the target was left as it was.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, PoisonError};

use anyhow::bail;
use arbiter::sink::inputs::{self, FileId};
use arbiter::sink::{self, Sink};

use crate::cli::exit::Exit;
use crate::cli::shards::Parts;
use arbiter::Totals;

/// The targets of the file outputs not committed yet, in the order they were opened, and whether
/// each existed before the run.
static UNCOMMITTED: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());

/// The `-o` path, or `None` for standard output (no `-o`, or `-o -`).
pub fn path(output: Option<&Path>) -> Option<&Path> {
    output.filter(|path| path.as_os_str() != "-")
}

/// Opens the output of a run that reads `inputs`: `-o` (see [`path`]), else standard output.
/// An output that is one of the inputs is an error.
pub fn open(output: Option<&Path>, inputs: &[PathBuf]) -> anyhow::Result<Sink> {
    let Some(path) = path(output) else {
        if let Some(meta) = inputs::standard_output().filter(|meta| meta.is_file())
            && let Some(input) = inputs::input_that_is(FileId::of(&meta), inputs)
        {
            bail!("standard output is also an input ({input}); choose another output");
        }
        return Ok(Sink::stdout());
    };
    let old = fs::metadata(path).ok();
    if let Some(meta) = old.as_ref().filter(|meta| meta.is_file())
        && let Some(input) = inputs::input_that_is(FileId::of(meta), inputs)
    {
        let given = path.display().to_string();
        if input == given {
            bail!("-o {given} is also an input; choose another output");
        }
        if input == "<stdin>" {
            bail!("-o {given} is also an input (standard input reads it); choose another output");
        }
        bail!("-o {given} is also an input (the same file as {input}); choose another output");
    }
    watch_signals();
    let sink = Sink::file(path)?;
    if sink.replaces_on_finish() {
        uncommitted().push((path.to_path_buf(), old.is_some()));
    }
    Ok(sink)
}

/// A run's output, not committed yet: one file or standard output, or the Parquet parts of
/// `export -o DIR --rows-per-file N`.
pub enum Written {
    /// One file, or standard output (boxed: a sink is some hundreds of bytes).
    Sink(Box<Sink>),
    /// Parquet parts in a directory.
    Parts(Parts),
}

/// Notes the parts of `export -o DIR --rows-per-file N` as not committed yet, for
/// [`report_uncommitted`]; from [`Shards::create`](crate::cli::shards::Shards::create).
pub fn parts_uncommitted(dir: &Path, created: bool) {
    watch_signals();
    uncommitted().push((dir.to_path_buf(), !created));
}

/// Ends a run that counted `totals` and ended with `exit`: commits its output on status 0 or 1,
/// drops it (leaving the target as it was) on status 2. Returns `exit`, or the error of the
/// commit.
pub fn close(written: Written, exit: Exit, totals: &Totals) -> anyhow::Result<Exit> {
    match written {
        Written::Sink(sink) => close_sink(*sink, exit),
        Written::Parts(parts) => {
            if exit == Exit::Usage {
                return Ok(exit);
            }
            parts.commit(totals)?;
            committed();
            Ok(exit)
        }
    }
}

/// Ends one file output of a run that ended with `exit`, as [`close`] does. A run with several
/// outputs (`select --rejected`...) closes them in the order it opened them.
pub fn close_sink(sink: Sink, exit: Exit) -> anyhow::Result<Exit> {
    if exit == Exit::Usage {
        return Ok(exit);
    }
    let replaces = sink.replaces_on_finish();
    sink.finish()?;
    if replaces {
        committed();
    }
    Ok(exit)
}

/// The first output not committed yet is committed: it leaves the list [`report_uncommitted`]
/// reads.
fn committed() {
    let mut uncommitted = uncommitted();
    if !uncommitted.is_empty() {
        uncommitted.remove(0);
    }
}

/// After a run that ended with status 2: says that its `-o` file was left as it was.
pub fn report_uncommitted() {
    for (path, existed) in std::mem::take(&mut *uncommitted()) {
        let what = if existed {
            "left unchanged"
        } else {
            "not written"
        };
        crate::cli::report(format_args!("{} {what}", path.display()));
    }
}

fn uncommitted() -> std::sync::MutexGuard<'static, Vec<(PathBuf, bool)>> {
    UNCOMMITTED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the temporary files on SIGINT, SIGTERM and SIGHUP, then lets the signal end the
/// process as it would have (the shell sees status 130, 143 or 129). Started once, before the
/// first temporary file is made.
fn watch_signals() {
    use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
    static WATCHING: Once = Once::new();
    WATCHING.call_once(|| {
        let wanted: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&signal| !ignored(signal))
            .collect();
        // Without the watcher (no signal can be caught here), a signal leaves the temporary
        // file behind, as it did before; the run itself is not hurt.
        let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                sink::remove_temporaries();
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // Not a terminating signal after all (cannot happen for these three).
                std::process::exit(128 + signal);
            }
        });
    });
}

/// Whether `signal` was ignored when arbiter started (`nohup` ignores SIGHUP, a shell ignores
/// SIGINT for a background job): catching it would make it end the run.
fn ignored(signal: i32) -> bool {
    // SAFETY: sigaction with a null new action only reads the current one into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}
