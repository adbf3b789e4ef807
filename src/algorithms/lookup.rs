//! The block algorithm shared by every SIMD kernel: the "lookup" validator of John Keiser and
//! Daniel Lemire, "Validating UTF-8 In Less Than One Instruction Per Byte", Software: Practice
//! and Experience 51(5), 2021. Written here from the paper's description.
//!
//! Every error of UTF-8 shows in a window of two bytes (the previous byte and the current one),
//! except a missing or extra continuation byte at the third and fourth position of a sequence,
//! which shows in the bytes two and three places back. For the two-byte windows, each error
//! class is a product of conditions on three nibbles (the previous byte's high and low nibble,
//! the current byte's high nibble), so three 16-entry table lookups, ANDed, give a byte of error
//! classes per position. The tables are computed at compile time from the rules below.
//!
//! A kernel only decides whether 64-byte blocks are good (the last one padded with zeros, and in
//! a long input the first one the bytes before a 64-byte boundary, after zeros); where one is
//! not, the scalar validator locates and classifies the first error exactly. Blocks of
//! ASCII after a character boundary are skipped unchecked (after a sequence left open, the
//! first one is an error); the others are checked in groups of up to [`GROUP`], whose errors
//! are tested once. Where a block costs less to check than a mispredicted branch (AVX-512:
//! [`Vector::GROUP_OF_THREE`]), a group is one block or three, ASCII blocks among them checked
//! too.

// The kernels that run this algorithm are x86_64's and aarch64's; elsewhere (i686, s390x, ...)
// only the scalar implementation exists, and it uses the block constants alone.
#![cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code, unused_imports, unused_macros)
)]

use crate::chunks::as_chunks;

/// A SIMD register of `LANES` bytes of one instruction set, and the few operations that the block
/// algorithm (validation and counting) needs of it; the converters' register traits extend it.
///
/// # Safety
/// Implementations use instructions of one ISA: their methods may only run on a CPU that has it.
pub(crate) unsafe trait Vector: Copy {
    const LANES: usize;
    /// Every byte set to `b`.
    unsafe fn splat(b: u8) -> Self;
    /// Loads the first `LANES` bytes of `src`, which must hold at least that many.
    unsafe fn load(src: &[u8]) -> Self;
    /// The 1 to `LANES` bytes of `src`, zeros after them if fewer, with no access to memory
    /// past its end: built from [`word_at`] words, or with a masked load.
    unsafe fn load_partial(src: &[u8]) -> Self;
    /// The register whose last `len` lanes hold the first `len` bytes of `src`, zeros before
    /// them, for `len` 1 to `LANES - 1`; `src` holds at least `LANES` bytes.
    unsafe fn load_end(src: &[u8], len: usize) -> Self;
    /// `table[lane]` per lane, for lanes that are all 0..15.
    unsafe fn lookup(self, table: &[u8; 16]) -> Self;
    /// The high four bits of each byte, as 0..15.
    unsafe fn high_nibbles(self) -> Self;
    /// The low four bits of each byte, as 0..15.
    unsafe fn low_nibbles(self) -> Self;
    /// `table[lane >> 4]` per lane.
    #[inline(always)]
    unsafe fn lookup_high(self, table: &[u8; 16]) -> Self {
        // SAFETY: the caller guarantees the ISA.
        unsafe { self.high_nibbles().lookup(table) }
    }
    /// `table[lane & 15]` per lane.
    #[inline(always)]
    unsafe fn lookup_low(self, table: &[u8; 16]) -> Self {
        // SAFETY: the caller guarantees the ISA.
        unsafe { self.low_nibbles().lookup(table) }
    }
    /// The register shifted by `N` lanes, with the last `N` lanes of `prev` shifted in.
    unsafe fn prev<const N: i32>(self, prev: Self) -> Self;
    /// Whether the bytes one, two and three places before a register are better loaded again
    /// from memory than shifted in from the register before it (see `Checker::check_block`).
    const PREV_FROM_MEMORY: bool = false;
    /// Whether a group of blocks that are not ASCII is the first block alone or with the two
    /// after it, checked whether ASCII or not, instead of up to [`GROUP`] blocks that are not
    /// ASCII (see [`valid_blocks`]).
    const GROUP_OF_THREE: bool = false;
    unsafe fn and(self, other: Self) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Per-lane unsigned saturating subtraction.
    unsafe fn saturating_sub(self, other: Self) -> Self;
    /// Whether any lane has its high bit set.
    unsafe fn any_high_bit(self) -> bool;
    /// [`Vector::any_high_bit`] for a branch that text makes unpredictable (a block of mixed
    /// text, ASCII or not), where a misprediction is cheaper when the test is made one way
    /// rather than another (the AVX-512 kernel's); the same test where that does not matter.
    #[inline(always)]
    unsafe fn any_high_bit_unpredictable(self) -> bool {
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { self.any_high_bit() }
    }
    /// Whether any lane is non-zero.
    unsafe fn any_nonzero(self) -> bool;
    /// The number of lanes holding a continuation byte, 80..BF.
    unsafe fn count_continuations(self) -> u32;
    /// The number of lanes holding a byte from F0: in well-formed UTF-8, the lead bytes of
    /// 4-byte characters, each of which is two UTF-16 units.
    unsafe fn count_four_byte_leads(self) -> u32;
}

/// What a kernel's loop counts as it validates, its `COUNT` parameter: nothing.
pub(crate) const NOTHING: u8 = 0;
/// The characters that start in the input (one per byte that is not a continuation byte).
pub(crate) const CHARS: u8 = 1;
/// The UTF-16 units of those characters: one each, two for a character of 4 bytes.
pub(crate) const UTF16_UNITS: u8 = 2;

/// Byte indices that move the first `len` lanes of a 16-byte register to its end, zeros before
/// them: the 16 from `SHIFT_TO_END[len]`, for pshufb and tbl, to which 0x80 gives a zero.
pub(crate) const SHIFT_TO_END: [u8; 32] = {
    let mut t = [0x80; 32];
    let mut i = 0;
    while i < 16 {
        t[16 + i] = i as u8;
        i += 1;
    }
    t
};

