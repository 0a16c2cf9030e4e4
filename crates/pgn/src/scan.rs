//! Byte searches for the reader's hot loops: the first byte of a slice that is one of a few given
//! bytes, sixteen bytes at a time.
//!
//! `memchr` covers at most three needles and costs a call and a set-up per search, which is most of
//! the work when the run to the next stop is a move or a `{ [%clk 0:03:00] }` comment. These
//! searches are inlined into their callers and take up to a dozen needles. On x86-64 they use SSE2,
//! which every x86-64 processor has (no `target-cpu` needed); elsewhere a plain loop.

/// The index of the first byte of `hay` that is one of `needles`, or `hay.len()` if none is.
#[inline(always)]
pub(crate) fn find_any<const N: usize>(hay: &[u8], needles: [u8; N]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::find_any(hay, needles)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        scalar_find_any(hay, needles)
    }
}

/// The plain loop: for short tails, and where SSE2 is not available.
#[inline(always)]
fn scalar_find_any<const N: usize>(hay: &[u8], needles: [u8; N]) -> usize {
    hay.iter()
        .position(|b| needles.contains(b))
        .unwrap_or(hay.len())
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_setzero_si128,
    };

    #[inline(always)]
    pub(super) fn find_any<const N: usize>(hay: &[u8], needles: [u8; N]) -> usize {
        let mut i = 0;
        // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics are always available;
        // every load reads the 16 bytes `hay[i..i + 16]`, which the loop condition keeps in bounds.
        unsafe {
            let wanted: [__m128i; N] = needles.map(|n| _mm_set1_epi8(n as i8));
            while i + 16 <= hay.len() {
                let chunk = _mm_loadu_si128(hay.as_ptr().add(i).cast::<__m128i>());
                let mut hits = _mm_setzero_si128();
                for w in wanted {
                    hits = _mm_or_si128(hits, _mm_cmpeq_epi8(chunk, w));
                }
                let mask = _mm_movemask_epi8(hits) as u32;
                if mask != 0 {
                    return i + mask.trailing_zeros() as usize;
                }
                i += 16;
            }
        }
        i + super::scalar_find_any(&hay[i..], needles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_needle_at_every_offset_and_length() {
        for len in 0..70 {
            for at in 0..=len {
                let mut hay = vec![b'a'; len];
                if at < len {
                    hay[at] = b'}';
                }
                if at + 3 < len {
                    hay[at + 3] = b'\n';
                }
                assert_eq!(find_any(&hay, [b'}', b'\n']), at, "len {len}, at {at}");
                assert_eq!(scalar_find_any(&hay, [b'}', b'\n']), at);
            }
        }
        assert_eq!(find_any(b"xyz", [b'q']), 3);
        assert_eq!(find_any(&[0xff; 40], [0xff]), 0);
    }
}
