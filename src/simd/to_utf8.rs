//! UTF-16 and UTF-32 into UTF-8 with 128-bit registers: the fast path that
//! [`crate::transcode::convert_to_utf8`] runs in the SIMD kernels. Written from the description
//! in Daniel Lemire and Wojciech Muła, "Transcoding billions of Unicode characters per second
//! with SIMD instructions", Software: Practice and Experience 52(2), 2022 (arXiv:2109.10433),
//! section 5, and Lemire, "Unicode at gigabytes per second" (2021); the shuffle tables are
//! computed below from their definition.
//!
//! A step takes 16 units. Each unit's UTF-8 is built in its own lane, at most as wide as the
//! widest character of the step needs (16-bit lanes for 1 and 2 bytes, 32-bit lanes for 3 and
//! 4), then the lanes are compressed with one byte shuffle per register, chosen by a table
//! indexed by the lanes' lengths. A surrogate pair gives its four bytes in the two lanes of its
//! units, two each: the first two depend only on the high surrogate and the last two on the low
//! one and the two lowest bits of the high one, which the low lane reads from the lane before.
//!
//! A step that holds anything else (a lone surrogate, a UTF-32 value that is not a scalar value)
//! is refused whole, as is a step whose output might not fit: the exact path converts from
//! there. Only the bytes of accepted characters are ever stored (see [`Writer`]), so that
//! nothing past the output's end is touched.
//!
//! Both kernels run this code: in an AVX2 function the same instructions get VEX encodings.

use core::arch::x86_64::*;

/// Units per step.
const STEP: usize = 16;

/// A byte shuffle that compresses the lanes of a register into the bytes they hold, and the
/// number of those bytes, for each key (the lanes' lengths, a few bits per lane).
struct Compress {
    shuffle: [[u8; 16]; 256],
    len: [u8; 256],
}

/// The shuffles for registers of `16 / lane` lanes of `lane` bytes, keyed by `bits` bits per
/// lane (lane 0 lowest): a lane of code `c` holds its first `len_of[c]` bytes, which move to
/// just after those of the lanes before it; shuffle indexes with the top bit set give zeros.
const fn compress(lane: usize, bits: usize, len_of: [u8; 4]) -> Compress {
    let mut t = Compress {
        shuffle: [[0x80; 16]; 256],
        len: [0; 256],
    };
    let mut key = 0;
    while key < 256 {
        let mut out = 0;
        let mut i = 0;
        while i < 16 / lane {
            let code = (key >> (i * bits)) & ((1 << bits) - 1);
            let mut b = 0;
            while b < len_of[code] as usize {
                t.shuffle[key][out] = (i * lane + b) as u8;
                out += 1;
                b += 1;
            }
            i += 1;
        }
        t.len[key] = out as u8;
        key += 1;
    }
    t
}

/// 16-bit lanes keyed by one bit per lane, set for ASCII: one byte, else two.
static ONE_TWO: Compress = compress(2, 1, [2, 1, 0, 0]);
/// 32-bit lanes keyed by two bits per lane, ASCII and "below U+0800 or a surrogate": three
/// bytes, one (never: ASCII is below U+0800), two, one.
static ONE_TWO_THREE: Compress = compress(4, 2, [3, 1, 2, 1]);
/// 32-bit lanes keyed by their length less one.
static ONE_TO_FOUR: Compress = compress(4, 2, [1, 2, 3, 4]);

/// `SHIFT_UP[n]`: the shuffle that moves a register's bytes `n` places up, zeros below.
static SHIFT_UP: [[u8; 16]; 17] = {
    let mut t = [[0x80u8; 16]; 17];
    let mut n = 0;
    while n <= 16 {
        let mut i = n;
        while i < 16 {
            t[n][i] = (i - n) as u8;
            i += 1;
        }
        n += 1;
    }
    t
};

