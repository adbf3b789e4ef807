/*
 * utf8check: checks that files are UTF-8, locating the first error of each; or copies them
 * with errors replaced or escaped, or converted from a legacy encoding. See man/utf8check.1.
 *
 * Every input goes in fixed-size pieces through libutf8's stream validator, so memory use does
 * not depend on the input, and the tool itself does no work per byte. A regular file being
 * checked is mapped a window at a time, so that the validator reads the page cache with no
 * copy, and its line and column are found only after an error. Anything else is read in
 * chunks; a character split across two chunks is carried, at most three bytes, to the front of
 * the next, so that the line tracking and the copies only ever see whole characters. The one
 * exception is --legacy, whose choice between copying and converting needs the input's first
 * error or end: a regular file is checked, then read again; anything else is held in memory up
 * to that point.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64 /* files above 2 GiB on 32-bit systems */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <libutf8.h>

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_TROUBLE = 2 };

/* Bytes read at a time: a read costs little per byte, and the chunk stays in the L2 cache
 * while the validator reads it. */
#define CHUNK (128 * 1024)
/* Bytes of a regular file mapped at a time: large enough that mapping costs little per byte
 * (a multiple of every page size). */
#define WINDOW ((size_t)4 << 20)
/* The most bytes of an incomplete character that can end a chunk. */
#define CARRY_MAX (UTF8_MAX_BYTES - 1)
/* The longest byte-order mark, UTF-32's. */
#define HEAD 4
/* The longest output for one input byte, of every copy: utf8_escape writes at most four bytes
 * per input byte (\xNN); utf8_replace_invalid at most three (U+FFFD), and so do --fallback and
 * --legacy (Windows-1252's 80 is U+20AC). */
#define MAX_EXPANSION 4

static char in_buf[CARRY_MAX + CHUNK];
static char out_buf[MAX_EXPANSION * (CARRY_MAX + CHUNK)];

static const char *const usage_text =
    "Usage: utf8check [OPTION]... [FILE]...\n"
    "Check that each FILE (standard input if none, or -) is UTF-8 (RFC 3629).\n"
    "For an invalid one, report the line, column, byte offset, reason and bytes\n"
    "of its first error, or the UTF-16 or UTF-32 byte-order mark it starts with.\n"
    "\n"
    "  -q, --quiet     report nothing; the exit status tells\n"
    "  -l, --list      print only the names of the invalid inputs\n"
    "  -r, --replace   write the inputs to standard output, each error replaced\n"
    "                  with U+FFFD; reports go to standard error\n"
    "      --fallback=ENCODING\n"
    "                  with -r, replace each byte of each error with its\n"
    "                  character in ENCODING, latin1 (ISO-8859-1) or cp1252\n"
    "                  (Windows-1252), instead of U+FFFD\n"
    "      --legacy=ENCODING\n"
    "                  with -r, copy an input that is UTF-8 unchanged, and convert\n"
    "                  one that is not from ENCODING, latin1 (ISO-8859-1) or\n"
    "                  cp1252 (Windows-1252), whole\n"
    "  -e, --escape    write the inputs to standard output with control\n"
    "                  characters and errors escaped as in C, but for newlines\n"
    "                  and tabs, kept as they are; reports go to standard error\n"
    "      --one-line  with -e, escape newlines and tabs too (\\n, \\t)\n"
    "  -h, --help      print this help and exit\n"
    "      --version   print the version and exit\n"
    "\n"
    "Exit status: 0 if every input is UTF-8, 1 if some is not, 2 if an input\n"
    "could not be read or is the output file of -r or -e, the output could not\n"
    "be written, or the command line is wrong.\n";

enum mode { MODE_CHECK, MODE_REPLACE, MODE_ESCAPE };

/* The encoding of --legacy and --fallback. */
enum legacy { LEGACY_NONE, LEGACY_LATIN1, LEGACY_CP1252 };

