//! What ill-formed input becomes in a lossy conversion: one U+FFFD per maximal subpart (the
//! Unicode Standard's practice), or one character per byte of it, after the fallbacks that
//! real converters use (the encyclopedia article in `../shared/seeds/`): UTF-8B (PEP 383's
//! `surrogateescape`), ISO-8859-1 or Windows-1252. Every path that replaces a byte (the
//! converters from UTF-8, the lossy copy, the length functions) asks [`Replacement::char_of_byte`],
//! and the converters into UTF-8 ask [`Replacement::byte_of_unit`] for the way back.

use super::latin1::cp1252_char;

/// How a lossy conversion replaces ill-formed input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Replacement {
    /// Each maximal subpart of an ill-formed sequence becomes one U+FFFD.
    #[default]
    Fffd,
    /// UTF-8B, Python's `errors='surrogateescape'` (PEP 383): each byte `b` of an ill-formed
    /// sequence becomes the lone surrogate U+DC80 + (b - 0x80), and each lone U+DC80..U+DCFF
    /// becomes its byte again on the way back, so that every byte string round-trips through
    /// UTF-16 and UTF-32. Only UTF-16 and UTF-32 can hold the escapes.
    Escape,
    /// Each byte of an ill-formed sequence becomes its character in ISO-8859-1 (U+0080..U+00FF).
    Latin1,
    /// Each byte of an ill-formed sequence becomes its character in Windows-1252, as WHATWG's
    /// index-windows-1252 defines it (0x80 is U+20AC; 0x81, 0x8D, 0x8F, 0x90, 0x9D are the C1
    /// controls of their value).
    Cp1252,
}

impl Replacement {
    /// The character that the byte `b` of an ill-formed sequence becomes: `None` for
    /// [`Replacement::Fffd`], which replaces a whole subpart, not a byte. Always a value below
    /// U+10000 (one unit of UTF-16). An ill-formed sequence never holds an ASCII byte; one given
    /// anyway (input that another thread changes) stays itself, so the output stays valid.
    #[inline]
    pub fn char_of_byte(self, b: u8) -> Option<u32> {
        let byte = u32::from(b);
        match self {
            Replacement::Fffd => None,
            _ if b < 0x80 => Some(byte),
            Replacement::Escape => Some(0xDC00 + byte),
            Replacement::Latin1 => Some(byte),
            Replacement::Cp1252 => Some(cp1252_char(b)),
        }
    }

    /// The byte that a unit of UTF-16 or UTF-32 the decoder refused (a lone surrogate, a value
    /// above U+10FFFF) becomes in UTF-8: with [`Replacement::Escape`], the byte 0x80..0xFF of a
    /// lone U+DC80..U+DCFF; `None` for any other unit and strategy, which the conversion treats
    /// as it would without one.
    #[inline]
    pub fn byte_of_unit(self, unit: u32) -> Option<u8> {
        match (self, unit) {
            (Replacement::Escape, 0xDC80..=0xDCFF) => Some((unit - 0xDC00) as u8),
            _ => None,
        }
    }

    /// The length in bytes of the UTF-8 of [`Replacement::char_of_byte`] of `b`: 1 for ASCII,
    /// else 2, 3 for the characters of Windows-1252 from U+0800 (and for the escapes, which
    /// UTF-8 cannot hold: the size of their 3-byte sequences); 3 for U+FFFD.
    #[inline]
    pub fn utf8_len_of_byte(self, b: u8) -> usize {
        let c = self.char_of_byte(b).unwrap_or(0xFFFD);
        1 + usize::from(c >= 0x80) + usize::from(c >= 0x800)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_character_per_byte() {
        for b in 0x80..=0xFFu8 {
            assert_eq!(Replacement::Fffd.char_of_byte(b), None);
            assert_eq!(
                Replacement::Escape.char_of_byte(b),
                Some(0xDC00 + u32::from(b))
            );
            assert_eq!(Replacement::Latin1.char_of_byte(b), Some(u32::from(b)));
            assert_eq!(Replacement::Cp1252.char_of_byte(b), Some(cp1252_char(b)));
            let escape = Replacement::Escape.char_of_byte(b).unwrap();
            assert_eq!(Replacement::Escape.byte_of_unit(escape), Some(b));
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "1.1 million values through safe arithmetic: too slow to interpret"
    )]
    fn only_the_escapes_go_back() {
        let units = (0..0xDC80).chain(0xDD00..0x11_0000);
        for unit in units.chain([0xDC7F, 0xDD00, 0x10_FFFF, 0x11_0000, u32::MAX]) {
            for r in [Replacement::Fffd, Replacement::Escape, Replacement::Latin1] {
                assert_eq!(r.byte_of_unit(unit), None);
            }
        }
        for unit in 0xDC80..=0xDCFF {
            assert_eq!(Replacement::Cp1252.byte_of_unit(unit), None);
            assert_eq!(Replacement::Latin1.byte_of_unit(unit), None);
        }
    }

    #[test]
    fn lengths_match_the_characters() {
        for b in 0..=0xFFu8 {
            for r in [Replacement::Latin1, Replacement::Cp1252] {
                let c = char::from_u32(r.char_of_byte(b).unwrap()).unwrap();
                assert_eq!(r.utf8_len_of_byte(b), c.len_utf8());
            }
        }
    }
}
