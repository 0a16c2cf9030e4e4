//! The tokens of a `--where` expression, each with its column (in characters, from 1), so that
//! an error can point at it.

use super::ExprError;

/// A comparison operator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name: a field, a keyword (`and`, `or`, `not`, `in`, `true`, `false`, `null`) or `tag`.
    Name(String),
    /// A quoted string, escapes undone.
    Text(String),
    /// A whole number.
    Int(i64),
    /// A number with a decimal point.
    Float(f64),
    /// A comparison.
    Cmp(CmpOp),
    /// `~`
    Tilde,
    /// `(`
    Open,
    /// `)`
    Close,
    /// `[`
    OpenList,
    /// `]`
    CloseList,
    /// `,`
    Comma,
    /// The end of the expression.
    End,
}

impl Tok {
    /// How the token is named in an error.
    pub fn describe(&self) -> String {
        match self {
            Tok::Name(name) => format!("`{name}`"),
            Tok::Text(text) => format!("{text:?}"),
            Tok::Int(n) => format!("`{n}`"),
            Tok::Float(x) => format!("`{x}`"),
            Tok::Cmp(op) => format!("`{}`", op.as_str()),
            Tok::Tilde => "`~`".into(),
            Tok::Open => "`(`".into(),
            Tok::Close => "`)`".into(),
            Tok::OpenList => "`[`".into(),
            Tok::CloseList => "`]`".into(),
            Tok::Comma => "`,`".into(),
            Tok::End => "the end of the expression".into(),
        }
    }
}

/// A token and its column.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its first character's column, from 1.
    pub column: usize,
}

/// The tokens of `text`, ending with [`Tok::End`].
pub fn lex(text: &str) -> Result<Vec<Token>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let column = at + 1;
        let start = at;
        let tok = match c {
            c if c.is_whitespace() => {
                at += 1;
                continue;
            }
            '(' => Tok::Open,
            ')' => Tok::Close,
            '[' => Tok::OpenList,
            ']' => Tok::CloseList,
            ',' => Tok::Comma,
            '~' => Tok::Tilde,
            '=' | '!' | '<' | '>' => {
                let next = chars.get(at + 1).copied();
                let (op, len) = match (c, next) {
                    ('=', Some('=')) => (CmpOp::Eq, 2),
                    ('!', Some('=')) => (CmpOp::Ne, 2),
                    ('<', Some('=')) => (CmpOp::Le, 2),
                    ('>', Some('=')) => (CmpOp::Ge, 2),
                    ('<', _) => (CmpOp::Lt, 1),
                    ('>', _) => (CmpOp::Gt, 1),
                    ('=', _) => {
                        return Err(ExprError::new(column, "`=` compares nothing: write `==`"));
                    }
                    _ => {
                        return Err(ExprError::new(
                            column,
                            "`!` alone means nothing: write `not` or `!=`",
                        ));
                    }
                };
                at += len;
                tokens.push(Token {
                    tok: Tok::Cmp(op),
                    column,
                });
                continue;
            }
            '"' | '\'' => {
                let (text, end) = string(&chars, at)?;
                at = end;
                tokens.push(Token {
                    tok: Tok::Text(text),
                    column,
                });
                continue;
            }
            c if c.is_ascii_digit()
                || c == '-' && chars.get(at + 1).is_some_and(char::is_ascii_digit) =>
            {
                at += 1;
                while chars
                    .get(at)
                    .is_some_and(|c| c.is_ascii_digit() || *c == '.')
                {
                    at += 1;
                }
                let written: String = chars[start..at].iter().collect();
                let tok = if written.contains('.') {
                    written.parse().ok().map(Tok::Float)
                } else {
                    written.parse().ok().map(Tok::Int)
                };
                let Some(tok) = tok else {
                    return Err(ExprError::new(
                        column,
                        format!("`{written}` is not a number"),
                    ));
                };
                tokens.push(Token { tok, column });
                continue;
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                while chars
                    .get(at)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
                {
                    at += 1;
                }
                tokens.push(Token {
                    tok: Tok::Name(chars[start..at].iter().collect()),
                    column,
                });
                continue;
            }
            other => {
                return Err(ExprError::new(
                    column,
                    format!("unexpected character `{other}`"),
                ));
            }
        };
        at += 1;
        tokens.push(Token { tok, column });
    }
    tokens.push(Token {
        tok: Tok::End,
        column: chars.len() + 1,
    });
    Ok(tokens)
}

/// The string whose opening quote is at `chars[open]`: its text, with `\\` and a backslash
/// before the quote undone (any other backslash stays, so that `"\d+"` is the regular expression
/// `\d+`), and the index after its closing quote.
fn string(chars: &[char], open: usize) -> Result<(String, usize), ExprError> {
    let quote = chars[open];
    let mut text = String::new();
    let mut at = open + 1;
    loop {
        match chars.get(at) {
            None => {
                return Err(ExprError::new(
                    open + 1,
                    format!("the string opened here has no closing {quote}"),
                ));
            }
            Some('\\') if matches!(chars.get(at + 1), Some(&c) if c == quote || c == '\\') => {
                text.push(chars[at + 1]);
                at += 2;
            }
            Some(&c) if c == quote => return Ok((text, at + 1)),
            Some(&c) => {
                text.push(c);
                at += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<(Tok, usize)> {
        lex(text)
            .unwrap()
            .into_iter()
            .map(|t| (t.tok, t.column))
            .collect()
    }

    #[test]
    fn tokens_carry_their_columns() {
        assert_eq!(
            toks("white_elo >= 2500 and speed == \"blitz\""),
            [
                (Tok::Name("white_elo".into()), 1),
                (Tok::Cmp(CmpOp::Ge), 11),
                (Tok::Int(2500), 14),
                (Tok::Name("and".into()), 19),
                (Tok::Name("speed".into()), 23),
                (Tok::Cmp(CmpOp::Eq), 29),
                (Tok::Text("blitz".into()), 32),
                (Tok::End, 39),
            ]
        );
        // Columns count characters, not bytes.
        assert_eq!(
            toks("\"é\"~'a\\'b'[-1,2.5]"),
            [
                (Tok::Text("é".into()), 1),
                (Tok::Tilde, 4),
                (Tok::Text("a'b".into()), 5),
                (Tok::OpenList, 11),
                (Tok::Int(-1), 12),
                (Tok::Comma, 14),
                (Tok::Float(2.5), 15),
                (Tok::CloseList, 18),
                (Tok::End, 19),
            ]
        );
    }

    #[test]
    fn strings_keep_backslashes_other_than_escapes() {
        assert_eq!(
            toks(r#""\d+ \"x\" \\""#)[0].0,
            Tok::Text(r#"\d+ "x" \"#.into())
        );
        assert_eq!(toks("'it''s'")[0].0, Tok::Text("it".into()));
    }

    #[test]
    fn errors_point_at_their_column() {
        let err = |text: &str| lex(text).unwrap_err();
        assert_eq!(err("plies = 3").column, 7);
        assert!(err("plies = 3").message.contains("=="));
        assert_eq!(err("a == \"open").column, 6);
        assert_eq!(err("a == 1.2.3").column, 6);
        assert_eq!(err("a & b").column, 3);
        assert_eq!(err("!valid").column, 1);
    }
}