struct options {
  enum mode mode;
  int quiet;
  int list;
  int one_line; /* -e escapes newlines and tabs too */
  /* --legacy: with -r, an input that is not UTF-8 is converted whole from this encoding. */
  enum legacy legacy;
  /* --fallback: with -r, each byte of each error becomes its character in this encoding. */
  enum legacy fallback;
  /* With -r and -e, whether standard output is a regular file, and which: an input that is
   * that file would be read while it grows, without end. */
  int out_regular;
  dev_t out_dev;
  ino_t out_ino;
};

/* A place in an input, in lines and characters. */
struct position {
  uintmax_t newlines; /* '\n' bytes before it */
  uintmax_t column;   /* characters between the last '\n' and it */
};

/* The first error of an input. */
struct error_report {
  utf8_status status;
  uintmax_t offset; /* in bytes from the start of the input */
  unsigned char bytes[UTF8_MAX_BYTES]; /* the ill-formed sequence (its maximal subpart) */
  size_t nbytes;
  int has_next; /* for a missing continuation: the byte that cut the character short */
  unsigned char next;
  /* The first bytes of the input (fewer if it is shorter), for its byte-order mark: only read
   * in full where the error is among them, as a UTF-16 or UTF-32 mark makes it. */
  unsigned char head[HEAD];
  size_t head_len;
};

static void fatal(const char *what) {
  fprintf(stderr, "utf8check: %s: %s\n", what, strerror(errno));
  exit(EXIT_TROUBLE);
}

/* Moves `p` over `len` bytes of whole, valid characters at `s`: one memchr per line, and the
 * library's character count for the last line only. */
static void advance(struct position *p, const char *s, size_t len) {
  const char *end = s + len, *line = s, *nl;
  while ((nl = memchr(line, '\n', (size_t)(end - line))) != NULL) {
    p->newlines++;
    line = nl + 1;
  }
  if (line != s) p->column = 0;
  p->column += utf8_count_chars(line, (size_t)(end - line));
}

/* The length of `s` without an incomplete character at its end: what can be copied or counted
 * before the next chunk arrives (the rest, at most CARRY_MAX bytes, may be completed by it). */
static size_t complete_prefix(const char *s, size_t len) {
  if (len == 0) return 0;
  size_t last = utf8_char_start(s, len, len - 1);
  return utf8_decode_next(s + last, len - last, NULL, NULL) == UTF8_ERR_TRUNCATED ? last : len;
}

/* Writes all `len` bytes to standard output, or exits. */
static void write_out(const char *s, size_t len) {
  while (len > 0) {
    ssize_t n = write(STDOUT_FILENO, s, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      fatal("write error");
    }
    s += n;
    len -= (size_t)n;
  }
}

/* Exits on a failed copy into out_buf, which holds the longest output of a chunk: this is a
 * bug in libutf8 or here. */
static void check_copy(utf8_status st) {
  if (st != UTF8_OK) {
    fprintf(stderr, "utf8check: internal error: %s\n", utf8_status_str(st));
    exit(EXIT_TROUBLE);
  }
}

/* The offset of the first byte `c` in `s[from..len)`, or `len`. */
static size_t find_byte(const char *s, size_t len, size_t from, char c) {
  const char *at = memchr(s + from, c, len - from);
  return at != NULL ? (size_t)(at - s) : len;
}

/* Escapes the `len` bytes at `s` into out_buf as utf8_escape does with UTF8_ESCAPE_C, but for
 * newlines and tabs, which are copied. Returns the output's length. Each stretch between them
 * is escaped on its own: neither byte can be part of a character or of an ill-formed
 * sequence, and the C style escapes each character and each byte of an error by itself, so
 * this is the escape of the whole with "\n" and "\t" written as the bytes they stand for,
 * which utf8_unescape copies back. */
static size_t escape_keeping_lines(const char *s, size_t len) {
  size_t at = 0, n = 0;
  size_t nl = find_byte(s, len, 0, '\n'), tab = find_byte(s, len, 0, '\t');
  for (;;) {
    size_t stop = nl < tab ? nl : tab, w = 0;
    check_copy(utf8_escape(s + at, stop - at, UTF8_ESCAPE_C, out_buf + n, sizeof out_buf - n, &w));
    n += w;
    if (stop == len) return n;
    out_buf[n++] = s[stop];
    at = stop + 1;
    if (stop == nl) nl = find_byte(s, len, at, '\n');
    else tab = find_byte(s, len, at, '\t');
  }
}

