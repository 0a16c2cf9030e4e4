//! The command line: clap definitions and one module per subcommand.
//!
//! Data goes to stdout; stderr carries only progress, I/O errors and usage errors. The exit code is
//! chosen once, here, from what the subcommand reports (see [`exit::Exit`]).

pub mod exit;
pub mod export;
pub mod games;
pub mod moves;
pub mod perft;
pub mod progress;
pub mod validate;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use exit::Exit;

/// Validate PGN chess archives move by move, list the legal moves of a FEN position, and export
/// every game's outcome.
#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay every move of every game (and variation) and report each problem with its location.
    Validate(validate::ValidateArgs),
    /// Write one record per game with its outcome, as CSV, JSON or JSON Lines.
    Export(export::ExportArgs),
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
    /// Print the man page (roff) on stdout.
    #[command(after_help = "Example:\n  arbiter manpage > arbiter.1 && man ./arbiter.1")]
    Manpage,
}

/// Parses the command line, runs the subcommand and maps the result to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() {
                Exit::Usage
            } else {
                Exit::Ok
            };
            let _ = err.print();
            return code.into();
        }
    };
    let result = match &cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Export(args) => export::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Completions { shell } => completions(*shell),
        Command::Manpage => manpage(),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(err) => {
            if is_broken_pipe(&err) {
                return Exit::Ok.into();
            }
            report_error(format_args!("{err:#}"));
            Exit::Usage.into()
        }
    }
}

/// Writes `bytes` to stdout. The script and the page are made in memory first: clap_complete
/// panics when its writer fails, and a closed pipe or a full disk must end the run cleanly.
fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

fn completions(shell: clap_complete::Shell) -> anyhow::Result<Exit> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "arbiter", &mut script);
    write_stdout(&script)?;
    Ok(Exit::Ok)
}

fn manpage() -> anyhow::Result<Exit> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    write_stdout(&page)?;
    Ok(Exit::Ok)
}

/// Prints `arbiter: error: MESSAGE` on stderr. A stderr that cannot be written (`2>/dev/full`) is
/// ignored: `eprintln!` would panic there, and the exit code already tells the error.
pub fn report_error(message: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "arbiter: error: {message}");
}

/// A closed stdout (`arbiter export ... | head`) ends the run quietly with status 0.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
