//! The AVX2 kernels: the validation and counting kernels and the converters, compiled for AVX2
//! with the registers of [`super::shared`].

use super::shared::{Avx2, Avx2StepRegister};
use crate::algorithms::lookup;

lookup::block_kernels!("avx2,popcnt", Avx2);
crate::algorithms::lengths::length_kernels!("avx2");

// The converters of crate::transcode, compiled for this instruction set: their runs of ASCII are
// widened and narrowed in its registers.
super::transcoders!("avx2,popcnt", validate::<true>, Avx2, Avx2StepRegister);
