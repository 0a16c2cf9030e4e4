//! What arbiter says on stderr, one message a line prefixed `arbiter: `, each line's control
//! characters escaped: the messages of every subcommand go through here.

/// Prints `arbiter: error: MESSAGE` on stderr. A stderr that cannot be written (`2>/dev/full`) is
/// ignored: `eprintln!` would panic there, and the exit code already tells the error.
pub(crate) fn report_error(message: std::fmt::Arguments<'_>) {
    report(format_args!("error: {message}"));
}

/// Prints `arbiter: MESSAGE` on stderr (a stderr that cannot be written is ignored), each line's
/// control characters escaped as standard output escapes them ([`arbiter::core::text::escape_controls`]): a
/// file name holding ESC or BEL cannot act on the terminal.
pub(crate) fn report(message: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let message = message.to_string();
    let lines: Vec<_> = message
        .split('\n')
        .map(arbiter::core::text::escape_controls)
        .collect();
    let _ = writeln!(std::io::stderr().lock(), "arbiter: {}", lines.join("\n"));
}
