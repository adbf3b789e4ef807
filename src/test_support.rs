//! What the unit tests share (compiled for them only).

use core::mem::MaybeUninit;
use std::vec::Vec;

/// Inputs that the converters of well-formed input may be given although they are not
/// well-formed: what a buffer validated by one pass holds when a second pass reads it after
/// another thread has changed it. Well-formed text of characters of every width with one to
/// four bytes changed to bytes that change the meaning of what is around them (lead bytes of
/// every width, continuation bytes, ASCII, bytes that are never UTF-8), and random bytes;
/// 1 to 200 bytes long (fewer under Miri, which interprets slowly).
pub(crate) fn lying_inputs() -> impl Iterator<Item = Vec<u8>> {
    const FLIPS: [u8; 14] = [
        b'A', 0x00, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xE4, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0xC0,
    ];
    const CHARS: [char; 6] = ['a', 'é', 'Ж', '一', 'ह', '😀'];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        // xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
        // generators, scrambled", 2016).
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let count = if cfg!(miri) { 3 } else { 1500 };
    // Runs of continuation bytes, alone and after a lead byte: a step that finds no character
    // where one was validated (under Miri, one within a block, one across blocks).
    let runs: &[usize] = if cfg!(miri) {
        &[24, 65]
    } else {
        &[1, 3, 16, 24, 63, 64, 65, 129]
    };
    let runs = runs.iter().flat_map(|&n| {
        [
            std::vec![0x80; n],
            [&[0xE4][..], &std::vec![0xB8; n]].concat(),
        ]
    });
    runs.chain((0..count).map(move |k| {
        let len = 1 + (next() % 200) as usize;
        let mut text = Vec::with_capacity(len + 4);
        if k % 8 == 7 {
            text.extend((0..len).map(|_| next() as u8));
            return text;
        }
        // One width for the whole text, or a mix.
        let width = next() % 7;
        while text.len() < len {
            let r = next();
            let c = CHARS[if width < 6 { width } else { r % 6 } as usize];
            let mut buf = [0; 4];
            text.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        for _ in 0..1 + next() % 4 {
            let r = next();
            let at = (r % text.len() as u64) as usize;
            text[at] = FLIPS[((r >> 32) % FLIPS.len() as u64) as usize];
        }
        text
    }))
}

/// An output of `cap` units with units around it that no store may change.
pub(crate) struct Canaried<T> {
    units: Vec<MaybeUninit<T>>,
    cap: usize,
}

/// Units of canary on each side of the output.
const CANARY: usize = 64;

impl<T: Copy + PartialEq + core::fmt::Debug + From<u8>> Canaried<T> {
    pub(crate) fn new(cap: usize) -> Self {
        let units = (0..cap + 2 * CANARY)
            .map(|_| MaybeUninit::new(T::from(0xA5)))
            .collect();
        Canaried { units, cap }
    }

    /// The output.
    pub(crate) fn dst(&mut self) -> &mut [MaybeUninit<T>] {
        &mut self.units[CANARY..CANARY + self.cap]
    }

    /// Panics if a unit around the output changed, naming the input.
    pub(crate) fn check(&self, src: &[u8]) {
        let around = self.units[..CANARY]
            .iter()
            .chain(&self.units[CANARY + self.cap..]);
        for unit in around {
            // SAFETY: every unit was initialised, and nothing but the converter wrote them.
            let unit = unsafe { unit.assume_init() };
            assert_eq!(
                unit,
                T::from(0xA5),
                "a store outside the output: {src:02x?}"
            );
        }
    }
}

/// A converter of well-formed UTF-8 given the input to read ahead in and the length of its
/// well-formed prefix (`crate::algorithms::from_utf8::convert`): bytes read, units written.
#[cfg(target_arch = "x86_64")]
pub(crate) type BlockConverter<T> =
    unsafe fn(&[u8], usize, &mut [MaybeUninit<T>]) -> (usize, usize);

/// A converter of well-formed UTF-8 (a tail, a short string): bytes read, units written.
#[cfg(target_arch = "x86_64")]
pub(crate) type TailConverter<T> = unsafe fn(&[u8], &mut [MaybeUninit<T>]) -> (usize, usize);

/// The output capacities tried for an input of `len` bytes: none, a little, about its length
/// in units, and a block's worth and more (under Miri, which interprets slowly, a little, half
/// and more than a block).
pub(crate) fn capacities(len: usize) -> Vec<usize> {
    if cfg!(miri) {
        std::vec![1, len / 2, 65]
    } else {
        std::vec![0, 1, len / 3, len / 2, len, 64, 65, 100, 200]
    }
}

/// Calls `convert` on `src` into a [`Canaried`] output of `cap` units, and panics unless it
/// read at most `src.len()` bytes, wrote at most `cap` units and stored nothing outside them.
pub(crate) fn assert_within_bounds<T: Copy + PartialEq + core::fmt::Debug + From<u8>>(
    src: &[u8],
    cap: usize,
    convert: impl FnOnce(&mut [MaybeUninit<T>]) -> (usize, usize),
) {
    let mut out = Canaried::<T>::new(cap);
    let (read, written) = convert(out.dst());
    assert!(
        read <= src.len() && written <= cap,
        "{src:02x?} into {cap}: {read}, {written}"
    );
    out.check(src);
}
