//! UTF-16 and UTF-32 into UTF-8: the fast path that [`crate::engine::convert_to_utf8`] runs
//! in the SIMD kernels. Written from the description in Daniel Lemire and Wojciech Muła,
//! "Transcoding billions of Unicode characters per second with SIMD instructions", Software:
//! Practice and Experience 52(2), 2022 (arXiv:2109.10433), and Lemire, "Unicode at gigabytes per
//! second" (2021); the shuffle tables are computed below from their definition.
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
//! there. UTF-32 is narrowed to 16 bits with saturation and converted as UTF-16 where the
//! values of a step are all below 0x10000 (which the OR of the loaded values tells, as it
//! tells ASCII and "below U+0800"), else four at a time. Registers are stored whole, but every
//! byte stored past the output's end is overwritten, or at the end stored back as it was (see
//! [`Writer`]), so that what follows the output is as it was.
//!
//! The lane arithmetic runs on the 16 units of a step at once ([`StepRegister`]: two 128-bit
//! registers with SSE4.2, one 256-bit register with AVX2); the shuffles work on 128-bit halves,
//! which in an AVX2 function get VEX encodings. UTF-32 values from U+10000 up are encoded from
//! 128-bit registers of four. With AVX-512 VBMI2, 32 units below U+0800 are converted in one step
//! of their own, 32 of UTF-16 of any other characters in 32-bit lanes, and 16 of UTF-32 of any
//! other scalar values ([`CompressSteps`]), their bytes compressed by a mask.
//!
//! The last units of an input, or those whose bytes may not fit in what is left of the output,
//! go through tail steps: with AVX-512 loaded and stored by masks, else through buffers
//! ([`staged_tail`]); the exact path takes what they refuse.

use core::arch::x86_64::*;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

use crate::engine::{U16Swapped, Utf16Unit};

/// Units per step.
pub(crate) const STEP: usize = 16;

/// A byte shuffle that compresses the lanes of a register into the bytes they hold, and the
/// number of those bytes, for each key (the lanes' lengths, a few bits per lane).
struct Compress {
    shuffle: [[u8; 16]; 256],
    len: [u8; 256],
}

impl Compress {
    /// `lanes` compressed by the shuffle of `key` (its low 8 bits), and the bytes they hold.
    ///
    /// # Safety
    /// The CPU has SSSE3.
    #[inline(always)]
    unsafe fn apply(&self, lanes: __m128i, key: u32) -> (__m128i, usize) {
        let key = (key & 0xFF) as usize;
        // SAFETY: SSSE3 by the caller; `key` is below 256.
        unsafe {
            let shuffle = _mm_loadu_si128(self.shuffle[key].as_ptr().cast());
            (_mm_shuffle_epi8(lanes, shuffle), usize::from(self.len[key]))
        }
    }
}

/// The shuffles for registers of `16 / lane` lanes of `lane` bytes, keyed by `bits` bits per
/// lane (lane 0 lowest): a lane of code `c` holds the bytes at `bytes_of[c]` in it, in that
/// order, which move to just after those of the lanes before it; shuffle indexes with the top
/// bit set give zeros.
const fn compress(lane: usize, bits: usize, bytes_of: [&[u8]; 4]) -> Compress {
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
            while b < bytes_of[code].len() {
                t.shuffle[key][out] = (i * lane) as u8 + bytes_of[code][b];
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
static ONE_TWO: Compress = compress(2, 1, [&[0, 1], &[0], &[], &[]]);
/// 32-bit lanes keyed by two bits per lane, ASCII and "below U+0800 or a surrogate": three
/// bytes, one (never: ASCII is below U+0800), two, one.
static ONE_TWO_THREE: Compress = compress(4, 2, [&[0, 1, 2], &[0], &[0, 1], &[0]]);
/// As [`ONE_TWO_THREE`], for lanes laid out by [`push_one_two_three`]: the ASCII byte, the
/// last byte of two or three, the first of three, the first of two or second of three.
static ONE_TWO_THREE_SPREAD: Compress = compress(4, 2, [&[2, 3, 1], &[0], &[3, 1], &[0]]);
/// 32-bit lanes keyed by their length less one.
static ONE_TO_FOUR: Compress = compress(4, 2, [&[0], &[0, 1], &[0, 1, 2], &[0, 1, 2, 3]]);

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

/// 16 bytes of the output as they were before whole registers were stored over them, to be
/// stored back. A C caller's buffer may never have been written (fresh from `malloc`), so they
/// are copied as `MaybeUninit`, never read as values: a load of uninitialised bytes as an
/// integer vector would be undefined behaviour, though the bytes go back unchanged.
#[derive(Clone, Copy)]
pub(crate) struct Saved(MaybeUninit<__m128i>);

impl Saved {
    /// Nothing: for an output too short to hold 16 bytes past its end, where nothing is stored
    /// back, or a step that wrote nothing. Zeros, not left uninitialised: the converters' code
    /// comes out as it did when this was a register (leaving it undefined changed the AVX-512
    /// converter's code layout and slowed it: see BENCHMARKS.md).
    pub(crate) const NONE: Saved = Saved(MaybeUninit::zeroed());

    /// The 16 bytes at `p`.
    ///
    /// # Safety
    /// `p` has 16 readable bytes.
    #[inline(always)]
    pub(crate) unsafe fn load(p: *const u8) -> Saved {
        // SAFETY: 16 readable bytes by the caller, read unaligned; a `MaybeUninit` has no
        // invalid value.
        Saved(unsafe { p.cast::<MaybeUninit<__m128i>>().read_unaligned() })
    }

    /// Stores the bytes back at `p`.
    ///
    /// # Safety
    /// `p` has 16 writable bytes.
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: as for `load`, writable.
        unsafe { p.cast::<MaybeUninit<__m128i>>().write_unaligned(self.0) }
    }
}

/// Writes compressed registers into the output, leaving nothing past the output's end.
///
/// A register is stored whole, 16 bytes from where its own bytes go: those past them are
/// overwritten by the next register's, and so on, except after the last. Every step gives at
/// least 16 bytes, so that after it only the 16 bytes from the output's end can hold bytes that
/// are not the output's; before storing a step's registers, the writer loads the 16 bytes that
/// will follow them, which nothing has stored into yet, and [`Writer::finish`] stores back
/// those that follow the last step. A run of ASCII, stored exactly, covers what the stores
/// before it left past their bytes. Neither depends on a branch, which the widths of real text
/// would make unpredictable, and a step stores only the registers it fills.
struct Writer<'a> {
    dst: &'a mut [MaybeUninit<u8>],
    /// Bytes stored.
    at: usize,
    /// The 16 bytes of the output from `at` as they were before the writer stored anything
    /// there (if the output has them).
    tail: Saved,
}

impl<'a> Writer<'a> {
    /// # Safety
    /// The CPU has SSE2.
    #[inline(always)]
    unsafe fn new(dst: &'a mut [MaybeUninit<u8>]) -> Self {
        let tail = if dst.len() >= 16 {
            // SAFETY: `dst` has the 16 bytes loaded.
            unsafe { Saved::load(dst.as_ptr().cast::<u8>()) }
        } else {
            Saved::NONE
        };
        Writer { dst, at: 0, tail }
    }

    /// Bytes written so far.
    #[inline(always)]
    fn len(&self) -> usize {
        self.at
    }

