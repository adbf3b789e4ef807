/*
 * The C harness of libutf8's benchmark suite (`make bench`; see bench/README.md).
 *
 * usage: bench MANIFEST OUT_CSV OUT_META
 *
 * Measures, on every input listed in MANIFEST (written by `libutf8-bench gen`, so the Rust
 * harness measures the same bytes), libutf8's C functions as a C program calls them (linked
 * statically against target/release/libutf8.a) and the C peers:
 *   - validation: utf8_validate, GLib's g_utf8_validate_len, a Hoehrmann-style DFA;
 *   - decoding every character: a utf8_decode_next loop, a utf8proc_iterate loop, the DFA,
 *     and, as a reference, a loop that decodes with no validation at all;
 *   - physical references: memchr for a byte that is absent, and memcpy.
 *
 * Method (the Rust harness's): each implementation runs once and its result is checked
 * (validators must accept the whole input, the three decoders must sum the same code points,
 * memchr must not find its byte); a repetition count is calibrated so that one sample lasts at
 * least LIBUTF8_BENCH_SAMPLE_MS (10 ms); the samples are then taken round-robin over the
 * implementations, the order rotating each round, so that a noisy neighbour slows them all
 * alike. Times come from clock_gettime(CLOCK_MONOTONIC). One CSV row per input and
 * implementation gives the median, minimum and maximum time per call.
 *
 * Environment: LIBUTF8_BENCH_SAMPLES (15), LIBUTF8_BENCH_LARGE_SAMPLES (5, for inputs of 16 MiB
 * or more), LIBUTF8_BENCH_SAMPLE_MS (10), LIBUTF8_BENCH_QUICK (non-empty: 3, 1 and 2 ms).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <glib.h>
#include <libutf8.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <utf8proc.h>

/* ------------------------------------------------------------------------------------------ */
/* Keeping the optimiser honest */

/* The pointer, as far as the compiler knows, may now point anywhere, and any memory may have
 * changed: a call on it can be neither hoisted out of the measuring loop nor merged with the
 * previous one (memchr is declared pure: without this, repeated calls could be folded). */
static const unsigned char *opaque(const unsigned char *p) {
  __asm__ __volatile__("" : "+r"(p) : : "memory");
  return p;
}

/* ------------------------------------------------------------------------------------------ */
/* A table-driven DFA, after Bjoern Hoehrmann, "Flexible and Economical UTF-8 Decoder"
 * (http://bjoern.hoehrmann.de/utf-8/decoder/dfa/, 2008-2010). The technique is his: bytes are
 * mapped to character classes, the state (premultiplied by the number of classes) plus the class
 * indexes a transition table, and the code point is accumulated as
 *   cp = state != ACCEPT ? (byte & 0x3F) | (cp << 6) : (0xFF >> class) & byte
 * which requires each lead byte's class number to mask exactly its payload bits. The classes,
 * states and tables here are derived at start-up from the grammar of RFC 3629 section 4. */

enum dfa_class {
  K_ASCII = 0,    /* 00..7F; 0xFF >> 0 keeps all 7 payload bits */
  K_CONT_8 = 1,   /* 80..8F */
  K_LEAD2 = 2,    /* C2..DF; 0xFF >> 2 = 0x3F: 110xxxxx -> 0xxxxx */
  K_LEAD3 = 3,    /* E1..EC, EE..EF; 0x1F: 1110xxxx -> 0xxxx */
  K_ED = 4,       /* ED; 0x0F */
  K_F4 = 5,       /* F4; 0x07: 11110100 -> 100 */
  K_LEAD4 = 6,    /* F1..F3; 0x03: 111100xx -> xx */
  K_E0 = 7,       /* E0; 0x01 & E0 = 0, its payload */
  K_F0 = 8,       /* F0; 0xFF >> 8 = 0, its payload */
  K_CONT_9 = 9,   /* 90..9F */
  K_CONT_AB = 10, /* A0..BF */
  K_BAD = 11,     /* C0, C1, F5..FF */
  NCLASS = 12
};

