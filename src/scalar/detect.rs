//! Whether bytes are well-formed UTF-16 or UTF-32 in either byte order: the loops behind
//! [`crate::detect`]. The input is bytes at any address (a C caller's file), so units are
//! assembled from bytes, never read through a pointer to `u16` or `u32`.

use crate::chunks::as_chunks;

/// The unit of UTF-16 made of `pair`, in the byte order `big_endian` says.
#[inline(always)]
fn unit16(pair: [u8; 2], big_endian: bool) -> u16 {
    if big_endian {
        u16::from_be_bytes(pair)
    } else {
        u16::from_le_bytes(pair)
    }
}

/// The unit of UTF-32 made of `quad`, in the byte order `big_endian` says.
#[inline(always)]
fn unit32(quad: [u8; 4], big_endian: bool) -> u32 {
    if big_endian {
        u32::from_be_bytes(quad)
    } else {
        u32::from_le_bytes(quad)
    }
}

/// Bytes looked at together before the exact loop: a block with no surrogate (UTF-16) or no
/// invalid unit (UTF-32) is passed over with one test, which the compiler vectorises.
const BLOCK: usize = 64;

/// Whether `s` is well-formed UTF-16 in the byte order `big_endian` says: an even number of
/// bytes, and every high surrogate (D800..DBFF) followed by a low one (DC00..DFFF), every low
/// one preceded by a high one. Stops at the first error.
pub fn is_utf16(s: &[u8], big_endian: bool) -> bool {
    if s.len() % 2 != 0 {
        return false;
    }
    let mut at = 0;
    while at < s.len() {
        let rest = s.get(at..).unwrap_or_default();
        // A block with no surrogate at all is well-formed whatever surrounds it: a pair that
        // ended just before it was checked whole by the exact loop.
        let block_end = match rest.get(..BLOCK) {
            Some(block) => {
                let (pairs, _) = as_chunks::<2, u8>(block);
                let surrogate = pairs.iter().fold(false, |any, &p| {
                    any | (unit16(p, big_endian) & 0xF800 == 0xD800)
                });
                if !surrogate {
                    at += BLOCK;
                    continue;
                }
                at + BLOCK
            }
            None => s.len(),
        };
        // The exact loop over the block (a pair may end past it, two bytes later).
        while at < block_end {
            let (pairs, _) = as_chunks::<2, u8>(s.get(at..).unwrap_or_default());
            let Some(&first) = pairs.first() else {
                return false;
            };
            let u = unit16(first, big_endian);
            at += if u & 0xF800 != 0xD800 {
                2
            } else if u <= 0xDBFF
                && pairs
                    .get(1)
                    .is_some_and(|&p| unit16(p, big_endian) & 0xFC00 == 0xDC00)
            {
                4
            } else {
                // A low surrogate first, or a high one not followed by a low one.
                return false;
            };
        }
    }
    true
}

/// Whether `s` is well-formed UTF-32 in the byte order `big_endian` says: a multiple of four
/// bytes, every unit a scalar value (below 0x110000, not D800..DFFF). Stops at the first
/// block of 16 units that holds an error.
pub fn is_utf32(s: &[u8], big_endian: bool) -> bool {
    if s.len() % 4 != 0 {
        return false;
    }
    let scalar = |u: u32| u < 0xD800 || (0xE000..0x11_0000).contains(&u);
    let (blocks, tail) = as_chunks::<BLOCK, u8>(s);
    let all = |bytes: &[u8]| {
        let (quads, _) = as_chunks::<4, u8>(bytes);
        quads
            .iter()
            .fold(true, |ok, &q| ok & scalar(unit32(q, big_endian)))
    };
    blocks.iter().all(|block| all(block)) && all(tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_pairs_across_blocks() {
        // A pair split by the end of the first 64-byte block, in both orders.
        let mut units = [0x41u16; 40];
        units[31] = 0xD83D;
        units[32] = 0xDE00;
        for big in [false, true] {
            let bytes: std::vec::Vec<u8> = units
                .iter()
                .flat_map(|&u| {
                    if big {
                        u.to_be_bytes()
                    } else {
                        u.to_le_bytes()
                    }
                })
                .collect();
            assert!(is_utf16(&bytes, big));
            assert!(!is_utf16(&bytes[..64], big));
            assert!(!is_utf16(&bytes[64..], big));
        }
    }
}
