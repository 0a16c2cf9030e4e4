//! Help, completions and the man page come from the clap definitions.

use crate::util::{arbiter, stdout};

#[test]
fn every_subcommand_shows_an_example() {
    for command in [
        "validate",
        "export",
        "moves",
        "perft",
        "completions",
        "manpage",
    ] {
        let output = arbiter(&[command, "--help"]);
        assert_eq!(output.status.code(), Some(0), "{command}");
        let text = stdout(&output);
        assert!(
            text.contains("Example"),
            "{command} --help has no example:\n{text}"
        );
        assert!(text.contains("arbiter "), "{command}");
    }
}

#[test]
fn completions_and_man_page_are_generated() {
    let bash = stdout(&arbiter(&["completions", "bash"]));
    assert!(bash.contains("_arbiter()"));
    for subcommand in ["validate", "export", "moves", "perft"] {
        assert!(
            bash.contains(subcommand),
            "{subcommand} missing from completions"
        );
    }
    let man = stdout(&arbiter(&["manpage"]));
    assert!(man.starts_with(".ie"), "{man}");
    assert!(man.contains(".TH arbiter 1"));
}

#[test]
fn usage_errors_exit_two() {
    let output = arbiter(&["export", "--format", "xml"]);
    assert_eq!(output.status.code(), Some(2));
    let output = arbiter(&["frobnicate"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(arbiter(&["--version"]).status.code(), Some(0));
}