/// `SPREAD[m]`: the four bits of `m` at bits 0, 2, 4 and 6, so that the sum of spread lane
/// masks counts, in two bits per lane, how many of them hold for each lane.
const SPREAD: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        let mut i = 0;
        while i < 4 {
            t[m] |= (((m >> i) & 1) << (2 * i)) as u8;
            i += 1;
        }
        m += 1;
    }
    t
};

/// Writes compressed registers into the output without ever storing a byte that is not
/// output: the last register is held back (`pending`, its bytes at the bottom, zeros above),
/// and a new one is merged into it while both fit in 16 bytes; when they do not, the pending
/// register is stored whole, its 16 bytes all output, since the new one's follow them.
struct Writer<'a> {
    dst: &'a mut [u8],
    /// Bytes stored.
    at: usize,
    pending: __m128i,
    pending_len: usize,
}

impl<'a> Writer<'a> {
    #[inline(always)]
    unsafe fn new(dst: &'a mut [u8]) -> Self {
        Writer {
            dst,
            at: 0,
            // SAFETY: SSE2, as every kernel has.
            pending: unsafe { _mm_setzero_si128() },
            pending_len: 0,
        }
    }

    /// Bytes written so far, pending ones included.
    #[inline(always)]
    fn len(&self) -> usize {
        self.at + self.pending_len
    }

    /// Appends the first `len` bytes of `reg`, whose others are zero; the caller has checked
    /// that the output has room for them after [`Writer::len`].
    #[inline(always)]
    unsafe fn push(&mut self, reg: __m128i, len: usize) {
        // SAFETY: SSSE3 by the caller; the table has 17 entries and `pending_len` is at most 16.
        unsafe {
            if self.pending_len + len <= 16 {
                let up = _mm_loadu_si128(SHIFT_UP[self.pending_len.min(16)].as_ptr().cast());
                self.pending = _mm_or_si128(self.pending, _mm_shuffle_epi8(reg, up));
                self.pending_len += len;
            } else {
                debug_assert!(self.at + 16 <= self.dst.len());
                // SAFETY: the 16 bytes at `at` are the pending ones and the first of `reg`'s,
                // all within the room the caller checked.
                _mm_storeu_si128(self.dst.as_mut_ptr().add(self.at).cast(), self.pending);
                self.at += self.pending_len;
                self.pending = reg;
                self.pending_len = len;
            }
        }
    }

    /// Stores the pending bytes: the length of the output.
    #[inline(always)]
    unsafe fn finish(self) -> usize {
        let mut bytes = [0u8; 16];
        // SAFETY: `bytes` holds 16 bytes; SSE2.
        unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), self.pending) };
        let out = self.dst.get_mut(self.at..).unwrap_or_default();
        for (o, b) in out.iter_mut().zip(bytes.iter().take(self.pending_len)) {
            *o = *b;
        }
        self.at + self.pending_len
    }
}

#[inline(always)]
unsafe fn splat16(v: u16) -> __m128i {
    // SAFETY: SSE2.
    unsafe { _mm_set1_epi16(v as i16) }
}

#[inline(always)]
unsafe fn splat32(v: u32) -> __m128i {
    // SAFETY: SSE2.
    unsafe { _mm_set1_epi32(v as i32) }
}

/// Lanes where `v & mask == value`, 16-bit.
#[inline(always)]
unsafe fn masked_eq16(v: __m128i, mask: u16, value: u16) -> __m128i {
    // SAFETY: SSE2.
    unsafe { _mm_cmpeq_epi16(_mm_and_si128(v, splat16(mask)), splat16(value)) }
}

/// Whether no lane of `v` has a bit of `mask`.
#[inline(always)]
unsafe fn none(v: __m128i, mask: __m128i) -> bool {
    // SAFETY: SSE4.1.
    unsafe { _mm_testz_si128(v, mask) != 0 }
}