    /// Stores the registers of a step whole, each with its bytes at its bottom, `lens` of them,
    /// at least 16 in all; the caller has checked that the output has room for 16 more than
    /// their bytes.
    #[inline(always)]
    unsafe fn step<const N: usize>(&mut self, regs: [__m128i; N], lens: [usize; N]) {
        let end = self.at + lens.iter().sum::<usize>();
        // SAFETY: SSE2 by the caller; the output has room for 16 bytes from `end` (by the
        // caller), and for a whole register from where each one's bytes go, below `end`.
        unsafe {
            self.tail = Saved::load(self.byte(end));
            for (reg, len) in regs.iter().zip(lens) {
                _mm_storeu_si128(self.next().cast(), *reg);
                self.at += len;
            }
        }
    }

    /// Stores 32 units of ASCII, `v` then `w`, exactly; the caller has checked that the output
    /// has room for them, and calls [`Writer::end_ascii`] after the last.
    #[inline(always)]
    unsafe fn ascii<U: StepRegister>(&mut self, v: U, w: U) {
        // SAFETY: `U`'s instruction set by the caller; room as above.
        unsafe { v.store_narrow(w, self.next()) };
        self.at += 2 * STEP;
    }

    /// Takes note of `len` bytes of ASCII stored exactly at [`Writer::next`], as
    /// [`Writer::ascii`] stores them.
    #[inline(always)]
    fn ascii_stored(&mut self, len: usize) {
        self.at += len;
    }

    /// Stores `N` registers of ASCII bytes exactly, as [`Writer::ascii`] does.
    #[inline(always)]
    unsafe fn ascii_bytes<const N: usize>(&mut self, regs: [__m128i; N]) {
        for reg in regs {
            // SAFETY: SSE2 by the caller; room as above.
            unsafe { _mm_storeu_si128(self.next().cast(), reg) };
            self.at += 16;
        }
    }

    /// Ends a run of ASCII: the 16 bytes that follow it are as they were (16 bytes or more of
    /// it cover all the stores before it left), and the output has room for them, as it had
    /// for 48 bytes from the last 16 of the run (see `input_limit`).
    #[inline(always)]
    unsafe fn end_ascii(&mut self) {
        // SAFETY: room as above.
        self.tail = unsafe { Saved::load(self.next()) };
    }

    /// The output's byte at `offset`.
    ///
    /// # Safety
    /// `offset` is at most the output's length.
    #[inline(always)]
    unsafe fn byte(&mut self, offset: usize) -> *mut u8 {
        // SAFETY: by the caller, `offset` is in the output or just past its end.
        unsafe { self.dst.as_mut_ptr().cast::<u8>().add(offset) }
    }

    /// Where the next bytes go.
    #[inline(always)]
    fn next(&mut self) -> *mut u8 {
        // SAFETY: `at` is at most the output's length.
        unsafe { self.byte(self.at) }
    }

    /// Takes note of `len` bytes, at least 16, stored at [`Writer::next`] with perhaps others
    /// in the 16 bytes after them, which held `tail` before.
    #[inline(always)]
    fn stored(&mut self, len: usize, tail: Saved) {
        self.at += len;
        self.tail = tail;
    }

    /// Stores back the bytes that follow the output, as they were: the length of the output.
    #[inline(always)]
    unsafe fn finish(mut self) -> usize {
        if self.at + 16 <= self.dst.len() {
            let next = self.next();
            // SAFETY: the output has the 16 bytes.
            unsafe { self.tail.store(next) };
        }
        self.at
    }
}

#[inline(always)]
unsafe fn splat32(v: u32) -> __m128i {
    // SAFETY: SSE2.
    unsafe { _mm_set1_epi32(v as i32) }
}

/// The registers of one instruction set that a step of the converter into UTF-8 holds its 16
/// UTF-16 units in (one register or two), and the 16-bit lane operations the algorithm needs on
/// them; the compression works on 128-bit halves.
///
/// # Safety
/// Implementations use instructions of one ISA (SSE4.1 and SSSE3 at least, which the halves'
/// code needs): their methods may only run on a CPU that has it.
pub(crate) unsafe trait StepRegister: Copy {
    /// Loads 16 units from `src`, which must have them.
    unsafe fn load(src: *const u16) -> Self;
    /// The bits set in any of 16 units of UTF-32, in a register.
    type Any: Copy;
    /// Loads 16 units of UTF-32 from `src`, which must have them, narrowed to 16 bits with
    /// saturation (units above 0xFFFF give 0xFFFF), and the bits set in any of them, which
    /// tell the kind of step from the loaded registers, not after the narrowing: the branch
    /// on it resolves sooner when it was mispredicted.
    unsafe fn load_narrow(src: *const u32) -> (Self, Self::Any);
    /// Whether no bit of `mask` is set in `any`.
    unsafe fn any_none(any: Self::Any, mask: u32) -> bool;
    /// Loads 16 units of UTF-32 from `src`, which must have them, four to a register. Where
    /// [`StepRegister::load_narrow`] loaded the same units, the loads are shared: one 128-bit load
    /// each would be merged with its wider ones, then rebuilt from general registers on every
    /// step, wide or not.
    unsafe fn load_wide(src: *const u32) -> [__m128i; 4];
    /// Loads 32 units of UTF-32 from `src`, which must have them, narrowed to bytes, and
    /// whether they are all ASCII (if not, the bytes mean nothing).
    unsafe fn load_ascii(src: *const u32) -> ([__m128i; 2], bool);
    /// Stores 16 units of UTF-32 at `dst`, four to a register as [`StepRegister::load_wide`]
    /// loads them, in stores from which the loads of [`StepRegister::load_narrow`] and
    /// `load_wide` at `dst` take their bytes as soon as stored: each load lies within one store
    /// (store forwarding).
    unsafe fn store_wide(units: [__m128i; 4], dst: *mut u32);
    /// Units 0..8, and 8..16.
    unsafe fn halves(self) -> [__m128i; 2];
    /// The register of units 0..8 and 8..16, as [`StepRegister::halves`] gives them.
    unsafe fn from_halves(halves: [__m128i; 2]) -> Self;
    unsafe fn splat(v: u16) -> Self;
    unsafe fn and(self, other: Self) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    unsafe fn add(self, other: Self) -> Self;
    /// All ones in the lanes where `self == other`.
    unsafe fn eq(self, other: Self) -> Self;
    /// `other`'s bytes where `mask`'s have their top bit set, `self`'s elsewhere.
    unsafe fn blend(self, other: Self, mask: Self) -> Self;
    unsafe fn shr<const N: i32>(self) -> Self;
    unsafe fn shl<const N: i32>(self) -> Self;
    /// Whether `self & mask` is zero.
    unsafe fn none(self, mask: Self) -> bool;
    /// Whether every bit is set.
    unsafe fn all_ones(self) -> bool;
    /// Each lane's previous unit (0 before the first).
    unsafe fn prev_units(self) -> Self;
    /// The top bit of each byte, byte `i` at bit `i`.
    unsafe fn byte_bits(self) -> u32;
    /// For a mask (each lane all ones or zeros), one bit per lane, lane `i` at bit `i`.
    unsafe fn lane_bits(self) -> u32;
    /// The low byte of each lane, for units all below 0x100.
    unsafe fn narrow(self) -> __m128i;
    /// Each lane's low byte in both its bytes.
    unsafe fn low_byte_twice(self) -> Self;
    /// Stores the low bytes of the lanes of `self` then `next`, units all below 0x100, at
    /// `dst`, which must have room for 32 bytes.
    unsafe fn store_narrow(self, next: Self, dst: *mut u8);
    /// The two bytes of each lane swapped (UTF-16 of the other byte order put in the
    /// machine's).
    unsafe fn swap_bytes(self) -> Self;
}