/// Bytes per block: the unit in which kernels accept or reject input.
pub const BLOCK: usize = 64;

/// Inputs of at least this many bytes are read in blocks from 64-byte boundaries, the bytes
/// before the first one checked apart: then no load of a block or of one of its registers
/// crosses a cache line, and input that does not start at a boundary runs faster, ASCII most.
/// Shorter input pays more for the separate head than it gains: below this bound, peeling
/// slowed text that is mostly ASCII, and this path was slower than the shorter input's
/// (`ascii_test` first, no peeling) on English text; from it, the two are about even, except
/// pure ASCII of a few KiB at offsets 0 and 32, where the shorter input's 64-byte loads split
/// no 32-byte half across cache lines. The measurements are in BENCHMARKS.md.
pub const ALIGN_FROM: usize = 2048;

/// The most blocks of text that is not ASCII whose errors are tested at once. A test (and its
/// branch) per block slows validation down, one per four blocks less so (see BENCHMARKS.md);
/// on an error the scalar code looks at up to `GROUP * BLOCK + 3` bytes again.
pub const GROUP: usize = 4;

/// Inputs of at most this many bytes are checked as one tail, a register at a time, with none
/// of the setup of the loop over blocks. On an error that reports no good block, as the first
/// group of blocks would. Mixed strings of 100 to 256 bytes take less time this way than
/// through the block loop (see BENCHMARKS.md).
pub(crate) const SHORT: usize = GROUP * BLOCK;

/// Inputs of at least this many bytes, more than the L2 cache of a core holds, are checked by
/// a block loop that prefetches: after each block that is not ASCII it asks for the cache line
/// [`PREFETCH_AHEAD`] bytes further on. Without, text read from memory was validated well
/// below the speed at which memory is read, and below simdutf's `count_utf8`, which does
/// little per block: the loop keeps too few reads in flight for the memory's speed. The gain
/// grows with the input beyond the L2 cache; within it, the prefetches cost a little: hence a
/// loop of its own. x86_64 only: elsewhere this is never reached (no prefetch measured). AMD
/// Zen 4's own prefetchers keep up: there prefetching gained nothing, and cost AVX-512 at
/// 64 MiB, with the hint into every level as into L2 only (T1). Hence `Isa::Avx512Zen4`'s
/// kernels do not prefetch: the long input's loop is then the same as the shorter one's, in a
/// function of its own. The measurements are in BENCHMARKS.md.
pub const STREAM_FROM: usize = if cfg!(target_arch = "x86_64") {
    2 << 20
} else {
    usize::MAX
};

/// How far ahead of a block [`STREAM_FROM`]'s loop prefetches: read from memory, a shorter
/// distance was slower, a longer one no faster (see BENCHMARKS.md).
const PREFETCH_AHEAD: usize = 4096;

/// The eight bytes of `src` from `at` as a little-endian word, zeros where `src` ends, read
/// with loads that stay inside `src` (overlapping ones where fewer than eight bytes are left).
#[inline(always)]
pub(crate) fn word_at(src: &[u8], at: usize) -> u64 {
    let rest = src.get(at..).unwrap_or_default();
    if let Some(word) = rest.first_chunk::<8>() {
        return u64::from_le_bytes(*word);
    }
    let n = rest.len();
    if n == 0 {
        0
    } else if let Some(last) = src.last_chunk::<8>() {
        // `rest` is the top `n` bytes of the last eight.
        u64::from_le_bytes(*last) >> ((8 - n) * 8)
    } else if let (Some(lo), Some(hi)) = (rest.first_chunk::<4>(), rest.last_chunk::<4>()) {
        // Two overlapping halves; the bytes they share are ORed with themselves.
        u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(*hi)) << ((n - 4) * 8)
    } else if let (Some(lo), Some(hi)) = (rest.first_chunk::<2>(), rest.last_chunk::<2>()) {
        u64::from(u16::from_le_bytes(*lo)) | u64::from(u16::from_le_bytes(*hi)) << ((n - 2) * 8)
    } else {
        u64::from(rest[0])
    }
}

// Error classes of a two-byte window, one bit each. Two classes can share a bit when their
// conditions on the previous byte's high nibble and on the current byte's high nibble agree,
// since the union of the products is then the product of the unions.
const TOO_SHORT: u8 = 1 << 0; // lead byte, then a byte that is not a continuation
const TOO_LONG: u8 = 1 << 1; // ASCII, then a continuation
const OVERLONG_3: u8 = 1 << 2; // E0, then 80..9F
const TOO_LARGE: u8 = 1 << 3; // F4..FF, then 90..BF
const SURROGATE: u8 = 1 << 4; // ED, then A0..BF
const OVERLONG_2: u8 = 1 << 5; // C0 or C1, then a continuation
const OVERLONG_4_OR_TOO_LARGE_1000: u8 = 1 << 6; // F0, or F5..FF, then 80..8F
const TWO_CONTINUATIONS: u8 = 1 << 7; // a continuation after a continuation: see `check`

/// Nibble sets, as 16-bit masks.
const fn nibbles(lo: u8, hi: u8) -> u16 {
    let mut set = 0u16;
    let mut n = lo;
    while n <= hi {
        set |= 1 << n;
        n += 1;
    }
    set
}
const ANY: u16 = nibbles(0x0, 0xF);
const ASCII: u16 = nibbles(0x0, 0x7);
const CONTINUATION: u16 = nibbles(0x8, 0xB);
const LEAD: u16 = nibbles(0xC, 0xF);

