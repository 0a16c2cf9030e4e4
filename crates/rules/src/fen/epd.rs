//! EPD lines (Extended Position Description): a FEN's first four fields, then operations
//! (`bm Nf3; id "x"; hmvc 12; fmvn 40;`), each an opcode, its operands and a `;`. The clocks an
//! EPD gives are its `hmvc` (halfmove clock) and `fmvn` (fullmove number) operations, as the EPD
//! specification and python-chess's `Board.from_epd` read them; every other operation is
//! ignored. A string operand (`"..."`) may hold spaces and `;`.

/// The FEN of a line holding a FEN or an EPD: a FEN's six fields as written (or fewer, left for
/// the FEN reader to judge; anything after the sixth left out); an EPD's four fields with the clocks of its `hmvc` and `fmvn`
/// operations (0 and 1 without them), its other operations left out. An operand that is no
/// number stays in the FEN, whose reader then names the clock it spoils.
///
/// ```
/// use arbiter_rules::epd_to_fen;
///
/// assert_eq!(
///     epd_to_fen("4k3/8/8/8/8/8/8/4K2R w K - hmvc 150; fmvn 90; bm O-O;"),
///     "4k3/8/8/8/8/8/8/4K2R w K - 150 90"
/// );
/// assert_eq!(epd_to_fen("8/8/8/8/8/8/8/K6k w - - id \"a; b\";"), "8/8/8/8/8/8/8/K6k w - - 0 1");
/// ```
pub fn epd_to_fen(line: &str) -> String {
    let line = line.trim();
    let mut rest = line;
    let mut fields = Vec::with_capacity(6);
    for _ in 0..4 {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        fields.push(&rest[..end]);
        rest = &rest[end..];
    }
    let rest = rest.trim();
    let is_number = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let mut words = rest.split_whitespace();
    let clocks: Vec<&str> = words.clone().take(2).collect();
    if fields.len() < 4 || clocks.iter().all(|c| is_number(c)) && words.next().is_some() {
        // A FEN (its clocks numbers), or too few fields: its six fields as written, for the FEN
        // reader (without the EPD operations that may follow).
        return line
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ");
    }
    let (mut halfmoves, mut fullmoves) = ("0", "1");
    for (opcode, operand) in operations(rest) {
        match opcode {
            "hmvc" => halfmoves = operand,
            "fmvn" => fullmoves = operand,
            _ => {}
        }
    }
    format!("{} {halfmoves} {fullmoves}", fields.join(" "))
}

/// The operations of an EPD's tail, as (opcode, first operand): split at each `;` that stands
/// outside a string operand.
fn operations(tail: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = tail;
    std::iter::from_fn(move || {
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                return None;
            }
            let mut quoted = false;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    if c == '"' {
                        quoted = !quoted;
                    }
                    c == ';' && !quoted
                })
                .map_or(rest.len(), |(at, _)| at);
            let operation = &rest[..end];
            rest = rest.get(end + 1..).unwrap_or("");
            let mut words = operation.split_whitespace();
            if let Some(opcode) = words.next() {
                return Some((opcode, words.next().unwrap_or("")));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_come_from_hmvc_and_fmvn_and_other_operations_are_ignored() {
        let board = "4k3/8/8/8/8/8/8/4K2R w K -";
        for (line, clocks) in [
            ("", "0 1"),
            (" hmvc 150; fmvn 90;", "150 90"),
            (" fmvn 90; hmvc 150;", "150 90"),
            (" bm O-O; id \"x; hmvc 7;\"; c0 \"a b\"; hmvc 3;", "3 1"),
            (" hmvc 12", "12 1"),
            (" ce 35; pv O-O Kd7; fmvn 2;", "0 2"),
            (" hmvc x;", "x 1"),
        ] {
            assert_eq!(
                epd_to_fen(&format!("{board}{line}")),
                format!("{board} {clocks}"),
                "{line:?}"
            );
        }
    }

    #[test]
    fn a_fen_stays_as_written() {
        for fen in [
            "4k3/8/8/8/8/8/8/4K2R w K - 5 40",
            "4k3/8/8/8/8/8/8/4K2R w K - 5",
            "4k3/8/8/8/8/8/8/4K2R w K",
            "hello",
        ] {
            assert_eq!(epd_to_fen(&format!("  {fen} ")), fen);
        }
        assert_eq!(
            epd_to_fen("4k3/8/8/8/8/8/8/4K2R w K - 5 40 bm Kd1;"),
            "4k3/8/8/8/8/8/8/4K2R w K - 5 40"
        );
        assert_eq!(
            epd_to_fen("4k3/8/8/8/8/8/8/4K2R  w K -   5 40"),
            "4k3/8/8/8/8/8/8/4K2R w K - 5 40"
        );
    }
}