/* States, by what they still need; stored premultiplied by NCLASS. */
enum dfa_state {
  S_ACCEPT = 0, /* between characters */
  S_REJECT,     /* absorbing: the input is ill-formed */
  S_NEED1,      /* one more continuation byte 80..BF */
  S_NEED2,      /* two more */
  S_NEED3,      /* three more */
  S_E0,         /* after E0: A0..BF, then one more */
  S_ED,         /* after ED: 80..9F, then one more */
  S_F0,         /* after F0: 90..BF, then two more */
  S_F4,         /* after F4: 80..8F, then two more */
  NSTATE
};

static uint8_t dfa_class_of[256];
static uint8_t dfa_next[NSTATE * NCLASS];

static enum dfa_class classify(unsigned b) {
  if (b <= 0x7F) return K_ASCII;
  if (b <= 0x8F) return K_CONT_8;
  if (b <= 0x9F) return K_CONT_9;
  if (b <= 0xBF) return K_CONT_AB;
  if (b <= 0xC1) return K_BAD;
  if (b <= 0xDF) return K_LEAD2;
  if (b == 0xE0) return K_E0;
  if (b == 0xED) return K_ED;
  if (b <= 0xEF) return K_LEAD3;
  if (b == 0xF0) return K_F0;
  if (b <= 0xF3) return K_LEAD4;
  if (b == 0xF4) return K_F4;
  return K_BAD;
}

static enum dfa_state transition(enum dfa_state s, enum dfa_class k) {
  int cont = k == K_CONT_8 || k == K_CONT_9 || k == K_CONT_AB;
  switch (s) {
  case S_ACCEPT:
    switch (k) {
    case K_ASCII: return S_ACCEPT;
    case K_LEAD2: return S_NEED1;
    case K_LEAD3: return S_NEED2;
    case K_E0: return S_E0;
    case K_ED: return S_ED;
    case K_LEAD4: return S_NEED3;
    case K_F0: return S_F0;
    case K_F4: return S_F4;
    default: return S_REJECT;
    }
  case S_NEED1: return cont ? S_ACCEPT : S_REJECT;
  case S_NEED2: return cont ? S_NEED1 : S_REJECT;
  case S_NEED3: return cont ? S_NEED2 : S_REJECT;
  case S_E0: return k == K_CONT_AB ? S_NEED1 : S_REJECT;
  case S_ED: return k == K_CONT_8 || k == K_CONT_9 ? S_NEED1 : S_REJECT;
  case S_F0: return k == K_CONT_9 || k == K_CONT_AB ? S_NEED2 : S_REJECT;
  case S_F4: return k == K_CONT_8 ? S_NEED2 : S_REJECT;
  default: return S_REJECT;
  }
}

static void dfa_init(void) {
  unsigned b, s, k;
  for (b = 0; b < 256; b++) dfa_class_of[b] = (uint8_t)classify(b);
  for (s = 0; s < NSTATE; s++)
    for (k = 0; k < NCLASS; k++)
      dfa_next[s * NCLASS + k] =
          (uint8_t)(transition((enum dfa_state)s, (enum dfa_class)k) * NCLASS);
}

/* ------------------------------------------------------------------------------------------ */
/* The implementations. Each computes one call on (s, len) and returns what its group checks:
 * validators the length of the valid prefix (len), decoders the sum of the code points,
 * counters the number of characters, references len. */

enum group { G_VALIDATE, G_DECODE, G_COUNT, G_REFERENCE };
static const char *const group_name[] = {"validate", "decode", "count", "reference"};

/* The destination of memcpy: as large as the largest input. */
static unsigned char *copy_dst;

static uint64_t libutf8_validate(const unsigned char *s, size_t len) {
  size_t good = 0;
  return utf8_validate((const char *)s, len, &good) == UTF8_OK ? good : UINT64_MAX;
}

static uint64_t libutf8_decode_loop(const unsigned char *s, size_t len) {
  uint64_t sum = 0;
  while (len > 0) {
    uint32_t cp;
    size_t used;
    utf8_decode_next((const char *)s, len, &cp, &used);
    sum += cp;
    s += used;
    len -= used;
  }
  return sum;
}

static uint64_t libutf8_count(const unsigned char *s, size_t len) {
  return utf8_count_chars((const char *)s, len);
}

static uint64_t glib_validate(const unsigned char *s, size_t len) {
  return g_utf8_validate_len((const gchar *)s, len, NULL) ? len : UINT64_MAX;
}

