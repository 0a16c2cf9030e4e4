//! The yardstick arbiter is measured against: a program on the published pgn-reader 0.29 and
//! shakmaty 0.30 crates that does the work of `arbiter export` on the main line — resolve every
//! SAN to a legal move, keep a Zobrist repetition history, and classify each final position
//! (checkmate, stalemate, insufficient material, 75-move, fivefold, 50-move and threefold claims,
//! else the Result tag). It prints one line of counts per outcome.
//!
//! Usage: yardstick FILE.pgn...
//!        yardstick --perft DEPTH [FEN]   (shakmaty's perft, for `arbiter perft` to be compared with)

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

#[derive(Default)]
struct Tags {
    fen: Option<Vec<u8>>,
    chess960: bool,
    result: Vec<u8>,
}

struct Game {
    pos: Chess,
    history: Vec<u64>,
    plies: u32,
    invalid: bool,
    result: Vec<u8>,
}

struct Replayer;

impl Visitor for Replayer {
    type Tags = Tags;
    type Movetext = Game;
    type Output = (&'static str, u32);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        match name {
            b"FEN" => tags.fen = Some(value.decode().into_owned()),
            b"Variant" => {
                let v = String::from_utf8_lossy(&value.decode()).to_ascii_lowercase();
                tags.chess960 = v.contains("960") || v.contains("fischer");
            }
            b"Result" => tags.result = value.decode().into_owned(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let mode = if tags.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let pos = match &tags.fen {
            Some(fen) => match Fen::from_ascii(fen)
                .ok()
                .and_then(|f| f.into_position(mode).ok())
            {
                Some(pos) => pos,
                None => return ControlFlow::Break(("invalid", 0)),
            },
            None => Chess::default(),
        };
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        ControlFlow::Continue(Game {
            pos,
            history: vec![key.0],
            plies: 0,
            invalid: false,
            result: tags.result,
        })
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if game.invalid {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                let zeroing = m.is_zeroing();
                game.pos.play_unchecked(m);
                game.plies += 1;
                if zeroing {
                    game.history.clear();
                }
                let key: Zobrist64 = game.pos.zobrist_hash(EnPassantMode::Legal);
                game.history.push(key.0);
            }
            Err(_) => game.invalid = true,
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        if game.invalid {
            return ("invalid", game.plies);
        }
        let pos = &game.pos;
        let last = game.history.last().copied().unwrap_or(0);
        let repetitions = game.history.iter().filter(|&&k| k == last).count();
        let draw = game.result == b"1/2-1/2";
        let outcome = if pos.is_checkmate() {
            "checkmate"
        } else if pos.is_stalemate() {
            "stalemate"
        } else if pos.is_insufficient_material() {
            "insufficient_material"
        } else if pos.halfmoves() >= 150 {
            "seventyfive_moves"
        } else if repetitions >= 5 {
            "fivefold_repetition"
        } else if draw && pos.halfmoves() >= 100 {
            "fifty_moves"
        } else if draw && repetitions >= 3 {
            "threefold_repetition"
        } else {
            match game.result.as_slice() {
                b"1-0" | b"0-1" => "resignation",
                b"1/2-1/2" => "agreement",
                _ => "unterminated",
            }
        };
        (outcome, game.plies)
    }
}

/// `--perft DEPTH [FEN]`: prints the node count, as `arbiter perft` does.
fn perft(args: &[String]) -> io::Result<()> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidInput, what.to_string());
    let depth: u32 = args
        .first()
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| bad("usage: yardstick --perft DEPTH [FEN]"))?;
    let pos: Chess = match args.get(1) {
        Some(fen) => Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Chess960).ok())
            .ok_or_else(|| bad("bad FEN"))?,
        None => Chess::default(),
    };
    println!("{}", shakmaty::perft(&pos, depth));
    Ok(())
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--perft") {
        return perft(&args[1..]);
    }
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    let (mut games, mut plies) = (0u64, 0u64);
    for path in &args {
        let mut reader = Reader::new(File::open(path)?);
        let mut visitor = Replayer;
        while let Some((outcome, game_plies)) = reader.read_game(&mut visitor)? {
            *counts.entry(outcome).or_default() += 1;
            games += 1;
            plies += u64::from(game_plies);
        }
    }
    let summary: Vec<String> = counts.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!("games={games} plies={plies} {}", summary.join(" "));
    Ok(())
}