/// The two-byte UTF-8 of 16-bit lanes below U+0800, first byte lowest.
#[inline(always)]
unsafe fn two_bytes(v: __m128i) -> __m128i {
    // SAFETY: SSE2.
    unsafe {
        let lead = _mm_srli_epi16::<6>(v);
        let tail = _mm_and_si128(_mm_slli_epi16::<8>(v), splat16(0x3F00));
        _mm_or_si128(_mm_or_si128(lead, tail), splat16(0x80C0))
    }
}

/// The first two bytes of the three-byte UTF-8 of 16-bit lanes, first byte lowest.
#[inline(always)]
unsafe fn three_bytes_head(v: __m128i) -> __m128i {
    // SAFETY: SSE2.
    unsafe {
        let lead = _mm_srli_epi16::<12>(v);
        let middle = _mm_and_si128(_mm_slli_epi16::<2>(v), splat16(0x3F00));
        _mm_or_si128(_mm_or_si128(lead, middle), splat16(0x80E0))
    }
}

/// The two bytes each surrogate of a well-formed pair contributes (see the module comment),
/// first byte lowest; `prev` holds each lane's previous unit, `high` marks high surrogates.
#[inline(always)]
unsafe fn surrogate_halves(v: __m128i, prev: __m128i, high: __m128i) -> __m128i {
    // SAFETY: SSE4.1.
    unsafe {
        // High: the plane, 0x10000 + (h - 0xD800) << 10 shifted down 10, is h's ten bits + 0x40.
        let plane = _mm_add_epi16(_mm_and_si128(v, splat16(0x3FF)), splat16(0x40));
        let first = _mm_or_si128(
            _mm_or_si128(
                _mm_srli_epi16::<8>(plane),
                _mm_and_si128(_mm_slli_epi16::<6>(plane), splat16(0x3F00)),
            ),
            splat16(0x80F0),
        );
        // Low: the plane's two low bits (the high surrogate's) above the low's top four bits.
        let third = _mm_or_si128(
            _mm_slli_epi16::<4>(_mm_and_si128(prev, splat16(3))),
            _mm_and_si128(_mm_srli_epi16::<6>(v), splat16(0xF)),
        );
        let fourth = _mm_and_si128(_mm_slli_epi16::<8>(v), splat16(0x3F00));
        let second = _mm_or_si128(_mm_or_si128(third, fourth), splat16(0x8080));
        _mm_blendv_epi8(second, first, high)
    }
}

/// A register of 16-bit lanes of 1 or 2 bytes (`lanes`), compressed: `key` has a bit per
/// lane, set for one byte (see [`ONE_TWO`]).
#[inline(always)]
unsafe fn one_two(lanes: __m128i, key: u32) -> (__m128i, usize) {
    let key = (key & 0xFF) as usize;
    // SAFETY: SSSE3; `key` is below 256.
    unsafe {
        let shuffle = _mm_loadu_si128(ONE_TWO.shuffle[key].as_ptr().cast());
        (
            _mm_shuffle_epi8(lanes, shuffle),
            usize::from(ONE_TWO.len[key]),
        )
    }
}

/// A register of 16-bit lanes of 1 to 3 bytes, compressed into two: `head` holds each lane's
/// first two bytes, `third` its third, `key` two bits per lane (see [`ONE_TWO_THREE`]).
#[inline(always)]
unsafe fn one_two_three(head: __m128i, third: __m128i, key: u32) -> [(__m128i, usize); 2] {
    // SAFETY: SSSE3; the keys are below 256.
    unsafe {
        let part = |lanes: __m128i, key: u32| {
            let key = (key & 0xFF) as usize;
            let shuffle = _mm_loadu_si128(ONE_TWO_THREE.shuffle[key].as_ptr().cast());
            (
                _mm_shuffle_epi8(lanes, shuffle),
                usize::from(ONE_TWO_THREE.len[key]),
            )
        };
        [
            part(_mm_unpacklo_epi16(head, third), key),
            part(_mm_unpackhi_epi16(head, third), key >> 8),
        ]
    }
}

