//! The command line: clap definitions and one module per subcommand.
//!
//! Data goes to stdout; stderr carries only progress, I/O errors and usage errors. The exit code is
//! chosen once, here, from what the subcommand reports (see [`exit::Exit`]): for `validate` and
//! `export`, from the run's totals. A run whose data
//! would go to a closed standard output (`>&-`) is an I/O error before it starts: there is no
//! stream to write to, and nothing would say so.

pub(crate) mod exit;
pub(crate) mod export;
pub(crate) mod games;
pub(crate) mod help;
pub(crate) mod hints;
pub(crate) mod moves;
pub(crate) mod numbers;
pub(crate) mod output;
pub(crate) mod perft;
pub(crate) mod progress;
pub(crate) mod select;
pub(crate) mod severities;
pub(crate) mod stderr;
pub(crate) mod validate;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use arbiter::io::Sink;
use clap::{CommandFactory, Parser, Subcommand};
use exit::Exit;
use stderr::{report, report_error};

/// Validate PGN chess archives move by move, list the legal moves of a FEN position, and export
/// every game's outcome.
#[derive(Parser, Debug)]
#[command(
    name = "arbiter",
    version,
    about,
    long_about = LONG_ABOUT,
    disable_help_subcommand = true
)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// `arbiter --help` and the main man page's DESCRIPTION: the package's description (the page's
/// NAME, which the DESCRIPTION leaves out), then where the rest is found.
const LONG_ABOUT: &str = concat!(
    env!("CARGO_PKG_DESCRIPTION"),
    "\n\n",
    "Each subcommand has its help (arbiter COMMAND --help, or arbiter help COMMAND) and its man \
     page (arbiter-validate(1), arbiter-export(1)...). Three reference topics stand beside them, \
     also as man pages: arbiter help columns (export's columns, their types and what each \
     holds, which are also the fields of --where; arbiter-columns(1)), arbiter help where (the \
     --where language of export and select; arbiter-where(1)) and arbiter help codes \
     (validate's diagnostic codes, for --strict, --deny and --allow; arbiter-codes(1))."
);

/// The subcommands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Replay every move of every game (and variation) and report each problem with its location.
    ///
    /// Each problem has a code (error[illegal_move], warning[wrong_check_mark]...): arbiter help
    /// codes lists them; --strict, --deny and --allow change which are errors.
    Validate(validate::ValidateArgs),
    /// Write one record per game with its outcome, as CSV, JSON, JSON Lines or Parquet.
    ///
    /// arbiter help columns lists the columns, their types and what each holds; arbiter help
    /// where, the --where language.
    Export(export::ExportArgs),
    /// Keep the games an expression, a position or deduplication picks, name their openings, and
    /// write them back as clean PGN.
    ///
    /// arbiter help where describes the --where language, and arbiter help columns the fields it
    /// reads (export's columns). A game kept is written as clean PGN: its tags, then its moves
    /// in standard SAN with comments, NAGs and variations (unless --no-comments, --no-nags,
    /// --no-variations); an invalid game is written as it was.
    Select(select::SelectArgs),
    /// Print the legal moves and the status of a FEN position.
    Moves(moves::MovesArgs),
    /// Count the leaf nodes of the legal move tree to a given depth.
    Perft(perft::PerftArgs),
    /// Print a shell completion script for SHELL.
    #[command(after_help = "Example:\n  arbiter completions bash > /etc/bash_completion.d/arbiter")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on stdout, or write every page to a directory.
    #[command(after_help = "Examples:\n  \
        arbiter manpage > arbiter.1 && man ./arbiter.1\n  \
        arbiter manpage --dir ~/.local/share/man/man1")]
    Manpage {
        /// Write one page per subcommand (`arbiter-validate.1`...), one per help topic
        /// (`arbiter-columns.1`, `arbiter-where.1`, `arbiter-codes.1`) and the main one
        /// (`arbiter.1`) into DIR, created if missing, instead of printing the main page.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
    /// Print the help of a subcommand, or a reference topic: columns (export's columns and their
    /// types), where (the --where language), codes (validate's diagnostic codes).
    #[command(after_help = "Examples:\n  \
        arbiter help columns\n  \
        arbiter help where | less\n  \
        arbiter help export")]
    Help {
        /// A subcommand, or a topic: columns, where, codes.
        #[arg(value_name = "COMMAND|TOPIC")]
        words: Vec<String>,
    },
}