/// An error class: (bit, previous byte's high nibble, its low nibble, current byte's high nibble).
type Rule = (u8, u16, u16, u16);
const RULES: [Rule; 9] = [
    (TOO_SHORT, LEAD, ANY, ASCII | LEAD),
    (TOO_LONG, ASCII, ANY, CONTINUATION),
    (TWO_CONTINUATIONS, CONTINUATION, ANY, CONTINUATION),
    (
        OVERLONG_2,
        nibbles(0xC, 0xC),
        nibbles(0x0, 0x1),
        CONTINUATION,
    ),
    (
        OVERLONG_3,
        nibbles(0xE, 0xE),
        nibbles(0x0, 0x0),
        nibbles(0x8, 0x9),
    ),
    (
        SURROGATE,
        nibbles(0xE, 0xE),
        nibbles(0xD, 0xD),
        nibbles(0xA, 0xB),
    ),
    (
        OVERLONG_4_OR_TOO_LARGE_1000,
        nibbles(0xF, 0xF),
        nibbles(0x0, 0x0),
        nibbles(0x8, 0x8),
    ),
    (
        OVERLONG_4_OR_TOO_LARGE_1000,
        nibbles(0xF, 0xF),
        nibbles(0x5, 0xF),
        nibbles(0x8, 0x8),
    ),
    (
        TOO_LARGE,
        nibbles(0xF, 0xF),
        nibbles(0x4, 0xF),
        nibbles(0x9, 0xB),
    ),
];

/// The lookup table for one of the three nibbles (0: previous high, 1: previous low, 2: current
/// high): entry `n` has the bit of every rule whose set for that nibble contains `n`.
const fn table(which: usize) -> [u8; 16] {
    let mut table = [0u8; 16];
    let mut r = 0;
    while r < RULES.len() {
        let (bit, prev_high, prev_low, cur_high) = RULES[r];
        let set = match which {
            0 => prev_high,
            1 => prev_low,
            _ => cur_high,
        };
        let mut n = 0;
        while n < 16 {
            if set & (1 << n) != 0 {
                table[n] |= bit;
            }
            n += 1;
        }
        r += 1;
    }
    table
}
const PREV_HIGH: [u8; 16] = table(0);
const PREV_LOW: [u8; 16] = table(1);
const CUR_HIGH: [u8; 16] = table(2);

/// Bytes whose value stays non-zero after these saturating subtractions, at the end of a block,
/// start a sequence that the next block must complete: C0.. in the last lane, E0.. in the
/// one before, F0.. two before.
const fn incomplete_thresholds<const LANES: usize>() -> [u8; LANES] {
    let mut t = [0xFFu8; LANES];
    t[LANES - 3] = 0xF0 - 1;
    t[LANES - 2] = 0xE0 - 1;
    t[LANES - 1] = 0xC0 - 1;
    t
}

/// What a kernel found: whether all of its input is well-formed; if so, `len` is the input's
/// length, otherwise the length of a prefix, in whole blocks (see [`valid_blocks`]), that is
/// well-formed except perhaps for a sequence cut off at its end. Counting kernels also give the
/// number of characters that start in that prefix, or of their UTF-16 units (0 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Blocks {
    pub valid: bool,
    pub len: usize,
    pub chars: usize,
}

impl Blocks {
    /// `Ok` if the whole input is good, else `Err` with the length of the prefix of good blocks.
    #[inline(always)]
    pub(crate) fn into_result(self) -> Result<(), usize> {
        if self.valid { Ok(()) } else { Err(self.len) }
    }
}

/// The validating and counting kernels of one instruction set, `validate` and `count`:
/// [`valid_blocks`] with the registers `$registers`, compiled for `$features`.
///
/// An input of at most [`SHORT`] bytes is checked as a tail alone by code that sets up no block
/// loop and saves no register, and `validate` returns in registers: C callers validate many
/// short strings, which the block loop's setup slowed (see BENCHMARKS.md). A longer input below
/// [`ALIGN_FROM`] bytes is first tested for ASCII ([`ascii_test`]); the bytes after the blocks
/// that test found ASCII are then checked without the block loop if they are few
/// ([`valid_after_ascii`]), or by the block loop from there, in a function of their own, so
/// that the short strings' path keeps its code as small as it was (checking the few bytes in
/// the same function slowed short mixed strings). An input of at least [`STREAM_FROM`] bytes
/// goes to a block loop of its own, which prefetches if `PREFETCH` (false for
/// `Isa::Avx512Zen4`, AMD Zen 4's tuning, which gains nothing from it: see [`STREAM_FROM`]);
/// the function for shorter input is then the same with or without.
///
/// [`SHORT`]: $crate::algorithms::lookup::SHORT
/// [`STREAM_FROM`]: $crate::algorithms::lookup::STREAM_FROM
/// [`ALIGN_FROM`]: $crate::algorithms::lookup::ALIGN_FROM
/// [`ascii_test`]: $crate::algorithms::lookup::ascii_test
/// [`valid_after_ascii`]: $crate::algorithms::lookup::valid_after_ascii
macro_rules! block_kernels {
    ($features:literal, $registers:ty) => {
        /// `Ok` if all of `s` is well-formed, else `Err` with the length of a prefix of whole
        /// blocks that is, but for a sequence it may cut off (see [`lookup::valid_blocks`]).
        ///
        /// # Safety
        /// The CPU has the instruction set.
        ///
        /// [`lookup::valid_blocks`]: $crate::algorithms::lookup::valid_blocks
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn validate<const PREFETCH: bool>(s: &[u8]) -> Result<(), usize> {
            /// # Safety
            /// As for `validate`; the first `ascii` blocks of `s` are ASCII.
            #[target_feature(enable = $features)]
            #[inline(never)]
            unsafe fn validate_from(s: &[u8], ascii: usize) -> Result<(), usize> {
                // SAFETY: the features are enabled here, and present by the caller's contract.
                unsafe {
                    $crate::algorithms::lookup::valid_from::<
                        $registers,
                        { $crate::algorithms::lookup::NOTHING },
                    >(s, ascii)
                }
                .into_result()
            }
            /// # Safety
            /// As for `validate`; `s` is at least `STREAM_FROM` bytes long.
            #[target_feature(enable = $features)]
            #[inline(never)]
            unsafe fn validate_long<const PREFETCH: bool>(s: &[u8]) -> Result<(), usize> {
                // SAFETY: the features are enabled here, and present by the caller's contract.
                unsafe {
                    $crate::algorithms::lookup::valid_blocks::<
                        $registers,
                        { $crate::algorithms::lookup::NOTHING },
                        PREFETCH,
                    >(s, 0)
                }
                .into_result()
            }
            // SAFETY: the features are enabled here, and present by the caller's contract.
            unsafe {
                if s.len() <= $crate::algorithms::lookup::SHORT {
                    $crate::algorithms::lookup::valid_short::<
                        $registers,
                        { $crate::algorithms::lookup::NOTHING },
                    >(s)
                    .into_result()
                } else if s.len() < $crate::algorithms::lookup::ALIGN_FROM {
                    match $crate::algorithms::lookup::ascii_test::<$registers>(s) {
                        Ok(()) => Ok(()),
                        Err(ascii) => validate_from(s, ascii),
                    }
                } else if s.len() < $crate::algorithms::lookup::STREAM_FROM {
                    validate_from(s, 0)
                } else {
                    validate_long::<PREFETCH>(s)
                }
            }
        }

        /// Checks `s` as `validate` does, and counts what `COUNT` says (`lookup::CHARS` or
        /// `lookup::UTF16_UNITS`) in the good prefix it reports (see
        /// [`lookup::valid_blocks`]).
        ///
        /// # Safety
        /// The CPU has the instruction set.
        ///
        /// [`lookup::valid_blocks`]: $crate::algorithms::lookup::valid_blocks
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn count<const PREFETCH: bool, const COUNT: u8>(
            s: &[u8],
        ) -> $crate::algorithms::lookup::Blocks {
            /// # Safety
            /// As for `count`; the first `ascii` blocks of `s` are ASCII.
            #[target_feature(enable = $features)]
            #[inline(never)]
            unsafe fn count_from<const COUNT: u8>(
                s: &[u8],
                ascii: usize,
            ) -> $crate::algorithms::lookup::Blocks {
                // SAFETY: the features are enabled here, and present by the caller's contract.
                unsafe { $crate::algorithms::lookup::valid_from::<$registers, COUNT>(s, ascii) }
            }
            /// # Safety
            /// As for `count`; `s` is at least `STREAM_FROM` bytes long.
            #[target_feature(enable = $features)]
            #[inline(never)]
            unsafe fn count_long<const PREFETCH: bool, const COUNT: u8>(
                s: &[u8],
            ) -> $crate::algorithms::lookup::Blocks {
                // SAFETY: the features are enabled here, and present by the caller's contract.
                unsafe {
                    $crate::algorithms::lookup::valid_blocks::<$registers, COUNT, PREFETCH>(s, 0)
                }
            }
            // SAFETY: the features are enabled here, and present by the caller's contract.
            unsafe {
                if s.len() <= $crate::algorithms::lookup::SHORT {
                    $crate::algorithms::lookup::valid_short::<$registers, COUNT>(s)
                } else if s.len() < $crate::algorithms::lookup::ALIGN_FROM {
                    match $crate::algorithms::lookup::ascii_test::<$registers>(s) {
                        Ok(()) => $crate::algorithms::lookup::Blocks {
                            valid: true,
                            len: s.len(),
                            chars: s.len(),
                        },
                        Err(ascii) => count_from::<COUNT>(s, ascii),
                    }
                } else if s.len() < $crate::algorithms::lookup::STREAM_FROM {
                    count_from::<COUNT>(s, 0)
                } else {
                    count_long::<PREFETCH, COUNT>(s)
                }
            }
        }
    };
}
pub(crate) use block_kernels;