/// A unit of UTF-16 that the converter reads: in the machine's byte order (`u16`), or in the
/// other ([`U16Swapped`]), whose bytes are swapped in the registers loaded from it, so that the
/// steps, the runs of ASCII and the tail convert values as from `u16`: those of
/// [`StepRegister`] by [`Utf16Source::order`], those of a [`CompressSteps`] by its own swap,
/// which [`Utf16Source::SWAPPED`] tells it to make. The tests that choose among them read the
/// units as loaded, with their masks swapped instead ([`Utf16Source::NOT_ASCII`],
/// [`Utf16Source::as_loaded`]).
///
/// # Safety
/// Implementations are `u16` or `repr(transparent)` over it: the loads read them as `u16`.
pub(crate) unsafe trait Utf16Source: Utf16Unit {
    /// Whether the units are in the other byte order than the machine's.
    const SWAPPED: bool;

    /// The bits of a unit as loaded, before [`Utf16Source::order`], that are not ASCII's: runs of
    /// ASCII are looked for in the units as loaded, so that the test does not wait for the swap
    /// (nor swaps the units after the step's, which the next step loads again).
    const NOT_ASCII: u16 = if Self::SWAPPED {
        0xFF80u16.swap_bytes()
    } else {
        0xFF80
    };

    /// `bits` of a unit in the machine's byte order, where they are in the unit as loaded,
    /// before [`Utf16Source::order`]: a unit as loaded, masked by `as_loaded(m)`, is
    /// `as_loaded(x)` exactly where the unit in the machine's order, masked by `m`, is `x`, so
    /// that such tests of the units need not wait for the swap. (Only the AVX-512 steps test
    /// with masks of their own; builds without them have no use for it.)
    #[cfg(libutf8_avx512)]
    #[inline(always)]
    fn as_loaded(bits: u16) -> u16 {
        if Self::SWAPPED {
            bits.swap_bytes()
        } else {
            bits
        }
    }

    /// Units of this type as loaded from memory, put in the machine's byte order.
    ///
    /// # Safety
    /// `U`'s instruction set.
    #[inline(always)]
    unsafe fn order<U: StepRegister>(loaded: U) -> U {
        if Self::SWAPPED {
            // SAFETY: by the caller.
            unsafe { loaded.swap_bytes() }
        } else {
            loaded
        }
    }

    /// Units of this type as loaded from memory, all ASCII, put in the machine's byte order: in
    /// the other order each unit's character is its high byte, which a shift moves down. (With
    /// AVX2, [`Utf16Source::order`]'s byte shuffle competed with the narrowing's packs, also
    /// shuffles: see BENCHMARKS.md.)
    ///
    /// # Safety
    /// `U`'s instruction set.
    #[inline(always)]
    unsafe fn order_ascii<U: StepRegister>(loaded: U) -> U {
        if Self::SWAPPED {
            // SAFETY: by the caller.
            unsafe { loaded.shr::<8>() }
        } else {
            loaded
        }
    }
}

// SAFETY: `u16` itself.
unsafe impl Utf16Source for u16 {
    const SWAPPED: bool = false;
}

// SAFETY: `repr(transparent)` over `u16`.
unsafe impl Utf16Source for U16Swapped {
    const SWAPPED: bool = true;
}

/// Loads 16 units of UTF-16 from `src`, in the machine's byte order.
///
/// # Safety
/// `U`'s instruction set; `src` has 16 units.
#[inline(always)]
unsafe fn load<U: StepRegister, S: Utf16Source>(src: *const S) -> U {
    // SAFETY: by the caller; `S` is a `u16` (see `Utf16Source`).
    unsafe { S::order(U::load(src.cast())) }
}

/// Lanes where `v & mask == value`.
#[inline(always)]
unsafe fn masked_eq<U: StepRegister>(v: U, mask: u16, value: u16) -> U {
    // SAFETY: by the caller.
    unsafe { v.and(U::splat(mask)).eq(U::splat(value)) }
}

/// The two-byte UTF-8 of lanes below U+0800, first byte lowest.
#[inline(always)]
unsafe fn two_bytes<U: StepRegister>(v: U) -> U {
    // SAFETY: by the caller.
    unsafe {
        let tail = v.shl::<8>().and(U::splat(0x3F00));
        v.shr::<6>().or(tail).or(U::splat(0x80C0))
    }
}

/// The first two bytes of the three-byte UTF-8 of lanes, first byte lowest.
#[inline(always)]
unsafe fn three_bytes_head<U: StepRegister>(v: U) -> U {
    // SAFETY: by the caller.
    unsafe {
        let middle = v.shl::<2>().and(U::splat(0x3F00));
        v.shr::<12>().or(middle).or(U::splat(0x80E0))
    }
}

/// The first two bytes of the UTF-8 of lanes: one for those marked `ascii`, two for the others
/// marked `short`, the first two of three for the rest.
#[inline(always)]
unsafe fn head<U: StepRegister>(v: U, ascii: U, short: U) -> U {
    // SAFETY: by the caller.
    unsafe {
        three_bytes_head(v)
            .blend(two_bytes(v), short)
            .blend(v, ascii)
    }
}

/// The third byte of the three-byte UTF-8 of lanes.
#[inline(always)]
unsafe fn three_bytes_tail<U: StepRegister>(v: U) -> U {
    // SAFETY: by the caller.
    unsafe { v.and(U::splat(0x3F)).or(U::splat(0x80)) }
}

/// The two bytes each surrogate of a well-formed pair contributes (see the module comment),
/// first byte lowest; `high` marks high surrogates.
#[inline(always)]
unsafe fn surrogate_halves<U: StepRegister>(v: U, high: U) -> U {
    // SAFETY: by the caller.
    unsafe {
        // High: the plane, 0x10000 + (h - 0xD800) << 10 shifted down 10, is h's ten bits + 0x40.
        let plane = v.and(U::splat(0x3FF)).add(U::splat(0x40));
        let first = plane
            .shr::<8>()
            .or(plane.shl::<6>().and(U::splat(0x3F00)))
            .or(U::splat(0x80F0));
        // Low: the plane's two low bits (the high surrogate's) above the low's top four bits.
        let third = v
            .prev_units()
            .and(U::splat(3))
            .shl::<4>()
            .or(v.shr::<6>().and(U::splat(0xF)));
        let fourth = v.shl::<8>().and(U::splat(0x3F00));
        let second = third.or(fourth).or(U::splat(0x8080));
        second.blend(first, high)
    }
}

/// Two bits per lane: bit `2i` from mask `low` and bit `2i + 1` from mask `high`.
#[inline(always)]
unsafe fn bits_interleaved<U: StepRegister>(low: U, high: U) -> u32 {
    // SAFETY: by the caller.
    unsafe { low.blend(high, U::splat(0xFF00)).byte_bits() }
}