static uint64_t utf8proc_loop(const unsigned char *s, size_t len) {
  uint64_t sum = 0;
  utf8proc_ssize_t left = (utf8proc_ssize_t)len;
  while (left > 0) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate(s, left, &cp);
    if (n < 1) { /* an error: replace one byte */
      n = 1;
      cp = 0xFFFD;
    }
    sum += (uint32_t)cp;
    s += n;
    left -= n;
  }
  return sum;
}

static uint64_t dfa_decode_loop(const unsigned char *s, size_t len) {
  uint64_t sum = 0;
  uint32_t state = S_ACCEPT, cp = 0;
  size_t i;
  for (i = 0; i < len; i++) {
    uint32_t byte = s[i], k = dfa_class_of[byte];
    cp = state != S_ACCEPT ? (byte & 0x3Fu) | (cp << 6) : (0xFFu >> k) & byte;
    state = dfa_next[state + k];
    if (state == S_ACCEPT) {
      sum += cp;
    } else if (state == S_REJECT * NCLASS) { /* (not the maximal subpart: inputs are valid) */
      sum += 0xFFFD;
      state = S_ACCEPT;
    }
  }
  return state == S_ACCEPT ? sum : sum + 0xFFFD;
}

/* A reference, not a decoder: each character's value from its lead byte and payload bits, with
 * no check at all (the bytes must be well-formed). What a plain loop that steps one character
 * per iteration costs before any validation. Not a bound: a decoder whose branches suit the
 * text better can outrun it, as libutf8's validator outruns memchr. */
static uint64_t unchecked_decode_loop(const unsigned char *s, size_t len) {
  const unsigned char *end = s + len;
  uint64_t sum = 0;
  while (s < end) {
    uint32_t c = s[0];
    if (c < 0x80) {
      s += 1;
    } else if (c < 0xE0) {
      c = (c & 0x1Fu) << 6 | (s[1] & 0x3Fu);
      s += 2;
    } else if (c < 0xF0) {
      c = (c & 0x0Fu) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu);
      s += 3;
    } else {
      c = (c & 0x07u) << 18 | (s[1] & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6 | (s[3] & 0x3Fu);
      s += 4;
    }
    sum += c;
  }
  return sum;
}

static uint64_t dfa_validate(const unsigned char *s, size_t len) {
  uint32_t state = S_ACCEPT;
  size_t i;
  /* No test in the loop: the reject state is absorbing. */
  for (i = 0; i < len; i++) state = dfa_next[state + dfa_class_of[s[i]]];
  return state == S_ACCEPT ? len : UINT64_MAX;
}

/* The DFA must agree with libutf8 on every input of 1 to 3 bytes and on the boundaries of the
 * 4-byte forms: a check of the tables above, run before measuring. */
static int dfa_selftest(void) {
  static const unsigned char four[][4] = {
      {0xF0, 0x90, 0x80, 0x80}, {0xF0, 0x8F, 0xBF, 0xBF}, {0xF4, 0x8F, 0xBF, 0xBF},
      {0xF4, 0x90, 0x80, 0x80}, {0xF1, 0x80, 0x80, 0x80}, {0xF3, 0xBF, 0xBF, 0xBF},
      {0xF5, 0x80, 0x80, 0x80}, {0xF1, 0x80, 0x80, 0x7F}, {0xF1, 0x80, 0x80, 0xC0}};
  unsigned char b[4];
  unsigned long v, n;
  size_t len, i;
  for (len = 1; len <= 3; len++)
    for (v = 0, n = 1ul << (8 * len); v < n; v++) {
      for (i = 0; i < len; i++) b[i] = (unsigned char)(v >> (8 * i));
      if ((dfa_validate(b, len) == len) != (utf8_validate((const char *)b, len, NULL) == UTF8_OK))
        return -1;
    }
  for (i = 0; i < sizeof four / sizeof four[0]; i++)
    if ((dfa_validate(four[i], 4) == 4) !=
        (utf8_validate((const char *)four[i], 4, NULL) == UTF8_OK))
      return -1;
  return 0;
}

