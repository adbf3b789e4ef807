/*
 * compress_dependency.c: the cost of AVX-512's byte compression (VPCOMPRESSB) zero-masked and
 * merge-masked, two per iteration into the same register with a mask that changes each time,
 * as a kernel gives them: not run by `make bench`; behind `compress_bytes` in
 * src/kernels/x86/avx512/mod.rs. Zero-masked, the instruction waits for the last value of the
 * register it writes, so the two compressions run one after the other; merge-masked into a
 * copy of their source, they do not. Cycles are the wall clock times the frequency given
 * (GHZ, 3.55 by default: what a chain of dependent adds ran at on the machine measured).
 *
 *   cc -O2 -mavx512f -mavx512bw -mavx512vbmi2 bench/c/compress_dependency.c -o compress_dependency
 *   GHZ=3.55 ./compress_dependency
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 50000000L

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  const double ghz = getenv("GHZ") ? atof(getenv("GHZ")) : 3.55;
  uint64_t masks[256];
  for (int i = 0; i < 256; i++)
    masks[i] = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 2) ^ (uint64_t)rand();
  __m512i a = _mm512_set1_epi8(3), b, c;
  /* A second of work first: the machine ran slower before it. */
  for (double t0 = now(); now() - t0 < 1.0;) {
  }
  for (int round = 0; round < 3; round++) {
    double t0 = now();
    for (long i = 0; i < N; i++) {
      __mmask64 k = masks[i & 255];
      __asm__ volatile("vpcompressb %1, %0%{%2%}%{z%}" : "=v"(b) : "v"(a), "Yk"(k));
      __asm__ volatile("vpcompressb %1, %0%{%2%}%{z%}" : "=v"(b) : "v"(a), "Yk"(k));
    }
    double zero = now() - t0;
    t0 = now();
    for (long i = 0; i < N; i++) {
      __mmask64 k = masks[i & 255];
      b = a;
      c = a;
      __asm__ volatile("vpcompressb %1, %0%{%2%}" : "+v"(b) : "v"(a), "Yk"(k));
      __asm__ volatile("vpcompressb %1, %0%{%2%}" : "+v"(c) : "v"(a), "Yk"(k));
    }
    double merge = now() - t0;
    printf("zero-masked %.2f cycles a compression, merge-masked %.2f\n",
           zero * ghz * 1e9 / N / 2, merge * ghz * 1e9 / N / 2);
  }
  __asm__ volatile("" : : "v"(b), "v"(c));
  return 0;
}
