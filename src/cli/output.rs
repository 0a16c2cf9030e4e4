//! The outputs of every writer (`-o FILE` of `export`, `validate` and `select`, `--rejected`,
//! `--duplicates`, the parts of `-o DIR --rows-per-file`, or standard output), opened and closed
//! in this one place by the rules the library's [`arbiter::io::sink`] keeps:
//!
//! - an output that is also an input, or another output (the same file, however named, or
//!   standard output redirected onto an input), is refused before anything is read
//!   ([`clash::check`]);
//! - `-o -` is standard output;
//! - SIGINT, SIGTERM and SIGHUP remove the temporary files and staging directory, say in one
//!   line on stderr what was kept (`arbiter: interrupted: games.csv left unchanged`), then end
//!   the process by the same signal (a signal ignored when arbiter started, as under `nohup`,
//!   stays ignored);
//! - the outputs are committed together ([`sink::finish_all`]) only when the run ends with status
//!   0 or 1 (or 2 from its inputs alone, under `--keep-going`); otherwise one line per output
//!   says it was left as it was.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, PoisonError};

use arbiter::Totals;
use arbiter::io::sink::{self, Sink, clash};
use arbiter::report::columns::Column;
use arbiter::report::parts::{Parts, Shards};

use crate::cli::exit::Exit;

/// The targets of the file outputs not committed yet, in the order they were opened, and whether
/// each existed before the run.
static UNCOMMITTED: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());

/// Whether the run writes its data to standard output.
static TO_STDOUT: AtomicBool = AtomicBool::new(false);

/// The `-o` path, or `None` for standard output (no `-o`, or `-o -`).
pub(crate) fn path(output: Option<&Path>) -> Option<&Path> {
    output.filter(|path| path.as_os_str() != "-")
}

/// Opens the output of a run that reads `inputs`: `-o` (see [`path`]), else standard output.
/// An output that is one of the inputs is an error ([`clash::check`]).
pub(crate) fn open(output: Option<&Path>, inputs: &[PathBuf]) -> anyhow::Result<Sink> {
    clash::check(&[("-o", path(output))], inputs)?;
    open_checked(output)
}

/// Opens `-o` (see [`path`]), else standard output, already checked against the run's inputs
/// and other outputs ([`clash::check`]).
pub(crate) fn open_checked(output: Option<&Path>) -> anyhow::Result<Sink> {
    let Some(path) = path(output) else {
        TO_STDOUT.store(true, Ordering::Relaxed);
        return Ok(Sink::stdout());
    };
    let existed = fs::metadata(path).is_ok();
    watch_signals();
    let sink = Sink::file(path)?;
    if sink.replaces_on_finish() {
        uncommitted().push((path.to_path_buf(), existed));
    }
    Ok(sink)
}

/// A run's output, not committed yet: one file or standard output, or the Parquet parts of
/// `export -o DIR --rows-per-file N`.
pub(crate) enum Written {
    /// One file, or standard output (boxed: a sink is some hundreds of bytes).
    Sink(Box<Sink>),
    /// Parquet parts in a directory.
    Parts(Parts),
}

/// Starts the parts of `export -o DIR --rows-per-file N` ([`Shards::create`]), noted as not
/// committed yet for [`report_uncommitted_after`].
pub(crate) fn open_parts(
    dir: &Path,
    columns: &[Column],
    rows_per_file: u64,
) -> anyhow::Result<Shards> {
    let existed = dir.exists();
    watch_signals();
    let shards = Shards::create(dir, columns, rows_per_file)?;
    uncommitted().push((dir.to_path_buf(), existed));
    Ok(shards)
}

/// Whether a run that ended with `exit` commits its outputs: on status 0 or 1; on 2 only under
/// `--keep-going` (a failed write is an error before this, so a 2 here comes from inputs that
/// could not be read whole).
pub(crate) fn commits(exit: Exit, keep_going: bool) -> bool {
    exit != Exit::Usage || keep_going
}