/// Writes 16 lanes of 1 or 2 bytes, a step; `ascii` marks those of one byte; the last `trim` bytes
/// are left out.
#[inline(always)]
unsafe fn push_one_two<U: StepRegister>(out: &mut Writer, lanes: U, ascii: U, trim: usize) {
    // SAFETY: by the caller.
    unsafe {
        let key = ascii.lane_bits();
        let [a, b] = lanes.halves();
        let ra = ONE_TWO.apply(a, key);
        let rb = ONE_TWO.apply(b, key >> 8);
        out.step([ra.0, rb.0], [ra.1, rb.1 - trim]);
    }
}

/// Writes 16 lanes of 1 to 3 bytes, a step, each lane's bytes spread over two registers: its
/// first two bytes in `low`, the next two in `high`, compressed by `table`; `ascii` marks those
/// of one byte, `short` those of one or two; the last `trim` bytes are left out.
#[inline(always)]
unsafe fn push_one_two_three<U: StepRegister>(
    out: &mut Writer,
    table: &Compress,
    low: U,
    high: U,
    ascii: U,
    short: U,
    trim: usize,
) {
    // SAFETY: by the caller.
    unsafe {
        let key = bits_interleaved(ascii, short);
        let [low_a, low_b] = low.halves();
        let [high_a, high_b] = high.halves();
        let r0 = table.apply(_mm_unpacklo_epi16(low_a, high_a), key);
        let r1 = table.apply(_mm_unpackhi_epi16(low_a, high_a), key >> 8);
        let r2 = table.apply(_mm_unpacklo_epi16(low_b, high_b), key >> 16);
        let r3 = table.apply(_mm_unpackhi_epi16(low_b, high_b), key >> 24);
        out.step([r0.0, r1.0, r2.0, r3.0], [r0.1, r1.1, r2.1, r3.1 - trim]);
    }
}

/// The bytes of lanes below U+10000, no surrogates, for [`ONE_TWO_THREE_SPREAD`]: in the low
/// register each lane's ASCII byte and the last byte of its two or three, in the high one the
/// first of three and the one before the last (first of two or second of three, which differ
/// by the bit that `short` sets). Cheaper than [`head`], which blends three forms.
#[inline(always)]
unsafe fn spread_bytes<U: StepRegister>(v: U, short: U) -> (U, U) {
    // SAFETY: by the caller.
    unsafe {
        let low = v
            .low_byte_twice()
            .and(U::splat(0x3F7F))
            .or(U::splat(0x8000));
        let high = three_bytes_head(v).or(short.and(U::splat(0x4000)));
        (low, high)
    }
}

/// Converts the 16 UTF-16 units `v` into `out`, which has room for 64 more bytes (48 and the
/// 16 that [`Writer::step`] may store past them): the number of
/// units converted (16, or 15 if the last one is a high surrogate, which the next step takes
/// with its low one), or 0 (nothing written) if they hold a lone surrogate, or any surrogate
/// when `PAIRS` is false (units that came from UTF-32), or any unit from U+0800 up when
/// `narrow` is false (UTF-32 units, some of them above 0xFFFF, narrowed with saturation: below
/// U+0800 they are exact). `one_two` tells whether the units are all below U+0800.
#[inline(always)]
unsafe fn utf16_step<U: StepRegister, const PAIRS: bool>(
    v: U,
    one_two: bool,
    narrow: bool,
    out: &mut Writer,
) -> usize {
    // SAFETY: by the caller.
    unsafe {
        // ASCII takes the 1-2 byte path (the caller copies runs of it): one branch fewer to
        // mispredict where ASCII and other characters alternate (callgrind counts fewer
        // mispredictions on French text, from UTF-16 and from UTF-32: see BENCHMARKS.md).
        let ascii = masked_eq(v, 0xFF80, 0);
        if one_two {
            push_one_two(out, two_bytes(v).blend(v, ascii), ascii, 0);
            return STEP;
        }
        if !narrow {
            return 0;
        }
        let surrogate = masked_eq(v, 0xF800, 0xD800);
        let short = masked_eq(v, 0xF800, 0);
        if surrogate.none(surrogate) {
            let (low, high) = spread_bytes(v, short);
            push_one_two_three(out, &ONE_TWO_THREE_SPREAD, low, high, ascii, short, 0);
            return STEP;
        }
        if !PAIRS {
            return 0;
        }
        // Every low surrogate follows a high one and every high one is followed by a low one,
        // but for one in the last lane, left to the next step.
        let high_mask = masked_eq(v, 0xFC00, 0xD800);
        let high = high_mask.lane_bits();
        let low = surrogate.lane_bits() & !high;
        if low != (high << 1) & 0xFFFF {
            return 0;
        }
        let split = (high >> 15) as usize;
        // Fifteen units of ASCII before a high surrogate would give 15 bytes: fewer than a
        // step must give (see [`Writer`]).
        if split == 1 && ascii.lane_bits() & 0x7FFF == 0x7FFF {
            return 0;
        }
        // The lanes of a pair hold two bytes each.
        let halves = surrogate_halves(v, high_mask);
        let short = short.or(surrogate);
        if short.all_ones() {
            let lanes = two_bytes(v).blend(halves, surrogate).blend(v, ascii);
            push_one_two(out, lanes, ascii, 2 * split);
        } else {
            let head = head(v, ascii, short).blend(halves, surrogate);
            let third = three_bytes_tail(v);
            push_one_two_three(out, &ONE_TWO_THREE, head, third, ascii, short, 2 * split);
        }
        STEP - split
    }
}

/// The steps, wider than [`StepRegister`]'s, that an instruction set able to compress the bytes
/// of a register by a mask (AVX-512 VBMI2) adds to the converter into UTF-8: 32 units below
/// U+0800, the text of most alphabetic scripts, UTF-16 or UTF-32; 32 units of UTF-16 of any
/// other characters (CJK, Indic scripts, emoji), in 32-bit lanes; 16 units of UTF-32 of any
/// scalar values.
///
/// # Safety
/// Implementations use instructions of one ISA: they may only run on a CPU that has it.
pub(crate) unsafe trait CompressSteps {
    /// Whether the UTF-16 loop leaves the steps for a run of ASCII only where
    /// [`CompressSteps::ascii_ahead`] finds a long one, tested before every other step, instead of
    /// wherever the first 16 units of a step are ASCII; shorter stretches of ASCII are
    /// converted by [`CompressSteps::utf16`] with the characters around them. In text that
    /// mixes ASCII with other characters, such as Wikipedia's, whether 16 or 32 units are
    /// ASCII is a branch that no predictor learns (in 30-45% of its steps of 32 units the
    /// answer differs from the step before's), and a step costs less than its misprediction.
    const LONG_ASCII_RUNS: bool = false;

    /// Without [`CompressSteps::LONG_ASCII_RUNS`], the units of ASCII, 16 or 32, from which the
    /// UTF-16 loop leaves the steps for a run of ASCII: fewer are converted by the steps with
    /// the characters around them.
    const ASCII_RUN_UNITS: usize = STEP;

    /// With [`CompressSteps::LONG_ASCII_RUNS`], whether the units at `src`, of which `units` are
    /// readable, start with a run of ASCII to leave the steps for (false if `units` are too
    /// few to tell).
    ///
    /// # Safety
    /// `src` has `units` units.
    unsafe fn ascii_ahead<S: Utf16Source>(_src: *const S, _units: usize) -> bool {
        false
    }

