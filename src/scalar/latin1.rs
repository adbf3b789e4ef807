//! The single-byte encodings around UTF-8: ISO-8859-1 (Latin-1), each byte the code point of
//! its value, and Windows-1252, as the WHATWG Encoding Standard's index-windows-1252 defines
//! it: Latin-1 but for 0x80..0x9F, which are mostly typographic characters.

/// The code points of 0x80..0x9F in Windows-1252 (index-windows-1252, pointers 0..31). The
/// five bytes that Microsoft's table leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are the
/// C1 controls of the same value there, so every byte is a character.
pub const CP1252_C1: [u16; 32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, // 80..87
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F, // 88..8F
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, // 90..97
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178, // 98..9F
];

/// The code point of byte `b` in Windows-1252.
#[inline(always)]
pub fn cp1252_char(b: u8) -> u32 {
    match CP1252_C1.get(usize::from(b).wrapping_sub(0x80)) {
        Some(&c) => u32::from(c),
        None => u32::from(b),
    }
}

/// The length in bytes of the UTF-8 of byte `b` read as Windows-1252: 1 for ASCII, 3 for the
/// characters of 0x80..0x9F from U+0800 (U+20AC, U+201A, ...), 2 for every other byte.
#[inline(always)]
pub fn cp1252_utf8_len(b: u8) -> usize {
    1 + usize::from(b >= 0x80) + usize::from(cp1252_char(b) >= 0x800)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_outside_c1() {
        for b in (0..0x80).chain(0xA0..=0xFF) {
            assert_eq!(cp1252_char(b), u32::from(b));
        }
    }

    #[test]
    fn lengths_match_the_code_points() {
        for b in 0..=255u8 {
            let c = char::from_u32(cp1252_char(b)).unwrap();
            assert_eq!(cp1252_utf8_len(b), c.len_utf8());
        }
    }
}