/// Ends a run that counted `totals`: commits its output when `commit` ([`commits`]), else drops
/// it, leaving the target as it was.
pub(crate) fn close(written: Written, commit: bool, totals: &Totals) -> anyhow::Result<()> {
    match written {
        Written::Sink(sink) => close_all(vec![*sink], commit),
        Written::Parts(parts) => {
            if !commit {
                return Ok(());
            }
            let dir = parts.dir().to_path_buf();
            let command: Vec<String> = std::env::args().collect();
            parts.commit(totals, &command)?;
            committed(&dir);
            Ok(())
        }
    }
}

/// Ends the file outputs of a run, as [`close`] does, all or none ([`sink::finish_all`]): a run
/// with several outputs (`select --rejected`...) replaces none of them unless every one was
/// written whole.
pub(crate) fn close_all(sinks: Vec<Sink>, commit: bool) -> anyhow::Result<()> {
    if commit {
        sink::finish_all(sinks, committed)?;
    }
    Ok(())
}

/// After a run some of whose inputs could not be read whole: names them, and says what became
/// of what was read (written, under `--keep-going`, else how to get it). Nothing when every
/// input was read.
pub(crate) fn report_unread(totals: &Totals, committed: bool) {
    let unread: Vec<&str> = totals.unread().collect();
    if unread.is_empty() {
        return;
    }
    let names = unread.join(", ");
    let read = arbiter::core::text::counted(totals.counts.games, "game");
    if committed {
        crate::cli::stderr::report(format_args!(
            "not read whole: {names}; the {read} read were written (--keep-going)"
        ));
    } else if !uncommitted().is_empty() {
        crate::cli::stderr::report(format_args!(
            "not read whole: {names}; {read} could be read: --keep-going writes them and names \
             these inputs (the status is still 2)"
        ));
    }
}

/// The output at `target` is committed: it leaves the list [`report_uncommitted_after`] reads.
fn committed(target: &Path) {
    uncommitted().retain(|(path, _)| path != target);
}

/// After a run that ended with status 2, or was cut short by a closed standard output (`why`
/// says so, when not empty): says which of its files were left as they were.
pub(crate) fn report_uncommitted_after(why: &str) {
    let uncommitted = std::mem::take(&mut *uncommitted());
    if !why.is_empty() && !uncommitted.is_empty() {
        crate::cli::stderr::report(format_args!("{why}"));
    }
    for (path, existed) in uncommitted {
        let what = if existed {
            "left unchanged"
        } else {
            "not written"
        };
        crate::cli::stderr::report(format_args!("{} {what}", path.display()));
    }
}

fn uncommitted() -> std::sync::MutexGuard<'static, Vec<(PathBuf, bool)>> {
    UNCOMMITTED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the temporary files on SIGINT, SIGTERM and SIGHUP, says what was kept ([`kept`]),
/// then lets the signal end the process as it would have (the shell sees status 130, 143 or 129).
/// Started once, before the first temporary file is made or the first game is read.
pub(crate) fn watch_signals() {
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
                crate::cli::stderr::interrupted(|| {
                    crate::cli::stderr::report(format_args!("{}", kept(signal)));
                });
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // Not a terminating signal after all (cannot happen for these three).
                std::process::exit(128 + signal);
            }
        });
    });
}

/// The line said when `signal` ends the run: what it was, then what became of each output
/// (`interrupted: games.csv left unchanged`, `terminated: a.pgn not written, standard output
/// stops short`).
fn kept(signal: i32) -> String {
    use signal_hook::consts::signal::{SIGINT, SIGTERM};
    let what = match signal {
        SIGINT => "interrupted",
        SIGTERM => "terminated",
        _ => "hung up",
    };
    let mut outputs: Vec<String> = uncommitted()
        .iter()
        .map(|(path, existed)| {
            let left = if *existed {
                "left unchanged"
            } else {
                "not written"
            };
            format!("{} {left}", path.display())
        })
        .collect();
    if TO_STDOUT.load(Ordering::Relaxed) {
        outputs.push("standard output stops short".to_owned());
    }
    if outputs.is_empty() {
        outputs.push("nothing written".to_owned());
    }
    format!("{what}: {}", outputs.join(", "))
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