static uint64_t memchr_absent(const unsigned char *s, size_t len) {
  /* 0xFF never occurs in UTF-8, so memchr reads the whole buffer. */
  const unsigned char *p = memchr(s, 0xFF, len);
  return p ? (uint64_t)(p - s) : len;
}

static uint64_t memcpy_copy(const unsigned char *s, size_t len) {
  unsigned char *dst = copy_dst;
  memcpy(dst, s, len);
  __asm__ __volatile__("" : : "r"(dst) : "memory"); /* the copy is used */
  return len;
}

/* The measuring loops, instantiated per implementation so that they call it directly:
 * ID_bulk calls it `iters` times on one buffer, ID_pool on each string of `len` bytes of a
 * pool of `total` bytes, `iters` times over. */
#define LOOPS(id)                                                                          \
  static uint64_t id##_bulk(const unsigned char *s, size_t len, uint64_t iters) {          \
    uint64_t acc = 0, i;                                                                   \
    for (i = 0; i < iters; i++) acc += id(opaque(s), len);                                 \
    return acc;                                                                            \
  }                                                                                        \
  static uint64_t id##_pool(const unsigned char *pool, size_t total, size_t len,           \
                             uint64_t iters) {                                             \
    uint64_t acc = 0, i;                                                                   \
    size_t off;                                                                            \
    for (i = 0; i < iters; i++)                                                            \
      for (off = 0; off < total; off += len) acc += id(opaque(pool + off), len);           \
    return acc;                                                                            \
  }

LOOPS(libutf8_validate)
LOOPS(libutf8_decode_loop)
LOOPS(libutf8_count)
LOOPS(glib_validate)
LOOPS(utf8proc_loop)
LOOPS(dfa_decode_loop)
LOOPS(unchecked_decode_loop)
LOOPS(dfa_validate)
LOOPS(memchr_absent)
LOOPS(memcpy_copy)

struct entry {
  const char *name;
  enum group group;
  uint64_t (*bulk)(const unsigned char *, size_t, uint64_t);
  uint64_t (*pool)(const unsigned char *, size_t, size_t, uint64_t);
};

#define ENTRY(name, group, id) {name, group, id##_bulk, id##_pool}

/* Every implementation measured by this harness. Adding one is one LOOPS line and one entry. */
static const struct entry entries[] = {
    ENTRY("libutf8 utf8_validate", G_VALIDATE, libutf8_validate),
    ENTRY("libutf8 utf8_decode_next loop", G_DECODE, libutf8_decode_loop),
    ENTRY("libutf8 utf8_count_chars", G_COUNT, libutf8_count),
    ENTRY("glib g_utf8_validate_len", G_VALIDATE, glib_validate),
    ENTRY("utf8proc_iterate loop", G_DECODE, utf8proc_loop),
    ENTRY("Hoehrmann DFA decode loop", G_DECODE, dfa_decode_loop),
    ENTRY("unchecked decode loop (no validation)", G_DECODE, unchecked_decode_loop),
    ENTRY("Hoehrmann DFA validate loop", G_VALIDATE, dfa_validate),
    ENTRY("memchr (absent byte)", G_REFERENCE, memchr_absent),
    ENTRY("memcpy", G_REFERENCE, memcpy_copy),
};
#define NENTRIES (sizeof entries / sizeof entries[0])

/* ------------------------------------------------------------------------------------------ */
/* Inputs */

struct input {
  char kind[32], name[128], path[4096];
  size_t call_len;
  unsigned char *bytes; /* 64-byte aligned, as in the Rust harness */
  size_t len;
};

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "bench: out of memory\n");
    exit(1);
  }
  return p;
}

/* Reads `in->path` into a 64-byte aligned buffer (its allocation in *block). */
static int load(struct input *in, void **block) {
  FILE *f = fopen(in->path, "rb");
  long size;
  unsigned char *base;
  if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "bench: %s: %s\n", in->path, strerror(errno));
    if (f) fclose(f);
    return -1;
  }
  in->len = (size_t)size;
  *block = xmalloc(in->len + 64);
  base = *block;
  in->bytes = base + (64 - (uintptr_t)base % 64) % 64;
  if (fread(in->bytes, 1, in->len, f) != in->len) {
    fprintf(stderr, "bench: %s: short read\n", in->path);
    fclose(f);
    return -1;
  }
  fclose(f);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Measuring */

