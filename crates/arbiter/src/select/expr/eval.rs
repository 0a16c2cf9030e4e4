//! Testing a parsed expression on one game. Types were checked when it was parsed, so a
//! comparison here meets numbers with numbers and text with text, or a missing value.

use std::cmp::Ordering;

use super::lex::CmpOp;
use super::parse::{Expr, Literal, Operand};
use super::{Fields, Value};

/// Whether `fields` passes `expr`.
pub fn eval(expr: &Expr, fields: &dyn Fields) -> bool {
    match expr {
        Expr::Or(terms) => terms.iter().any(|term| eval(term, fields)),
        Expr::And(terms) => terms.iter().all(|term| eval(term, fields)),
        Expr::Not(a) => !eval(a, fields),
        Expr::Compare(left, op, right) => compare(value(left, fields), *op, value(right, fields)),
        Expr::In(operand, list) => {
            let v = value(operand, fields);
            list.iter()
                .any(|item| v != Value::Null && compare(v, CmpOp::Eq, literal(item)))
        }
        Expr::Matches(operand, regex) => match value(operand, fields) {
            Value::Text(text) => regex.is_match(text),
            _ => false,
        },
        Expr::Truth(operand) => value(operand, fields) == Value::Bool(true),
    }
}

fn value<'a>(operand: &'a Operand, fields: &'a dyn Fields) -> Value<'a> {
    match operand {
        Operand::Field(index) => fields.value(*index),
        Operand::Tag(name) => fields.tag(name).map_or(Value::Null, Value::Text),
        Operand::Literal(l) => literal(l),
    }
}

fn literal(literal: &Literal) -> Value<'_> {
    match literal {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Int(n) => Value::Int(*n),
        Literal::Float(x) => Value::Float(*x),
        Literal::Text(s) => Value::Text(s),
    }
}

/// `left op right`: a missing value equals only a missing value, and has no order.
fn compare(left: Value<'_>, op: CmpOp, right: Value<'_>) -> bool {
    let order = match (left, right) {
        (Value::Null, Value::Null) => Some(Ordering::Equal),
        (Value::Null, _) | (_, Value::Null) => None,
        (Value::Int(a), Value::Int(b)) => Some(a.cmp(&b)),
        (Value::Int(a), Value::Float(b)) => (a as f64).partial_cmp(&b),
        (Value::Float(a), Value::Int(b)) => a.partial_cmp(&(b as f64)),
        (Value::Float(a), Value::Float(b)) => a.partial_cmp(&b),
        (Value::Text(a), Value::Text(b)) => Some(a.cmp(b)),
        (Value::Bool(a), Value::Bool(b)) => Some(a.cmp(&b)),
        // Mixed types never meet (the parser refused them).
        _ => None,
    };
    match (op, order) {
        (CmpOp::Eq, order) => order == Some(Ordering::Equal),
        (CmpOp::Ne, order) => order != Some(Ordering::Equal),
        (_, None) => false,
        (CmpOp::Lt, Some(o)) => o == Ordering::Less,
        (CmpOp::Le, Some(o)) => o != Ordering::Greater,
        (CmpOp::Gt, Some(o)) => o == Ordering::Greater,
        (CmpOp::Ge, Some(o)) => o != Ordering::Less,
    }
}