    /// Whether the steps have their own [`CompressSteps::ascii_units`], which the UTF-16
    /// loop then takes for runs of ASCII instead of its registers' loads, tests and stores.
    const ASCII_UNITS: bool = false;

    /// With [`CompressSteps::ASCII_UNITS`], stores the 64 units at `src`, UTF-16 of either byte
    /// order, as 64 bytes at `dst` if they are all ASCII, and says whether they were; stores
    /// nothing if not.
    ///
    /// # Safety
    /// `src` has 64 units; `dst` has room for 64 bytes.
    unsafe fn ascii_units<S: Utf16Source>(_src: *const S, _dst: *mut u8) -> bool {
        false
    }

    /// Converts the UTF-16 at `src`, of either byte order (see [`Utf16Source`]), writing its
    /// bytes at `dst`, and perhaps others in the 16 bytes after them: the units read, the
    /// bytes written, and the 16 bytes after them as they were: 32 units (or 31 when the last
    /// is a high surrogate, which the next step takes with its low one) give 31 to 96 bytes;
    /// (0, 0, _), nothing written, if they hold a lone surrogate.
    ///
    /// # Safety
    /// `src` has 32 units; `dst` has room for 112 bytes.
    unsafe fn utf16<S: Utf16Source>(src: *const S, dst: *mut u8) -> (usize, usize, Saved);

    /// Converts the 16 UTF-32 units at `src` as [`CompressSteps::utf16`] converts 16 units: their
    /// 16 to 64 bytes and the 16 bytes after them as they were, or (0, _), nothing written, if
    /// they hold a surrogate or a value above U+10FFFF.
    ///
    /// # Safety
    /// `src` has 16 units; `dst` has room for 80 bytes.
    unsafe fn utf32(src: *const u32, dst: *mut u8) -> (usize, Saved);

    /// Converts the UTF-32 at the start of `src`, 32 units at a time (or a last 16) while they
    /// are scalar values, writing exactly their bytes at `dst`: the units read and bytes
    /// written, at least 16 if any; (0, 0) if there is no such conversion.
    ///
    /// # Safety
    /// `dst` has room for 4 bytes per unit of `src` and 16 more.
    unsafe fn utf32_run(src: &[u32], dst: *mut u8) -> (usize, usize);

    /// Converts UTF-16 of either byte order from the start of `src` into `dst`, in steps of 32
    /// units or the last ones, each converted as [`CompressSteps::utf16`] does but only if its
    /// bytes fit, writing nothing past them, until a step does not fit or holds a lone
    /// surrogate: the units read and bytes written. For the units that the steps leave, for
    /// want of input or of room for a step's most bytes and 16 more: without it the exact path,
    /// which goes one character at a time with a branch on its width that no predictor learns
    /// in mixed text, converted the last 31 units of every input, and into an output of exactly
    /// the size needed (as the length functions give it) its last 80 to 112 bytes. With AVX-512
    /// the steps' bytes are stored by a mask; without, through buffers ([`staged_tail`]).
    ///
    /// # Safety
    /// The CPU has the instruction set.
    unsafe fn utf16_tail<S: Utf16Source>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> (usize, usize);

    /// Converts UTF-32 as [`CompressSteps::utf16_tail`] converts UTF-16, in steps of 16 units,
    /// until a step does not fit or holds a value that is not a scalar value.
    ///
    /// # Safety
    /// The CPU has the instruction set.
    unsafe fn utf32_tail(src: &[u32], dst: &mut [MaybeUninit<u8>]) -> (usize, usize);
}

/// No compressing steps: 16 units at a time, with the registers `U`, and the tail in steps of 16
/// units through buffers of their own ([`staged_tail`]).
pub(crate) struct NoCompressSteps<U>(PhantomData<U>);

// SAFETY: `U`'s instructions, which the trait's contract covers as `U`'s does.
unsafe impl<U: StepRegister> CompressSteps for NoCompressSteps<U> {
    #[inline(always)]
    unsafe fn utf16<S: Utf16Source>(_: *const S, _: *mut u8) -> (usize, usize, Saved) {
        (0, 0, Saved::NONE)
    }

    #[inline(always)]
    unsafe fn utf32(_: *const u32, _: *mut u8) -> (usize, Saved) {
        (0, Saved::NONE)
    }

    #[inline(always)]
    unsafe fn utf32_run(_: &[u32], _: *mut u8) -> (usize, usize) {
        (0, 0)
    }

    #[inline(always)]
    unsafe fn utf16_tail<S: Utf16Source>(src: &[S], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: `U`'s instruction set by the caller.
        unsafe { staged_tail::<U, S>(src, dst) }
    }

    #[inline(always)]
    unsafe fn utf32_tail(src: &[u32], dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
        // SAFETY: `U`'s instruction set by the caller.
        unsafe { staged_tail::<U, u32>(src, dst) }
    }

    /// 32: in text that mixes ASCII with 2-byte characters, runs of 16 to 31 units of ASCII
    /// left the steps for a run that ended at once, on a branch that no predictor learns. From
    /// 32, fresh text of Latin scripts converts faster and other text as fast; not for
    /// AVX-512's steps, where 32 slowed other scripts, nor from UTF-32, where it costs a second
    /// load and test and slowed text that a predictor learns. The measurements are in
    /// BENCHMARKS.md.
    const ASCII_RUN_UNITS: usize = 2 * STEP;
}

/// A unit type (UTF-16 of either byte order, or UTF-32) that [`staged_tail`] converts.
trait StagedTailUnit: crate::engine::CodeUnit {
    /// Converts `src`, [`STAGED_MIN`] to 16 units followed by zeros to make 16, as the steps of
    /// the converter's loop do, into `out`, which has room for 80 more bytes: the units
    /// converted (zeros included), or 0.
    ///
    /// # Safety
    /// `U`'s instruction set; `src` has `STAGED_MIN` to 16 units.
    unsafe fn step<U: StepRegister>(src: &[Self], out: &mut Writer) -> usize;
}

/// UTF-16 of either byte order.
impl<S: Utf16Source> StagedTailUnit for S {
    #[inline(always)]
    unsafe fn step<U: StepRegister>(src: &[S], out: &mut Writer) -> usize {
        // SAFETY: by the caller; `src` has the 16 units `load` reads, or the STAGED_MIN to 15
        // that `load_short` reads.
        unsafe {
            let v = match src.first_chunk::<STEP>() {
                Some(whole) => load::<U, S>(whole.as_ptr()),
                None => load_short::<U, S>(src),
            };
            utf16_step::<U, true>(v, v.none(U::splat(0xF800)), true, out)
        }
    }
}

impl StagedTailUnit for u32 {
    #[inline(always)]
    unsafe fn step<U: StepRegister>(src: &[u32], out: &mut Writer) -> usize {
        let mut units = MaybeUninit::<[u32; STEP]>::uninit();
        // SAFETY: by the caller; 16 units at `at`: the input's own where it has 16, else a
        // copy followed by zeros, all 16 stored by `store_wide`.
        unsafe {
            let at = match src.first_chunk::<STEP>() {
                Some(whole) => whole.as_ptr(),
                None => {
                    U::store_wide(short_quarters(src), units.as_mut_ptr().cast());
                    units.as_ptr().cast()
                }
            };
            let (v, any) = U::load_narrow(at);
            let (short, narrow) = (U::any_none(any, !0x7FF), U::any_none(any, !0xFFFF));
            match utf16_step::<U, false>(v, short, narrow, out) {
                0 if !narrow => wide_step::<U>(at, out),
                units => units,
            }
        }
    }
}

