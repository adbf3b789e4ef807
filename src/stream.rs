//! Validation of a stream that arrives in chunks (a fragmented WebSocket text message, a pipe).
//!
//! Each chunk goes through the fast validator ([`crate::validate`]); only a character split
//! across a chunk border, at most three bytes kept from the previous chunk plus the first bytes
//! of the next, goes through [`decode_next`]. The state is small enough for the C API's
//! caller-allocated `utf8_stream` (two 64-bit words, see [`StreamState::to_words`]).

use crate::scalar::decode::decode_next;
use crate::scalar::error::ErrorKind;
use crate::validate::validate;

/// The first ill-formed sequence of a stream: its kind, and its offset from the start of the
/// stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamError {
    /// Why it is ill-formed; [`ErrorKind::Truncated`] only from [`StreamState::finish`].
    pub kind: ErrorKind,
    /// The offset of the ill-formed sequence: the length of the stream's well-formed prefix.
    pub valid_up_to: u64,
}

/// The state of a stream validation. `StreamState::default()` is a stream at its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamState {
    /// Before an error: the length of the complete characters seen, which is where the pending
    /// bytes start. After one: the error's offset.
    pos: u64,
    /// The first bytes of a character split across chunks, valid so far.
    pending: [u8; 3],
    pending_len: u8,
    /// The first error, which every later call reports again.
    error: Option<ErrorKind>,
}

impl StreamState {
    /// A stream at its start.
    pub fn new() -> Self {
        Self::default()
    }

