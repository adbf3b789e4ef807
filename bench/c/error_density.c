/*
 * The converters from UTF-8 with errors at densities from one in 8 bytes to one in 64 KiB: not
 * run by `make bench` (whose strategies.c measures two densities). For each file given, the
 * top bit of one byte is flipped in every N bytes (corpus_errors.h's flip_bytes), and
 * utf8_to_utf16 with UTF8_REPLACE and with UTF8_SURROGATEESCAPE, and utf8_to_utf32 with
 * UTF8_REPLACE and with UTF8_FALLBACK_CP1252, are timed: the fastest of 30 calls, in GB/s of
 * UTF-8 input. Link it against two builds of libutf8.a to compare them:
 *
 *   make && cc -std=c99 -O2 -Iinclude bench/c/error_density.c target/release/libutf8.a \
 *     -lpthread -ldl -o error_density
 *   ./error_density ../shared/corpus/wikipedia_mars_french.utf8.txt
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libutf8.h"

#include "corpus_errors.h"

static const size_t densities[] = { 0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 384, 512,
                                    1024, 4096, 65536 };

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: error_density FILE...\n");
        return 2;
    }
    for (int f = 1; f < argc; f++) {
        size_t n;
        char *text = read_file(argv[f], &n);
        char *s = malloc(n + 1);
        uint16_t *out16 = malloc(2 * n + 2);
        uint32_t *out32 = malloc(4 * n + 4);
        if (text == NULL || s == NULL || out16 == NULL || out32 == NULL) {
            perror(argv[f]);
            return 1;
        }
        printf("%s\n%-10s %12s %12s %12s %12s\n", argv[f], "error every", "16 REPLACE",
               "16 ESCAPE", "32 REPLACE", "32 CP1252");
        for (size_t d = 0; d < sizeof densities / sizeof densities[0]; d++) {
            memcpy(s, text, n);
            if (densities[d] > 0)
                flip_bytes(s, n, densities[d]);
            printf("%-10zu ", densities[d]);
            for (int call = 0; call < 4; call++) {
                double best = 1e300;
                for (int r = 0; r < 30; r++) {
                    double t = now_ns();
                    utf8_result res =
                        call == 0   ? utf8_to_utf16(s, n, out16, n, UTF8_REPLACE)
                        : call == 1 ? utf8_to_utf16(s, n, out16, n, UTF8_SURROGATEESCAPE)
                        : call == 2 ? utf8_to_utf32(s, n, out32, n, UTF8_REPLACE)
                                    : utf8_to_utf32(s, n, out32, n, UTF8_FALLBACK_CP1252);
                    t = now_ns() - t;
                    if (res.status != UTF8_OK) {
                        fprintf(stderr, "error_density: status %d\n", (int)res.status);
                        return 1;
                    }
                    if (t < best)
                        best = t;
                }
                printf(" %12.2f", (double)n / best);
            }
            printf("\n");
        }
        free(text);
        free(s);
        free(out16);
        free(out32);
    }
    return 0;
}
