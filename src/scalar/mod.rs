//! The scalar reference, at the bottom of the layers: the RFC 3629 grammar ([`decode`]), the
//! encoder ([`encode`]), the error classification ([`error`]), the grammars of the sibling
//! forms ([`form`]) and the scalar validator ([`validate`]), which every SIMD kernel must
//! agree with and which locates and classifies the errors the kernels find; and the UTF-16 and
//! UTF-32 checks of encoding detection ([`detect`]); the single-byte encodings Latin-1 and
//! Windows-1252 ([`latin1`]); what a lossy conversion replaces ill-formed input with
//! ([`replacement`]). Nothing here imports a module of another
//! layer but `crate::chunks` and `crate::sink`.

pub mod decode;
pub mod detect;
pub mod encode;
pub mod error;
pub mod form;
pub mod latin1;
pub mod replacement;
pub mod validate;