/// One bit per 16-bit lane of the masks `a` and `b` (all ones or all zeros per lane): `a`'s
/// lanes in bits 0..8, `b`'s in 8..16.
#[inline(always)]
unsafe fn bits16(a: __m128i, b: __m128i) -> u32 {
    // SAFETY: SSE2.
    unsafe { _mm_movemask_epi8(_mm_packs_epi16(a, b)) as u32 }
}

/// Two bits per 16-bit lane: bit `2i` from mask `low` and bit `2i + 1` from mask `high`.
#[inline(always)]
unsafe fn bits_interleaved(low: __m128i, high: __m128i) -> u32 {
    // SAFETY: SSE4.1.
    unsafe { _mm_movemask_epi8(_mm_blendv_epi8(low, high, splat16(0xFF00))) as u32 }
}

/// Converts the 16 UTF-16 units of `a` and `b` (eight each) into `out`, which has room for
/// 48 more bytes: the number of units converted (16, or 15 if the last one is a high surrogate,
/// which the next step takes with its low one), or 0 (nothing written) if they hold a lone
/// surrogate, or any surrogate when `PAIRS` is false (units that came from UTF-32).
#[inline(always)]
unsafe fn utf16_step<const PAIRS: bool>(a: __m128i, b: __m128i, out: &mut Writer) -> usize {
    // SAFETY: SSE4.1 and SSSE3, which every kernel has.
    unsafe {
        let any = _mm_or_si128(a, b);
        if none(any, splat16(0xFF80)) {
            out.push(_mm_packus_epi16(a, b), 16);
            return STEP;
        }
        let ascii_a = masked_eq16(a, 0xFF80, 0);
        let ascii_b = masked_eq16(b, 0xFF80, 0);
        if none(any, splat16(0xF800)) {
            let key = bits16(ascii_a, ascii_b);
            let ra = one_two(_mm_blendv_epi8(two_bytes(a), a, ascii_a), key);
            let rb = one_two(_mm_blendv_epi8(two_bytes(b), b, ascii_b), key >> 8);
            out.push(ra.0, ra.1);
            out.push(rb.0, rb.1);
            return STEP;
        }
        let surrogate_a = masked_eq16(a, 0xF800, 0xD800);
        let surrogate_b = masked_eq16(b, 0xF800, 0xD800);
        let surrogates = _mm_or_si128(surrogate_a, surrogate_b);
        let small_a = masked_eq16(a, 0xF800, 0);
        let small_b = masked_eq16(b, 0xF800, 0);
        // 1 to 3 bytes per lane: the first two, and the third.
        let lanes = |v: __m128i, ascii: __m128i, small: __m128i| {
            let head = _mm_blendv_epi8(three_bytes_head(v), two_bytes(v), small);
            (
                _mm_blendv_epi8(head, v, ascii),
                _mm_or_si128(_mm_and_si128(v, splat16(0x3F)), splat16(0x80)),
            )
        };
        if none(surrogates, surrogates) {
            let (head_a, third_a) = lanes(a, ascii_a, small_a);
            let (head_b, third_b) = lanes(b, ascii_b, small_b);
            let [r0, r1] = one_two_three(head_a, third_a, bits_interleaved(ascii_a, small_a));
            let [r2, r3] = one_two_three(head_b, third_b, bits_interleaved(ascii_b, small_b));
            for (reg, len) in [r0, r1, r2, r3] {
                out.push(reg, len);
            }
            return STEP;
        }
        if !PAIRS {
            return 0;
        }
        // Every low surrogate follows a high one and every high one is followed by a low one,
        // but for one in the last lane, left to the next step.
        let high_a = masked_eq16(a, 0xFC00, 0xD800);
        let high_b = masked_eq16(b, 0xFC00, 0xD800);
        let high = bits16(high_a, high_b);
        let low = bits16(surrogate_a, surrogate_b) & !high;
        if low != (high << 1) & 0xFFFF {
            return 0;
        }
        let split = (high >> 15) as usize;
        // The lanes of a pair hold two bytes each; lane 0 has no previous unit (and no low
        // surrogate).
        let halves_a = surrogate_halves(a, _mm_slli_si128::<2>(a), high_a);
        let halves_b = surrogate_halves(b, _mm_alignr_epi8::<14>(b, a), high_b);
        let small_a = _mm_or_si128(small_a, surrogate_a);
        let small_b = _mm_or_si128(small_b, surrogate_b);
        if _mm_test_all_ones(_mm_and_si128(small_a, small_b)) != 0 {
            let key = bits16(ascii_a, ascii_b);
            let two_a = _mm_blendv_epi8(two_bytes(a), halves_a, surrogate_a);
            let two_b = _mm_blendv_epi8(two_bytes(b), halves_b, surrogate_b);
            let ra = one_two(_mm_blendv_epi8(two_a, a, ascii_a), key);
            let rb = one_two(_mm_blendv_epi8(two_b, b, ascii_b), key >> 8);
            out.push(ra.0, ra.1);
            out.push(rb.0, rb.1 - 2 * split);
        } else {
            let (head_a, third_a) = lanes(a, ascii_a, small_a);
            let (head_b, third_b) = lanes(b, ascii_b, small_b);
            let head_a = _mm_blendv_epi8(head_a, halves_a, surrogate_a);
            let head_b = _mm_blendv_epi8(head_b, halves_b, surrogate_b);
            let [r0, r1] = one_two_three(head_a, third_a, bits_interleaved(ascii_a, small_a));
            let [r2, r3] = one_two_three(head_b, third_b, bits_interleaved(ascii_b, small_b));
            out.push(r0.0, r0.1);
            out.push(r1.0, r1.1);
            out.push(r2.0, r2.1);
            out.push(r3.0, r3.1 - 2 * split);
        }
        STEP - split
    }
}

