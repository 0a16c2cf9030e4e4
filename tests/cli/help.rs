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
        "help",
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
            "arbiter-codes.1",
            "arbiter-columns.1",
            "arbiter-completions.1",
            "arbiter-export.1",
            "arbiter-help.1",
            "arbiter-manpage.1",
            "arbiter-moves.1",
            "arbiter-perft.1",
            "arbiter-select.1",
            "arbiter-validate.1",
            "arbiter-where.1",
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

/// The subcommands, as `arbiter --help` lists them.
const COMMANDS: [&str; 8] = [
    "validate",
    "export",
    "select",
    "moves",
    "perft",
    "completions",
    "manpage",
    "help",
];

// See: issue 43, point 13.
#[test]
fn the_columns_the_where_language_and_the_codes_are_in_the_binary() {
    let columns = arbiter(&["help", "columns"]);
    assert_eq!(columns.status.code(), Some(0));
    let columns = stdout(&columns);
    // Every column of game rows (and their options) and of ply rows, with its type and meaning.
    for (name, kind) in [
        ("index", "int64"),
        ("white_elo", "int32 or null"),
        ("played_on", "date or null"),
        ("year", "int32 or null"),
        ("nags", "list of int32 or null"),
        ("white_clock", "double or null"),
        ("valid", "boolean"),
        ("eco_computed", "string or null"),
        ("position_ply", "int32 or null"),
        ("WhiteElo", "int16 or null"),
        ("eval_cp", "int32 or null"),
    ] {
        assert!(
            columns.contains(&format!("\n  {name:<18} {kind}\n")),
            "{name}: {columns}"
        );
    }
    for name in arbiter::report::record::FIELDS
        .iter()
        .chain(&arbiter::report::plies::PLY_FIELDS)
    {
        assert!(columns.contains(&format!("\n  {name} ")), "{name}");
    }
    assert!(
        columns
            .contains("  white_can_mate     boolean or null\n      whether White can still mate"),
        "{columns}"
    );

    let language = stdout(&arbiter(&["help", "where"]));
    assert!(
        language.contains("  cmp     := \"==\" | \"!=\""),
        "{language}"
    );
    assert!(language.contains("by the names of export's columns (arbiter help columns)"));
    for name in arbiter::select::record_schema(true).names() {
        assert!(language.contains(name), "{name}");
    }

    let codes = stdout(&arbiter(&["help", "codes"]));
    for code in arbiter::core::problem::Code::ALL {
        assert!(
            codes.contains(&format!(
                "\n  {:<31} {}\n      {}",
                code.as_str(),
                code.severity().as_str(),
                code.meaning().split_whitespace().next().unwrap_or_default()
            )),
            "{code}: {codes}"
        );
    }
    assert!(codes.contains("--deny CODE,..."), "{codes}");

    // `arbiter help COMMAND` is `arbiter COMMAND --help`; a mistake names the nearest.
    for command in COMMANDS {
        assert_eq!(
            stdout(&arbiter(&["help", command])),
            stdout(&arbiter(&[command, "--help"])),
            "{command}"
        );
    }
    assert_eq!(stdout(&arbiter(&["help"])), stdout(&arbiter(&["--help"])));
    let wrong = arbiter(&["help", "colums"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        crate::util::stderr(&wrong).starts_with(
            "arbiter: error: help colums: no such command or topic (did you mean columns?); the \
             commands: validate, export, select, moves, perft, completions, manpage, help; the \
             topics: columns, where, codes\n"
        ),
        "{}",
        crate::util::stderr(&wrong)
    );
}

// See: issue 43, point 13.
#[test]
fn help_and_man_pages_send_no_one_to_docs_and_say_each_thing_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = arbiter(&["manpage", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    // The help, short and long, of every subcommand, and the subcommands' pages, cite no page
    // of docs/ (an installed user has none).
    let mut texts: Vec<(String, String)> = Vec::new();
    for command in COMMANDS {
        for flag in ["-h", "--help"] {
            texts.push((
                format!("{command} {flag}"),
                stdout(&arbiter(&[command, flag])),
            ));
        }
        let name = format!("arbiter-{command}.1");
        texts.push((
            name.clone(),
            std::fs::read_to_string(dir.path().join(&name)).unwrap(),
        ));
    }
    texts.push(("--help".into(), stdout(&arbiter(&["--help"]))));
    texts.push((
        "arbiter.1".into(),
        std::fs::read_to_string(dir.path().join("arbiter.1")).unwrap(),
    ));
    for (what, text) in &texts {
        assert!(
            !text.contains("docs/") && !text.contains(".md"),
            "{what}:\n{text}"
        );
    }
    // The long --range text is in --help only.
    let long_range = "where a game surely starts";
    for command in ["validate", "export", "select"] {
        let short = stdout(&arbiter(&[command, "-h"]));
        assert!(short.contains("--range <START:END>"), "{short}");
        assert!(!short.contains(long_range), "{command} -h:\n{short}");
        assert!(stdout(&arbiter(&[command, "--help"])).contains(long_range));
    }
    // DESCRIPTION never repeats NAME, and is there only when it says more; each topic's page
    // holds what `arbiter help TOPIC` prints.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let page = std::fs::read_to_string(&path).unwrap();
        let name = page
            .split(".SH NAME\n")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap_or_else(|| panic!("{}: no NAME", path.display()));
        let about = name.split(" \\- ").nth(1).unwrap_or_default();
        assert!(about.len() > 20, "{name}");
        if let Some(description) = page.split(".SH DESCRIPTION\n").nth(1) {
            let description = description.split(".SH ").next().unwrap_or_default();
            assert!(
                !description.contains(about),
                "{}: {description}",
                path.display()
            );
            assert!(description.len() > 100, "{}: {description}", path.display());
        }
    }
    let columns = std::fs::read_to_string(dir.path().join("arbiter-columns.1")).unwrap();
    assert!(columns.contains(".TH arbiter-columns 1"), "{columns}");
    assert!(
        columns.contains("\\fBwhite_elo          int32 or null\\fR"),
        "{columns}"
    );
    let codes = std::fs::read_to_string(dir.path().join("arbiter-codes.1")).unwrap();
    assert!(codes.contains("result_contradicts_board"), "{codes}");
}
