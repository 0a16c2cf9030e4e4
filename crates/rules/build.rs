//! Generates the attack tables of `src/rules/attacks.rs` into `OUT_DIR/attack_tables.rs`: step
//! attacks (knight, king, pawn), the magic bitboard table for bishops from fixed, pre-searched
//! magic numbers, the small file and rank tables rook attacks are computed from, and the
//! `between`/`ray` tables. Walking rays is fine here: it runs once, at build
//! time, and every table is verified as it is filled.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

// Bishop magic numbers found once by a seeded random search (sparse candidates, plain shifts).
const BISHOP_MAGICS: [u64; 64] = [
    0x0848020822040013,
    0x8010a40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801b8200420,
    0x200a008084012000,
    0x0040102001042084,
    0x840a505042428020,
    0x0000700102202920,
    0x44101c0c10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308c042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002a00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104a041918013446,
    0x008a000082008238,
    0x04a0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xcc01112048100480,
    0x0020402806500440,
    0x00048e0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810e04104200,
    0x901210110400088a,
    0xa003080212081050,
    0x00c1004048401004,
    0x900000a014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008a02026250,
    0x8004088250900040,
    0x1c00430088a04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080a04222020,
    0x8088802110022000,
    0x1081a10416114400,
    0x0205010a24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580c026028810840,
    0x802020441020a110,
    0x12c0022401020018,
];

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn steps(sq: i32, deltas: &[(i32, i32)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in deltas {
        let (f, r) = (sq % 8 + df, sq / 8 + dr);
        if on_board(f, r) {
            bb |= 1u64 << (r * 8 + f);
        }
    }
    bb
}

fn slide(sq: i32, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f, r) {
            let s = r * 8 + f;
            bb |= 1u64 << s;
            if occ & (1u64 << s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    bb
}

/// The relevant occupancy mask: the rays without their last square.
fn relevant(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f + df, r + dr) {
            bb |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    bb
}

fn write_array(out: &mut String, name: &str, values: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [u64; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        for v in chunk {
            write!(out, "0x{v:x},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let mut out = String::new();

    let knight: Vec<u64> = (0..64).map(|sq| steps(sq, &KNIGHT_STEPS)).collect();
    let king: Vec<u64> = (0..64).map(|sq| steps(sq, &KING_STEPS)).collect();
    let white_pawn: Vec<u64> = (0..64).map(|sq| steps(sq, &[(-1, 1), (1, 1)])).collect();
    let black_pawn: Vec<u64> = (0..64).map(|sq| steps(sq, &[(-1, -1), (1, -1)])).collect();
    write_array(&mut out, "KNIGHT", &knight);
    write_array(&mut out, "KING", &king);
    write_array(&mut out, "WHITE_PAWN", &white_pawn);
    write_array(&mut out, "BLACK_PAWN", &black_pawn);

    // For each square, the squares from which each piece (white pawn ... king, then black)
    // attacks it on an empty board: twelve words a square, so that the question about one
    // square (a king's) reads one or two cache lines.
    let mut attacked_from = Vec::new();
    for sq in 0..64usize {
        for pawn in [&black_pawn, &white_pawn] {
            let bishop = slide(sq as i32, 0, &BISHOP_DIRS);
            let rook = slide(sq as i32, 0, &ROOK_DIRS);
            attacked_from.extend([pawn[sq], knight[sq], bishop, rook, bishop | rook, king[sq]]);
        }
    }
    write_array(&mut out, "ATTACKED_FROM", &attacked_from);

    // The bishop magic table: one attack array; each square gets (mask, magic, shift, offset).
    let mut attacks: Vec<u64> = Vec::new();
    writeln!(out, "pub(crate) static BISHOP_MAGICS: [Magic; 64] = [").unwrap();
    for sq in 0..64 {
        let mask = relevant(sq, &BISHOP_DIRS);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let magic = BISHOP_MAGICS[sq as usize];
        let offset = attacks.len();
        attacks.resize(offset + (1 << bits), u64::MAX);
        let mut occ = 0u64;
        loop {
            let idx = offset + (occ.wrapping_mul(magic) >> shift) as usize;
            let att = slide(sq, occ, &BISHOP_DIRS);
            assert!(
                attacks[idx] == u64::MAX || attacks[idx] == att,
                "bad magic for square {sq}"
            );
            attacks[idx] = att;
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                break;
            }
        }
        writeln!(
            out,
            "Magic {{ mask: 0x{mask:x}, magic: 0x{magic:x}, shift: {shift}, offset: {offset} }},"
        )
        .unwrap();
    }
    out.push_str("];\n");
    for a in attacks.iter_mut() {
        if *a == u64::MAX {
            *a = 0;
        }
    }
    write_array(&mut out, "BISHOP_ATTACKS", &attacks);

    // Rook attacks from two small tables (see `attacks::rook`): each square's file without the
    // square, and the attacks along a rank for each occupancy of its six inner squares and each
    // file (a byte per rank, 512 bytes).
    let files: Vec<u64> = (0..64).map(|sq| slide(sq, 0, &[(0, 1), (0, -1)])).collect();
    write_array(&mut out, "FILE_LINE", &files);
    let mut rank_attacks = Vec::new();
    for inner in 0..64u64 {
        for file in 0..8 {
            rank_attacks.push(slide(file, inner << 1, &[(1, 0), (-1, 0)]) & 0xff);
        }
    }
    writeln!(
        out,
        "pub(crate) static RANK_ATTACKS: [u8; 512] = {rank_attacks:?};"
    )
    .unwrap();

    // between (exclusive) and ray (the whole line through both squares).
    let mut between = vec![0u64; 64 * 64];
    let mut ray = vec![0u64; 64 * 64];
    for a in 0..64i32 {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            for &(df, dr) in dirs.iter() {
                let full = slide(a, 0, &[(df, dr), (-df, -dr)]) | (1u64 << a);
                let (mut f, mut r) = (a % 8 + df, a / 8 + dr);
                let mut path = 0u64;
                while on_board(f, r) {
                    let b = r * 8 + f;
                    between[(a * 64 + b) as usize] = path;
                    ray[(a * 64 + b) as usize] = full;
                    path |= 1u64 << b;
                    f += df;
                    r += dr;
                }
            }
        }
    }
    write_array(&mut out, "BETWEEN", &between);
    write_array(&mut out, "RAY", &ray);

    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("attack_tables.rs");
    fs::write(dest, out).unwrap();
}