static double env_num(const char *name, double fallback) {
  const char *v = getenv(name);
  char *end;
  double x;
  if (!v) return fallback;
  x = strtod(v, &end);
  if (end == v || *end) {
    fprintf(stderr, "bench: %s=\"%s\" is not a number\n", name, v);
    exit(2);
  }
  return x;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int is_short(const struct input *in) { return strcmp(in->kind, "short") == 0; }

/* Whether this harness measures inputs of `in`'s kind: UTF-8 of the kinds it knows. The
 * manifest lists others for the Rust harness alone (the Latin-1 text made from the corpus, and
 * its UTF-8 form), which this one skips. */
static int is_measured(const struct input *in) {
  return is_short(in) || strcmp(in->kind, "corpus") == 0 || strcmp(in->kind, "generated") == 0 ||
         strcmp(in->kind, "fresh") == 0;
}

/* Whether each call processes one string of the file (short strings, and the copies of a corpus
 * file of `fresh`), not the whole file. */
static int is_pool(const struct input *in) {
  return is_short(in) || strcmp(in->kind, "fresh") == 0;
}

/* The number of characters of valid UTF-8: its bytes that are not continuation bytes. */
static uint64_t count_chars(const unsigned char *s, size_t len) {
  uint64_t n = 0;
  size_t i;
  for (i = 0; i < len; i++) n += (s[i] & 0xC0) != 0x80;
  return n;
}

/* Runs entry `e` `iters` times on `in`: the elapsed nanoseconds; the result in *result. */
static double run(const struct entry *e, const struct input *in, uint64_t iters,
                  uint64_t *result) {
  double t0 = now_ns(), t1;
  uint64_t r = is_pool(in) ? e->pool(in->bytes, in->len, in->call_len, iters)
                            : e->bulk(in->bytes, in->len, iters);
  t1 = now_ns();
  if (result) *result = r;
  return t1 - t0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int quick = getenv("LIBUTF8_BENCH_QUICK") && *getenv("LIBUTF8_BENCH_QUICK") &&
              strcmp(getenv("LIBUTF8_BENCH_QUICK"), "0") != 0;
  size_t samples = (size_t)env_num("LIBUTF8_BENCH_SAMPLES", quick ? 3 : 15);
  size_t samples_large = (size_t)env_num("LIBUTF8_BENCH_LARGE_SAMPLES", quick ? 1 : 5);
  double sample_ns = env_num("LIBUTF8_BENCH_SAMPLE_MS", quick ? 2 : 10) * 1e6;
  FILE *manifest, *csv, *meta;
  struct input in;
  size_t max_len = 0;
  int failed = 0;
  char line[8192];

  if (argc != 4) {
    fprintf(stderr, "usage: %s MANIFEST OUT_CSV OUT_META\n", argv[0]);
    return 2;
  }
  if (samples < 1) samples = 1;
  if (samples_large < 1) samples_large = 1;
  dfa_init();
  if (dfa_selftest() != 0) {
    fprintf(stderr, "bench: the DFA disagrees with utf8_validate: its tables are wrong\n");
    return 1;
  }

  meta = fopen(argv[3], "w");
  if (!meta) {
    fprintf(stderr, "bench: %s: %s\n", argv[3], strerror(errno));
    return 1;
  }
  fprintf(meta, "c_compiler=%s\n", __VERSION__);
  fprintf(meta, "libutf8=%s\n", utf8_version());
  fprintf(meta, "utf8proc=%s\n", utf8proc_version());
  fprintf(meta, "glib=%u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
  fclose(meta);

  manifest = fopen(argv[1], "r");
  if (!manifest) {
    fprintf(stderr, "bench: %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  /* First pass: the longest call, for memcpy's destination. */
  while (fgets(line, sizeof line, manifest)) {
    size_t n;
    if (sscanf(line, "%31s %127s %4095s %zu", in.kind, in.name, in.path, &n) == 4 && n > max_len)
      max_len = n;
  }
  copy_dst = xmalloc(max_len + 64);
  memset(copy_dst, 0, max_len + 64); /* touch every page before measuring */
  rewind(manifest);

  csv = fopen(argv[2], "w");
  if (!csv) {
    fprintf(stderr, "bench: %s: %s\n", argv[2], strerror(errno));
    return 1;
  }
  fprintf(csv, "harness,group,kind,input,impl,bytes_per_call,median_ns,min_ns,max_ns,samples,"
               "calls_per_sample\n");

  while (fgets(line, sizeof line, manifest)) {
    void *block;
    uint64_t iters[NENTRIES], decoded = 0, calls_per_iter;
    size_t plan[NENTRIES], nplan = 0, k, round, nsamples, i;
    int have_decoded = 0;
    double *times;

    if (line[0] == '\n' || line[0] == '\0') continue;
    if (sscanf(line, "%31s %127s %4095s %zu", in.kind, in.name, in.path, &in.call_len) != 4 ||
        in.call_len == 0) {
      fprintf(stderr, "bench: %s: bad line: %s", argv[1], line);
      return 1;
    }
    if (!is_measured(&in)) continue;
    if (load(&in, &block) != 0) return 1;
    if (in.len % in.call_len != 0 || in.call_len > max_len) {
      fprintf(stderr, "bench: %s: unexpected size\n", in.path);
      return 1;
    }
    calls_per_iter = in.len / in.call_len;

    /* Check each applicable implementation's first call, then calibrate it. */
    for (k = 0; k < NENTRIES; k++) {
      const struct entry *e = &entries[k];
      /* Validators and references return the length; on a pool, the sum of the lengths. */
      uint64_t got, want = in.len, n = 1;
      /* Short strings measure validation (and the references) only. */
      if ((e->group == G_DECODE || e->group == G_COUNT) && is_short(&in)) continue;
      if (e->group == G_COUNT) want = count_chars(in.bytes, in.len);
      run(e, &in, 1, &got);
      if (e->group == G_DECODE) {
        if (!have_decoded) {
          decoded = got;
          have_decoded = 1;
        }
        want = decoded;
      }
      if (got != want) {
        fprintf(stderr, "bench: %s on %s returned %llu, expected %llu: not measured\n",
                e->name, in.name, (unsigned long long)got, (unsigned long long)want);
        failed = 1;
        continue;
      }
      for (;;) {
        double ns = run(e, &in, n, NULL), scale;
        if (ns < 1) ns = 1;
        if (ns >= sample_ns) break;
        scale = sample_ns * 1.05 / ns;
        if (scale < 1.5) scale = 1.5;
        if (scale > 100) scale = 100;
        n = (uint64_t)((double)n * scale + 0.999);
      }
      iters[nplan] = n;
      plan[nplan++] = k;
    }

    nsamples = in.len >= 16u * 1024 * 1024 ? samples_large : samples;
    fprintf(stderr, "bench[c]:    %-40s %9zu bytes, %zu implementations x %zu samples\n",
            in.name, in.len, nplan, nsamples);
    times = xmalloc(sizeof(double) * nplan * nsamples);
    for (round = 0; round < nsamples; round++)
      for (i = 0; i < nplan; i++) {
        size_t j = (i + round) % nplan;
        double ns = run(&entries[plan[j]], &in, iters[j], NULL);
        times[j * nsamples + round] = ns / (double)(iters[j] * calls_per_iter);
      }
    for (i = 0; i < nplan; i++) {
      double *t = times + i * nsamples, median;
      const struct entry *e = &entries[plan[i]];
      qsort(t, nsamples, sizeof *t, cmp_double);
      median = nsamples % 2 ? t[nsamples / 2] : (t[nsamples / 2 - 1] + t[nsamples / 2]) / 2;
      fprintf(csv, "c,%s,%s,%s,%s,%zu,%.3f,%.3f,%.3f,%zu,%llu\n", group_name[e->group], in.kind,
              in.name, e->name, in.call_len, median, t[0], t[nsamples - 1], nsamples,
              (unsigned long long)(iters[i] * calls_per_iter));
    }
    free(times);
    free(block);
  }
  fclose(manifest);
  if (fclose(csv) != 0) {
    fprintf(stderr, "bench: %s: %s\n", argv[2], strerror(errno));
    return 1;
  }
  free(copy_dst);
  if (failed) {
    fprintf(stderr, "bench: some implementations returned a wrong result (see above)\n");
    return 1;
  }
  return 0;
}