/// Byte indices for pshufb that move the bytes of a 16-byte register down by `n`, zeros after
/// them: the 16 from `SHIFT_DOWN[n]` (0x80 gives a zero).
pub(crate) const SHIFT_DOWN: [u8; 32] = {
    let mut t = [0x80; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// Loads the [`STAGED_MIN`] to 15 units of `src`, zeros after them: its first 8 units and its
/// last 8 (the two loads overlap), these moved down to follow the first; below 8 units, 4 and
/// 4 alike. Not a copy into a buffer: a register loaded from units just stored waits for them
/// (store forwarding fails), which strings of 8 to 15 units of UTF-16 paid on every call (see
/// BENCHMARKS.md).
///
/// # Safety
/// `U`'s instruction set (SSSE3 at least); `src` has `STAGED_MIN` to 15 units.
#[inline(always)]
unsafe fn load_short<U: StepRegister, S: Utf16Source>(src: &[S]) -> U {
    debug_assert!((STAGED_MIN..STEP).contains(&src.len()) && STAGED_MIN >= 4);
    let n = src.len();
    // `S` is a `u16` (see `Utf16Source`).
    let p = src.as_ptr().cast::<u16>();
    // SAFETY: the loads read src[..8] and src[n - 8..], or src[..4] and src[n - 4..], inside
    // `src`; SHIFT_DOWN has 16 bytes from 2 * (16 - n) or 2 * (8 - n), at most 16; SSSE3 by
    // the caller.
    unsafe {
        let shift = |by: usize| _mm_loadu_si128(SHIFT_DOWN.as_ptr().add(2 * by).cast());
        let loaded = if n >= 8 {
            let last = _mm_loadu_si128(p.add(n - 8).cast());
            U::from_halves([
                _mm_loadu_si128(p.cast()),
                _mm_shuffle_epi8(last, shift(STEP - n)),
            ])
        } else {
            // loadl zeroes the upper 8 bytes, which the shuffle moves in after the units.
            let last = _mm_shuffle_epi8(_mm_loadl_epi64(p.add(n - 4).cast()), shift(8 - n));
            let low = _mm_unpacklo_epi64(_mm_loadl_epi64(p.cast()), last);
            U::from_halves([low, _mm_setzero_si128()])
        };
        // Zeros swapped are zeros.
        S::order(loaded)
    }
}

/// The [`STAGED_MIN`] to 15 units of UTF-32 of `src`, zeros after them, four to a register:
/// the whole fours loaded, the last (partial) one taken from the last four units, moved down,
/// and not a copy into a buffer (as for [`load_short`]); stored again by
/// [`StepRegister::store_wide`] so that the step's loads take them at once (see BENCHMARKS.md).
///
/// # Safety
/// SSSE3; `src` has `STAGED_MIN` to 15 units.
#[inline(always)]
unsafe fn short_quarters(src: &[u32]) -> [__m128i; 4] {
    debug_assert!((STAGED_MIN..STEP).contains(&src.len()) && STAGED_MIN >= 4);
    let n = src.len();
    let p = src.as_ptr();
    // SAFETY: each load reads four units inside `src` (4q + 4 <= n, or the last four);
    // SHIFT_DOWN has 16 bytes from 4 * (4q + 4 - n), at most 12; SSSE3 by the caller.
    unsafe {
        let last = _mm_loadu_si128(p.add(n - 4).cast());
        core::array::from_fn(|q| {
            if 4 * q + 4 <= n {
                _mm_loadu_si128(p.add(4 * q).cast())
            } else if 4 * q < n {
                let shift = SHIFT_DOWN.as_ptr().add(4 * (4 * q + 4 - n));
                _mm_shuffle_epi8(last, _mm_loadu_si128(shift.cast()))
            } else {
                _mm_setzero_si128()
            }
        })
    }
}

/// Units from which [`staged_tail`] converts the last ones of its input: fewer go through the
/// exact path. While the last units were copied into a buffer, 8: below that, short mixed
/// strings were slower through it. Loaded in place ([`load_short`], [`short_quarters`]), 4 to 7
/// units pay too: short strings of 3-byte characters (Chinese, 5 or 6 units to a 16-byte
/// string) gain most (see BENCHMARKS.md).
const STAGED_MIN: usize = 4;

/// The tail steps of an instruction set that cannot store a register's bytes by a mask (see
/// [`CompressSteps::utf16_tail`]): each 16 units (the last ones followed by zeros) are converted by
/// [`StagedTailUnit::step`] into a buffer, and their bytes copied into `dst` if they fit. Zeros are
/// ASCII, one byte each after the bytes of the units, which are left out; a high surrogate that
/// ends the input is followed by a zero, and refused with the lone ones. Runs of ASCII go as the
/// exact path's, and the last units if fewer than [`STAGED_MIN`]. Against the exact path, short
/// strings into outputs of exactly their size convert faster, those of 2-byte characters most;
/// ASCII and fresh text as fast (see BENCHMARKS.md).
///
/// # Safety
/// `U`'s instruction set.
#[inline(always)]
unsafe fn staged_tail<U: StepRegister, S: StagedTailUnit>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(rest) = src.get(read..).filter(|r| !r.is_empty()) {
        // Runs of ASCII are copied as the exact path copies them, with no buffer: through the
        // buffers, short ASCII strings took several times as long.
        if rest.first().is_some_and(|u| u.value() < 0x80) {
            let out = dst.get_mut(written..).unwrap_or_default();
            let copied = if rest.len() < 32 {
                crate::engine::copy_short_ascii(rest, out)
            } else {
                crate::engine::copy_ascii(rest, out)
            };
            if copied == 0 {
                break;
            }
            read += copied;
            written += copied;
            continue;
        }
        let n = rest.len().min(STEP);
        if n < STAGED_MIN {
            break;
        }
        let mut stage = [MaybeUninit::<u8>::uninit(); 4 * STEP + 16];
        // SAFETY: `U`'s instruction set (SSE2 at least) by the caller; 4 to 16 units in
        // `rest[..n]`, room for 80 bytes in `out`.
        let (converted, staged) = unsafe {
            let mut out = Writer::new(&mut stage);
            let converted = S::step::<U>(&rest[..n], &mut out);
            (converted, out.len())
        };
        if converted == 0 {
            break;
        }
        // A step of fewer than 16 units converted its zeros too; one of 16 may leave the last.
        let (units_read, len) = (converted.min(n), staged - (STEP - n));
        let (Some(target), Some(bytes)) = (dst.get_mut(written..written + len), stage.get(..len))
        else {
            break;
        };
        copy_staged(bytes, target);
        read += units_read;
        written += len;
    }
    (read, written)
}

/// Copies `src` to `dst`, of the same length, a stage's bytes, in pieces of 16, 8
/// or 4 bytes that may overlap, or one at a time below 4: a copy of `src.len()` bytes was a
/// call to memcpy, a quarter of the time of strings of 8 units of UTF-16.
#[inline(always)]
pub(crate) fn copy_staged(src: &[MaybeUninit<u8>], dst: &mut [MaybeUninit<u8>]) {
    debug_assert_eq!(src.len(), dst.len());
    /// The first and last `N` bytes of `src` into those of `dst`, if both have `N`.
    fn ends<const N: usize>(src: &[MaybeUninit<u8>], dst: &mut [MaybeUninit<u8>]) -> bool {
        let (Some(first), Some(last)) = (src.first_chunk::<N>(), src.last_chunk::<N>()) else {
            return false;
        };
        let (first, last) = (*first, *last);
        if let Some(d) = dst.first_chunk_mut::<N>() {
            *d = first;
        }
        if let Some(d) = dst.last_chunk_mut::<N>() {
            *d = last;
        }
        true
    }
    if src.len() > 32 {
        // The 16-byte pieces before the last 16.
        for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
            d.copy_from_slice(s);
        }
    }
    let _ = ends::<16>(src, dst) || ends::<8>(src, dst) || ends::<4>(src, dst) || {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = *s;
        }
        true
    };
}

