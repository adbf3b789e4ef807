//! The C functions of the sibling forms of UTF-8 (since 1.2): validation, decoding and encoding
//! in WTF-8, CESU-8, Modified UTF-8 and RFC 2279, over [`crate::form`].

use core::ffi::{c_char, c_int};

use super::utf8_status::{self, *};
use super::{decoded, input, output, put, validated, write_encoded};
use crate::form::{self, Form};

/// A form of UTF-8, the `form` argument of utf8_validate_form, utf8_decode_next_form and
/// utf8_encode_form. Each form accepts exactly its own definition; overlong forms are errors
/// in all of them except C0 80 in UTF8_FORM_MUTF8.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum utf8_form {
    /// RFC 3629, the default everywhere: exactly utf8_validate, utf8_decode_next, utf8_encode.
    UTF8_FORM_STRICT = 0,
    /// WTF-8 (https://simonsapin.github.io/wtf-8/): RFC 3629 plus unpaired surrogate code
    /// points in 3 bytes (ED A0..BF 80..BF), so that any UTF-16, well-formed or not,
    /// round-trips. A lead surrogate directly followed by a trail surrogate is ill-formed
    /// (UTF8_ERR_SURROGATE over the 6 bytes): that character must be its 4-byte form.
    UTF8_FORM_WTF8 = 1,
    /// CESU-8 (Unicode Technical Report #26): a supplementary character as its UTF-16
    /// surrogate pair, each half in 3 bytes (6 in all); no 4-byte form (F0..FF are
    /// UTF8_ERR_INVALID_BYTE); an unpaired surrogate is UTF8_ERR_SURROGATE.
    UTF8_FORM_CESU8 = 2,
    /// Java's Modified UTF-8: CESU-8, with U+0000 as C0 80 and never as a 00 byte (a 00 byte
    /// is UTF8_ERR_INVALID_BYTE). Unpaired surrogates are refused, as in CESU-8.
    UTF8_FORM_MUTF8 = 3,
    /// RFC 2279: the original 1..6 byte form for values up to 0x7FFFFFFF, shortest form only;
    /// FE and FF are UTF8_ERR_INVALID_BYTE. Unpaired surrogates are values like any other; a
    /// lead surrogate directly followed by a trail surrogate is UTF8_ERR_SURROGATE (RFC 2279
    /// section 2 requires the pair's UCS-4 character instead).
    UTF8_FORM_RFC2279 = 4,
}

/// A `utf8_form` as C passes it: any int, so that an unknown value is an error to report
/// rather than an invalid Rust enum. The header shows it as `utf8_form`.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormArg(pub c_int);

impl FormArg {
    /// The form this value names, if any.
    fn form(self) -> Option<Form> {
        usize::try_from(self.0)
            .ok()
            .and_then(|i| Form::ALL.get(i).copied())
    }
}

/// The longest encoding of one value in any utf8_form, in bytes (a CESU-8 or Modified UTF-8
/// surrogate pair, or an RFC 2279 6-byte sequence): a buffer this large always suffices for
/// utf8_encode_form. UTF8_MAX_BYTES (4) suffices for UTF8_FORM_STRICT and UTF8_FORM_WTF8.
pub const UTF8_FORM_MAX_BYTES: usize = 6;

// A literal above, so that cbindgen can print it; the same as the Rust constant.
const _: () = assert!(UTF8_FORM_MAX_BYTES == form::MAX_BYTES);