/* Writes the `len` bytes at `s`, whole characters, transformed as the options say. */
static void copy_out(const struct options *o, const char *s, size_t len) {
  size_t n = 0;
  if (o->mode == MODE_REPLACE && o->fallback != LEGACY_NONE)
    check_copy(utf8_replace_invalid_flags(
        s, len, out_buf, sizeof out_buf,
        o->fallback == LEGACY_LATIN1 ? UTF8_FALLBACK_LATIN1 : UTF8_FALLBACK_CP1252, &n));
  else if (o->mode == MODE_REPLACE)
    check_copy(utf8_replace_invalid(s, len, out_buf, sizeof out_buf, &n));
  else if (o->one_line)
    check_copy(utf8_escape(s, len, UTF8_ESCAPE_C, out_buf, sizeof out_buf, &n));
  else
    n = escape_keeping_lines(s, len);
  write_out(out_buf, n);
}

/* Writes the `len` bytes at `s` converted from the legacy encoding of --legacy: each byte is a
 * character, so any piece converts on its own. */
static void convert_out(const struct options *o, const char *s, size_t len) {
  while (len > 0) {
    /* out_buf holds the longest conversion of a chunk, 3 bytes per byte. */
    size_t n = len < CHUNK ? len : CHUNK;
    utf8_result r = o->legacy == LEGACY_LATIN1 ? latin1_to_utf8(s, n, out_buf, sizeof out_buf, 0)
                                               : cp1252_to_utf8(s, n, out_buf, sizeof out_buf, 0);
    check_copy(r.status);
    write_out(out_buf, r.written);
    s += n;
    len -= n;
  }
}

/* With --legacy, the start of an input that cannot be read twice, held until the input proves
 * to be UTF-8 (then copied as it is) or not (then converted): all of it that is valid. */
static char *held;
static size_t held_len, held_cap;

static void hold(const char *s, size_t len) {
  if (len > held_cap - held_len) {
    size_t cap = held_cap > 0 ? held_cap : CHUNK;
    while (len > cap - held_len) {
      if (cap > SIZE_MAX / 2) {
        errno = ENOMEM;
        fatal("input held for --legacy");
      }
      cap *= 2;
    }
    char *grown = realloc(held, cap);
    if (grown == NULL) fatal("input held for --legacy");
    held = grown;
    held_cap = cap;
  }
  memcpy(held + held_len, s, len);
  held_len += len;
}

/* Writes the `len` bytes at `s`, whole characters, of an input being copied: as copy_out does;
 * or, with --legacy, held while the input has shown no error (`failed` is 0), and after its
 * first error converted, what was held first. */
static void put(const struct options *o, const char *s, size_t len, int failed) {
  if (o->legacy == LEGACY_NONE) {
    copy_out(o, s, len);
  } else if (!failed) {
    hold(s, len);
  } else {
    convert_out(o, held, held_len);
    held_len = 0;
    convert_out(o, s, len);
  }
}

/* Records the error `status` at `offset`, whose bytes start at `s` (`avail` bytes there). */
static void note_error(struct error_report *e, utf8_status status, uintmax_t offset,
                       const char *s, size_t avail) {
  size_t n = 0;
  e->status = status;
  e->offset = offset;
  /* The maximal subpart, as a decoding loop would skip it: at most three bytes. */
  utf8_decode_next(s, avail < UTF8_MAX_BYTES ? avail : UTF8_MAX_BYTES, NULL, &n);
  e->nbytes = n;
  memcpy(e->bytes, s, n);
  e->has_next = status == UTF8_ERR_MISSING_CONTINUATION && n < avail;
  e->next = e->has_next ? (unsigned char)s[n] : 0;
}

/* Reads the rest of the first HEAD bytes of the input `fd` into e->head, after the e->head_len
 * bytes read so far: a pipe may have given the first error before a whole mark. A read error
 * leaves the head short, which is then no mark. */
