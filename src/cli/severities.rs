//! `--strict`, `--deny CODE,...` and `--allow CODE,...`: which diagnostic codes count as errors in
//! a run, the same options in `validate` and `export`, so that a game is `valid` in export exactly
//! when validate reports no error for it (see [`Severities`]).
//!
//! A denied warning is an error like any other: it makes its game invalid (status 1, `valid`
//! false and the `error` field in export). An allowed warning is not reported at all. Only
//! warnings can be allowed: an error means the game could not be read or replayed as written,
//! and a run that hid it would call the game valid. A code both denied and allowed, an unknown
//! code (the nearest are named) and `problems_not_listed` (a note on the listing, not a problem)
//! are usage errors. `arbiter help codes` lists the codes.

use anyhow::bail;
use clap::Args;

use arbiter::core::problem::{Code, Severities, Severity};

/// The options that change the codes' severities.
#[derive(Args, Debug, Default)]
pub(crate) struct SeverityArgs {
    /// Treat every warning (non-standard SAN, wrong check marks, move numbers...) as an error.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Treat these warnings as errors: a game with one is invalid (exit status 1; valid false in
    /// export), e.g. `--deny result_contradicts_board,clock_rise` (`arbiter help codes` lists the
    /// codes).
    #[arg(long, value_name = "CODE,...", value_delimiter = ',', value_parser = code)]
    pub(crate) deny: Vec<Code>,
    /// Do not report these warnings at all, neither listed nor counted, e.g. `--allow
    /// not_utf8,wrong_check_mark` (with --strict: every other warning is an error). Errors
    /// cannot be allowed.
    #[arg(long, value_name = "CODE,...", value_delimiter = ',', value_parser = warning)]
    pub(crate) allow: Vec<Code>,
}

impl SeverityArgs {
    /// The severities the options ask for; a code both denied and allowed is a usage error.
    pub(crate) fn severities(&self) -> anyhow::Result<Severities> {
        if let Some(both) = self.deny.iter().find(|code| self.allow.contains(code)) {
            bail!("--deny and --allow both name {both}: say which it is to be");
        }
        let mut severities = if self.strict {
            Severities::strict()
        } else {
            Severities::default()
        };
        for &code in &self.deny {
            severities.deny(code);
        }
        for &code in &self.allow {
            severities.allow(code);
        }
        Ok(severities)
    }
}

/// A code named on the command line: one of [`Code::ALL`], not `problems_not_listed`.
fn code(name: &str) -> Result<Code, String> {
    let name = name.trim();
    let Some(code) = Code::from_name(name) else {
        let names = Code::ALL.map(Code::as_str);
        let near = arbiter::core::text::similar(name, names);
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", arbiter::core::text::or_list(&near))
        };
        return Err(format!(
            "unknown code `{name}`{hint}; `arbiter help codes` lists them"
        ));
    };
    if code == Code::ProblemsNotListed {
        return Err(
            "problems_not_listed is a note on how many problems a game's list leaves out, not a \
             problem: it can be neither denied nor allowed"
                .to_owned(),
        );
    }
    Ok(code)
}

/// A warning's code named on the command line ([`code`]); an error's is refused.
fn warning(name: &str) -> Result<Code, String> {
    let code = code(name)?;
    if code.severity() == Severity::Error {
        return Err(format!(
            "{code} is an error, and only warnings can be allowed: a game with an error could \
             not be read or replayed as written"
        ));
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_checked_with_the_nearest_named() {
        assert_eq!(code("not_utf8"), Ok(Code::from_name("not_utf8").unwrap()));
        assert_eq!(
            code("result_contradict"),
            Err(
                "unknown code `result_contradict` (did you mean result_contradicts_board?); \
                 `arbiter help codes` lists them"
                    .to_owned()
            )
        );
        assert!(code("problems_not_listed").is_err());
        assert!(
            warning("illegal_move")
                .unwrap_err()
                .starts_with("illegal_move is an error")
        );
        assert_eq!(warning("wrong_check_mark"), Ok(Code::WrongCheckMark));
    }

    #[test]
    fn a_code_denied_and_allowed_is_refused() {
        let args = SeverityArgs {
            strict: true,
            deny: vec![Code::WrongCheckMark, Code::ClockRise],
            allow: vec![Code::ClockRise],
        };
        let err = args.severities().unwrap_err().to_string();
        assert_eq!(
            err,
            "--deny and --allow both name clock_rise: say which it is to be"
        );
        let args = SeverityArgs {
            strict: true,
            deny: Vec::new(),
            allow: vec![Code::ClockRise],
        };
        let severities = args.severities().unwrap();
        assert_eq!(severities.of(Code::ClockRise), None);
        assert_eq!(severities.of(Code::WrongCheckMark), Some(Severity::Error));
    }
}
