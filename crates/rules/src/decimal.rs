//! Decimal digits of unsigned numbers, written without `format!`: for the FEN writer's clocks and
//! the export's numbers (a game row holds a dozen), both once per game or more.

/// `n`'s decimal digits, from the array's start, and how many there are.
#[inline]
pub fn digits(mut n: u64) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    let mut len = 1;
    while len < 20 && n >= POWERS_OF_TEN[len] {
        len += 1;
    }
    for slot in digits[..len].iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    (digits, len)
}

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
    fn digits_are_the_decimal_form() {
        let mut edges = vec![0, u64::MAX];
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
