//! The chess rules core: squares, bitboards, attack tables, positions, legal move generation,
//! FEN and SAN. It knows nothing about PGN or the command line.
