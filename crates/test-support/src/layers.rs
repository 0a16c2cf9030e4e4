//! The layering of a crate's modules, checked from its sources: each module may use only the
//! modules under it, and names a thing by the module that defines it, never through the crate
//! root's re-exports (those serve the crate's users). Each crate of the workspace lists its
//! modules bottom up and asks [`violations`] in a unit test.
//!
//! Every path into the crate counts, wherever it stands in the code (a `use`, a group
//! `crate::{a::X, b::{Y, Z}}`, a path in an expression), and so does a `super::` that climbs to
//! the root. Comments and the unit tests at the bottom of a file (`#[cfg(test)] mod ...`, or any
//! `cfg` that names `test`) are
//! left out: a doc link may point anywhere, and a test may use what it tests from above.

use std::path::{Path, PathBuf};

/// What is wrong in the sources under `src` (a crate's `src/`, whose `lib.rs` declares the
/// modules), given `layers`, the crate's modules bottom up, one line per defect: a module that
/// uses one above it, a path through the crate root to something that is not a module, a module
/// the root declares that `layers` leaves out, or one `layers` lists that has no file.
pub fn violations(src: &Path, layers: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let root = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    for declared in declared_modules(&code(&root)) {
        if !layers.contains(&declared.as_str()) {
            found.push(format!(
                "lib.rs declares `{declared}`, which the layers leave out"
            ));
        }
    }
    for (at, module) in layers.iter().enumerate() {
        let files = module_files(src, module);
        if files.is_empty() {
            found.push(format!("no file for the module `{module}`"));
        }
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let depth = depth(src, &file);
            for used in paths_into_crate(&code(&text), depth) {
                let shown = file.strip_prefix(src).unwrap_or(&file).display();
                match layers.iter().position(|m| *m == used) {
                    Some(below) if below <= at => {}
                    Some(_) => found.push(format!(
                        "{shown} uses crate::{used}, which is not under {module}"
                    )),
                    None => found.push(format!(
                        "{shown} uses crate::{used} through the crate root; name the module \
                         that defines it"
                    )),
                }
            }
        }
    }
    found
}

/// The code of a file: not its comments, not its unit tests at the bottom (from the first module
/// whose `#[cfg(...)]` names `test`).
fn code(text: &str) -> String {
    let mut end = text.len();
    for (at, _) in text.match_indices("\n#[cfg(") {
        let attribute = &text[at..];
        let Some(close) = attribute.find(")]\n") else {
            continue;
        };
        let names_test = attribute[..close]
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| word == "test");
        if names_test && attribute[close + 3..].trim_start().starts_with("mod ") {
            end = at;
            break;
        }
    }
    text[..end]
        .lines()
        .map(|line| match line.find("//") {
            Some(at) if !in_string(&line[..at]) => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether the end of `prefix` is inside a string literal (an odd number of unescaped quotes).
fn in_string(prefix: &str) -> bool {
    let mut inside = false;
    let mut escaped = false;
    for c in prefix.chars() {
        match c {
            '\\' if inside => escaped = !escaped,
            '"' if !escaped => inside = !inside,
            _ => escaped = false,
        }
    }
    inside
}

/// The modules a crate root declares (`mod x;`, `pub mod x;`, with attributes before).
fn declared_modules(root: &str) -> Vec<String> {
    root.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("pub ").unwrap_or(line);
            line.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_owned)
        })
        .collect()
}