static void fill_head(int fd, struct error_report *e) {
  while (e->head_len < HEAD) {
    ssize_t got = read(fd, e->head + e->head_len, HEAD - e->head_len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    e->head_len += (size_t)got;
  }
}

/* Whether the input `e` describes starts with a UTF-16 or UTF-32 byte-order mark: the name of
 * the encoding and of its form, else NULL. Such an input is never UTF-8 (FF and FE never
 * appear in it), and its first error is within HEAD bytes of its start. */
static const char *utf16_or_32_mark(const struct error_report *e, const char **form) {
  switch (utf8_detect_bom((const char *)e->head, e->head_len, NULL)) {
    case UTF8_ENCODING_UTF16LE: *form = "UTF-16"; return "UTF-16LE";
    case UTF8_ENCODING_UTF16BE: *form = "UTF-16"; return "UTF-16BE";
    case UTF8_ENCODING_UTF32LE: *form = "UTF-32"; return "UTF-32LE";
    case UTF8_ENCODING_UTF32BE: *form = "UTF-32"; return "UTF-32BE";
    default: return NULL;
  }
}

/* The position of byte `offset` of the regular file `fd`, whose input starts at `start`:
 * found again after the error, so that a valid file costs nothing. -1 on a read error. */
static int locate(int fd, off_t start, uintmax_t offset, struct position *p) {
  uintmax_t at = 0;
  size_t carry = 0;
  while (at < offset) {
    size_t want = offset - at < CHUNK ? (size_t)(offset - at) : CHUNK;
    ssize_t got = pread(fd, in_buf + carry, want, start + (off_t)at);
    if (got < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (got == 0) break; /* the file shrank meanwhile */
    at += (uintmax_t)got;
    size_t len = carry + (size_t)got, done = complete_prefix(in_buf, len);
    advance(p, in_buf, done);
    carry = len - done;
    memmove(in_buf, in_buf + done, carry);
  }
  advance(p, in_buf, carry);
  return 0;
}

/* Reports the error `e` of the input shown as `name` at position `p`. */
static void report(FILE *out, const char *name, const struct error_report *e,
                   const struct position *p) {
  fprintf(out, "%s: line %ju, column %ju, byte %ju: %s (bytes", name, p->newlines + 1,
          p->column + 1, e->offset, utf8_status_str(e->status));
  for (size_t i = 0; i < e->nbytes; i++) fprintf(out, " %02X", e->bytes[i]);
  if (e->has_next) fprintf(out, ", then %02X", e->next);
  fputs(")\n", out);
}

/* Where the SIGBUS handler returns to: a mapped file that shrinks under the mapping raises
 * SIGBUS on the first access past its new end. */
static sigjmp_buf bus_error_jump;
/* The mapping in use, which the jump leaves behind. */
static char *volatile mapped_at;
static volatile size_t mapped_len;

static void on_bus_error(int sig) {
  (void)sig;
  siglongjmp(bus_error_jump, 1);
}

/* Feeds bytes [from, end) of the regular file `fd` to `stream`, mapped WINDOW bytes at a time.
 * Stops at the first error (`*status`, `*valid`), or where mmap fails, where the caller reads
 * on. Returns the offset reached, or -1 if the file shrank while mapped. */
static off_t feed_mapped(int fd, off_t from, off_t end, utf8_stream *stream, utf8_status *status,
                         size_t *valid) {
  static volatile off_t at; /* static: kept intact by the jump */
  struct sigaction bus, old;
  memset(&bus, 0, sizeof bus);
  bus.sa_handler = on_bus_error;
  sigemptyset(&bus.sa_mask);
  sigaction(SIGBUS, &bus, &old);
  at = from;
  if (sigsetjmp(bus_error_jump, 1) != 0) {
    /* The jump left the validator mid-call: its frames hold nothing to release, and the
     * stream is abandoned. */
    munmap(mapped_at, mapped_len);
    sigaction(SIGBUS, &old, NULL);
    return -1;
  }
  while (at < end && *status == UTF8_OK) {
    off_t base = at - at % (off_t)WINDOW;
    size_t len = end - base < (off_t)WINDOW ? (size_t)(end - base) : WINDOW;
    size_t skip = (size_t)(at - base);
    char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, base);
    if (p == MAP_FAILED) break;
    mapped_len = len;
    mapped_at = p;
    posix_madvise(p, len, POSIX_MADV_SEQUENTIAL);
    *status = utf8_stream_feed(stream, p + skip, len - skip, valid);
    munmap(p, len);
    at = base + (off_t)len;
  }
  sigaction(SIGBUS, &old, NULL);
  return at;
}

/* Checks the regular file `fd` (shown as `name`) from `start`, its current offset: the first
 * `size` bytes mapped, the rest, if it grew or could not be mapped, read. Returns its exit
 * status; `*err` describes the error of an invalid one. */
static int check_regular(int fd, const char *name, off_t start, off_t size,
                         struct error_report *err) {
  utf8_stream stream;
  utf8_stream_init(&stream);
  utf8_status st = UTF8_OK;
  size_t valid = 0;
  off_t at = start < size ? feed_mapped(fd, start, size, &stream, &st, &valid) : start;
  if (at < 0) {
    fprintf(stderr, "utf8check: %s: the file shrank while being read\n", name);
    return EXIT_TROUBLE;
  }
  int failed = st == UTF8_OK && lseek(fd, at, SEEK_SET) < 0; /* a read error */
  while (st == UTF8_OK && !failed) {
    ssize_t got = read(fd, in_buf, CHUNK);
    if (got == 0) {
      st = utf8_stream_finish(&stream, &valid);
      break;
    }
    if (got > 0) st = utf8_stream_feed(&stream, in_buf, (size_t)got, &valid);
    else failed = errno != EINTR;
  }
  unsigned char bytes[UTF8_MAX_BYTES];
  ssize_t got = 0;
  if (!failed && st != UTF8_OK) {
    got = pread(fd, bytes, sizeof bytes, start + (off_t)valid);
    failed = got < 0;
  }
  if (failed) {
    fprintf(stderr, "utf8check: %s: %s\n", name, strerror(errno));
    return EXIT_TROUBLE;
  }
  if (st == UTF8_OK) return EXIT_VALID;
  note_error(err, st, valid, (const char *)bytes, (size_t)got);
  return EXIT_INVALID;
}

/* Reads (and copies, in MODE_REPLACE and MODE_ESCAPE) the input `fd`, shown as `name`, following
 * its lines if `track`. Returns its exit status; `*err` and `*pos` describe the error of an
 * invalid one (`*pos` only if `track`). */
static int scan_stream(const struct options *o, int fd, const char *name, int track,
                       struct error_report *err, struct position *pos) {
  utf8_stream stream;
  utf8_stream_init(&stream);
  int failed = 0;
  uintmax_t buf_start = 0; /* the input offset of in_buf[0] */
  size_t carry = 0;        /* bytes at the front of in_buf kept from the previous chunk */
  for (;;) {
    ssize_t got = read(fd, in_buf + carry, CHUNK);
    if (got < 0) {
      if (errno == EINTR) continue;
      fprintf(stderr, "utf8check: %s: %s\n", name, strerror(errno));
      return EXIT_TROUBLE;
    }
    if (got == 0) break;
    if (err->head_len < HEAD) {
      size_t n = HEAD - err->head_len < (size_t)got ? HEAD - err->head_len : (size_t)got;
      memcpy(err->head + err->head_len, in_buf + carry, n);
      err->head_len += n;
    }
    size_t len = carry + (size_t)got, done = 0;
    if (!failed) {
      /* The stream validator holds the incomplete character, if any, itself: the chunk goes
       * without the carried bytes, and the position reported is the input's. */
      size_t valid = 0;
      utf8_status st = utf8_stream_feed(&stream, in_buf + carry, (size_t)got, &valid);
      done = valid - (size_t)buf_start;
      if (st != UTF8_OK) {
        failed = 1;
        note_error(err, st, valid, in_buf + done, len - done);
      }
      if (track) advance(pos, in_buf, done);
      if (failed && o->mode == MODE_CHECK) {
        if (err->offset < HEAD) fill_head(fd, err);
        return EXIT_INVALID;
      }
    }
    if (o->mode != MODE_CHECK) {
      done = complete_prefix(in_buf, len);
      put(o, in_buf, done, failed);
    }
    carry = len - done;
    memmove(in_buf, in_buf + done, carry);
    buf_start += done;
  }
  if (!failed) {
    size_t valid = 0;
    utf8_status st = utf8_stream_finish(&stream, &valid);
    if (st != UTF8_OK) {
      failed = 1;
      note_error(err, st, valid, in_buf, carry);
    }
  }
  /* The end of the input: an incomplete character is copied as the error it is. */
  if (o->mode != MODE_CHECK && carry > 0) put(o, in_buf, carry, failed);
  /* With --legacy, what is still held is all of an input that proved to be UTF-8, copied as it
   * is (put converted that of an input with an error at its first error; should the final
   * check be the first to fail, it is converted here). */
  if (held_len > 0) {
    if (failed) convert_out(o, held, held_len);
    else write_out(held, held_len);
  }
  held_len = 0;
  return failed ? EXIT_INVALID : EXIT_VALID;
}

/* Copies the regular file `fd`, shown as `name`, from `start` to standard output, after it was
 * checked: converted from the legacy encoding if `convert`, else through utf8_replace_invalid,
 * which copies UTF-8 as it is, and keeps the copy UTF-8 should the file have changed since.
 * Returns EXIT_VALID, or EXIT_TROUBLE on a read error. */
static int copy_regular(const struct options *o, int fd, const char *name, off_t start,
                        int convert) {
  size_t carry = 0;
  int failed = lseek(fd, start, SEEK_SET) < 0;
  while (!failed) {
    ssize_t got = read(fd, in_buf + carry, CHUNK);
    if (got == 0) break;
    if (got < 0) {
      failed = errno != EINTR;
      continue;
    }
    size_t len = carry + (size_t)got, done = convert ? len : complete_prefix(in_buf, len);
    if (convert) convert_out(o, in_buf, done);
    else copy_out(o, in_buf, done);
    carry = len - done;
    memmove(in_buf, in_buf + done, carry);
  }
  if (failed) {
    fprintf(stderr, "utf8check: %s: %s\n", name, strerror(errno));
    return EXIT_TROUBLE;
  }
  if (carry > 0) copy_out(o, in_buf, carry);
  return EXIT_VALID;
}

/* Checks (and copies, in MODE_REPLACE and MODE_ESCAPE) the input `fd`, shown as `name`, and
 * reports on it. Returns its exit status. */
static int check_input(const struct options *o, int fd, const char *name) {
  struct stat sb;
  /* A regular file can be mapped, and read again to find the line and column of an error;
   * anything else is followed line by line as it is read. */
  int have_stat = fstat(fd, &sb) == 0;
  /* A copy of the output file into itself never reaches its end (or, through another offset,
   * overwrites what it has yet to read): refused as cat refuses it, even an empty file, whose
   * copy would be empty, so that the answer does not depend on what came before. */
  if (o->out_regular && have_stat && sb.st_dev == o->out_dev && sb.st_ino == o->out_ino) {
    fprintf(stderr, "utf8check: %s: input file is output file\n", name);
    return EXIT_TROUBLE;
  }
  off_t start = have_stat && S_ISREG(sb.st_mode) ? lseek(fd, 0, SEEK_CUR) : -1;
  int regular = start >= 0;
  struct error_report err;
  struct position pos = {0, 0};
  int result;
  err.head_len = 0;
  /* A regular file is checked first, also with --legacy, which then reads it again to copy or
   * convert it; anything else that --legacy copies is held until it is known (put). */
  if (regular && (o->mode == MODE_CHECK || o->legacy != LEGACY_NONE)) {
    result = check_regular(fd, name, start, sb.st_size, &err);
    if (result == EXIT_INVALID && err.offset < HEAD) {
      ssize_t got = pread(fd, err.head, HEAD, start);
      err.head_len = got > 0 ? (size_t)got : 0;
    }
    if (result != EXIT_TROUBLE && o->mode != MODE_CHECK) {
      posix_fadvise(fd, start, 0, POSIX_FADV_SEQUENTIAL);
      if (copy_regular(o, fd, name, start, result == EXIT_INVALID) != EXIT_VALID)
        return EXIT_TROUBLE;
    }
  } else {
    if (regular) posix_fadvise(fd, start, 0, POSIX_FADV_SEQUENTIAL);
    /* Lines are followed only where they cannot be found afterwards, and are reported. */
    result = scan_stream(o, fd, name, !regular && !o->quiet && !o->list, &err, &pos);
  }
  if (result != EXIT_INVALID || o->quiet) return result;

  FILE *out = o->mode == MODE_CHECK ? stdout : stderr;
  const char *form = NULL, *mark = utf16_or_32_mark(&err, &form);
  if (o->list) {
    fprintf(out, "%s\n", name);
  } else if (mark != NULL) {
    fprintf(out, "%s: %s byte-order mark: this is %s, not UTF-8\n", name, mark, form);
  } else if (regular && locate(fd, start, err.offset, &pos) != 0) {
    fprintf(stderr, "utf8check: %s: %s\n", name, strerror(errno));
    return EXIT_TROUBLE;
  } else {
    report(out, name, &err, &pos);
  }
  return EXIT_INVALID;
}

/* `name` escaped as C would (utf8_escape): a hostile file name cannot drive the terminal.
 * Allocated; exits if memory is short. */
static char *escape_name(const char *name) {
  size_t len = strlen(name), need = 0;
  utf8_status st = utf8_escape(name, len, UTF8_ESCAPE_C, NULL, 0, &need);
  char *shown = malloc(need + 1);
  if (shown == NULL) fatal("out of memory");
  if (st != UTF8_OK) st = utf8_escape(name, len, UTF8_ESCAPE_C, shown, need, &need);
  if (st != UTF8_OK) {
    fprintf(stderr, "utf8check: internal error: %s\n", utf8_status_str(st));
    exit(EXIT_TROUBLE);
  }
  shown[need] = '\0';
  return shown;
}

static void usage_error(const char *fmt, const char *arg) {
  fputs("utf8check: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'utf8check --help' for more information.\n", stderr);
  exit(EXIT_TROUBLE);
}

/* Prints `text` and exits: for --help and --version. A failed write is reported as for the
 * reports and copies. */
static void print_and_exit(const char *text) {
  fputs(text, stdout);
  if (fflush(stdout) != 0 || ferror(stdout)) fatal("write error");
  exit(EXIT_VALID);
}

/* The encoding `name` given to an option: latin1 or cp1252, else a usage error `unknown`,
 * which shows the name. */
static enum legacy encoding(const char *name, const char *unknown) {
  if (strcmp(name, "latin1") == 0) return LEGACY_LATIN1;
  if (strcmp(name, "cp1252") == 0) return LEGACY_CP1252;
  usage_error(unknown, escape_name(name));
  return LEGACY_NONE;
}

/* The argument after the option at argv[*i], which it takes (*i moves past it), or a usage
 * error if the option ends the command line. */
static const char *option_argument(int argc, char **argv, int *i) {
  if (*i + 1 >= argc)
    usage_error("option '%s' needs an encoding (latin1 or cp1252)", escape_name(argv[*i]));
  return argv[++*i];
}

static void set_mode(struct options *o, enum mode mode) {
  if (o->mode != MODE_CHECK && o->mode != mode)
    usage_error("%s", "-r (--replace) and -e (--escape) exclude each other");
  o->mode = mode;
}

/* -q and -l: what is printed of an input that is not UTF-8, nothing or its name. */
static void set_report(struct options *o, int quiet) {
  if (quiet ? o->list : o->quiet)
    usage_error("%s", "-q (--quiet) and -l (--list) exclude each other");
  if (quiet) o->quiet = 1;
  else o->list = 1;
}

/* Parses the options, anywhere before "--", and moves the operands to the front of argv.
 * Returns their number. */
static int parse_options(int argc, char **argv, struct options *o) {
  int nfiles = 0, only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_files || a[0] != '-' || a[1] == '\0') {
      argv[nfiles++] = argv[i];
    } else if (a[1] == '-') {
      if (a[2] == '\0') only_files = 1;
      else if (strcmp(a, "--quiet") == 0) set_report(o, 1);
      else if (strcmp(a, "--list") == 0) set_report(o, 0);
      else if (strcmp(a, "--replace") == 0) set_mode(o, MODE_REPLACE);
      else if (strcmp(a, "--escape") == 0) set_mode(o, MODE_ESCAPE);
      else if (strcmp(a, "--one-line") == 0) o->one_line = 1;
      else if (strncmp(a, "--legacy=", 9) == 0)
        o->legacy = encoding(a + 9, "unknown encoding '%s' for --legacy (latin1 or cp1252)");
      else if (strncmp(a, "--fallback=", 11) == 0)
        o->fallback = encoding(a + 11, "unknown encoding '%s' for --fallback (latin1 or cp1252)");
      /* The encoding as the next argument, as getopt_long takes a required argument. */
      else if (strcmp(a, "--legacy") == 0)
        o->legacy = encoding(option_argument(argc, argv, &i),
                             "unknown encoding '%s' for --legacy (latin1 or cp1252)");
      else if (strcmp(a, "--fallback") == 0)
        o->fallback = encoding(option_argument(argc, argv, &i),
                               "unknown encoding '%s' for --fallback (latin1 or cp1252)");
      else if (strcmp(a, "--help") == 0) print_and_exit(usage_text);
      else if (strcmp(a, "--version") == 0) {
        printf("utf8check (libutf8) %s", utf8_version());
        print_and_exit("\n");
      } else usage_error("unknown option '%s'", escape_name(a));
    } else {
      for (const char *c = a + 1; *c != '\0'; c++) {
        switch (*c) {
          case 'q': set_report(o, 1); break;
          case 'l': set_report(o, 0); break;
          case 'r': set_mode(o, MODE_REPLACE); break;
          case 'e': set_mode(o, MODE_ESCAPE); break;
          case 'h': print_and_exit(usage_text); break;
          default: {
            char opt[2] = {*c, '\0'};
            usage_error("unknown option '-%s'", escape_name(opt));
          }
        }
      }
    }
  }
  if (o->one_line && o->mode != MODE_ESCAPE) usage_error("%s", "--one-line needs -e (--escape)");
  if (o->legacy != LEGACY_NONE && o->mode != MODE_REPLACE)
    usage_error("%s", "--legacy needs -r (--replace)");
  if (o->fallback != LEGACY_NONE && o->mode != MODE_REPLACE)
    usage_error("%s", "--fallback needs -r (--replace)");
  if (o->fallback != LEGACY_NONE && o->legacy != LEGACY_NONE)
    usage_error("%s", "--fallback and --legacy exclude each other");
  return nfiles;
}