/// The validator's state between blocks.
struct Checker<V: Vector, const COUNT: u8> {
    /// The last register of the previous block.
    prev: V,
    /// Non-zero where the previous block ends inside a sequence.
    prev_incomplete: V,
    /// Characters (or with UTF16_UNITS, their UTF-16 units) started in the blocks checked so
    /// far, if COUNT.
    chars: usize,
}

impl<V: Vector, const COUNT: u8> Checker<V, COUNT> {
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            Checker {
                prev: V::splat(0),
                prev_incomplete: V::splat(0),
                chars: 0,
            }
        }
    }

    /// Whether the previous block ended between two characters.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn at_boundary(&self) -> bool {
        // SAFETY: the caller guarantees the ISA.
        unsafe { !self.prev_incomplete.any_nonzero() }
    }

    /// Moves past `n` ASCII blocks that follow a character boundary: they need no check. They
    /// must be ASCII: with `V::PREV_FROM_MEMORY`, the next block's check reads the bytes before
    /// it from memory, which classify as the zeros left in `prev` only if they are ASCII.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn skip_ascii(&mut self, n: usize) {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            // Only the class of the previous bytes matters, and zeros are ASCII too.
            self.prev = V::splat(0);
        }
        if COUNT != NOTHING {
            self.chars += n * BLOCK;
        }
    }

    /// Checks the 64-byte block at `at` in `s`: returns `error` with its error lanes added,
    /// and counts the bytes that start no unit of the count if COUNT ([`Self::uncounted`]). An
    /// error may lie up to three bytes before
    /// the block, in a sequence that the block fails to complete.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA; `s` holds a block at `at`, and `self.prev` is the register
    /// before it or, after ASCII blocks skipped, zeros.
    #[inline(always)]
    unsafe fn check_block(
        &mut self,
        s: &[u8],
        at: usize,
        error: V,
        continuations: &mut usize,
    ) -> V {
        debug_assert!(at + BLOCK <= s.len());
        // SAFETY: the caller guarantees the ISA; every load reads LANES bytes inside `s`: the
        // block's, or those up to three before them, which `s` holds when `at` is not 0.
        unsafe {
            let mut error = error;
            for offset in (0..BLOCK).step_by(V::LANES) {
                let pos = at + offset;
                let input = V::load(s.get_unchecked(pos..));
                if V::PREV_FROM_MEMORY && at != 0 {
                    // The bytes before the register, ASCII where `self.prev` is zeros: either
                    // way the same classes for `errors`.
                    let prev1 = V::load(s.get_unchecked(pos - 1..));
                    let prev2 = V::load(s.get_unchecked(pos - 2..));
                    let prev3 = V::load(s.get_unchecked(pos - 3..));
                    if COUNT != NOTHING {
                        *continuations = continuations.wrapping_add(Self::uncounted(input));
                    }
                    error = error.or(Self::errors_after(input, prev1, prev2, prev3));
                    self.prev = input;
                } else {
                    error = self.check(input, error, continuations);
                }
            }
            error
        }
    }

    /// Checks the first `len` bytes of `s`, fewer than a block, as the end of a block that zeros
    /// (ASCII) precede, in registers that end where they do: whether they are valid but for a
    /// sequence they cut off. `s` holds more than a block.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA; `len < s.len()`.
    #[inline(always)]
    unsafe fn head_is_valid(&mut self, s: &[u8], len: usize) -> bool {
        debug_assert!(0 < len && len < BLOCK && BLOCK < s.len());
        // SAFETY: the caller guarantees the ISA; every register is read from inside `s`: the
        // last ends at `len`, which `s` holds. Indexing would do, but in the prefetching loop's
        // copy LLVM (rustc 1.95) lost that `len < s.len()` and linked a panic (make check-abi).
        unsafe {
            let mut error = V::splat(0);
            let mut continuations = 0;
            // Registers before the first byte would hold only zeros, as `self.prev` does.
            let mut end = len % V::LANES;
            if end != 0 {
                error = self.check(V::load_end(s, end), error, &mut continuations);
            }
            while end < len {
                error = self.check(V::load(s.get_unchecked(end..)), error, &mut continuations);
                end += V::LANES;
            }
            self.end_block(error, len, continuations)
        }
    }

    /// Checks `tail` (the bytes after the last block, or a whole input of up to [`SHORT`]
    /// bytes) a register at a time, as if padded with zeros. The zeros are
    /// ASCII, so a sequence cut off by the end fails at the first of them, as if cut off by an
    /// ASCII byte; only the registers up to that one are checked, and where the tail fills its
    /// last register, the test for a sequence left open stands for the register of zeros.
    ///
    /// The registers are read from `tail` alone (see [`Vector::load_partial`]), not copied to a
    /// padded buffer: loading a vector from bytes just stored would stall on store forwarding, a
    /// cost that short strings would pay on every call.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn tail_is_valid(&mut self, tail: &[u8]) -> bool {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            let mut error = V::splat(0);
            let mut continuations = 0;
            let mut offset = 0;
            loop {
                match tail.get(offset..) {
                    Some(rest) if rest.len() >= V::LANES => {
                        error = self.check(V::load(rest), error, &mut continuations);
                        offset += V::LANES;
                    }
                    _ => break,
                }
            }
            if offset < tail.len() {
                let input = V::load_partial(tail.get(offset..).unwrap_or_default());
                error = self.check(input, error, &mut continuations);
                offset += V::LANES;
            }
            self.end_tail(error, tail.len(), offset, continuations)
        }
    }

    /// Ends a tail of `len` bytes, checked in registers of `end` lanes in all (zeros after the
    /// bytes) that gave `error` and held `continuations` continuation bytes: whether it is
    /// valid.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn end_tail(&mut self, error: V, len: usize, end: usize, continuations: usize) -> bool {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            // A sequence left open at the end of a register that the tail fills is an error
            // too (in a register it does not fill, the padding after it already is).
            let error = error.or(self.prev.saturating_sub(Self::thresholds()));
            // The padding was counted as characters.
            let valid = self.end_block(error, end, continuations);
            if COUNT != NOTHING && valid {
                self.chars -= end - len;
            }
            valid
        }
    }

    /// Checks `s`, 1 to `LANES` bytes, as [`tail_is_valid`] does, in one register loaded
    /// whole or in part by the same instructions: no loop, and with AVX-512 no branch on the
    /// length. Strings of 64 mixed bytes, which `tail_is_valid` checks in a loop of one
    /// register, take less time; 16 bytes the same (see BENCHMARKS.md).
    ///
    /// [`tail_is_valid`]: Self::tail_is_valid
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn register_is_valid(&mut self, s: &[u8]) -> bool {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            let mut continuations = 0;
            let error = self.check(V::load_partial(s), V::splat(0), &mut continuations);
            self.end_tail(error, s.len(), V::LANES, continuations)
        }
    }

    /// Checks the register `input`, which follows `self.prev`: returns `error` with its error
    /// lanes added, and counts the bytes that start no unit of the count if COUNT
    /// ([`Self::uncounted`]).
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn check(&mut self, input: V, error: V, continuations: &mut usize) -> V {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            if COUNT != NOTHING {
                *continuations = continuations.wrapping_add(Self::uncounted(input));
            }
            let error = error.or(self.errors(input));
            self.prev = input;
            error
        }
    }

    /// The lanes of `input` that start no unit of the count: its continuation bytes, and with
    /// UTF16_UNITS less one for each byte from F0, which starts two. Added up over a group
    /// with wrapping (a register may end with the lead byte of a character whose continuation
    /// bytes are in the next), and taken from the group's length, which it never exceeds.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn uncounted(input: V) -> usize {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            let continuations = input.count_continuations() as usize;
            if COUNT == UTF16_UNITS {
                continuations.wrapping_sub(input.count_four_byte_leads() as usize)
            } else {
                continuations
            }
        }
    }

    /// Ends a group of blocks, `len` bytes with `continuations` continuation bytes, whose
    /// registers gave `error`: whether it is valid.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn end_block(&mut self, error: V, len: usize, continuations: usize) -> bool {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            self.prev_incomplete = self.prev.saturating_sub(Self::thresholds());
            let valid = !error.any_nonzero();
            if COUNT != NOTHING && valid {
                // Every byte but a continuation starts a character (and with UTF16_UNITS, a
                // byte from F0 a second unit): at least 0 for each group, whatever the bytes.
                self.chars += len.wrapping_sub(continuations);
            }
            valid
        }
    }

    /// Non-zero lanes where `input`, preceded by `self.prev`, breaks the rules of UTF-8.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn errors(&self, input: V) -> V {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            Self::errors_after(
                input,
                input.prev::<1>(self.prev),
                input.prev::<2>(self.prev),
                input.prev::<3>(self.prev),
            )
        }
    }

    /// Non-zero lanes where `input` breaks the rules of UTF-8, `prevN` holding the bytes `N`
    /// places before its lanes.
    ///
    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn errors_after(input: V, prev1: V, prev2: V, prev3: V) -> V {
        // SAFETY: the caller guarantees the ISA.
        unsafe {
            let two_byte_errors = prev1
                .lookup_high(&PREV_HIGH)
                .and(prev1.lookup_low(&PREV_LOW))
                .and(input.lookup_high(&CUR_HIGH));
            // Third and fourth bytes of a sequence must be continuations after a continuation:
            // exactly where TWO_CONTINUATIONS is set.
            let third = prev2.saturating_sub(V::splat(0xE0 - 0x80)); // >= 0x80 iff prev2 >= E0
            let fourth = prev3.saturating_sub(V::splat(0xF0 - 0x80)); // >= 0x80 iff prev3 >= F0
            let must_continue = third.or(fourth).and(V::splat(TWO_CONTINUATIONS));
            two_byte_errors.xor(must_continue)
        }
    }

    /// # Safety
    /// The CPU supports `V`'s ISA.
    #[inline(always)]
    unsafe fn thresholds() -> V {
        // SAFETY: the table holds LANES bytes; the caller guarantees the ISA.
        unsafe {
            match V::LANES {
                16 => V::load(&incomplete_thresholds::<16>()),
                32 => V::load(&incomplete_thresholds::<32>()),
                _ => V::load(&incomplete_thresholds::<64>()),
            }
        }
    }
}