/// The files of `module`: `src/module.rs` and every `.rs` file under `src/module/`.
fn module_files(src: &Path, module: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let file = src.join(format!("{module}.rs"));
    if file.is_file() {
        found.push(file);
    }
    let mut dirs = vec![src.join(module)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// How many modules deep `file`'s own module is under the root: 1 for `src/a.rs` and
/// `src/a/mod.rs`, 2 for `src/a/b.rs`.
fn depth(src: &Path, file: &Path) -> usize {
    let relative = file.strip_prefix(src).unwrap_or(file);
    let parts = relative.components().count();
    if relative.file_name().is_some_and(|name| name == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

/// The first names of every path into the crate in `code`, a file `depth` modules deep: after
/// `crate::`, and after as many `super::` as climb to the root. A group counts each of its
/// first names; a name that is not a plain lowercase module name (`Games`, `run`...) counts as
/// it is, and is then no module.
fn paths_into_crate(code: &str, depth: usize) -> Vec<String> {
    let climb = "super::".repeat(depth);
    let mut names = Vec::new();
    for prefix in ["crate::", climb.as_str()] {
        if prefix.is_empty() {
            continue;
        }
        for (i, _) in code.match_indices(prefix) {
            // `super::super::` is also the tail of a longer climb, and `crate::` of `$crate::`.
            let before = &code[..i];
            if before.ends_with("super::") || before.ends_with('$') || before.ends_with("::") {
                continue;
            }
            let rest = &code[i + prefix.len()..];
            if rest.starts_with("super::") {
                continue;
            }
            names.extend(first_names(rest));
        }
    }
    names.retain(|name| !name.is_empty() && name != "self");
    names
}

/// The first name of the path `rest` starts with, or of each member of the group it starts with.
fn first_names(rest: &str) -> Vec<String> {
    let name = |text: &str| {
        let text = text.trim_start();
        let end = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        text[..end].to_owned()
    };
    let Some(group) = rest.strip_prefix('{') else {
        return vec![name(rest)];
    };
    let mut names = Vec::new();
    let mut depth = 1;
    let mut start = 0;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => {
                names.push(name(&group[start..at]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 1 => {
                names.push(name(&group[start..at]));
                start = at + 1;
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate's `src/` made of `files` (path, text) in a scratch directory.
    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("a scratch directory");
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("its directory");
            std::fs::write(path, text).expect("a source file");
        }
        dir
    }

    const ROOT: &str = "pub mod low;\nmod high;\npub use high::Games;\n";

    #[test]
    fn a_tree_that_keeps_its_layers_passes() {
        let dir = tree(&[
            ("lib.rs", ROOT),
            ("low.rs", "pub struct Key;\n"),
            (
                "high/mod.rs",
                "mod part;\nuse crate::low::Key;\nuse super::low;\npub struct Games(Key);\n",
            ),
            (
                "high/part.rs",
                "use super::Games;\nuse super::super::low::Key;\n",
            ),
        ]);
        assert_eq!(
            violations(dir.path(), &["low", "high"]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_module_that_uses_one_above_it_fails() {
        let dir = tree(&[
            ("lib.rs", ROOT),
            ("low.rs", "use crate::high::Games;\n"),
            ("high.rs", "pub struct Games;\n"),
        ]);
        assert_eq!(
            violations(dir.path(), &["low", "high"]),
            ["low.rs uses crate::high, which is not under low"]
        );
    }

    #[test]
    fn every_way_up_is_seen() {
        // A group, a nested group, a path in an expression, and a climb to the root with
        // `super::`, each from a file deeper in the module.
        let low = "use crate::{low::Key, high::{Games, Other}};\n\
                   fn f() { let _ = crate::high::Games::new(); }\n";
        let dir = tree(&[
            ("lib.rs", ROOT),
            ("low/mod.rs", "mod deep;\n"),
            ("low/deep.rs", low),
            ("low/other.rs", "use super::super::high::Games;\n"),
            ("high.rs", "pub struct Games;\n"),
        ]);
        let found = violations(dir.path(), &["low", "high"]);
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(
            found
                .iter()
                .all(|f| f.contains("crate::high, which is not under low"))
        );
    }

    #[test]
    fn a_name_through_the_root_fails_whatever_its_case() {
        let dir = tree(&[
            ("lib.rs", ROOT),
            ("low.rs", "pub fn run() {}\n"),
            (
                "high.rs",
                "use crate::{Games};\nuse crate::run;\nuse super::Games as G;\n",
            ),
        ]);
        let found = violations(dir.path(), &["low", "high"]);
        assert_eq!(
            found,
            [
                "high.rs uses crate::Games through the crate root; name the module that defines it",
                "high.rs uses crate::run through the crate root; name the module that defines it",
                "high.rs uses crate::Games through the crate root; name the module that defines it",
            ]
        );
    }

    #[test]
    fn comments_tests_and_strings_are_not_code() {
        let high = "/// See [`crate::high::Games`].\nconst S: &str = \"// crate::high\";\n";
        let low = "// crate::high::Games\nfn f() {}\n\n#[cfg(test)]\nmod tests {\n    use crate::high::Games;\n}\n\n\
                   #[cfg(all(\n    test,\n    feature = \"x\"\n))]\nmod more {\n    use crate::high;\n}\n";
        let dir = tree(&[("lib.rs", ROOT), ("low.rs", low), ("high.rs", high)]);
        assert_eq!(
            violations(dir.path(), &["low", "high"]),
            Vec::<String>::new()
        );
        // Outside a string, the same text after code is a comment.
        assert_eq!(code("let a = 1; // crate::high"), "let a = 1; ");
    }

    #[test]
    fn every_module_is_in_the_layers_and_has_a_file() {
        let dir = tree(&[("lib.rs", ROOT), ("low.rs", "")]);
        assert_eq!(
            violations(dir.path(), &["low", "gone"]),
            [
                "lib.rs declares `high`, which the layers leave out",
                "no file for the module `gone`",
            ]
        );
    }
}
