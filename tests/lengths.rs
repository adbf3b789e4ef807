//! The length functions against oracles built on the standard library, with every
//! implementation the CPU runs: lengths around the edges of the length loops' blocks and of
//! the points where their narrow lanes are added up (`algorithms::lengths`), 4-byte characters
//! and surrogates at every offset, and errors at many offsets of long inputs (the stretches
//! between them counted by the kernels, with the 4-byte characters counted apart).

mod common;

use utf8::transcode::Replacement;

const REPLACEMENTS: [Replacement; 4] = [
    Replacement::Fffd,
    Replacement::Escape,
    Replacement::Latin1,
    Replacement::Cp1252,
];

/// The UTF-16 and UTF-32 units of the lossy conversion of `s` under `replacement`, from
/// `str::Utf8Chunks` (whose invalid parts are the maximal subparts that
/// `String::from_utf8_lossy` replaces with one U+FFFD each).
fn oracle_from_utf8(s: &[u8], replacement: Replacement) -> (usize, usize) {
    let (mut u16s, mut u32s) = (0, 0);
    for chunk in s.utf8_chunks() {
        u16s += chunk.valid().encode_utf16().count();
        u32s += chunk.valid().chars().count();
        let bad = chunk.invalid().len();
        let per_error = match replacement {
            Replacement::Fffd => usize::from(bad > 0),
            _ => bad,
        };
        u16s += per_error;
        u32s += per_error;
    }
    if replacement == Replacement::Fffd {
        let lossy = String::from_utf8_lossy(s);
        assert_eq!(u16s, lossy.encode_utf16().count());
        assert_eq!(u32s, lossy.chars().count());
    }
    (u16s, u32s)
}

/// The UTF-8 bytes of the lossy conversion of `units` (native byte order), from
/// `char::decode_utf16`: 3 per unpaired surrogate, or 1 for U+DC80..U+DCFF with the escapes.
fn oracle_from_utf16(units: &[u16], replacement: Replacement) -> usize {
    char::decode_utf16(units.iter().copied())
        .map(|r| match r {
            Ok(c) => c.len_utf8(),
            Err(e)
                if replacement == Replacement::Escape
                    && (0xDC80..=0xDCFF).contains(&e.unpaired_surrogate()) =>
            {
                1
            }
            Err(_) => 3,
        })
        .sum()
}

/// The UTF-8 bytes of the lossy conversion of `values`, from `char::from_u32`.
fn oracle_from_utf32(values: &[u32], replacement: Replacement) -> usize {
    values
        .iter()
        .map(|&v| match char::from_u32(v) {
            Some(c) => c.len_utf8(),
            None if replacement == Replacement::Escape && (0xDC80..=0xDCFF).contains(&v) => 1,
            None => 3,
        })
        .sum()
}

/// Checks the lengths from UTF-8 of `s`, with every implementation and the public functions.
fn check_from_utf8(s: &[u8]) {
    for replacement in REPLACEMENTS {
        let (u16s, u32s) = oracle_from_utf8(s, replacement);
        for isa in common::implementations() {
            assert_eq!(
                isa.utf16_length_from_utf8(s, replacement),
                Some(u16s),
                "{isa:?} {replacement:?} UTF-16 of {} bytes",
                s.len()
            );
            assert_eq!(
                isa.utf32_length_from_utf8(s, replacement),
                Some(u32s),
                "{isa:?} {replacement:?} UTF-32 of {} bytes",
                s.len()
            );
        }
        assert_eq!(
            utf8::transcode::utf16::utf16_length_from_utf8_with(s, replacement),
            u16s
        );
        assert_eq!(
            utf8::transcode::utf32::utf32_length_from_utf8_with(s, replacement),
            u32s
        );
    }
}

/// Checks the lengths into UTF-8 of `units` in both byte orders, with every implementation and
/// the public functions.
fn check_from_utf16(units: &[u16]) {
    let swapped: Vec<u16> = units.iter().map(|u| u.swap_bytes()).collect();
    for replacement in REPLACEMENTS {
        let want = oracle_from_utf16(units, replacement);
        for isa in common::implementations() {
            assert_eq!(
                isa.utf8_length_from_utf16(units, false, replacement),
                Some(want),
                "{isa:?} {replacement:?} {} units",
                units.len()
            );
            assert_eq!(
                isa.utf8_length_from_utf16(&swapped, true, replacement),
                Some(want),
                "{isa:?} {replacement:?} {} swapped units",
                units.len()
            );
        }
        assert_eq!(
            utf8::transcode::utf16::utf8_length_from_utf16_with(units, replacement),
            want
        );
        assert_eq!(
            utf8::transcode::utf16::utf8_length_from_utf16_swapped_with(&swapped, replacement),
            want
        );
    }
}