/// The lanes of a block ORed together: the high bit is set in some lane if the block is not
/// ASCII.
///
/// # Safety
/// The CPU supports `V`'s ISA.
#[inline(always)]
unsafe fn lanes_ored<V: Vector>(block: &[u8; BLOCK]) -> V {
    // SAFETY: the caller guarantees the ISA; every load reads LANES bytes inside `block`.
    unsafe {
        let mut bits = V::load(block);
        for offset in (V::LANES..BLOCK).step_by(V::LANES) {
            bits = bits.or(V::load(&block[offset..]));
        }
        bits
    }
}

/// The number of ASCII blocks at the start of `blocks`: the first four one at a time, then
/// several at a time (see [`ascii_groups`]), two if `from_memory` (input of at least
/// [`STREAM_FROM`] bytes). Runs in mixed text are short (German or French
/// Wikipedia text: two or three blocks on average), and where they end is a branch no predictor
/// learns: tested a block at a time, a run costs one mispredicted branch, not the two or three
/// of a first test and a test of several blocks (see BENCHMARKS.md). Long runs, pure ASCII
/// above all, go faster several blocks at a time.
///
/// # Safety
/// The CPU supports `V`'s ISA.
#[inline(always)]
unsafe fn ascii_blocks<V: Vector>(blocks: &[[u8; BLOCK]], from_memory: bool) -> usize {
    // No closures here: they would not inherit the kernel's target features.
    // SAFETY: (whole body) the caller guarantees the ISA.
    unsafe {
        let mut n = 0;
        // The first test, whether a run of ASCII goes on, is one that mixed text makes
        // unpredictable; the others end a loop.
        while n < blocks.len() && !lanes_ored::<V>(&blocks[n]).any_high_bit_unpredictable() {
            n += 1;
            if n == 4 {
                n += if V::LANES < 32 || from_memory {
                    ascii_groups::<V, 2>(&blocks[n..])
                } else {
                    ascii_groups::<V, 4>(&blocks[n..])
                };
            }
        }
        n
    }
}