int main(int argc, char **argv) {
  struct options o = {MODE_CHECK, 0, 0, 0, LEGACY_NONE, LEGACY_NONE, 0, 0, 0};
  char stdin_name[] = "-";
  char *stdin_only[] = {stdin_name};
  int nfiles = parse_options(argc, argv, &o);
  struct stat out;
  /* Only -r and -e copy inputs to standard output: a report cannot make an input grow for
   * ever. As for cat, only a regular file is compared, not a pipe, terminal or device. */
  if (o.mode != MODE_CHECK && fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode)) {
    o.out_regular = 1;
    o.out_dev = out.st_dev;
    o.out_ino = out.st_ino;
  }
  char **files = nfiles > 0 ? argv : stdin_only;
  if (nfiles == 0) nfiles = 1;

  int status = EXIT_VALID;
  for (int i = 0; i < nfiles; i++) {
    int from_stdin = strcmp(files[i], "-") == 0, result;
    if (from_stdin) {
      result = check_input(&o, STDIN_FILENO, "(standard input)");
    } else {
      char *name = escape_name(files[i]);
      int fd = open(files[i], O_RDONLY);
      if (fd < 0) {
        fprintf(stderr, "utf8check: %s: %s\n", name, strerror(errno));
        result = EXIT_TROUBLE;
      } else {
        result = check_input(&o, fd, name);
        close(fd);
      }
      free(name);
    }
    if (result > status) status = result;
  }
  if (fflush(stdout) != 0 || ferror(stdout)) fatal("write error");
  return status;
}
