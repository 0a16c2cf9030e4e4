//! The grammar of a `--where` expression, one function per rule, each checking the types of
//! what it reads, so that a wrong expression is refused before any game is read:
//!
//! ```text
//! or      := and ("or" and)*
//! and     := not ("and" not)*
//! not     := "not" not | test
//! test    := "(" or ")" | operand [ cmp operand | "in" list | "~" string ]
//! operand := field | "tag" "(" string ")" | literal
//! list    := "[" [ literal ("," literal)* [","] ] "]"
//! literal := string | number | "true" | "false" | "null"
//! cmp     := "==" | "!=" | "<" | "<=" | ">" | ">="
//! ```

use regex::Regex;

use super::lex::{CmpOp, Tok, Token};
use super::{ExprError, Schema, Type};

/// How deep parentheses and `not`s may nest (deeper is refused, not a stack overflow).
const MAX_DEPTH: usize = 200;

/// A parsed expression.
#[derive(Debug)]
pub enum Expr {
    /// `a or b or ...`: a chain is one node, however long, so that neither evaluating nor
    /// dropping it recurses per term (only nesting does, and it is capped at [`MAX_DEPTH`]).
    Or(Vec<Expr>),
    /// `a and b and ...`, one node likewise.
    And(Vec<Expr>),
    /// `not a`
    Not(Box<Expr>),
    /// `a < b`...
    Compare(Operand, CmpOp, Operand),
    /// `a in [...]`
    In(Operand, Vec<Literal>),
    /// `a ~ "regex"`
    Matches(Operand, Regex),
    /// A true-or-false operand on its own: `valid`.
    Truth(Operand),
}

/// A value in an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A field, by its place in the schema.
    Field(usize),
    /// `tag("Name")`: the tag's value, null when the game has no such tag.
    Tag(String),
    /// A constant.
    Literal(Literal),
}

/// A constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number with a decimal point.
    Float(f64),
    /// A string.
    Text(String),
}

impl Literal {
    fn kind(&self) -> Option<Type> {
        match self {
            Literal::Null => None,
            Literal::Bool(_) => Some(Type::Bool),
            Literal::Int(_) => Some(Type::Int),
            Literal::Float(_) => Some(Type::Float),
            Literal::Text(_) => Some(Type::Text),
        }
    }
}

/// `terms` joined by `join` (`Expr::Or` or `Expr::And`), or the one term alone.
fn chain(mut terms: Vec<Expr>, join: fn(Vec<Expr>) -> Expr) -> Expr {
    if terms.len() == 1 {
        terms.pop().expect("one term")
    } else {
        join(terms)
    }
}

/// An operand as read: what it is, its type (`None` for `null`), its column and how to name it.
struct Read {
    operand: Operand,
    kind: Option<Type>,
    column: usize,
    name: String,
}

/// The parser's state: the tokens and where it stands.
pub struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    schema: &'a Schema,
    depth: usize,
    /// The tags the expression reads, in order of first use.
    pub tags: Vec<String>,
    /// The fields it reads, by their place in the schema.
    pub fields: Vec<usize>,
}

