//! The `arbiter` command: the command line over the library (`arbiter::...`). Everything clap,
//! anyhow and the progress bar do lives here, in [`cli`].

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
