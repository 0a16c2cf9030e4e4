//! The reference topics of `arbiter help` (and their man pages): `columns`, export's columns
//! with their types and what each holds; `where`, the `--where` language and the fields it
//! reads; `codes`, validate's diagnostic codes. The names, types and severities come from the
//! library's tables, the ones export, `--where` and validate use; the words from `docs/`, built
//! in ([`doc`]), so that neither is a second copy.

use arbiter::core::problem::Code;
use arbiter::report::columns::{Column, ColumnKind};
use arbiter::report::plies::PlyColumns;
use arbiter::report::record::ColumnSet;
use arbiter::select::Type;

use crate::cli::help::doc::{self, Block};

/// arbiter's documentation pages the topics print from.
const EXPORT_FIELDS: &str = include_str!("../../../docs/export-fields.md");
const SELECT: &str = include_str!("../../../docs/select.md");
const DIAGNOSTICS: &str = include_str!("../../../docs/diagnostics.md");

/// A reference topic: its name (`arbiter help NAME`, man page `arbiter-NAME`), what it is in a
/// line, and its text.
pub(crate) struct Topic {
    /// The word after `arbiter help`.
    pub(crate) name: &'static str,
    /// What the topic is, in one line (the man page's NAME).
    pub(crate) summary: &'static str,
    /// The text.
    pub(crate) blocks: fn() -> Vec<Block>,
}

/// Every topic.
pub(crate) const TOPICS: [Topic; 3] = [
    Topic {
        name: "columns",
        summary: "export's columns, their types and what each holds (the fields of --where)",
        blocks: columns,
    },
    Topic {
        name: "where",
        summary: "the --where language of export and select, and the fields it reads",
        blocks: where_language,
    },
    Topic {
        name: "codes",
        summary: "validate's diagnostic codes, their severities and meanings",
        blocks: codes,
    },
];

/// The topic named `name`.
pub(crate) fn find(name: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|topic| topic.name == name)
}

/// What each column added by an option holds, and which option adds it (the page says so in
/// prose, after its table).
const ADDED: [(&str, &str); 4] = [
    (
        "eco_computed",
        "with --eco: the ECO code of the game's opening by position, from the opening table \
         built in (lichess's): the deepest position of the main line, within its first 40 \
         plies, that the table names; --where reads it without --eco",
    ),
    (
        "opening_computed",
        "with --eco: that position's name, e.g. Ruy Lopez; --where reads it without --eco",
    ),
    (
        "movetext",
        "with --movetext: the main line in SAN with move numbers, 1. e4 e5 2. Nf3, as far as it \
         was replayed",
    ),
    (
        "position_ply",
        "with --position FEN: the first ply at which the main line reaches one of the \
         positions (0 for the start)",
    ),
];

fn columns() -> Vec<Block> {
    let (games_page, plies_page) = EXPORT_FIELDS
        .split_once("## One row per ply")
        .unwrap_or((EXPORT_FIELDS, ""));
    let games_page = games_page
        .split_once("## The lichess")
        .map_or(games_page, |(games, _)| games);
    let mut blocks = vec![
        Block::Para(
            "The columns arbiter export writes, in this order, with their types (as Parquet \
             stores them; in CSV every value is text, in JSON and JSON Lines numbers, true or \
             false, and strings) and what each holds. A type \"or null\" may be missing: empty \
             in CSV, null in JSON and Parquet. The same names are the fields of --where, in \
             export and select (arbiter help where)."
                .to_owned(),
        ),
        Block::Para("Game rows (arbiter export):".to_owned()),
    ];
    let fixed = ColumnSet::default().columns(false, &[]);
    let game_meanings = meanings(games_page);
    for column in &fixed {
        blocks.push(item(column, &game_meanings));
    }
    blocks.push(Block::Para(
        "Then, when an option asks for them, in this order:".to_owned(),
    ));
    let every = ColumnSet::Arbiter {
        eco: true,
        movetext: true,
    }
    .columns(true, &[]);
    let added: Vec<(String, String)> = ADDED
        .iter()
        .map(|&(name, meaning)| (name.to_owned(), meaning.to_owned()))
        .collect();
    for column in &every[fixed.len()..] {
        blocks.push(item(column, &added));
    }
    blocks.push(Block::Item(
        format!("{:<18} {}", "TAG", kind_name(ColumnKind::String, false)),
        "with --tags TAG,...: one column per tag, in the order given, empty when a game lacks \
         it"
        .to_owned(),
    ));
    blocks.push(Block::Para(
        "With --columns lichess, the game rows have instead the lichess games dataset's columns, \
         with its names and types, then arbiter's verdict (as above), to union with that \
         dataset and join on Site:"
            .to_owned(),
    ));
    blocks.push(Block::Lines(
        ColumnSet::Lichess
            .columns(false, &[])
            .iter()
            .map(|column| term(column).trim_end().to_owned())
            .collect(),
    ));
    blocks.push(Block::Para(
        "Ply rows (arbiter export --plies), one per main-line ply:".to_owned(),
    ));
    let ply_meanings = meanings(plies_page);
    let plies = PlyColumns {
        fen: true,
        comment: true,
        opening: true,
        position: true,
    }
    .columns(&[]);
    for column in &plies {
        blocks.push(item(column, &ply_meanings));
    }
    blocks
}