/// The number of blocks in the whole groups of `N` ASCII blocks at the start of `blocks`, one
/// test per group: four blocks, but at most eight registers. Four blocks against two: ASCII in
/// the L1 cache gains with AVX-512 and AVX2, English text with AVX-512, other text is as fast;
/// with SSE4.2, where four blocks are sixteen registers, English lost a little, and so it did
/// with eight blocks of AVX-512, which gained on ASCII only. Read from memory, four are slower:
/// input of [`STREAM_FROM`] bytes and more keeps two. The measurements are in BENCHMARKS.md.
///
/// # Safety
/// The CPU supports `V`'s ISA.
#[inline(always)]
unsafe fn ascii_groups<V: Vector, const N: usize>(blocks: &[[u8; BLOCK]]) -> usize {
    let (groups, _) = as_chunks::<N, _>(blocks);
    let mut n = 0;
    // SAFETY: (whole body) the caller guarantees the ISA.
    unsafe {
        for group in groups {
            let mut bits = lanes_ored::<V>(&group[0]);
            for block in &group[1..] {
                bits = bits.or(lanes_ored(block));
            }
            if bits.any_high_bit() {
                break;
            }
            n += N;
        }
    }
    n
}

/// Whether all of `s`, at least a block long, is ASCII: `Ok` if so, else `Err` with the number
/// of whole blocks at its start that are ASCII, after which the kernel checks it (see
/// [`valid_after_ascii`]). Its whole blocks are ORed four at a time and tested, then the blocks
/// left and its last 64 bytes, which overlap them; only a test that fails looks for the block.
/// For input below [`ALIGN_FROM`] bytes, before the block loop, whose setup cost ASCII strings
/// of a few hundred bytes more than the scan (see BENCHMARKS.md).
/// Text that is not ASCII pays one test of its first four blocks, and one of each of them.
///
/// # Safety
/// The CPU supports `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn ascii_test<V: Vector>(s: &[u8]) -> Result<(), usize> {
    let (blocks, _) = as_chunks::<BLOCK, _>(s);
    let (groups, rest) = as_chunks::<4, _>(blocks);
    let Some(last) = s.last_chunk::<BLOCK>() else {
        return Err(0);
    };
    // SAFETY: (whole body) the caller guarantees the ISA.
    unsafe {
        for (n, group) in groups.iter().enumerate() {
            let [a, b, c, d] = group;
            let bits = lanes_ored::<V>(a)
                .or(lanes_ored(b))
                .or(lanes_ored(c))
                .or(lanes_ored(d));
            if bits.any_high_bit() {
                return Err(4 * n + ascii_blocks::<V>(group, false));
            }
        }
        let mut bits = lanes_ored::<V>(last);
        for block in rest {
            bits = bits.or(lanes_ored(block));
        }
        if bits.any_high_bit() {
            Err(4 * groups.len() + ascii_blocks::<V>(rest, false))
        } else {
            Ok(())
        }
    }
}

