//! The `--where` expression language of `select` and `export`: a test over a game's export
//! fields, by the names of export's columns, and over any of its tags.
//!
//! ```text
//! white_elo >= 2500 and speed == "blitz"
//! outcome in ["time_forfeit", "dead_position"]
//! not valid or result_consistent == false
//! tag("WhiteTitle") == "GM" and date >= "2024.01.01"
//! opening ~ "^Sicilian" and plies > 40
//! ```
//!
//! - Fields are export's columns, with their types: numbers (`white_elo`, `plies`,
//!   `white_clock`...), text (`event`, `outcome`, `date`...; `played_on` as `"YYYY-MM-DD"`), and
//!   true or false (`valid`, `result_consistent`). `tag("Name")` is any tag's value, as text.
//! - Values: strings in `"..."` or `'...'` (a backslash escapes the quote and itself; any other
//!   backslash stays, so that `"\d+"` is the regular expression `\d+`), numbers (`2500`, `-1`,
//!   `10.5`), `true`, `false`, `null`.
//! - `==`, `!=`, `<`, `<=`, `>`, `>=` compare numbers with numbers and text with text (text
//!   byte by byte, so dates written `YYYY.MM.DD` compare in time order); `in [..]` is `==` to
//!   one of a list's values; `~` searches text for a regular expression (the `regex` crate's
//!   syntax, unanchored: `^` and `$` anchor it); `and`, `or`, `not` and parentheses combine.
//! - A missing value (a column that is empty or null in export, a tag the game lacks) is `null`:
//!   it equals only `null`, `!=` anything else, and every other test on it is false (`not` of
//!   such a test is true).
//!
//! The expression is checked before any game is read: an unknown field, a type mismatch (a
//! number compared with text), a bad regular expression or a syntax error is an [`ExprError`]
//! that names its column.
//!
//! # Examples
//!
//! ```
//! use arbiter::select::{Fields, Filter, Schema, Type, Value};
//!
//! let schema = Schema::new([("white_elo", Type::Int), ("speed", Type::Text)]);
//! let filter = Filter::parse(r#"white_elo >= 2500 and speed == "blitz""#, &schema)?;
//!
//! struct Game(Option<i64>, &'static str);
//! impl Fields for Game {
//!     fn value(&self, field: usize) -> Value<'_> {
//!         match field {
//!             0 => self.0.map_or(Value::Null, Value::Int),
//!             _ => Value::Text(self.1),
//!         }
//!     }
//!     fn tag(&self, _name: &str) -> Option<&str> {
//!         None
//!     }
//! }
//! assert!(filter.matches(&Game(Some(2600), "blitz")));
//! assert!(!filter.matches(&Game(None, "blitz")));
//!
//! let err = Filter::parse("white_elo >= \"2500\"", &schema).unwrap_err();
//! assert_eq!(err.to_string(), "column 14: white_elo is a number, but \"2500\" is text");
//! # Ok::<(), arbiter::select::ExprError>(())
//! ```

mod eval;
mod lex;
mod parse;

use std::fmt;

use arbiter_core::text::{or_list, similar};
use parse::{Expr, Parser};

/// The type of a field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// True or false.
    Bool,
    /// A whole number.
    Int,
    /// A number with a fraction (clocks in seconds).
    Float,
    /// Text.
    Text,
}

/// A field's value in one game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// Missing.
    Null,
    /// True or false.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// Text.
    Text(&'a str),
}

/// The fields an expression may name, in order, with their types.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    fields: Vec<(String, Type)>,
}

impl Schema {
    /// The fields `fields`, numbered from 0 in this order.
    pub fn new<S: Into<String>>(fields: impl IntoIterator<Item = (S, Type)>) -> Schema {
        Schema {
            fields: fields.into_iter().map(|(n, t)| (n.into(), t)).collect(),
        }
    }

    /// The field named `name`: its number and type.
    pub fn find(&self, name: &str) -> Option<(usize, Type)> {
        self.fields
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| (i, self.fields[i].1))
    }

    /// The field names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.fields.iter().map(|(n, _)| n.as_str())
    }

    /// ` (did you mean NAME?)` for the field names closest to `name` ([`similar`]: `elo` gives
    /// `white_elo or black_elo`), when one is close enough; else a word on tags for a name
    /// written as a tag's.
    fn suggest(&self, name: &str) -> String {
        let near = similar(name, self.names());
        if !near.is_empty() {
            format!(" (did you mean {}?)", or_list(&near))
        } else if name.chars().next().is_some_and(char::is_uppercase) {
            format!(" (a tag? write tag(\"{name}\"))")
        } else {
            String::new()
        }
    }
}

/// What an expression is tested on: one game's fields, by their number in the [`Schema`] the
/// expression was parsed with, and its tags.
pub trait Fields {
    /// The value of field `field`.
    fn value(&self, field: usize) -> Value<'_>;
    /// The value of the tag `name`, if the game has it.
    fn tag(&self, name: &str) -> Option<&str>;
}

/// A parsed `--where` expression.
#[derive(Debug)]
pub struct Filter {
    expr: Expr,
    tags: Vec<String>,
    fields: Vec<usize>,
}

impl Filter {
    /// Parses and checks `text` over the fields of `schema`.
    ///
    /// # Errors
    ///
    /// An [`ExprError`] naming the column of the first thing wrong.
    pub fn parse(text: &str, schema: &Schema) -> Result<Filter, ExprError> {
        let tokens = lex::lex(text)?;
        let mut parser = Parser::new(&tokens, schema);
        let expr = parser.expression()?;
        Ok(Filter {
            expr,
            tags: parser.tags,
            fields: parser.fields,
        })
    }

    /// Whether the game `fields` passes.
    pub fn matches(&self, fields: &dyn Fields) -> bool {
        eval::eval(&self.expr, fields)
    }

    /// The tags the expression reads, in order of first use (a reader must keep them).
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// Whether the expression reads the field numbered `field`.
    pub fn reads(&self, field: usize) -> bool {
        self.fields.contains(&field)
    }

    /// The fields the expression reads, by number (each once).
    pub fn fields(&self) -> &[usize] {
        &self.fields
    }
}

/// A `--where` expression that cannot be used, and where it goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// The column (in characters, from 1) of what is wrong.
    pub column: usize,
    /// What is wrong, in plain words.
    pub message: String,
}

impl ExprError {
    fn new(column: usize, message: impl Into<String>) -> ExprError {
        ExprError {
            column,
            message: message.into(),
        }
    }

    /// The expression on one line and a caret under the column on the next, each indented by
    /// two spaces.
    pub fn show(&self, expression: &str) -> String {
        let line: String = expression
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        format!("  {line}\n  {}^", " ".repeat(self.column.saturating_sub(1)))
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ExprError {}

#[cfg(test)]
mod tests;