/// Whether file descriptor 1 was closed when the process started. Rust's runtime opens
/// `/dev/null` on a closed standard stream before `main`, so that writes to it vanish without an
/// error; this is recorded before that, by a constructor the loader runs (on Linux; elsewhere a
/// closed standard output goes unnoticed, as before).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_STDOUT: extern "C" fn() = record_stdout;

#[cfg(target_os = "linux")]
extern "C" fn record_stdout() {
    // SAFETY: F_GETFD only asks whether descriptor 1 is open.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// Parses the command line, runs the subcommand and maps the result to an exit code.
pub(crate) fn main() -> ExitCode {
    let stdout_closed = STDOUT_CLOSED.load(Ordering::Relaxed);
    let closed = || {
        report_error(format_args!(
            "standard output is closed; redirect it, or give -o FILE"
        ));
        ExitCode::from(Exit::Usage)
    };
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let args: Vec<String> = std::env::args_os()
                .map(|arg| arg.to_string_lossy().into_owned())
                .collect();
            let err = hints::improve(err, &Cli::command(), &args);
            let code = if err.use_stderr() {
                Exit::Usage
            } else if stdout_closed {
                return closed();
            } else {
                Exit::Ok
            };
            // `--help` or `--version` into a closed pipe is fine; onto a full disk it is an error.
            if let Err(io) = err.print()
                && !err.use_stderr()
                && io.kind() != std::io::ErrorKind::BrokenPipe
            {
                report_error(format_args!(
                    "cannot write the help to standard output: {io}"
                ));
                return Exit::Usage.into();
            }
            return code.into();
        }
    };
    if stdout_closed && writes_to_stdout(&cli.command) {
        return closed();
    }
    let result = match &cli.command {
        Command::Validate(args) => validate::run(args).and_then(ended),
        Command::Export(args) => export::run(args).and_then(ended),
        Command::Select(args) => select::run(args),
        Command::Moves(args) => moves::run(args).map_err(naming_standard_output),
        Command::Perft(args) => perft::run(args),
        Command::Completions { shell } => completions(*shell),
        Command::Manpage { dir } => manpage(dir.as_deref()),
        Command::Help { words } => help::run(words),
    };
    let exit = match result {
        Ok(exit) => exit,
        Err(err) if is_broken_pipe(&err) => {
            // Quietly, as `head` expects; but files not written are said.
            output::report_uncommitted_after("standard output was closed before the run ended");
            Exit::Ok
        }
        Err(err) => {
            report_error(format_args!("{err:#}"));
            Exit::Usage
        }
    };
    if exit == Exit::Usage {
        output::report_uncommitted_after("");
    }
    exit.into()
}

/// The exit status of a run over games, chosen from its totals ([`Exit::of`]): its output is
/// committed on status 0 or 1 (and what the run has to say about it said), left as it was on 2,
/// unless only inputs that could not be read whole made it 2 and `--keep-going` was given.
fn ended(ran: games::Ran) -> anyhow::Result<Exit> {
    let exit = Exit::of(&ran.totals);
    let commit = output::commits(exit, ran.keep_going);
    output::close(ran.output, commit, &ran.totals)?;
    if commit && let Some(wrote) = ran.wrote {
        report(format_args!("{wrote}"));
    }
    output::report_unread(&ran.totals, commit);
    Ok(exit)
}