/// The most bytes that a kernel checks as one tail after the ASCII blocks that [`ascii_test`]
/// found (see [`valid_after_ascii`]): more than [`SHORT`], because they set up no block loop:
/// mixed and Wikipedia text of 300 to 512 bytes gained over a bound of `SHORT`. Not 1024: mixed
/// text of 1000 bytes gained as much, but ASCII with one other character in its first block
/// was much slower: a tail checks every register whole, where the block loop skips ASCII. The
/// measurements are in BENCHMARKS.md.
const TAIL_AFTER_ASCII: usize = 2 * SHORT;

/// [`valid_blocks`] for `s`, below [`ALIGN_FROM`] bytes, whose first `ascii` blocks are ASCII
/// (see [`ascii_test`]), if at most [`TAIL_AFTER_ASCII`] bytes follow them: those bytes with no
/// block loop set up, as a tail as [`valid_short`] checks one (the ASCII before them leaves no
/// sequence open), after a group of four blocks if they are more than [`SHORT`]. `None` if more
/// bytes follow. With this and the start of the block loop after the ASCII blocks, ASCII
/// strings with one other character in their last quarter gained at every length tried, 300
/// to 2000 bytes (see BENCHMARKS.md).
///
/// If at least one ASCII block precedes a block followed by nothing but ASCII, as in ASCII text
/// with one accented letter, that block alone is the tail, however many bytes follow it: such
/// strings gain with every kernel, English text a little. Without the first condition, text
/// whose first block is not ASCII paid for the test and seldom gained (see BENCHMARKS.md).
///
/// # Safety
/// The CPU supports `V`'s ISA; the first `ascii` blocks of `s` are ASCII.
#[inline(always)]
unsafe fn valid_after_ascii<V: Vector, const COUNT: u8>(s: &[u8], ascii: usize) -> Option<Blocks> {
    let start = ascii * BLOCK;
    let rest = s.get(start..)?;
    // SAFETY: (whole body) the caller guarantees the ISA; `check_block` reads the first SHORT
    // bytes of `rest`, which holds more.
    unsafe {
        let mut checker = Checker::<V, COUNT>::new();
        // ASCII but for one block: that block is checked as the tail, between the ASCII
        // before it and the ASCII after, which needs no other check.
        let (rest, ascii_after) = match rest.split_at_checked(BLOCK) {
            Some((block, after)) if ascii != 0 && !after.is_empty() && is_ascii::<V>(after) => {
                (block, after.len())
            }
            _ => (rest, 0),
        };
        if rest.len() > TAIL_AFTER_ASCII {
            return None;
        }
        // Past SHORT bytes, the first SHORT are a group of blocks, as in the block loop, so that
        // the scalar code locates an error from at most a group before it.
        let mut good = start;
        let tail = match rest.split_at_checked(SHORT) {
            Some((_, tail)) if !tail.is_empty() => {
                let mut error = V::splat(0);
                let mut continuations = 0;
                for at in (0..SHORT).step_by(BLOCK) {
                    error = checker.check_block(rest, at, error, &mut continuations);
                }
                if !checker.end_block(error, SHORT, continuations) {
                    return Some(Blocks {
                        valid: false,
                        len: start,
                        chars: start,
                    });
                }
                good += SHORT;
                tail
            }
            _ => rest,
        };
        let valid = checker.tail_is_valid(tail);
        // Every ASCII byte is a character.
        Some(Blocks {
            valid,
            len: if valid { s.len() } else { good },
            chars: start + checker.chars + if valid { ascii_after } else { 0 },
        })
    }
}

/// Whether all of `s` is ASCII, a register at a time from its start: text that is not stops at
/// its first register.
///
/// # Safety
/// The CPU supports `V`'s ISA.
#[inline(always)]
unsafe fn is_ascii<V: Vector>(s: &[u8]) -> bool {
    // SAFETY: (whole body) the caller guarantees the ISA; each load reads LANES bytes of `s`,
    // or fewer with `load_partial`.
    unsafe {
        let mut offset = 0;
        while let Some(rest) = s.get(offset..) {
            if rest.len() <= V::LANES {
                break;
            }
            if V::load(rest).any_high_bit() {
                return false;
            }
            offset += V::LANES;
        }
        !V::load_partial(s.get(offset..).unwrap_or_default()).any_high_bit()
    }
}

/// [`valid_blocks`] for `s` whose first `ascii` blocks are ASCII: by [`valid_after_ascii`] if
/// few bytes follow them, or ASCII after one block, else by the block loop from there.
///
/// # Safety
/// The CPU supports `V`'s ISA; the first `ascii` blocks of `s` are ASCII, and `ascii` is 0 if
/// `s` is at least [`ALIGN_FROM`] bytes long.
#[inline(always)]
pub(crate) unsafe fn valid_from<V: Vector, const COUNT: u8>(s: &[u8], ascii: usize) -> Blocks {
    // SAFETY: by the caller.
    unsafe {
        match valid_after_ascii::<V, COUNT>(s, ascii) {
            Some(blocks) => blocks,
            None => valid_blocks::<V, COUNT, false>(s, ascii),
        }
    }
}

/// Asks for the cache line that holds `p` (a hint: `p` need not point into memory the program
/// may read), on x86_64 into every level of cache.
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`valid_blocks`] for `s` of at most [`SHORT`] bytes: its tail alone, with no block loop
/// set up.
///
/// # Safety
/// The CPU supports `V`'s ISA.
#[inline(always)]
pub(crate) unsafe fn valid_short<V: Vector, const COUNT: u8>(s: &[u8]) -> Blocks {
    debug_assert!(s.len() <= SHORT);
    // SAFETY: the caller guarantees the ISA.
    unsafe {
        let mut checker = Checker::<V, COUNT>::new();
        let valid = if !s.is_empty() && s.len() <= V::LANES {
            checker.register_is_valid(s)
        } else {
            checker.tail_is_valid(s)
        };
        Blocks {
            valid,
            len: if valid { s.len() } else { 0 },
            chars: checker.chars,
        }
    }
}