/// Checks that the `len` bytes at `s` are well-formed in `form` (since 1.2).
///
/// Returns UTF8_OK, or the status of the first ill-formed sequence (see utf8_form, and
/// libutf8(3) for each form's errors). `*valid_up_to` receives the length of the longest
/// well-formed prefix: `len` on success, the offset of the first ill-formed sequence otherwise.
/// UTF8_FORM_STRICT gives exactly what utf8_validate gives. An unknown `form` gives
/// UTF8_ERR_INVALID_ARGUMENT (checked first) and a NULL `s` with `len > 0`
/// UTF8_ERR_NULL_POINTER; both leave `*valid_up_to` untouched. `(NULL, 0)` is valid and empty.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes; `valid_up_to` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_validate_form(
    s: *const c_char,
    len: usize,
    form: FormArg,
    valid_up_to: *mut usize,
) -> utf8_status {
    let Some(form) = form.form() else {
        return UTF8_ERR_INVALID_ARGUMENT;
    };
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    let Some(bytes) = (unsafe { input(s, len) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let (status, good) = validated(form::validate(bytes, form), len);
    // SAFETY: `valid_up_to` is NULL or writable, by the caller's contract.
    unsafe { put(valid_up_to, good) };
    status
}

/// Decodes the character at the start of the `len` bytes at `s` in `form` (since 1.2).
///
/// On UTF8_OK, `*cp` is its value and `*consumed` its length: 1..4, 6 for a CESU-8 or Modified
/// UTF-8 surrogate pair (decoded into one supplementary code point), 1..6 in RFC 2279. In
/// WTF-8 and RFC 2279 `*cp` may be a surrogate code point, and in RFC 2279 up to 0x7FFFFFFF.
/// On an ill-formed sequence, `*cp` is U+FFFD and `*consumed` at least 1: the length of its
/// maximal subpart, as for utf8_decode_next, but where the forms' error table (libutf8(3))
/// says otherwise: in CESU-8 and Modified UTF-8 a lead surrogate not followed by a whole trail
/// surrogate is 3 bytes (the 1..2 bytes of a trail after it are then errors of their own), and
/// in WTF-8 and RFC 2279 a surrogate pair in 3-byte halves is 6, its trail half included,
/// though alone it would be a character. UTF8_ERR_TRUNCATED consumes the rest of the input (in
/// CESU-8 and Modified UTF-8 this includes a lead surrogate at the end of the input, whose pair
/// is incomplete; in WTF-8 and RFC 2279 a lead surrogate followed by ED or ED B0..BF at the
/// end, which one more byte can make a pair; a lead surrogate alone at the end is a character
/// there), and `len == 0` gives UTF8_ERR_TRUNCATED with `*consumed == 0`. So input that
/// UTF8_ERR_TRUNCATED stops at, carried over and completed, decodes as one input would.
/// UTF8_FORM_STRICT gives exactly what utf8_decode_next gives. An unknown `form` gives
/// UTF8_ERR_INVALID_ARGUMENT (checked first) and a NULL `s` with `len > 0`
/// UTF8_ERR_NULL_POINTER; both leave `*cp` and `*consumed` untouched.
///
/// # Safety
/// `s` is NULL or points to `len` readable bytes; `cp` and `consumed` are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_decode_next_form(
    s: *const c_char,
    len: usize,
    form: FormArg,
    cp: *mut u32,
    consumed: *mut usize,
) -> utf8_status {
    let Some(form) = form.form() else {
        return UTF8_ERR_INVALID_ARGUMENT;
    };
    // SAFETY: the caller's contract for `s` and `len` is the one `input` needs.
    let Some(bytes) = (unsafe { input(s, len) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let (status, value, n) = decoded(form::decode_next(bytes, form));
    // SAFETY: `cp` and `consumed` are NULL or writable, by the caller's contract.
    unsafe {
        put(cp, value);
        put(consumed, n);
    }
    status
}

/// Encodes the value `cp` in `form` at `out`, and sets `*out_len` to the number of bytes
/// (since 1.2): 1..4 in UTF8_FORM_STRICT and UTF8_FORM_WTF8, 1..3 or 6 (a surrogate pair) in
/// UTF8_FORM_CESU8 and UTF8_FORM_MUTF8, 1..6 in UTF8_FORM_RFC2279; UTF8_FORM_MAX_BYTES always
/// suffices. The bytes are exactly what utf8_decode_next_form in the same form reads back as
/// `cp`.
///
/// Refused however small the buffer, with `*out_len` set to 0: a value above the form's range
/// (U+10FFFF; 0x7FFFFFFF in RFC 2279) with UTF8_ERR_TOO_LARGE; a surrogate code point with
/// UTF8_ERR_SURROGATE in UTF8_FORM_STRICT, UTF8_FORM_CESU8 and UTF8_FORM_MUTF8 (WTF-8 and RFC
/// 2279 encode it alone in 3 bytes; writing a lead then a trail surrogate in WTF-8 gives an
/// ill-formed pair: encode their supplementary character instead). If `cap` is too small,
/// nothing is written, the status is UTF8_ERR_BUFFER_TOO_SMALL and `*out_len` is the size
/// needed, so `(NULL, 0)` is a size query. UTF8_FORM_STRICT gives exactly what utf8_encode
/// gives. An unknown `form` gives UTF8_ERR_INVALID_ARGUMENT (checked first) and a NULL `out`
/// with `cap > 0` UTF8_ERR_NULL_POINTER (checked next, whatever `cp`); both leave `*out_len`
/// untouched. The output is not NUL-terminated.
///
/// # Safety
/// `out` is NULL or points to `cap` writable bytes; `out_len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn utf8_encode_form(
    cp: u32,
    form: FormArg,
    out: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> utf8_status {
    let Some(form) = form.form() else {
        return UTF8_ERR_INVALID_ARGUMENT;
    };
    // SAFETY: `out` is NULL or points to `cap` writable bytes, by the caller's contract.
    let Some(buf) = (unsafe { output(out.cast::<u8>(), cap) }) else {
        return UTF8_ERR_NULL_POINTER;
    };
    let (status, n) = match form::encode(cp, form) {
        Err(kind) => (kind.into(), 0),
        Ok(e) => write_encoded(buf, e.as_bytes()),
    };
    // SAFETY: `out_len` is NULL or writable, by the caller's contract.
    unsafe { put(out_len, n) };
    status
}