/// Converts the longest prefix of `src`, UTF-16, that the steps accept, into `dst`, where it
/// fits with room to spare, but for its last 31 units at most (each step is checked to leave
/// room for a run of ASCII after it, which spares a check per step), then `W`'s tail steps
/// (see [`CompressSteps::utf16_tail`]): the units read and bytes written. The exact path takes
/// over from there.
///
/// UTF-16 in the other byte order than the machine's ([`U16Swapped`]) is swapped as it is
/// loaded, by `U`'s registers and `W`'s steps alike (see [`Utf16Source`]).
///
/// # Safety
/// The CPU has `U`'s and `W`'s instruction sets.
#[inline(always)]
pub(crate) unsafe fn utf16_to_utf8<U: StepRegister, W: CompressSteps, S: Utf16Source>(
    src: &[S],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let room = dst.len();
    // No step at all: the writer's load of the output, which may wait for the stores of a
    // call just before (a masked store, with AVX-512), is not made: the wait slowed short
    // strings (see BENCHMARKS.md).
    if !utf16_steps_fit(src.len(), room) {
        // SAFETY: `W`'s instruction set by our caller.
        return unsafe { W::utf16_tail(src, dst) };
    }
    // SAFETY: SSE2.
    let mut out = unsafe { Writer::new(dst) };
    let mut read = 0;
    // With W::LONG_ASCII_RUNS, whether this step tests for a run of ASCII: every other step
    // (a branch that alternates is predicted), which halves the cost of the test to text that
    // has no such run.
    let mut test_ascii = false;
    loop {
        let limit = input_limit(read, src.len(), room - out.len(), 3);
        // Steps go on while a run of ASCII could start: the last units go to the exact path.
        if read + 2 * STEP > limit {
            break;
        }
        while read + 2 * STEP <= limit {
            // SAFETY: `src` has the units loaded, below `limit`; the instructions by the caller;
            // the output has room for them (see `input_limit`).
            let units = unsafe {
                let at = src.as_ptr().add(read);
                // `S` is a `u16` (see `Utf16Source`), tested for ASCII as loaded, and put in the
                // machine's order only where used: most steps are `W`'s, which load their units
                // themselves.
                let mut loaded = U::load(at.cast());
                let run = if W::LONG_ASCII_RUNS {
                    test_ascii = !test_ascii;
                    test_ascii && W::ascii_ahead(at, limit - read)
                } else {
                    let units = if W::ASCII_RUN_UNITS > STEP {
                        loaded.or(U::load(at.add(STEP).cast()))
                    } else {
                        loaded
                    };
                    units.none(U::splat(S::NOT_ASCII))
                };
                if run {
                    // A run of ASCII: these 16 units, then 32 at a time, as far as they fit.
                    let ascii_limit = ascii_limit(read, src.len(), room - out.len());
                    out.ascii_bytes::<1>([S::order_ascii(loaded).narrow()]);
                    read += STEP;
                    // 64 units at a time, one test and one branch for them, while they are
                    // ASCII; then 32 at a time to the run's end.
                    while W::ASCII_UNITS && read + 4 * STEP <= ascii_limit {
                        if !W::ascii_units(src.as_ptr().add(read), out.next()) {
                            break;
                        }
                        out.ascii_stored(4 * STEP);
                        read += 4 * STEP;
                    }
                    while !W::ASCII_UNITS && read + 4 * STEP <= ascii_limit {
                        let at = src.as_ptr().add(read);
                        let (a, b) = (U::load(at.cast()), U::load(at.add(STEP).cast()));
                        let (c, d) = (
                            U::load(at.add(2 * STEP).cast()),
                            U::load(at.add(3 * STEP).cast()),
                        );
                        if !a.or(b).or(c.or(d)).none(U::splat(S::NOT_ASCII)) {
                            break;
                        }
                        out.ascii(S::order_ascii(a), S::order_ascii(b));
                        out.ascii(S::order_ascii(c), S::order_ascii(d));
                        read += 4 * STEP;
                    }
                    loop {
                        if read + 2 * STEP > ascii_limit {
                            break;
                        }
                        let at = src.as_ptr().add(read);
                        let next;
                        (loaded, next) = (U::load(at.cast()), U::load(at.add(STEP).cast()));
                        if !loaded.or(next).none(U::splat(S::NOT_ASCII)) {
                            break;
                        }
                        out.ascii(S::order_ascii(loaded), S::order_ascii(next));
                        read += 2 * STEP;
                    }
                    out.end_ascii();
                    // Where the run ends, `loaded` is the next step's; near the limit (or past
                    // it) the loop checks again.
                    if read + 2 * STEP > limit {
                        continue;
                    }
                }
                // `W`'s contract holds: 32 units at `read`, below `limit`, which leaves room for
                // 3 bytes each and 16 more.
                match W::utf16(src.as_ptr().add(read), out.next()) {
                    (0, _, _) => {
                        let v = S::order(loaded);
                        let one_two = v.none(U::splat(0xF800));
                        utf16_step::<U, true>(v, one_two, true, &mut out)
                    }
                    (units, len, tail) => {
                        out.stored(len, tail);
                        units
                    }
                }
            };
            if units == 0 {
                // SAFETY: SSE2.
                return (read, unsafe { out.finish() });
            }
            read += units;
        }
    }
    // SAFETY: SSE2.
    let written = unsafe { out.finish() };
    let (rest, out) = (src.get(read..), dst.get_mut(written..));
    // SAFETY: `W`'s instruction set by our caller.
    let (r, w) = unsafe { W::utf16_tail(rest.unwrap_or_default(), out.unwrap_or_default()) };
    (read + r, written + w)
}

/// Whether [`utf16_to_utf8`] takes a step of `units` units of UTF-16 into `room` bytes: if not,
/// it converts them by `W`'s tail steps alone.
#[inline(always)]
pub(crate) fn utf16_steps_fit(units: usize, room: usize) -> bool {
    input_limit(0, units, room, 3) >= 2 * STEP
}

/// Whether [`utf32_to_utf8`] takes a step of `units` units of UTF-32 into `room` bytes.
#[inline(always)]
pub(crate) fn utf32_steps_fit(units: usize, room: usize) -> bool {
    input_limit(0, units, room, 4) >= STEP
}

