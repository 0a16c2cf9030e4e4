//! `arbiter help [COMMAND|TOPIC]`: the long help of a subcommand, as `arbiter COMMAND --help`
//! prints it, or a reference topic ([`topics`]: `columns`, `where`, `codes`), which an installed
//! user has no `docs/` to read; and each topic as a man page of its own, `arbiter-TOPIC(1)`,
//! which `arbiter manpage --dir` writes with the others.

pub(crate) mod doc;
pub(crate) mod topics;

use anyhow::bail;
use clap::CommandFactory;
use clap_mangen::roff::{Roff, bold, roman};

use crate::cli::Cli;
use crate::cli::exit::Exit;
use topics::{TOPICS, Topic};

/// Runs `arbiter help WORDS...`.
pub(crate) fn run(words: &[String]) -> anyhow::Result<Exit> {
    crate::cli::write_stdout(text(words)?.as_bytes())?;
    Ok(Exit::Ok)
}

/// What `arbiter help WORDS...` prints: the topic `WORDS` names, else what `arbiter WORDS...
/// --help` prints (the help of the subcommand they name, of arbiter itself for none); an unknown
/// word is a usage error naming the nearest commands and topics.
fn text(words: &[String]) -> anyhow::Result<String> {
    if let [word] = words
        && let Some(topic) = topics::find(word)
    {
        return Ok(doc::terminal(&(topic.blocks)()));
    }
    let mut cli = Cli::command();
    cli.build();
    let mut command = &mut cli;
    for word in words {
        let known: Vec<String> = command
            .get_subcommands()
            .map(|c| c.get_name().to_owned())
            .collect();
        let Some(sub) = command.find_subcommand_mut(word) else {
            let mut names: Vec<&str> = known.iter().map(String::as_str).collect();
            if std::ptr::eq(words.first().unwrap_or(word), word) {
                names.extend(TOPICS.iter().map(|topic| topic.name));
            }
            let near = arbiter::core::text::similar(word, names.iter().copied());
            let hint = if near.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", arbiter::core::text::or_list(&near))
            };
            bail!(
                "help {}: no such command or topic{hint}; the commands: {}; the topics: {}",
                words.join(" "),
                known.join(", "),
                TOPICS.map(|topic| topic.name).join(", ")
            );
        };
        command = sub;
    }
    // What `arbiter WORDS... --help` prints, by asking for it.
    let asked = std::iter::once("arbiter")
        .chain(words.iter().map(String::as_str))
        .chain(["--help"]);
    match Cli::command().try_get_matches_from(asked) {
        Err(help) => Ok(help.render().to_string()),
        Ok(_) => bail!("help {}: no help to print", words.join(" ")),
    }
}

/// The man page of `topic`, `arbiter-NAME(1)`: NAME, SYNOPSIS (`arbiter help NAME`), the
/// topic's text as DESCRIPTION, and SEE ALSO.
pub(crate) fn topic_page(topic: &Topic) -> std::io::Result<Vec<u8>> {
    let name = format!("arbiter-{}", topic.name);
    let version = format!("arbiter {}", env!("CARGO_PKG_VERSION"));
    let mut roff = Roff::default();
    roff.control("TH", [name.as_str(), "1", "", version.as_str()]);
    roff.control("SH", ["NAME"]);
    roff.text([roman(format!("{name} - {}", topic.summary))]);
    roff.control("SH", ["SYNOPSIS"]);
    roff.text([bold(format!("arbiter help {}", topic.name))]);
    roff.control("SH", ["DESCRIPTION"]);
    doc::roff(&(topic.blocks)(), &mut roff);
    roff.control("SH", ["SEE ALSO"]);
    let others: Vec<String> = TOPICS
        .iter()
        .filter(|other| other.name != topic.name)
        .map(|other| format!("arbiter-{}(1)", other.name))
        .collect();
    roff.text([roman(format!("arbiter(1), {}", others.join(", ")))]);
    let mut page = Vec::new();
    roff.to_writer(&mut page)?;
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn help_names_a_topic_or_a_command() {
        let columns = text(&words("columns")).unwrap();
        assert!(
            columns.contains("\n  white_elo          int32 or null\n"),
            "{columns}"
        );
        let export = text(&words("export")).unwrap();
        assert!(export.starts_with("Write one record per game"), "{export}");
        assert!(export.contains("where a game surely starts"), "{export}");
        let err = text(&words("colums")).unwrap_err().to_string();
        assert!(
            err.starts_with("help colums: no such command or topic (did you mean columns?)"),
            "{err}"
        );
        let err = text(&words("export columns")).unwrap_err().to_string();
        assert!(err.starts_with("help export columns: no such"), "{err}");
    }
}