    /// Validates the next chunk of the stream.
    ///
    /// `Ok(n)`: the stream so far is a prefix of well-formed UTF-8, and its first `n` bytes are
    /// complete characters (a character may be pending at the end). `Err`: the stream so far
    /// cannot begin well-formed UTF-8; the error is that of [`crate::validate`] on the whole
    /// stream, and every later call returns it again.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<u64, StreamError> {
        self.check()?;
        let mut rest = chunk;
        if self.pending_len > 0 {
            // Complete the split character from at most four bytes: pending, then the chunk's.
            let held = usize::from(self.pending_len).min(3);
            let mut buf = [0u8; 4];
            buf[..3].copy_from_slice(&self.pending);
            for (dst, &src) in buf[held..].iter_mut().zip(rest) {
                *dst = src;
            }
            let filled = (held + rest.len()).min(4);
            match decode_next(&buf[..filled]) {
                Ok((_, width)) => {
                    // `width > held`: the pending bytes alone were an incomplete sequence.
                    rest = rest.get(width.saturating_sub(held)..).unwrap_or(&[]);
                    self.pos = self.pos.saturating_add(width as u64);
                    self.pending_len = 0;
                }
                Err(m) if m.kind == ErrorKind::Truncated => {
                    // Fewer than four bytes in all: the whole chunk joins the pending bytes.
                    self.pending.copy_from_slice(&buf[..3]);
                    self.pending_len = filled.min(3) as u8;
                    return Ok(self.pos);
                }
                Err(m) => return Err(self.fail(m.kind, 0)),
            }
        }
        match validate(rest) {
            Ok(()) => {
                self.pos = self.pos.saturating_add(rest.len() as u64);
                Ok(self.pos)
            }
            // Only the last sequence of the chunk can be truncated, and it is at most three
            // bytes long: it is kept for the next chunk.
            Err(e) if e.kind == ErrorKind::Truncated => {
                let tail = rest.get(e.valid_up_to..).unwrap_or(&[]);
                self.pending = [0; 3];
                for (dst, &src) in self.pending.iter_mut().zip(tail) {
                    *dst = src;
                }
                self.pending_len = tail.len().min(3) as u8;
                self.pos = self.pos.saturating_add(e.valid_up_to as u64);
                Ok(self.pos)
            }
            Err(e) => Err(self.fail(e.kind, e.valid_up_to)),
        }
    }

    /// Ends the stream: `Ok(n)` with its length if it is well-formed UTF-8, the first error
    /// otherwise, [`ErrorKind::Truncated`] if it ends inside a character. An error, that one
    /// included, is kept: later calls return it again.
    pub fn finish(&mut self) -> Result<u64, StreamError> {
        self.check()?;
        if self.pending_len > 0 {
            return Err(self.fail(ErrorKind::Truncated, 0));
        }
        Ok(self.pos)
    }

    /// The kept error, if any.
    fn check(&self) -> Result<(), StreamError> {
        match self.error {
            Some(kind) => Err(StreamError {
                kind,
                valid_up_to: self.pos,
            }),
            None => Ok(()),
        }
    }

    /// Records the error `kind` at `offset` bytes after the pending bytes' start.
    fn fail(&mut self, kind: ErrorKind, offset: usize) -> StreamError {
        self.pos = self.pos.saturating_add(offset as u64);
        self.error = Some(kind);
        self.pending_len = 0;
        self.pending = [0; 3];
        StreamError {
            kind,
            valid_up_to: self.pos,
        }
    }

    /// The state as two 64-bit words: the position, then the pending bytes (bytes 0..3), their
    /// number (byte 3), the error (byte 4, 0 for none) and [`check_bits`] of the rest (bytes
    /// 5..8). All zero is a stream at its start.
    pub fn to_words(&self) -> [u64; 2] {
        let [a, b, c] = self.pending;
        let code = self.error.map_or(0, |k| {
            ERROR_CODES
                .iter()
                .position(|&e| e == k)
                .map_or(0, |i| i + 1)
        });
        let fields = u64::from_le_bytes([a, b, c, self.pending_len, code as u8, 0, 0, 0]);
        [
            self.pos,
            fields | check_bits(self.pos, fields) << FIELD_BITS,
        ]
    }

    /// The state [`StreamState::to_words`] wrote, or `None` for words it cannot have written
    /// (but for one in 2^24 of those whose fields are consistent, which the check lets
    /// through).
    pub fn from_words(words: [u64; 2]) -> Option<Self> {
        let fields = words[1] & ((1 << FIELD_BITS) - 1);
        if words[1] >> FIELD_BITS != check_bits(words[0], fields) {
            return None;
        }
        let [a, b, c, pending_len, code, ..] = fields.to_le_bytes();
        let error = match usize::from(code) {
            0 => None,
            i => Some(*ERROR_CODES.get(i - 1)?),
        };
        let pending = [a, b, c];
        let held = pending.get(..usize::from(pending_len))?;
        let pending_ok =
            held.is_empty() || decode_next(held).is_err_and(|m| m.kind == ErrorKind::Truncated);
        let consistent = pending_ok && (error.is_none() || held.is_empty());
        consistent.then_some(StreamState {
            pos: words[0],
            pending,
            pending_len,
            error,
        })
    }
}

/// The bits of the second word that hold the fields of the state; the check is above them.
const FIELD_BITS: u32 = 40;

/// A 24-bit check of a packed state's position and fields, so that a `utf8_stream` these
/// functions did not write (never initialised, or overwritten) is refused whichever of its bytes
/// are wrong, the position's too, as the C API promises; all but one in 2^24 such states are.
/// 0 for the zero state, a stream at its start. A multiply-xorshift mix, as in the finaliser of
/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// every input bit changes about half of the top 24 bits.
fn check_bits(pos: u64, fields: u64) -> u64 {
    let x = pos.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ fields.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (x ^ (x >> 31)).wrapping_mul(0x94D0_49BB_1331_11EB) >> FIELD_BITS
}

/// The error kinds, numbered from 1 in the packed state.
const ERROR_CODES: [ErrorKind; 7] = [
    ErrorKind::Truncated,
    ErrorKind::UnexpectedContinuation,
    ErrorKind::MissingContinuation,
    ErrorKind::Overlong,
    ErrorKind::Surrogate,
    ErrorKind::TooLarge,
    ErrorKind::InvalidByte,
];
