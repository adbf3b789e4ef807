/*
 * Short strings: libutf8's strict converters against simdutf's validating ones, simdutf called
 * directly from C++ (compiled from the sources the simdutf crate ships; its runtime dispatch
 * picks its kernel), for 5 scripts x 5 sizes x 4 directions. `make bench` runs it (bench/run.sh):
 *
 *   short_strings CORPUS_DIR OUT.csv
 *
 * Each cell holds 10,000 different strings, cut from the corpus at random character starts to as
 * many whole characters as fit in the size (so at most 3 bytes short of it), or generated from a
 * fixed seed when the corpus lacks the script's files. A round times each library over all the
 * strings of the cell, one call per string, in turn (the first library alternating between
 * rounds), so that the branch predictors cannot learn one string and interference from other
 * processes falls on both alike. Each row: the median over the rounds of each library's time per
 * string; `ratio`, the median over the rounds of simdutf's time over libutf8's in the same round
 * (above 1, libutf8 is faster), which a burst of load from other processes moves less than
 * `ratio_of_medians` (on this shared machine, single cells' ratios of medians fell to 0.4 in one
 * run of three, their paired ratios did not); the fastest round of each. Each pass's output
 * length, summed over the strings (a failed call adds 0), is checked against the strings'; the
 * first, untimed pass of each library warms the cell.
 *
 * Environment: LIBUTF8_SHORT_ROUNDS (11), LIBUTF8_SHORT_STRINGS (10000); LIBUTF8_SHORT_CELL,
 * DIRECTION:SCRIPT:SIZE (utf16_to_utf8:latin:64), measures that cell alone (for callgrind: every
 * cell makes its strings, so that the strings of a cell are those of a whole run).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "libutf8.h"
#include "simdutf.h"

namespace {

struct script {
  const char *name;
  std::vector<const char *> files;  // corpus files; their text is joined
  bool ascii_only;                  // keep only the ASCII characters of the files
};

// Latin: Western and Central European Wikipedia text, mostly ASCII with accented letters.
// 2-byte: Cyrillic, Hebrew and Arabic lipsum and Greek Wikipedia text, with their spaces and
// punctuation. 3-byte: Chinese, Japanese and Korean lipsum.
const script SCRIPTS[] = {
    {"ascii", {"wikipedia_mars_english.utf8.txt"}, true},
    {"latin",
     {"wikipedia_mars_french.utf8.txt", "wikipedia_mars_german.utf8.txt",
      "wikipedia_mars_portuguese.utf8.txt", "wikipedia_mars_czech.utf8.txt",
      "wikipedia_mars_turkish.utf8.txt"},
     false},
    {"2-byte",
     {"lipsum_Russian-Lipsum.utf8.txt", "lipsum_Hebrew-Lipsum.utf8.txt",
      "lipsum_Arabic-Lipsum.utf8.txt", "wikipedia_mars_greek.utf8.txt"},
     false},
    {"3-byte",
     {"lipsum_Chinese-Lipsum.utf8.txt", "lipsum_Japanese-Lipsum.utf8.txt",
      "lipsum_Korean-Lipsum.utf8.txt"},
     false},
    {"emoji", {"lipsum_Emoji-Lipsum.utf8.txt"}, false},
};
const size_t SIZES[] = {16, 32, 64, 128, 256};
const char *const DIRECTIONS[] = {"utf8_to_utf16", "utf16_to_utf8", "utf8_to_utf32",
                                  "utf32_to_utf8"};

size_t env_or(const char *name, size_t fallback) {
  const char *v = getenv(name);
  return v && *v ? strtoull(v, nullptr, 10) : fallback;
}

double now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

void append_utf8(std::string &s, uint32_t c) {
  if (c < 0x80) {
    s += char(c);
  } else if (c < 0x800) {
    s += char(0xC0 | (c >> 6));
    s += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += char(0xE0 | (c >> 12));
    s += char(0x80 | ((c >> 6) & 0x3F));
    s += char(0x80 | (c & 0x3F));
  } else {
    s += char(0xF0 | (c >> 18));
    s += char(0x80 | ((c >> 12) & 0x3F));
    s += char(0x80 | ((c >> 6) & 0x3F));
    s += char(0x80 | (c & 0x3F));
  }
}

// Text of the script made from a fixed seed, for a corpus without its files: words of 2 to 9
// characters between spaces, the characters from the script's range (Latin: ASCII letters with
// one accented letter in 12).
std::string generate(const std::string &name, std::mt19937_64 &rng) {
  std::string s;
  while (s.size() < (1u << 20)) {
    size_t word = 2 + rng() % 8;
    for (size_t i = 0; i < word; i++) {
      uint32_t r = uint32_t(rng());
      if (name == "ascii") {
        append_utf8(s, 'a' + r % 26);
      } else if (name == "latin") {
        append_utf8(s, r % 12 == 0 ? 0xE0 + (r >> 8) % 0x1F : 'a' + r % 26);
      } else if (name == "2-byte") {
        append_utf8(s, 0x430 + r % 32);
      } else if (name == "3-byte") {
        append_utf8(s, 0x4E00 + r % 0x5000);
      } else {
        append_utf8(s, 0x1F600 + r % 0x50);
      }
    }
    s += ' ';
  }
  return s;
}

bool read_file(const std::string &path, std::string &out) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return false;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  fclose(f);
  return true;
}

// The script's text, valid UTF-8; `source` says where it came from.
std::string text_of(const script &sc, const std::string &corpus, std::mt19937_64 &rng,
                    std::string &source) {
  std::string all;
  for (const char *f : sc.files) {
    std::string t;
    if (read_file(corpus + "/" + f, t) && simdutf::validate_utf8(t.data(), t.size())) all += t;
  }
  if (all.empty()) {
    source = "generated";
    return generate(sc.name, rng);
  }
  source = "corpus";
  if (sc.ascii_only) {
    std::string a;
    for (char c : all)
      if ((unsigned char)c < 0x80) a += c;
    return a;
  }
  return all;
}

struct cell_input {
  // Strings one after the other in each form, and where each starts (in units of the form).
  std::string u8;
  std::vector<char16_t> u16;
  std::vector<char32_t> u32;
  std::vector<size_t> at8, at16, at32;  // n + 1 offsets each
};

// `n` strings of whole characters, at most `size` bytes each, cut at random character starts.
cell_input cut(const std::string &text, size_t size, size_t n, std::mt19937_64 &rng) {
  cell_input in;
  in.at8.push_back(0);
  in.at16.push_back(0);
  in.at32.push_back(0);
  while (in.at8.size() <= n) {
    size_t p = rng() % (text.size() - 1);
    while (p > 0 && (text[p] & 0xC0) == 0x80) p--;
    size_t end = p;
    for (;;) {
      size_t next = end + 1;
      while (next < text.size() && (text[next] & 0xC0) == 0x80) next++;
      if (next - p > size) break;
      end = next;
      if (end == text.size()) break;
    }
    if (end - p + 3 < size) continue;  // the end of the text: not a full string
    const char *s = text.data() + p;
    size_t len = end - p;
    in.u8.append(s, len);
    size_t old16 = in.u16.size(), old32 = in.u32.size();
    in.u16.resize(old16 + simdutf::utf16_length_from_utf8(s, len));
    in.u32.resize(old32 + simdutf::utf32_length_from_utf8(s, len));
    if (simdutf::convert_valid_utf8_to_utf16le(s, len, in.u16.data() + old16) !=
            in.u16.size() - old16 ||
        simdutf::convert_valid_utf8_to_utf32(s, len, in.u32.data() + old32) !=
            in.u32.size() - old32) {
      fprintf(stderr, "short_strings: simdutf's UTF-16 or UTF-32 of a string is not its length\n");
      exit(1);
    }
    in.at8.push_back(in.u8.size());
    in.at16.push_back(in.u16.size());
    in.at32.push_back(in.u32.size());
  }
  return in;
}

// One library's pass over all the strings of a cell in one direction; returns the units written
// in all (so that nothing is optimised away, and to check the results).
size_t pass(bool lib, int dir, const cell_input &in, void *out, size_t cap) {
  size_t n = in.at8.size() - 1, total = 0;
  char *o8 = static_cast<char *>(out);
  uint16_t *o16 = static_cast<uint16_t *>(out);
  uint32_t *o32 = static_cast<uint32_t *>(out);
  for (size_t i = 0; i < n; i++) {
    const char *s8 = in.u8.data() + in.at8[i];
    size_t l8 = in.at8[i + 1] - in.at8[i];
    const char16_t *s16 = in.u16.data() + in.at16[i];
    size_t l16 = in.at16[i + 1] - in.at16[i];
    const char32_t *s32 = in.u32.data() + in.at32[i];
    size_t l32 = in.at32[i + 1] - in.at32[i];
    size_t w;
    if (lib) {
      utf8_result r;
      switch (dir) {
        case 0: r = utf8_to_utf16(s8, l8, o16, cap / 2, 0); break;
        case 1: r = utf16_to_utf8(reinterpret_cast<const uint16_t *>(s16), l16, o8, cap, 0); break;
        case 2: r = utf8_to_utf32(s8, l8, o32, cap / 4, 0); break;
        default: r = utf32_to_utf8(reinterpret_cast<const uint32_t *>(s32), l32, o8, cap, 0); break;
      }
      w = r.status == UTF8_OK ? r.written : 0;
    } else {
      switch (dir) {
        case 0: w = simdutf::convert_utf8_to_utf16le(s8, l8, reinterpret_cast<char16_t *>(o16)); break;
        case 1: w = simdutf::convert_utf16le_to_utf8(s16, l16, o8); break;
        case 2: w = simdutf::convert_utf8_to_utf32(s8, l8, reinterpret_cast<char32_t *>(o32)); break;
        default: w = simdutf::convert_utf32_to_utf8(s32, l32, o8); break;
      }
    }
    total += w;
  }
  return total;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s CORPUS_DIR OUT.csv\n", argv[0]);
    return 2;
  }
  std::string corpus = argv[1];
  size_t rounds = env_or("LIBUTF8_SHORT_ROUNDS", 11);
  size_t strings = env_or("LIBUTF8_SHORT_STRINGS", 10000);
  if (rounds == 0 || strings == 0) return 2;
  FILE *csv = fopen(argv[2], "w");
  if (!csv) {
    perror(argv[2]);
    return 2;
  }
  std::string kernel = simdutf::get_active_implementation()->name();
  fprintf(stderr, "short_strings: simdutf %s, kernel %s; %zu strings, %zu rounds\n",
          SIMDUTF_VERSION, kernel.c_str(), strings, rounds);
  fprintf(csv,
          "direction,script,source,size,strings,utf8_bytes,libutf8_ns,simdutf_ns,ratio,"
          "ratio_of_medians,libutf8_min_ns,simdutf_min_ns,simdutf_kernel\n");
  const char *only = getenv("LIBUTF8_SHORT_CELL");
  if (only && !*only) only = nullptr;
  std::mt19937_64 rng(46);
  std::vector<uint32_t> out_buf(1024);  // 4 KiB: room for any string of the cells, in any form
  void *out = out_buf.data();
  size_t cap = out_buf.size() * sizeof out_buf[0];
  int failures = 0;
  for (const script &sc : SCRIPTS) {
    std::string source;
    std::string text = text_of(sc, corpus, rng, source);
    for (size_t size : SIZES) {
      cell_input in = cut(text, size, strings, rng);
      for (int dir = 0; dir < 4; dir++) {
        if (only && std::string(DIRECTIONS[dir]) + ":" + sc.name + ":" + std::to_string(size) !=
                        only)
          continue;
        size_t want = pass(false, dir, in, out, cap);
        size_t got = pass(true, dir, in, out, cap);
        size_t expected = dir == 0 ? in.u16.size() : dir == 2 ? in.u32.size() : in.u8.size();
        if (want != expected || got != expected) {
          fprintf(stderr, "short_strings: %s %s %zu: wrote %zu (libutf8) and %zu (simdutf), "
                  "not %zu\n", DIRECTIONS[dir], sc.name, size, got, want, expected);
          failures++;
          continue;
        }
        std::vector<double> t_lib, t_simd, paired;
        for (size_t r = 0; r < rounds; r++) {
          double t[2];
          for (int k = 0; k < 2; k++) {
            bool lib = (k == 0) == (r % 2 == 0);
            double t0 = now_ns();
            size_t w = pass(lib, dir, in, out, cap);
            t[lib ? 0 : 1] = (now_ns() - t0) / double(strings);
            if (w != expected) failures++;
          }
          t_lib.push_back(t[0]);
          t_simd.push_back(t[1]);
          paired.push_back(t[1] / t[0]);
        }
        double ml = median(t_lib), ms = median(t_simd);
        fprintf(csv, "%s,%s,%s,%zu,%zu,%.1f,%.2f,%.2f,%.3f,%.3f,%.2f,%.2f,%s\n", DIRECTIONS[dir],
                sc.name, source.c_str(), size, strings, double(in.u8.size()) / double(strings),
                ml, ms, median(paired), ms / ml, *std::min_element(t_lib.begin(), t_lib.end()),
                *std::min_element(t_simd.begin(), t_simd.end()), kernel.c_str());
        fflush(csv);
      }
    }
  }
  if (fclose(csv) != 0 || failures) {
    fprintf(stderr, "short_strings: %d failures\n", failures);
    return 1;
  }
  return 0;
}
