//! The table of the Latin-1 block converters, whatever the instruction set: it compresses the
//! UTF-8 of 8 bytes of Latin-1, spread into 16 bytes of pairs, with one byte shuffle (`pshufb`
//! on x86, `tbl` on NEON). After Lemire and Muła, "Transcoding billions of Unicode characters
//! per second with SIMD instructions" (2022), as simdutf's converters from Latin-1 do.

/// For each mask of the non-ASCII bytes among 8 (bit `i` for byte `i`), the byte indices that
/// take their UTF-8 out of the 16 bytes `lead 0, tail 0, lead 1, tail 1, ...`: both bytes of a
/// non-ASCII byte, the tail alone (the byte itself) of an ASCII one; then 0x80, an index that
/// gives a zero byte (its high bit set for `pshufb`, out of range for `tbl`).
pub(crate) static LATIN1_SHUFFLES: [[u8; 16]; 256] = {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut at = 0;
        let mut i = 0;
        while i < 8 {
            if mask & (1 << i) != 0 {
                table[mask][at] = 2 * i as u8;
                at += 1;
            }
            table[mask][at] = 2 * i as u8 + 1;
            at += 1;
            i += 1;
        }
        mask += 1;
    }
    table
};
