//! The README and `docs/` stand alone: no reference outside the repository, the commands users
//! start with, and the export fields in order.

use arbiter::Outcome;

use crate::util::{arbiter, fixture, stdout};

fn read(relative: &str) -> String {
    let path = crate::shared_data::workspace_root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The README and every page under `docs/`.
fn pages() -> Vec<String> {
    let docs = crate::shared_data::workspace_root().join("docs");
    let mut pages = vec!["README.md".to_owned()];
    for entry in std::fs::read_dir(&docs).expect("docs/") {
        let name = entry.expect("a docs/ entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    pages.sort();
    assert!(pages.len() > 8, "{pages:?}");
    pages
}

// See: issue 12, docs that stand alone.
#[test]
fn pages_point_at_nothing_outside_the_repository() {
    for page in pages() {
        let page = page.as_str();
        let text = read(page);
        for outside in ["../shared", "shared/docs", "DESIGN.md", "STYLE.md"] {
            assert!(!text.contains(outside), "{page} mentions {outside}");
        }
        // Every relative link resolves inside the repository.
        for link in text.split("](").skip(1) {
            let target = link.split(')').next().unwrap_or("");
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let base = crate::shared_data::workspace_root().join(page);
            let path = base.parent().unwrap().join(target);
            assert!(path.exists(), "{page}: broken link {target}");
        }
    }
}

#[test]
fn readme_starts_with_what_and_how_to_install() {
    let readme = read("README.md");
    let usage = readme.find("## Usage").expect("a usage section");
    for must in [
        "cargo install --locked --path .",
        "cargo run --profile ci -- validate testdata/outcomes",
        "cargo test --profile ci",
    ] {
        let at = readme
            .find(must)
            .unwrap_or_else(|| panic!("README lacks {must}"));
        assert!(at < usage, "{must} comes after the usage");
    }
    // See: issue 43, point 14: the first command and the test command build with one profile,
    // so that the second reuses the first's build, and completions have a directory to go to.
    let profile = |command: &str| {
        let line = readme
            .lines()
            .find(|line| line.starts_with(command))
            .unwrap_or_else(|| panic!("README lacks a line starting {command}"));
        line.split_whitespace()
            .skip_while(|word| *word != "--profile")
            .nth(1)
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("{line}: no --profile"))
    };
    assert_eq!(profile("cargo run "), profile("cargo test "));
    let completions = readme
        .find("arbiter completions bash >")
        .expect("completions");
    let mkdir = readme
        .find("mkdir -p ~/.local/share/bash-completion/completions")
        .expect("mkdir before completions");
    assert!(mkdir < completions);
    for section in [
        "### validate",
        "### export",
        "### moves",
        "### perft",
        "--chess960",
        "--notation",
        "--format json",
        "manpage --dir",
        "*.pgn.xz",
    ] {
        assert!(readme.contains(section), "README lacks {section}");
    }
}

/// The field names of the numbered rows of the Markdown tables in `text`.
fn numbered_fields(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("| ") && l.chars().nth(2).is_some_and(|c| c.is_ascii_digit()))
        .map(|l| {
            l.split('|')
                .nth(2)
                .unwrap()
                .trim()
                .trim_matches('`')
                .to_owned()
        })
        .collect()
}

#[test]
fn export_fields_page_lists_every_field_in_order() {
    let page = read("docs/export-fields.md");
    let (games, plies) = page
        .split_once("## One row per ply")
        .expect("a section on ply rows");
    assert_eq!(numbered_fields(games), arbiter::report::record::FIELDS);
    // The header export writes, game rows and ply rows with every optional column.
    let header = |args: &[&str]| {
        let mut all = vec!["export", "--format", "csv"];
        all.extend_from_slice(args);
        let fixtures = fixture("outcomes");
        all.push(&fixtures);
        let out = arbiter(&all);
        stdout(&out).lines().next().unwrap_or_default().to_owned()
    };
    assert_eq!(header(&[]), numbered_fields(games).join(","));
    let start = arbiter::rules::STARTING_FEN;
    assert_eq!(
        header(&[
            "--plies",
            "--fen",
            "--comments",
            "--eco",
            "--position",
            start
        ]),
        numbered_fields(plies).join(",")
    );
    assert_eq!(
        header(&["--movetext"]),
        numbered_fields(games).join(",") + ",movetext"
    );
    // The lichess dataset's columns: the table's first column, in order.
    let (_, lichess) = games
        .split_once("## The lichess dataset's columns")
        .expect("a section on --columns lichess");
    let names: Vec<String> = lichess
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split('`').nth(1).unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names, arbiter::report::record::LICHESS_FIELDS);
    assert_eq!(header(&["--columns", "lichess"]), names.join(","));
}

#[test]
fn outcomes_and_exit_codes_pages_cover_every_case() {
    let outcomes = read("docs/outcomes.md");
    for outcome in Outcome::ALL.map(Outcome::as_str) {
        assert!(outcomes.contains(&format!("| `{outcome}` |")), "{outcome}");
    }
    let exit = read("docs/exit-codes.md");
    for code in ["| `0` |", "| `1` |", "| `2` |"] {
        assert!(exit.contains(code), "{code}");
    }
    let diagnostics = read("docs/diagnostics.md");
    assert!(diagnostics.contains("| code | severity | meaning |"));
    for code in ["illegal_move", "move_after_end", "result_contradicts_board"] {
        assert!(diagnostics.contains(&format!("| `{code}` |")), "{code}");
    }
}

// See: issue 12, every diagnostic code documented.
#[test]
fn the_diagnostics_page_lists_every_code_with_its_severity() {
    use arbiter::core::problem::Code;
    let page = read("docs/diagnostics.md");
    let mut documented: Vec<(String, String)> = page
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let code = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((code.to_owned(), cells.get(2)?.to_string()))
        })
        .collect();
    let mut codes: Vec<(String, String)> = Code::ALL
        .iter()
        .map(|c| (c.as_str().to_owned(), c.severity().as_str().to_owned()))
        .collect();
    documented.sort();
    codes.sort();
    assert_eq!(documented, codes);
}