/// Converts the longest prefix of `src`, UTF-16, that the steps accept, into `dst`, where it
/// fits with room to spare: the units read and bytes written. The exact path takes over from
/// there.
///
/// # Safety
/// The CPU has SSE4.1 and SSSE3.
#[inline(always)]
pub(crate) unsafe fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    let room = dst.len();
    // SAFETY: SSE2.
    let mut out = unsafe { Writer::new(dst) };
    let mut read = 0;
    while read + STEP <= src.len() && room - out.len() >= 3 * STEP {
        // SAFETY: `src` has the 16 units from `read`; the instructions by the caller; the
        // output has room for the step's at most three bytes per unit.
        let units = unsafe {
            let at = src.as_ptr().add(read);
            let a = _mm_loadu_si128(at.cast());
            let b = _mm_loadu_si128(at.add(8).cast());
            utf16_step::<true>(a, b, &mut out)
        };
        if units == 0 {
            break;
        }
        read += units;
    }
    // SAFETY: SSE2.
    (read, unsafe { out.finish() })
}

/// The 4-byte UTF-8 of 32-bit lanes of scalar values, compressed: 1 to 4 bytes per lane.
#[inline(always)]
unsafe fn one_to_four(c: __m128i) -> (__m128i, usize) {
    // SAFETY: SSE4.1, SSSE3.
    unsafe {
        // The bytes of the four-byte form without their marker bits, lead byte lowest.
        let bytes = _mm_or_si128(
            _mm_or_si128(
                _mm_srli_epi32::<18>(c),
                _mm_and_si128(_mm_srli_epi32::<4>(c), splat32(0x3F00)),
            ),
            _mm_or_si128(
                _mm_and_si128(_mm_slli_epi32::<10>(c), splat32(0x3F_0000)),
                _mm_and_si128(_mm_slli_epi32::<24>(c), splat32(0x3F00_0000)),
            ),
        );
        // Shorter forms are the same bytes' tail, their lead byte marked instead.
        let four = _mm_or_si128(bytes, splat32(0x8080_80F0));
        let three = _mm_or_si128(_mm_srli_epi32::<8>(bytes), splat32(0x0080_80E0));
        let two = _mm_or_si128(_mm_srli_epi32::<16>(bytes), splat32(0x0000_80C0));
        let wide2 = _mm_cmpgt_epi32(c, splat32(0x7F));
        let wide3 = _mm_cmpgt_epi32(c, splat32(0x7FF));
        let wide4 = _mm_cmpgt_epi32(c, splat32(0xFFFF));
        let lanes = _mm_blendv_epi8(c, two, wide2);
        let lanes = _mm_blendv_epi8(lanes, three, wide3);
        let lanes = _mm_blendv_epi8(lanes, four, wide4);
        let mask = |m: __m128i| SPREAD[(_mm_movemask_ps(_mm_castsi128_ps(m)) & 15) as usize];
        let key = usize::from(mask(wide2) + mask(wide3) + mask(wide4));
        let shuffle = _mm_loadu_si128(ONE_TO_FOUR.shuffle[key].as_ptr().cast());
        (
            _mm_shuffle_epi8(lanes, shuffle),
            usize::from(ONE_TO_FOUR.len[key]),
        )
    }
}