impl<'a> Parser<'a> {
    /// A parser of `tokens` (ending with [`Tok::End`]) over the fields of `schema`.
    pub fn new(tokens: &'a [Token], schema: &'a Schema) -> Parser<'a> {
        Parser {
            tokens,
            at: 0,
            schema,
            depth: 0,
            tags: Vec::new(),
            fields: Vec::new(),
        }
    }

    /// The whole expression.
    pub fn expression(&mut self) -> Result<Expr, ExprError> {
        let expr = self.or()?;
        let next = self.peek();
        if next.tok != Tok::End {
            return Err(ExprError::new(
                next.column,
                format!(
                    "expected `and`, `or` or the end of the expression, found {}",
                    next.tok.describe()
                ),
            ));
        }
        Ok(expr)
    }

    fn peek(&self) -> &Token {
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }

    fn next(&mut self) -> Token {
        let token = self.peek().clone();
        if self.at < self.tokens.len() - 1 {
            self.at += 1;
        }
        token
    }

    /// Whether the next token is the keyword `word`.
    fn keyword(&self, word: &str) -> bool {
        matches!(&self.peek().tok, Tok::Name(name) if name == word)
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<Token, ExprError> {
        let token = self.next();
        if token.tok == tok {
            Ok(token)
        } else {
            Err(ExprError::new(
                token.column,
                format!("expected {what}, found {}", token.tok.describe()),
            ))
        }
    }

    fn nest(&mut self, column: usize) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError::new(
                column,
                format!("the expression nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Expr, ExprError> {
        let mut terms = vec![self.and()?];
        while self.keyword("or") {
            self.next();
            terms.push(self.and()?);
        }
        Ok(chain(terms, Expr::Or))
    }

    fn and(&mut self) -> Result<Expr, ExprError> {
        let mut terms = vec![self.not()?];
        while self.keyword("and") {
            self.next();
            terms.push(self.not()?);
        }
        Ok(chain(terms, Expr::And))
    }

    fn not(&mut self) -> Result<Expr, ExprError> {
        if self.keyword("not") {
            let column = self.next().column;
            self.nest(column)?;
            let inner = self.not()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        self.test()
    }

    fn test(&mut self) -> Result<Expr, ExprError> {
        // A parenthesised expression, unless it is an operand of a comparison.
        if self.peek().tok == Tok::Open {
            let column = self.next().column;
            self.nest(column)?;
            let inner = self.or()?;
            self.depth -= 1;
            self.expect(Tok::Close, "`)`")?;
            return Ok(inner);
        }
        let left = self.operand()?;
        let next = self.peek().clone();
        match next.tok {
            Tok::Cmp(op) => {
                self.next();
                let right = self.operand()?;
                compare_types(&left, op, &right)?;
                Ok(Expr::Compare(left.operand, op, right.operand))
            }
            Tok::Name(ref word) if word == "in" => {
                self.next();
                let list = self.list(&left)?;
                Ok(Expr::In(left.operand, list))
            }
            Tok::Tilde => {
                self.next();
                let pattern = self.next();
                let Tok::Text(text) = pattern.tok else {
                    return Err(ExprError::new(
                        pattern.column,
                        format!(
                            "`~` takes a regular expression in quotes, found {}",
                            pattern.tok.describe()
                        ),
                    ));
                };
                if left.kind.is_some_and(|k| k != Type::Text) {
                    return Err(ExprError::new(
                        left.column,
                        format!(
                            "{} is {}, not text: `~` matches text",
                            left.name,
                            kind_name(left.kind)
                        ),
                    ));
                }
                let regex = Regex::new(&text).map_err(|err| {
                    let reason = err.to_string();
                    let reason = reason.lines().last().unwrap_or_default().trim().to_owned();
                    ExprError::new(
                        pattern.column,
                        format!(
                            "not a regular expression: {}",
                            reason.trim_start_matches("error: ")
                        ),
                    )
                })?;
                Ok(Expr::Matches(left.operand, regex))
            }
            _ if left.kind == Some(Type::Bool) => Ok(Expr::Truth(left.operand)),
            _ => Err(ExprError::new(
                left.column,
                format!(
                    "{} is {}, not true or false: compare it (e.g. `{} == ...`)",
                    left.name,
                    kind_name(left.kind),
                    left.name
                ),
            )),
        }
    }

    fn operand(&mut self) -> Result<Read, ExprError> {
        let token = self.next();
        let column = token.column;
        let literal = |literal: Literal, name: String| {
            Ok(Read {
                kind: literal.kind(),
                operand: Operand::Literal(literal),
                column,
                name,
            })
        };
        match token.tok {
            Tok::Text(text) => literal(Literal::Text(text.clone()), format!("{text:?}")),
            Tok::Int(n) => literal(Literal::Int(n), n.to_string()),
            Tok::Float(x) => literal(Literal::Float(x), x.to_string()),
            Tok::Name(name) => match name.as_str() {
                "true" => literal(Literal::Bool(true), name),
                "false" => literal(Literal::Bool(false), name),
                "null" => literal(Literal::Null, name),
                "tag" if self.peek().tok == Tok::Open => {
                    self.next();
                    let arg = self.next();
                    let Tok::Text(tag) = arg.tok else {
                        return Err(ExprError::new(
                            arg.column,
                            format!(
                                "tag( takes a tag name in quotes, e.g. tag(\"WhiteTitle\"); found {}",
                                arg.tok.describe()
                            ),
                        ));
                    };
                    self.expect(Tok::Close, "`)` after the tag name")?;
                    if !self.tags.contains(&tag) {
                        self.tags.push(tag.clone());
                    }
                    Ok(Read {
                        operand: Operand::Tag(tag.clone()),
                        kind: Some(Type::Text),
                        column,
                        name: format!("tag({tag:?})"),
                    })
                }
                "and" | "or" | "not" | "in" => Err(ExprError::new(
                    column,
                    format!("expected a field or a value, found `{name}`"),
                )),
                _ => match self.schema.find(&name) {
                    Some((index, kind)) => {
                        if !self.fields.contains(&index) {
                            self.fields.push(index);
                        }
                        Ok(Read {
                            operand: Operand::Field(index),
                            kind: Some(kind),
                            column,
                            name,
                        })
                    }
                    None => Err(ExprError::new(
                        column,
                        format!("unknown field `{name}`{}", self.schema.suggest(&name)),
                    )),
                },
            },
            other => Err(ExprError::new(
                column,
                format!("expected a field or a value, found {}", other.describe()),
            )),
        }
    }

    fn list(&mut self, left: &Read) -> Result<Vec<Literal>, ExprError> {
        self.expect(Tok::OpenList, "`[` to open the list")?;
        let mut items = Vec::new();
        loop {
            if self.peek().tok == Tok::CloseList {
                self.next();
                return Ok(items);
            }
            let item = self.operand()?;
            let Operand::Literal(literal) = item.operand.clone() else {
                return Err(ExprError::new(
                    item.column,
                    format!("a list holds values, not {}", item.name),
                ));
            };
            compare_types(left, CmpOp::Eq, &item)?;
            items.push(literal);
            let next = self.next();
            match next.tok {
                Tok::Comma => {}
                Tok::CloseList => return Ok(items),
                other => {
                    return Err(ExprError::new(
                        next.column,
                        format!("expected `,` or `]`, found {}", other.describe()),
                    ));
                }
            }
        }
    }
}

/// How a type is named in an error.
fn kind_name(kind: Option<Type>) -> &'static str {
    match kind {
        None => "null",
        Some(Type::Bool) => "true or false",
        Some(Type::Int | Type::Float) => "a number",
        Some(Type::Text) => "text",
    }
}

/// Whether `left op right` can be compared; else the error, at `right`.
fn compare_types(left: &Read, op: CmpOp, right: &Read) -> Result<(), ExprError> {
    let numeric = |k: Type| matches!(k, Type::Int | Type::Float);
    let (Some(l), Some(r)) = (left.kind, right.kind) else {
        // null compares with anything, by == and != only.
        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
            return Ok(());
        }
        let at = if left.kind.is_none() { left } else { right };
        return Err(ExprError::new(
            at.column,
            format!(
                "null has no order: `{}` compares numbers and text; compare null with == or !=",
                op.as_str()
            ),
        ));
    };
    if l == r || numeric(l) && numeric(r) {
        if l == Type::Bool && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
            return Err(ExprError::new(
                right.column,
                format!(
                    "true and false have no order: `{}` compares numbers and text",
                    op.as_str()
                ),
            ));
        }
        return Ok(());
    }
    Err(ExprError::new(
        right.column,
        format!(
            "{} is {}, but {} is {}",
            left.name,
            kind_name(Some(l)),
            right.name,
            kind_name(Some(r))
        ),
    ))
}
