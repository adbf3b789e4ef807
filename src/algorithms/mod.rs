//! The algorithms the kernels instantiate, generic over an instruction set's registers:
//! [`lookup`], the validation algorithm (every SIMD kernel's); `from_utf8` and `to_utf8`, the
//! conversion algorithms (x86_64); [`latin1`], the table of the Latin-1 block converters;
//! [`lengths`], the loops of the length functions (portable, compiled per instruction set);
//! [`short_ascii`], short ASCII strings converted without a kernel, and [`ascii`], the test that
//! recognises them.

pub(crate) mod ascii;
#[cfg(target_arch = "x86_64")]
pub(crate) mod from_utf8;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod latin1;
pub(crate) mod lengths;
pub(crate) mod lookup;
pub(crate) mod short_ascii;
#[cfg(target_arch = "x86_64")]
pub(crate) mod to_utf8;