/// Converts the longest prefix of `src`, UTF-32, that the steps accept, into `dst`, as
/// [`utf16_to_utf8`] does: steps below U+10000 are narrowed to UTF-16 (where a surrogate makes
/// them refused), others take their scalar values four at a time.
///
/// # Safety
/// The CPU has SSE4.1 and SSSE3.
#[inline(always)]
pub(crate) unsafe fn utf32_to_utf8(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
    let room = dst.len();
    // SAFETY: SSE2.
    let mut out = unsafe { Writer::new(dst) };
    let mut read = 0;
    while read + STEP <= src.len() && room - out.len() >= 4 * STEP {
        // SAFETY: `src` has the 16 units from `read`; the instructions by the caller; the
        // output has room for the step's at most four bytes per unit.
        let units = unsafe {
            let at = src.as_ptr().add(read);
            let c: [__m128i; 4] = core::array::from_fn(|k| _mm_loadu_si128(at.add(4 * k).cast()));
            let any = _mm_or_si128(_mm_or_si128(c[0], c[1]), _mm_or_si128(c[2], c[3]));
            if none(any, splat32(0xFFFF_0000)) {
                // packus saturates nothing here: every value is below 0x10000.
                let a = _mm_packus_epi32(c[0], c[1]);
                let b = _mm_packus_epi32(c[2], c[3]);
                utf16_step::<false>(a, b, &mut out)
            } else {
                let max = _mm_max_epu32(_mm_max_epu32(c[0], c[1]), _mm_max_epu32(c[2], c[3]));
                let in_range = _mm_cmpeq_epi32(_mm_min_epu32(max, splat32(0x10_FFFF)), max);
                let surrogate = |v: __m128i| {
                    _mm_cmpeq_epi32(_mm_and_si128(v, splat32(0xFFFF_F800)), splat32(0xD800))
                };
                let surrogates = _mm_or_si128(
                    _mm_or_si128(surrogate(c[0]), surrogate(c[1])),
                    _mm_or_si128(surrogate(c[2]), surrogate(c[3])),
                );
                if _mm_test_all_ones(in_range) == 0 || !none(surrogates, surrogates) {
                    0
                } else {
                    for v in c {
                        let (reg, len) = one_to_four(v);
                        out.push(reg, len);
                    }
                    STEP
                }
            }
        };
        if units == 0 {
            break;
        }
        read += units;
    }
    // SAFETY: SSE2.
    (read, unsafe { out.finish() })
}
