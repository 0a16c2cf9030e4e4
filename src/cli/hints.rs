//! Better tips for an unknown option than clap's own: the options of the subcommand whose names
//! contain it or begin as it does ([`arbiter::core::text::similar`]: `--ply` gives `--plies`), else an option
//! one of whose values it names (`validate --json` gives `--format jsonl`). clap suggests only
//! names close by its own measure, and after a subcommand that takes paths it otherwise says to
//! write `-- --ply`, which nobody typing `--ply` meant. Any other error is left as it is.

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// `err` with the tips of the module's rule, for the command line `args` (the program's name
/// first) of the command `cli`.
pub(crate) fn improve(mut err: clap::Error, cli: &clap::Command, args: &[String]) -> clap::Error {
    if err.kind() != ErrorKind::UnknownArgument {
        return err;
    }
    let Some(ContextValue::String(given)) = err.get(ContextKind::InvalidArg) else {
        return err;
    };
    let Some(name) = given.strip_prefix("--") else {
        return err;
    };
    let name = name.split('=').next().unwrap_or(name).to_owned();
    // The subcommand is the first argument that names one.
    let command = args
        .iter()
        .skip(1)
        .find_map(|arg| cli.find_subcommand(arg))
        .unwrap_or(cli);
    let tips = options_like(command, &name);
    if !tips.is_empty() {
        err.remove(ContextKind::Suggested);
        err.insert(ContextKind::SuggestedArg, ContextValue::Strings(tips));
    }
    err
}

/// What `--name`, unknown to `command`, most likely meant: its options that `name` is like, else
/// `--option value` for the values `name` is like.
fn options_like(command: &clap::Command, name: &str) -> Vec<String> {
    let shown = || command.get_arguments().filter(|arg| !arg.is_hide_set());
    let longs: Vec<&str> = shown().filter_map(|arg| arg.get_long()).collect();
    let near = arbiter::core::text::similar(name, longs);
    if !near.is_empty() {
        return near.iter().map(|long| format!("--{long}")).collect();
    }
    let mut tips = Vec::new();
    for arg in shown() {
        let Some(long) = arg.get_long() else {
            continue;
        };
        let values = arg.get_possible_values();
        let names = values
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name());
        for value in arbiter::core::text::similar(name, names) {
            tips.push(format!("--{long} {value}"));
        }
    }
    tips
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn tips(args: &[&str]) -> Option<ContextValue> {
        let cli = crate::cli::Cli::command();
        let args: Vec<String> = args.iter().map(|&a| a.to_owned()).collect();
        let err = cli.clone().try_get_matches_from(&args).unwrap_err();
        improve(err, &cli, &args)
            .get(ContextKind::SuggestedArg)
            .cloned()
    }

    fn strings(tips: &[&str]) -> Option<ContextValue> {
        Some(ContextValue::Strings(
            tips.iter().map(|&t| t.to_owned()).collect(),
        ))
    }

    #[test]
    fn an_unknown_option_gets_the_options_it_is_like() {
        assert_eq!(
            tips(&["arbiter", "export", "x.pgn", "--ply"]),
            strings(&["--plies"])
        );
        assert_eq!(
            tips(&["arbiter", "validate", "--json", "x.pgn"]),
            strings(&["--format jsonl"])
        );
        assert_eq!(
            tips(&["arbiter", "export", "--json"]),
            strings(&["--format json", "--format jsonl"])
        );
        assert_eq!(
            tips(&["arbiter", "export", "--lichess"]),
            strings(&["--columns lichess"])
        );
    }
}