/// Checks the lengths into UTF-8 of `values`, with every implementation and the public
/// functions.
fn check_from_utf32(values: &[u32]) {
    for replacement in REPLACEMENTS {
        let want = oracle_from_utf32(values, replacement);
        for isa in common::implementations() {
            assert_eq!(
                isa.utf8_length_from_utf32(values, replacement),
                Some(want),
                "{isa:?} {replacement:?} {} values",
                values.len()
            );
        }
        assert_eq!(
            utf8::transcode::utf32::utf8_length_from_utf32_with(values, replacement),
            want
        );
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "tens of thousands of inputs through every implementation: too slow interpreted; see a_few_inputs_of_each_kind"
)]
fn four_byte_characters_at_every_offset() {
    // In ASCII and in 2- and 3-byte text, so that the lead byte falls on every position of a
    // block and the characters around it differ.
    for filler in ["a", "é", "中"] {
        for len in 0..200usize {
            let base = filler.repeat(len.div_ceil(filler.len()));
            let base = &base.as_bytes()[..len - len % filler.len()];
            check_from_utf8(base);
            for at in (0..=base.len()).step_by(filler.len()) {
                let mut s = base[..at].to_vec();
                s.extend_from_slice("😀".as_bytes());
                s.extend_from_slice(&base[at..]);
                check_from_utf8(&s);
                // And the same cut, an error: the 4-byte character without its last byte.
                s.remove(at + 3);
                check_from_utf8(&s);
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "inputs of up to 49 KB: too slow interpreted; see a_few_inputs_of_each_kind"
)]
fn four_byte_characters_around_the_lanes_flush() {
    // All 4-byte characters: a lane of the byte loop gains one per 64-byte block, and the
    // lanes are added up every 255 blocks.
    let emoji = "😀".repeat(3 * 255 * 16 + 64);
    for blocks in [254, 255, 256, 510, 511, 765, 766] {
        for delta in [-5isize, -4, -1, 0, 1, 3, 4, 8] {
            let len = (blocks * 64) as isize + delta;
            let len = (len as usize).min(emoji.len());
            check_from_utf8(&emoji.as_bytes()[..len]);
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of inputs of 40 KB: too slow interpreted; see a_few_inputs_of_each_kind"
)]
fn errors_at_many_offsets_of_long_text() {
    let mut rng = common::Rng::new(0x1e47);
    // Text with 4-byte characters, long enough for the kernels' aligned loops and for several
    // flushes of the byte loop's lanes.
    let mut text = Vec::new();
    while text.len() < 40_000 {
        let pick = rng.below(4);
        text.extend_from_slice(["a", "é", "中", "😀"][pick].as_bytes());
    }
    check_from_utf8(&text);
    let mut offsets: Vec<usize> = Vec::new();
    for edge in (0..text.len()).step_by(64).chain([16_320, 32_640]) {
        offsets.extend([
            edge.saturating_sub(3),
            edge.saturating_sub(1),
            edge,
            edge + 1,
            edge + 2,
        ]);
    }
    offsets.retain(|&at| at < text.len());
    // One error at each offset (sampled: every input through every implementation), and then
    // all of them in one input, with every strategy.
    for (i, &at) in offsets.iter().enumerate().step_by(7) {
        let mut s = text.clone();
        s[at] ^= 0x80;
        if i % 2 == 0 {
            s.insert(at, 0xF0); // a lead byte before whatever follows: a 4-byte error or a cut
        }
        check_from_utf8(&s);
    }
    let mut all = text.clone();
    for &at in &offsets {
        all[at] ^= 0x80;
    }
    check_from_utf8(&all);
    // Errors every 64 and every 1024 bytes, as in the benchmark of ill-formed text.
    for step in [64, 1024] {
        let mut s = text.clone();
        for at in (step - 1..s.len()).step_by(step) {
            s[at] ^= 0x80;
        }
        check_from_utf8(&s);
    }
    // Random text, mutated.
    for _ in 0..common::iterations(200) {
        let len = rng.below(3000);
        let mut s = rng.text_of_len(len);
        rng.mutate(&mut s);
        check_from_utf8(&s);
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "tens of thousands of inputs: too slow interpreted; see a_few_inputs_of_each_kind"
)]
fn surrogates_at_every_offset() {
    let specials: [&[u16]; 7] = [
        &[0xD83D, 0xDE00], // a pair
        &[0xD800],         // a lone high surrogate
        &[0xDC00],         // a lone low surrogate
        &[0xDC80],         // an escape
        &[0xDCFF],         // an escape
        &[0xD800, 0xDC80], // a pair whose low half is in the escapes' range
        &[0xDBFF, 0xDBFF, 0xDFFF],
    ];
    for filler in [0x61u16, 0xE9, 0x4E2D, 0xFFFF] {
        for len in 0..100 {
            let base = vec![filler; len];
            check_from_utf16(&base);
            for special in specials {
                for at in 0..=len {
                    let mut units = base[..at].to_vec();
                    units.extend_from_slice(special);
                    units.extend_from_slice(&base[at..]);
                    check_from_utf16(&units);
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of inputs: too slow interpreted; see a_few_inputs_of_each_kind"
)]
fn surrogates_apart_around_blocks() {
    // A high surrogate, other units, then a low one: a pair where nothing comes between, two
    // lone surrogates otherwise, the two at every offset of the blocks and the gap across
    // blocks with no surrogate at all (which AVX-512's loop passes over in one test).
    for lead in 0..70 {
        for gap in 0..70 {
            let mut units = vec![0x61u16; lead];
            units.push(0xD83D);
            units.extend(std::iter::repeat_n(0x4E2Du16, gap));
            units.push(0xDE00);
            units.extend_from_slice(&[0x61; 5]);
            check_from_utf16(&units);
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "inputs of up to 2,100,000 units: too slow interpreted; see a_few_inputs_of_each_kind"
)]
fn utf16_around_the_lanes_flush() {
    // 3 bytes per unit: a lane of the portable UTF-16 loop gains 3 per 32-unit block, added up
    // every 4096 blocks; the loop covers all units but the first and the last. AVX-512's
    // lanes gain 2 per block (the bytes beyond a unit's first), added up every 32,767 blocks
    // after the first unit.
    let units = vec![0x4E2Du16; 32_768 * 32 + 64];
    for blocks in [4095, 4096, 4097, 8192, 32_767, 32_768] {
        for delta in [-3isize, 0, 1, 2, 3, 33] {
            let len = ((blocks * 32) as isize + delta) as usize;
            check_from_utf16(&units[..len]);
        }
    }
    // Pairs across the blocks' and the runs' edges, and lone surrogates.
    let mut rng = common::Rng::new(0x16);
    let mut units: Vec<u16> = (0..4096 * 32 + 100)
        .map(|_| [0x61, 0x4E2D, 0xD83D, 0xDE00, 0xDC80][rng.below(5)])
        .collect();
    check_from_utf16(&units);
    for _ in 0..common::iterations(50) {
        let len = rng.below(2000);
        units.truncate(len.max(units.len() / 2));
        let random: Vec<u16> = (0..len)
            .map(|_| match rng.below(6) {
                0 => 0xD800 | rng.below(0x800) as u16,
                1 => 0xDC80 | rng.below(0x80) as u16,
                _ => rng.below(0x10000) as u16,
            })
            .collect();
        check_from_utf16(&random);
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of inputs and one of 2 million values: too slow interpreted; see a_few_inputs_of_each_kind"
)]
fn utf32_every_kind_at_every_offset_and_around_the_flush() {
    // Each side of each length's bounds, the errors, the escapes' ends, and values whose
    // half (AVX-512 packs halves of values into 16-bit lanes) is at or past 2^15 and 2^31.
    let specials = [
        0x7F,
        0x80,
        0x7FF,
        0x800,
        0xFFFF,
        0x1_0000,
        0x1F600,
        0x10_FFFF,
        0x11_0000,
        0xD800,
        0xDC7F,
        0xDC80,
        0xDCFF,
        0xDD00,
        0x8000_0000,
        0xFFFF_FFFF,
    ];
    for len in 0..100 {
        let base = vec![0x61u32; len];
        check_from_utf32(&base);
        for special in specials {
            for at in 0..=len {
                let mut values = base.clone();
                values.insert(at, special);
                check_from_utf32(&values);
            }
        }
    }
    // 4 bytes per value: the portable loop's lanes added up every 65,536 blocks of 32 values,
    // AVX-512's every 32,767 steps of 32.
    let values = vec![0x1F600u32; (1 << 16) * 32 + 64];
    for flush in [(1 << 16) * 32, 32_767 * 32] {
        for delta in [-1isize, 0, 1, 31, 63] {
            let len = (flush as isize + delta) as usize;
            check_from_utf32(&values[..len]);
        }
    }
}

/// A few inputs of each kind through every implementation: the coverage Miri runs, where the
/// sweeps above are too slow.
#[test]
fn a_few_inputs_of_each_kind() {
    let text = "a\u{E9}\u{4E2D}\u{1F600}".repeat(20);
    let utf8 = text.as_bytes();
    check_from_utf8(utf8);
    check_from_utf8(&[&utf8[..37], b"\xF0\x9F\x98", &utf8[37..], b"\xFF\x80"].concat());
    let units: Vec<u16> = text.encode_utf16().collect();
    check_from_utf16(&units);
    check_from_utf16(&[&units[..33], &[0xDC80, 0xD800], &units[33..], &[0xDBFF]].concat());
    let values: Vec<u32> = text.chars().map(u32::from).collect();
    check_from_utf32(&values);
    check_from_utf32(&[&values[..33], &[0xDCFF, 0x11_0000], &values[33..]].concat());
}
