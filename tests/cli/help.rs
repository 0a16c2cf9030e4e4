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

// See: issue 31 point 6.
#[test]
fn the_help_names_every_export_format() {
    let help = stdout(&arbiter(&["--help"]));
    assert!(help.contains("CSV, JSON, JSON Lines or Parquet"), "{help}");
    let export = stdout(&arbiter(&["export", "--help"]));
    assert!(!export.contains("needs -o FILE"), "{export}");
    assert!(export.contains("or a pipe"), "{export}");
    let man = stdout(&arbiter(&["manpage"]));
    assert!(man.contains("JSON Lines or Parquet"), "{man}");
}

#[test]
fn usage_errors_exit_two() {
    let output = arbiter(&["export", "--format", "xml"]);
    assert_eq!(output.status.code(), Some(2));
    let output = arbiter(&["frobnicate"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(arbiter(&["--version"]).status.code(), Some(0));
}

// See: issue 12, man pages.
#[test]
fn man_pages_per_subcommand_with_exit_status() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().join("man1");
    let target_str = target.to_str().unwrap();
    let output = arbiter(&["manpage", "--dir", target_str]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    let mut names: Vec<String> = std::fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "arbiter-completions.1",
            "arbiter-export.1",
            "arbiter-manpage.1",
            "arbiter-moves.1",
            "arbiter-perft.1",
            "arbiter-select.1",
            "arbiter-validate.1",
            "arbiter.1"
        ]
    );
    for (name, option) in [
        ("arbiter-validate.1", "\\-\\-strict"),
        ("arbiter-export.1", "\\-\\-tags"),
        ("arbiter-moves.1", "\\-\\-notation"),
        ("arbiter-perft.1", "\\-\\-divide"),
        ("arbiter-select.1", "\\-\\-dedup"),
        ("arbiter.1", "validate"),
    ] {
        let page = std::fs::read_to_string(target.join(name)).unwrap();
        assert!(page.contains(option), "{name} lacks {option}:\n{page}");
        assert!(page.contains(".SH \"EXIT STATUS\""), "{name}:\n{page}");
        for code in ["\\fB0\\fR", "\\fB2\\fR"] {
            assert!(page.contains(code), "{name} lacks exit code {code}");
        }
        assert!(page.contains("usage error"), "{name}");
    }
    // See: issue 31 point 6. Each page says what its own statuses mean (perft has no 1), and
    // lists the help's examples under EXAMPLES, one a line.
    let section = |name: &str, title: &str| -> String {
        let page = std::fs::read_to_string(target.join(name)).unwrap();
        let start = page
            .find(&format!(".SH {title}\n"))
            .unwrap_or_else(|| panic!("{name} lacks {title}:\n{page}"));
        let rest = &page[start + 4..];
        rest[..rest.find(".SH").unwrap_or(rest.len())].to_owned()
    };
    for (name, one, words) in [
        ("arbiter-validate.1", true, "--strict"),
        ("arbiter-export.1", true, "valid false"),
        ("arbiter-moves.1", true, "--file"),
        ("arbiter-perft.1", false, "nodes were counted"),
        ("arbiter-select.1", true, "written unchanged"),
        ("arbiter-completions.1", false, "unknown shell"),
    ] {
        let status = section(name, "\"EXIT STATUS\"").replace("\\-", "-");
        assert_eq!(status.contains("\\fB1\\fR"), one, "{name}:\n{status}");
        assert!(status.contains(words), "{name}:\n{status}");
        let page = std::fs::read_to_string(target.join(name)).unwrap();
        assert!(!page.contains("EXTRA"), "{name}");
        let examples = section(name, "EXAMPLES");
        assert!(
            examples.starts_with("EXAMPLES\n.nf\narbiter "),
            "{name}:\n{examples}"
        );
    }
    assert!(!section("arbiter-perft.1", "\"EXIT STATUS\"").contains("FEN is invalid."));
    // Alone, the main page on stdout, with its exit status too.
    let man = stdout(&arbiter(&["manpage"]));
    assert!(man.contains(".SH \"EXIT STATUS\""), "{man}");
    assert_eq!(
        man,
        std::fs::read_to_string(target.join("arbiter.1")).unwrap()
    );
    // A directory that cannot be made is an error naming it.
    let blocked = dir.path().join("file");
    std::fs::write(&blocked, "x").unwrap();
    let blocked = blocked.join("man1");
    let output = arbiter(&["manpage", "--dir", blocked.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        err.starts_with(&format!(
            "arbiter: error: cannot create {}",
            blocked.display()
        )),
        "{err}"
    );
}

/// A usage error's whole message on stderr, with status 2 and nothing on stdout.
fn usage_error(args: &[&str]) -> String {
    let output = arbiter(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?}");
    String::from_utf8(output.stderr).expect("UTF-8")
}

// See: issue 43, point 12.
#[test]
fn a_mistyped_option_gets_the_option_meant() {
    assert_eq!(
        usage_error(&["export", "games.pgn", "--ply"]),
        "error: unexpected argument '--ply' found\n\n  \
         tip: a similar argument exists: '--plies'\n\n\
         Usage: arbiter export <PATHS>...\n\n\
         For more information, try '--help'.\n"
    );
    let json = usage_error(&["validate", "--json", "games.pgn"]);
    assert!(
        json.contains("tip: a similar argument exists: '--format jsonl'\n"),
        "{json}"
    );
    assert!(!json.contains("-- --json"), "{json}");
    let lichess = usage_error(&["export", "games.pgn", "--lichess"]);
    assert!(lichess.contains("'--columns lichess'"), "{lichess}");
}

// See: issue 43, point 12.
#[test]
fn a_bad_number_is_told_in_plain_words() {
    assert_eq!(
        usage_error(&["perft", "startpos", "3"]),
        "error: invalid value 'startpos' for '<DEPTH>': the depth, a whole number of plies, \
         comes first and the position after it: arbiter perft DEPTH [FEN], such as arbiter \
         perft 3 startpos\n\nFor more information, try '--help'.\n"
    );
    for (args, says) in [
        (
            vec!["export", "--jobs", "two"],
            "invalid value 'two' for '--jobs <JOBS>': \"two\" is not a whole number",
        ),
        (
            vec!["validate", "--rulings-budget=-5"],
            "'--rulings-budget <N>': -5 is negative",
        ),
        (
            vec!["moves", "startpos", "--limit", "1e6"],
            "\"1e6\" is not a whole number",
        ),
        (
            vec!["export", "-o", "dir", "--rows-per-file", "0"],
            "'--rows-per-file <N>': must be at least 1",
        ),
    ] {
        let err = usage_error(&args);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("invalid digit"), "{args:?}: {err}");
    }
}

// See: issue 43, point 12.
#[test]
fn a_mistyped_where_field_gets_the_fields_that_contain_it() {
    let path = crate::util::fixture("outcomes/outcomes.pgn");
    for command in ["export", "select"] {
        assert_eq!(
            usage_error(&[command, &path, "--where", "elo > 2500"]),
            "arbiter: error: --where: column 1: unknown field `elo` (did you mean white_elo or \
             black_elo?)\n  elo > 2500\n  ^\n"
        );
    }
}