/// Checks `s` block by block with `V`, up to the first bad block, then the tail shorter than a
/// block, counting what `COUNT` says. A long input's blocks start at a 64-byte boundary,
/// after the bytes before it (see [`ALIGN_FROM`]). The first `ascii` blocks of an input below
/// `ALIGN_FROM` bytes are known to be ASCII ([`ascii_test`] found them), and are skipped
/// unread. If `STREAM`, for input of at least [`STREAM_FROM`] bytes, the loop prefetches.
///
/// # Safety
/// The CPU supports `V`'s ISA; the first `ascii` blocks of `s` are ASCII, and `ascii` is 0 if
/// `s` is at least `ALIGN_FROM` bytes long.
#[inline(always)]
pub(crate) unsafe fn valid_blocks<V: Vector, const COUNT: u8, const STREAM: bool>(
    s: &[u8],
    ascii: usize,
) -> Blocks {
    // Runs of ASCII in two blocks per test from STREAM_FROM bytes (see `ascii_groups`), never
    // where that is usize::MAX (whence no `>=`, which clippy takes for a mistake there).
    let from_memory = s.len().checked_sub(STREAM_FROM).is_some();
    // The bytes before the first 64-byte boundary of a long input (see ALIGN_FROM), then the
    // blocks from there, and the length of the prefix that ends after `n` of them.
    let head = if s.len() >= ALIGN_FROM {
        s.as_ptr().align_offset(BLOCK).min(BLOCK)
    } else {
        0
    };
    let body = &s[head..];
    let (blocks, tail) = as_chunks::<BLOCK, _>(body);
    let good = |n: usize| head + n * BLOCK;
    // SAFETY: (whole body) the caller guarantees the ISA; a `head` that is not 0 is below 64,
    // in an input of at least ALIGN_FROM bytes.
    unsafe {
        let mut checker = Checker::<V, COUNT>::new();
        if head != 0 && !checker.head_is_valid(s, head) {
            return Blocks {
                valid: false,
                len: 0,
                chars: checker.chars,
            };
        }
        let mut i = 0;
        if ascii != 0 {
            debug_assert!(head == 0 && ascii <= blocks.len());
            checker.skip_ascii(ascii);
            i = ascii;
        }
        while let Some(block) = blocks.get(i) {
            // Between characters, ASCII needs no other check: skip a run of it as fast as it
            // is read. A block that is not ASCII pays one test for this. Only after an ASCII
            // run is found is it asked whether the blocks before it ended between characters:
            // in text whose blocks end inside characters at random that test is a branch no
            // predictor learns. Written beside the ASCII test, LLVM (rustc 1.95) put it first;
            // after the scan of the run it does not, which is no guarantee: check the code the
            // compiler makes if validation of random mixed text out of cache slows down.
            if !lanes_ored::<V>(block).any_high_bit_unpredictable() {
                let rest = blocks.get(i + 1..).unwrap_or_default();
                let run = 1 + ascii_blocks::<V>(rest, from_memory);
                if !checker.at_boundary() {
                    // The first ASCII byte cuts off the sequence the blocks before left open.
                    return Blocks {
                        valid: false,
                        len: good(i),
                        chars: checker.chars,
                    };
                }
                checker.skip_ascii(run);
                i += run;
                continue;
            }
            // A block that is not ASCII is checked with the next ones up to GROUP blocks, as
            // long as they are not ASCII either (or, if `V::GROUP_OF_THREE`, with the next two,
            // or alone), and the group's errors are tested once: an error is then located by
            // the scalar code from the start of the group.
            let mut continuations = 0;
            let mut error = checker.check_block(body, i * BLOCK, V::splat(0), &mut continuations);
            let mut checked = 1;
            if V::GROUP_OF_THREE {
                // Where the check of a block costs less than a mispredicted branch, an ASCII
                // block between others is checked, not skipped: one test of the next two
                // blocks, and no way out of the group at the first ASCII one. With AVX-512,
                // Wikipedia text gained over checking up to GROUP blocks that are not ASCII;
                // the other shapes tried (two, three or four blocks checked whatever they hold,
                // up to five or nine testing pairs) gained less or lost. AVX2 and SSE4.2, whose
                // blocks cost more to check, lost, so they keep the groups of up to GROUP
                // blocks. The measurements are in BENCHMARKS.md.
                if let Some(pair) = blocks.get(i + 1..i + 3) {
                    if lanes_ored::<V>(&pair[0])
                        .or(lanes_ored(&pair[1]))
                        .any_high_bit_unpredictable()
                    {
                        error =
                            checker.check_block(body, (i + 1) * BLOCK, error, &mut continuations);
                        error =
                            checker.check_block(body, (i + 2) * BLOCK, error, &mut continuations);
                        checked = 3;
                    }
                }
            }
            while !V::GROUP_OF_THREE && checked < GROUP {
                match blocks.get(i + checked) {
                    Some(next) if lanes_ored::<V>(next).any_high_bit() => {}
                    _ => break,
                }
                error = checker.check_block(body, (i + checked) * BLOCK, error, &mut continuations);
                checked += 1;
            }
            if STREAM {
                for n in i..i + checked {
                    prefetch(body.as_ptr().wrapping_add(n * BLOCK + PREFETCH_AHEAD));
                }
            }
            if !checker.end_block(error, checked * BLOCK, continuations) {
                return Blocks {
                    valid: false,
                    len: good(i),
                    chars: checker.chars,
                };
            }
            i += checked;
        }
        let valid = checker.tail_is_valid(tail);
        Blocks {
            valid,
            len: if valid { s.len() } else { good(blocks.len()) },
            chars: checker.chars,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::word_at;
    use std::vec::Vec;

    #[test]
    fn word_at_reads_eight_bytes_zero_padded_at_every_length_and_offset() {
        let bytes: Vec<u8> = (1..=24).collect();
        for len in 0..=bytes.len() {
            let src = &bytes[..len];
            for at in 0..=len + 8 {
                let mut expected = [0u8; 8];
                for (k, e) in expected.iter_mut().enumerate() {
                    *e = src.get(at + k).copied().unwrap_or(0);
                }
                assert_eq!(
                    word_at(src, at).to_le_bytes(),
                    expected,
                    "len {len} at {at}"
                );
            }
        }
    }
}
