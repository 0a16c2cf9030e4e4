//! Decimal digits of unsigned numbers, written without `format!`: for the FEN writer's clocks and
//! the export's numbers (a game row holds a dozen), both once per game or more.

/// `n`'s decimal digits, from the array's start, and how many there are. Two digits at a time
/// from a table: a move number, a NAG or a row's small number is one or two lookups.
#[inline]
pub fn digits(mut n: u64) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    if n < 10 {
        digits[0] = b'0' + n as u8;
        return (digits, 1);
    }
    let mut len = 2;
    while len < 20 && n >= POWERS_OF_TEN[len] {
        len += 1;
    }
    let mut end = len;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        end -= 2;
        digits[end..end + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        digits[..2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        digits[0] = b'0' + n as u8;
    }
    (digits, len)
}

/// The decimal digits of `n`, below 10,000, from the first of four bytes, and how many there are:
/// two lookups, and the digits moved to the front by a shift rather than a copy of their length
/// (a row's numbers are mostly of one to four digits).
#[inline]
pub fn up_to_four_digits(n: u16) -> ([u8; 4], usize) {
    debug_assert!(n < 10_000);
    let (high, low) = (usize::from(n / 100) * 2, usize::from(n % 100) * 2);
    let four = u32::from_le_bytes([PAIRS[high], PAIRS[high + 1], PAIRS[low], PAIRS[low + 1]]);
    let len = 1 + usize::from(n >= 10) + usize::from(n >= 100) + usize::from(n >= 1000);
    ((four >> (8 * (4 - len))).to_le_bytes(), len)
}

/// `00` to `99`, two bytes each.
const PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// 10 to the power of the index.
const POWERS_OF_TEN: [u64; 20] = {
    let mut powers = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        powers[i] = powers[i - 1] * 10;
        i += 1;
    }
    powers
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_to_four_digits_are_the_decimal_form() {
        for n in 0..10_000u16 {
            let (digits, len) = up_to_four_digits(n);
            assert_eq!(&digits[..len], n.to_string().as_bytes(), "{n}");
            assert_eq!((digits, len), {
                let (general, len) = super::digits(n.into());
                let mut four = [0; 4];
                four[..len].copy_from_slice(&general[..len]);
                (four, len)
            });
        }
    }

    #[test]
    fn digits_are_the_decimal_form() {
        let mut edges: Vec<u64> = (0..100_000).collect();
        edges.push(u64::MAX);
        for power in 0..20 {
            let p = 10u64.pow(power);
            edges.extend([p - 1, p, p + 1, p.saturating_mul(7)]);
        }
        for n in edges {
            let (digits, len) = digits(n);
            assert_eq!(&digits[..len], n.to_string().as_bytes(), "{n}");
        }
    }
}
