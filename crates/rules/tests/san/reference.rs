//! Every valid row of the python-chess reference tables (`fen/_reference/*.tsv`): our move
//! count, check flag and status agree, status computed as `arbiter moves` does.

use arbiter_rules::Position;

use crate::data;

#[test]
fn python_chess_reference() {
    let Some(dir) = data::dir() else { return };
    let mut files: Vec<_> = std::fs::read_dir(dir.join("fen/_reference"))
        .expect("reference dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    let mut rows = 0;
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read tsv");
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 8 || cols[7] != "1" {
                continue;
            }
            rows += 1;
            // python-chess does not check material; the lenient reader takes impossible
            // material (which the strict one refuses, issue 16).
            let pos = match Position::from_fen_lenient(cols[1]) {
                Ok(pos) => pos,
                Err(err) => {
                    failures.push(format!("{}: {}: {err}", path.display(), cols[1]));
                    continue;
                }
            };
            let count = pos.legal_moves().len();
            let status = if count == 0 && pos.is_check() {
                "checkmate"
            } else if count == 0 {
                "stalemate"
            } else if pos.is_insufficient_material() {
                "insufficient_material"
            } else {
                "ongoing"
            };
            let want = if cols[4] == "1" {
                "checkmate"
            } else if cols[5] == "1" {
                "stalemate"
            } else if cols[6] == "1" {
                "insufficient_material"
            } else {
                "ongoing"
            };
            let got = (count.to_string(), pos.is_check(), status);
            let expected = (cols[2].to_string(), cols[3] == "1", want);
            if got != expected {
                failures.push(format!(
                    "{}: {}: {got:?} != {expected:?}",
                    path.display(),
                    cols[1]
                ));
            }
        }
    }
    assert!(rows > 15_000, "{rows}");
    assert!(
        failures.is_empty(),
        "{} of {rows} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
