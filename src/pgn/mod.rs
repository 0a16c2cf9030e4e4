//! The PGN reader: splits a byte stream into games and parses each game into tags and a movetext
//! tree with exact source locations. It never checks legality; `replay` joins it to the rules core.