/// Whether `command` writes its data to standard output (rather than to `-o FILE` or
/// `manpage --dir`).
fn writes_to_stdout(command: &Command) -> bool {
    match command {
        Command::Validate(args) => output::path(args.run.output.as_deref()).is_none(),
        Command::Export(args) => output::path(args.run.output.as_deref()).is_none(),
        Command::Select(args) => output::path(args.run.output.as_deref()).is_none(),
        Command::Manpage { dir } => dir.is_none(),
        Command::Moves(_)
        | Command::Perft(_)
        | Command::Completions { .. }
        | Command::Help { .. } => true,
    }
}

/// `moves` reports an input it cannot read in words (no I/O error inside), so an I/O error in
/// its error is a failed write to standard output: say so.
fn naming_standard_output(err: anyhow::Error) -> anyhow::Error {
    let writing = err.chain().any(|cause| {
        cause.is::<std::io::Error>()
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(serde_json::Error::is_io)
    });
    if writing {
        err.context("cannot write standard output")
    } else {
        err
    }
}

/// Writes `bytes` to stdout. The script and the page are made in memory first: clap_complete
/// panics when its writer fails, and a closed pipe or a full disk must end the run cleanly.
fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = Sink::stdout();
    out.write_all(bytes)?;
    out.finish()?;
    Ok(())
}

fn completions(shell: clap_complete::Shell) -> anyhow::Result<Exit> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "arbiter", &mut script);
    write_stdout(&script)?;
    Ok(Exit::Ok)
}

/// What a usage or I/O error is, for the runs over games.
const GAMES_USAGE: &str = "A usage error (a bad option or argument, an -o that is also an input, \
    a validate -o named .csv, .json or .parquet, an export -o whose extension names no format it \
    writes, such as .xlsx, without --format) or an I/O error (an input that \
    cannot be read, is not PGN or is cut short, a directory or pattern without PGN files, an \
    output that cannot be written); the -o FILE is left as it was (under --keep-going, an input \
    that could not be read whole still gives 2, and -o has everything that could be read).";

/// The EXIT STATUS section of the page of `command` (`arbiter` for the main page): the statuses
/// it can end with, each as it means them.
fn exit_status(command: &str) -> Vec<(&'static str, &'static str)> {
    match command {
        "validate" => vec![
            (
                "0",
                "Every game is valid: no error (warnings allowed, unless --strict or --deny \
                 makes them errors).",
            ),
            (
                "1",
                "Some game has an error, in its main line, a variation or its tags (or a warning \
                 that --strict or --deny makes an error); every input was read.",
            ),
            ("2", GAMES_USAGE),
        ],
        "export" => vec![
            (
                "0",
                "Every game is valid: validate, given the same --strict, --deny and --allow, \
                 would report no error.",
            ),
            (
                "1",
                "Some game has an error, in its main line, a variation or its tags (its record \
                 says valid false); every game was still written.",
            ),
            ("2", GAMES_USAGE),
        ],
        "select" => vec![
            ("0", "Every game read is valid, written or not."),
            (
                "1",
                "Some game has an error (it is written unchanged, as it was, unless --where or \
                 --dedup sends it elsewhere); every output was still written.",
            ),
            (
                "2",
                "A usage error (a bad option, a --where mistake, a bad --position FEN, two \
                 outputs that are one file) or an I/O error (an input that cannot be read, is \
                 not PGN or is cut short, an output that cannot be written); -o, --rejected and \
                 --duplicates are all left as they were (under --keep-going, an input that could \
                 not be read whole still gives 2, and the outputs have everything read).",
            ),
        ],
        "moves" => vec![
            ("0", "The position is valid (with --file: every line is)."),
            ("1", "With --file: some line is no valid position."),
            (
                "2",
                "A usage error (a bad option, an invalid FEN given as argument) or an I/O error \
                 (a --file that cannot be read, an output that cannot be written).",
            ),
        ],
        "perft" => vec![
            ("0", "The nodes were counted."),
            (
                "2",
                "A usage error (a bad option, an invalid FEN) or an output that cannot be \
                 written.",
            ),
        ],
        "completions" => vec![
            ("0", "The script was written."),
            (
                "2",
                "A usage error (an unknown shell) or an output that cannot be written.",
            ),
        ],
        "help" => vec![
            ("0", "The help was written."),
            (
                "2",
                "A usage error (no such command or topic) or an output that cannot be written.",
            ),
        ],
        "manpage" => vec![
            ("0", "The page or pages were written."),
            (
                "2",
                "A usage error, or a directory or page that cannot be written.",
            ),
        ],
        _ => vec![
            (
                "0",
                "All good: every game (validate, export, select) or position (moves, perft) is \
                 valid.",
            ),
            (
                "1",
                "Some game has an error (validate, export, select) or some line of moves --file \
                 is no valid position.",
            ),
            (
                "2",
                "A usage error (a bad option or argument, a bad FEN for moves or perft) or an \
                 I/O error (an input that cannot be read or is not PGN, an output that cannot be \
                 written). Each subcommand's page says what its statuses mean.",
            ),
        ],
    }
}

