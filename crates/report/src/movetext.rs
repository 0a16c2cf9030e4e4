//! The `movetext` column (`export --movetext`, and `--columns lichess`): a game's main line in
//! SAN with move numbers, `1. e4 e5 2. Nf3`, as far as it was replayed (up to the first error
//! of an invalid main line); `12... Kg7` first when Black moves first; `--` for a null move. No
//! comments, NAGs, variations or result: those have columns of their own.

use arbiter_core::replay::PlyLog;
use arbiter_rules::{Color, san};

use crate::output::push_decimal;

/// Writes the main line of `log` into `out` (cleared first).
pub(crate) fn write_movetext(log: &PlyLog, out: &mut Vec<u8>) {
    out.clear();
    let mut pos = log.start.clone();
    for (i, note) in log.plies.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        let white = pos.turn() == Color::White;
        if white || i == 0 {
            push_decimal(out, u64::from(pos.fullmoves()));
            out.extend_from_slice(if white { b". " } else { b"... " });
        }
        match note.mv {
            Some(mv) => {
                out.extend_from_slice(san::write(&pos, mv).as_str().as_bytes());
                pos.play_unchecked(mv);
            }
            None => {
                out.extend_from_slice(b"--");
                pos.play_null();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use arbiter_core::games::Games;
    use arbiter_core::replay::ReplayOptions;

    use super::*;

    fn movetext(pgn: &str) -> String {
        let options = ReplayOptions {
            plies: true,
            ..ReplayOptions::default()
        };
        let mut games = Games::from_reader("t.pgn", pgn.as_bytes(), options);
        let report = games.next().expect("one game").expect("no stream error");
        let mut out = Vec::new();
        write_movetext(&report.ply_log, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn main_line_with_move_numbers_in_canonical_san() {
        assert_eq!(
            movetext(
                "1. e4 {a comment} e5 $1 (1... c5) 2. Ng1f3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *"
            ),
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O"
        );
        assert_eq!(
            movetext(
                "[FEN \"7k/8/8/8/8/8/8/K6R b - - 10 40\"]\n\n40... Kg7 41. Rg1+ Kf7 42. -- Ke6 *"
            ),
            "40... Kg7 41. Rg1+ Kf7 42. -- Ke6"
        );
        assert_eq!(movetext("*"), "");
    }

    #[test]
    fn an_invalid_main_line_stops_at_its_error() {
        assert_eq!(movetext("1. e4 e5 2. Ke3 Nc6 *"), "1. e4 e5");
    }
}