fn where_language() -> Vec<Block> {
    let mut blocks = doc::blocks(doc::section(SELECT, "## The expression language"));
    blocks.push(Block::Para(
        "The fields, by the type --where reads them as (position_ply only with --position):"
            .to_owned(),
    ));
    let schema = arbiter::select::record_schema(true);
    for (kind, words) in [
        (&[Type::Int, Type::Float][..], "Numbers"),
        (&[Type::Text][..], "Text"),
        (&[Type::Bool][..], "True or false"),
    ] {
        let names: Vec<&str> = schema
            .names()
            .filter(|name| schema.find(name).is_some_and(|(_, t)| kind.contains(&t)))
            .collect();
        blocks.push(Block::Item(words.to_owned(), names.join(", ")));
    }
    blocks
}

fn codes() -> Vec<Block> {
    let mut blocks = doc::blocks(doc::section(DIAGNOSTICS, "# Diagnostics"));
    blocks.push(Block::Para("The codes:".to_owned()));
    for code in Code::ALL {
        blocks.push(Block::Item(
            format!("{:<31} {}", code.as_str(), code.severity().as_str()),
            code.meaning().to_owned(),
        ));
    }
    blocks
}

/// The meanings of the numbered table rows of a Markdown page, `| N | `name` | type | meaning |
/// example |`, by name, as plain text.
fn meanings(page: &str) -> Vec<(String, String)> {
    page.lines()
        .filter(|line| {
            line.starts_with("| ") && line[2..].starts_with(|c: char| c.is_ascii_digit())
        })
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            Some((
                cells.get(2)?.trim_matches('`').to_owned(),
                doc::inline(cells.get(4)?),
            ))
        })
        .collect()
}

/// A column as a topic's item: its term, and its meaning from `meanings`.
fn item(column: &Column, meanings: &[(String, String)]) -> Block {
    let meaning = meanings
        .iter()
        .find(|(name, _)| *name == column.name)
        .map(|(_, meaning)| meaning.clone())
        .unwrap_or_default();
    Block::Item(term(column), meaning)
}

/// `name  type`, the name padded so that the types line up.
fn term(column: &Column) -> String {
    format!(
        "{:<18} {}",
        column.name,
        kind_name(column.kind, column.nullable)
    )
}

/// A column's type in words, with ` or null` when it may be null.
fn kind_name(kind: ColumnKind, nullable: bool) -> String {
    let name = match kind {
        ColumnKind::String => "string",
        ColumnKind::Int64 => "int64",
        ColumnKind::Int32 => "int32",
        ColumnKind::Int16 => "int16",
        ColumnKind::UInt32 => "uint32",
        ColumnKind::Float64 => "double",
        ColumnKind::Bool => "boolean",
        ColumnKind::Date => "date",
        ColumnKind::Time => "time (microseconds)",
        ColumnKind::TimeMillisUtc => "time (milliseconds, UTC)",
        ColumnKind::Timestamp => "timestamp (milliseconds, UTC)",
        ColumnKind::Int32List => "list of int32",
    };
    if nullable {
        format!("{name} or null")
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_has_its_meaning() {
        let mut items = 0;
        for block in columns() {
            if let Block::Item(term, meaning) = block {
                items += 1;
                assert!(!meaning.is_empty(), "{term} has no meaning");
                assert!(
                    !meaning.contains('`') && !meaning.contains("]("),
                    "{meaning}"
                );
            }
        }
        // Game rows with every option, the tags, ply rows with every option (the game's opening
        // and position_ply included).
        let expected = arbiter::report::record::FIELDS.len()
            + ADDED.len()
            + 1
            + arbiter::report::plies::PLY_FIELDS.len()
            + arbiter::report::record::OPENING_COLUMNS.len()
            + 1;
        assert_eq!(items, expected);
    }

    #[test]
    fn every_code_and_where_field_is_listed() {
        let codes = doc::terminal(&codes());
        for code in Code::ALL {
            let line = format!("  {:<31} {}\n", code.as_str(), code.severity().as_str());
            assert!(codes.contains(&line), "{line}");
        }
        let text = doc::terminal(&where_language());
        assert!(text.contains("expr    := and (\"or\" and)*"), "{text}");
        assert!(
            text.contains("plies, end_ply, white_elo, black_elo"),
            "{text}"
        );
        assert!(!text.contains("export-fields.md"), "{text}");
    }
}