/// The man page of `cmd` (built): clap_mangen's sections, the examples of the help (`after_help`)
/// under EXAMPLES, one a line, then EXIT STATUS and VERSION.
fn render_page(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    use clap_mangen::roff::{Roff, bold, roman};
    let has_args = cmd.get_arguments().any(|a| !a.is_hide_set());
    let has_subcommands = cmd.get_subcommands().any(|c| !c.is_hide_set());
    let examples = cmd
        .get_after_long_help()
        .or(cmd.get_after_help())
        .map(ToString::to_string);
    let has_version = cmd.get_version().or(cmd.get_long_version()).is_some();
    let name = cmd.get_name().to_owned();
    // The long help's paragraphs after the first, which is NAME's line already.
    let description = cmd
        .get_long_about()
        .map(ToString::to_string)
        .and_then(|long| Some(long.split_once("\n\n")?.1.trim().to_owned()))
        .filter(|description| !description.is_empty());
    let man = clap_mangen::Man::new(cmd);
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    if let Some(description) = description {
        let mut roff = Roff::default();
        roff.control("SH", ["DESCRIPTION"]);
        for paragraph in description.split("\n\n") {
            roff.control("PP", []);
            roff.text([roman(
                paragraph.split_whitespace().collect::<Vec<_>>().join(" "),
            )]);
        }
        roff.to_writer(&mut page)?;
    }
    if has_args {
        man.render_options_section(&mut page)?;
    }
    if has_subcommands {
        man.render_subcommands_section(&mut page)?;
    }
    let mut roff = Roff::default();
    if let Some(examples) = examples {
        roff.control("SH", ["EXAMPLES"]);
        roff.control("nf", []);
        // The help's heading (`Examples:`) is the section's title here.
        for line in examples.lines().filter(|line| !line.ends_with(':')) {
            roff.text([roman(line.trim())]);
        }
        roff.control("fi", []);
    }
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in exit_status(&name) {
        roff.control("TP", []);
        roff.text([bold(code)]);
        roff.text([roman(meaning)]);
    }
    roff.to_writer(&mut page)?;
    if has_version {
        man.render_version_section(&mut page)?;
    }
    Ok(page)
}

fn manpage(dir: Option<&std::path::Path>) -> anyhow::Result<Exit> {
    use anyhow::Context;
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let Some(dir) = dir else {
        write_stdout(&render_page(cmd)?)?;
        return Ok(Exit::Ok);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let pages = std::iter::once(cmd.clone()).chain(cmd.get_subcommands().cloned());
    let mut written = Vec::new();
    for page in pages {
        let name = page
            .get_display_name()
            .unwrap_or(page.get_name())
            .to_owned();
        written.push((name, render_page(page)?));
    }
    for topic in &help::topics::TOPICS {
        written.push((format!("arbiter-{}", topic.name), help::topic_page(topic)?));
    }
    for (name, page) in written {
        let path = dir.join(format!("{name}.1"));
        std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(Exit::Ok)
}

/// A closed stdout (`arbiter export ... | head`) ends the run quietly with status 0.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    let broken = Some(std::io::ErrorKind::BrokenPipe);
    err.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().map(|io| io.kind()) == broken
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == broken
    })
}
