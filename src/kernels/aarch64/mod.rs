//! The aarch64 kernels: NEON ([`neon`]).

pub(crate) mod neon;