/// How far from `read` the input of a converter may go, `end` being its end, for its output to
/// fit in `room` bytes (those left) at `per_unit` bytes per unit at most, with 16 to spare for
/// the whole registers stored (see [`Writer`]): the steps below it need no other check.
#[inline(always)]
fn input_limit(read: usize, end: usize, room: usize, per_unit: usize) -> usize {
    read + (end - read).min(room.saturating_sub(16) / per_unit)
}

/// [`input_limit`] for a run of ASCII, one byte per unit. Held to the steps' limit, at 3 or 4
/// bytes per unit, ASCII into an output of exactly its size went round the loop again and
/// again, each time as far as a third or a fourth of the room left. Held to one byte per unit,
/// ASCII strings of a few hundred units and more convert faster with every kernel, mixed
/// strings and fresh text as fast. One case lost, unexplained: AVX2, ASCII strings of 100 units
/// of UTF-32, where 80 units now go through the steps and 20 through the exact path, before 32
/// and 68 (see BENCHMARKS.md).
#[inline(always)]
fn ascii_limit(read: usize, end: usize, room: usize) -> usize {
    input_limit(read, end, room, 1)
}

/// Lanes that are surrogates, 32-bit.
#[inline(always)]
unsafe fn surrogate(v: __m128i) -> __m128i {
    // SAFETY: SSE2.
    unsafe { _mm_cmpeq_epi32(_mm_and_si128(v, splat32(0xFFFF_F800)), splat32(0xD800)) }
}

/// One bit per 32-bit lane of a mask, at bits 0, 2, 4, 6 (see [`SPREAD`]).
#[inline(always)]
unsafe fn spread(mask: __m128i) -> u8 {
    // SAFETY: SSE2.
    SPREAD[(unsafe { _mm_movemask_ps(_mm_castsi128_ps(mask)) } & 15) as usize]
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
        let key = spread(wide2) + spread(wide3) + spread(wide4);
        ONE_TO_FOUR.apply(lanes, u32::from(key))
    }
}

/// Converts the 16 UTF-32 units at `src` into `out`, which has room for 80 more bytes, from
/// scalar values four at a time: 16, or 0 (nothing written) if they hold a surrogate or a
/// value above U+10FFFF.
#[inline(always)]
unsafe fn wide_step<U: StepRegister>(src: *const u32, out: &mut Writer) -> usize {
    // SAFETY: by the caller.
    unsafe {
        let c = U::load_wide(src);
        let max = _mm_max_epu32(_mm_max_epu32(c[0], c[1]), _mm_max_epu32(c[2], c[3]));
        let in_range = _mm_cmpeq_epi32(_mm_min_epu32(max, splat32(0x10_FFFF)), max);
        let surrogates = _mm_or_si128(
            _mm_or_si128(surrogate(c[0]), surrogate(c[1])),
            _mm_or_si128(surrogate(c[2]), surrogate(c[3])),
        );
        if _mm_test_all_ones(in_range) == 0 || _mm_testz_si128(surrogates, surrogates) == 0 {
            return 0;
        }
        let [r0, r1, r2, r3] = [
            one_to_four(c[0]),
            one_to_four(c[1]),
            one_to_four(c[2]),
            one_to_four(c[3]),
        ];
        out.step([r0.0, r1.0, r2.0, r3.0], [r0.1, r1.1, r2.1, r3.1]);
        STEP
    }
}

/// Converts the longest prefix of `src`, UTF-32, that the steps accept, into `dst`, as
/// [`utf16_to_utf8`] does: `W`'s steps where it has them; else steps below U+10000 are
/// narrowed to UTF-16 (where a surrogate makes them refused), others take their scalar values
/// four at a time.
///
/// # Safety
/// The CPU has `U`'s and `W`'s instruction sets.
#[inline(always)]
pub(crate) unsafe fn utf32_to_utf8<U: StepRegister, W: CompressSteps>(
    src: &[u32],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let room = dst.len();
    // As in `utf16_to_utf8`.
    if !utf32_steps_fit(src.len(), room) {
        // SAFETY: `W`'s instruction set by our caller.
        return unsafe { W::utf32_tail(src, dst) };
    }
    // SAFETY: SSE2.
    let mut out = unsafe { Writer::new(dst) };
    let mut read = 0;
    loop {
        let limit = input_limit(read, src.len(), room - out.len(), 4);
        if read + STEP > limit {
            break;
        }
        while read + STEP <= limit {
            // SAFETY: the output has room for 4 bytes per unit below `limit` and 16 more (see
            // `input_limit`); the run writes exactly its bytes, at least 16 (which cover what
            // the steps before it left past theirs), and the 16 after them are as they were.
            // `read + STEP <= limit <= src.len()`, so the units are in `src`.
            let (run, run_len) =
                unsafe { W::utf32_run(src.get_unchecked(read..limit), out.next()) };
            if run > 0 {
                // SAFETY: as above.
                let tail = unsafe { Saved::load(out.next().add(run_len)) };
                out.stored(run_len, tail);
                read += run;
                continue;
            }
            // SAFETY: `src` has the units loaded, below `limit`; the instructions by the caller;
            // the output has room for them (see `input_limit`).
            let units = unsafe {
                let (mut v, mut any) = U::load_narrow(src.as_ptr().add(read));
                if U::any_none(any, !0x7F) {
                    // A run of ASCII: these 16 units, then 32 at a time, as far as they fit.
                    let ascii_limit = ascii_limit(read, src.len(), room - out.len());
                    out.ascii_bytes::<1>([v.narrow()]);
                    read += STEP;
                    while read + 2 * STEP <= ascii_limit {
                        match U::load_ascii(src.as_ptr().add(read)) {
                            (bytes, true) => out.ascii_bytes(bytes),
                            _ => break,
                        }
                        read += 2 * STEP;
                    }
                    out.end_ascii();
                    if read + STEP > limit {
                        continue;
                    }
                    // The step where the run ends is converted as it is, ASCII or not, as in
                    // `utf16_to_utf8`: going round the loop to test it again slowed French
                    // text (see BENCHMARKS.md).
                    (v, any) = U::load_narrow(src.as_ptr().add(read));
                }
                let short = U::any_none(any, !0x7FF);
                let narrow = U::any_none(any, !0xFFFF);
                let at = src.as_ptr().add(read);
                // `W`'s contract holds: 16 units at `read`, below `limit`, which leaves room
                // for 4 bytes each and 16 more.
                let wide = if short {
                    0
                } else {
                    match W::utf32(at, out.next()) {
                        (0, _) => 0,
                        (len, tail) => {
                            out.stored(len, tail);
                            STEP
                        }
                    }
                };
                match wide {
                    0 => match utf16_step::<U, false>(v, short, narrow, &mut out) {
                        0 if !narrow => wide_step::<U>(at, &mut out),
                        units => units,
                    },
                    units => units,
                }
            };
            if units == 0 {
                // SAFETY: SSE2.
                return (read, unsafe { out.finish() });
            }
            read += units;
        }
    }
    // SAFETY: SSE2.
    let written = unsafe { out.finish() };
    let (rest, out) = (src.get(read..), dst.get_mut(written..));
    // SAFETY: `W`'s instruction set by our caller.
    let (r, w) = unsafe { W::utf32_tail(rest.unwrap_or_default(), out.unwrap_or_default()) };
    (read + r, written + w)
}
