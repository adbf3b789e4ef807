/*
 * isa_probe.c: makes the library choose its implementation, so that the Makefile can ask the
 * library built for this machine which implementations it runs, rather than guess from the
 * CPU's flags. Run with LIBUTF8_FORCE_ISA=NAME, the library reports on standard error, once,
 * a NAME it cannot use here (unknown, not compiled in, or not supported by this CPU) and the
 * implementation it uses instead; with a NAME it can use, it reports nothing.
 */
#include <string.h>

#include "libutf8.h"

int main(void) {
  /* Text that is not ASCII: short ASCII input is validated without asking for a kernel. */
  static char text[1024];
  for (size_t i = 0; i + 1 < sizeof text; i += 2) {
    memcpy(text + i, "\xC3\xA9", 2);
  }
  size_t valid = 0;
  return utf8_validate(text, sizeof text, &valid) == UTF8_OK && valid == sizeof text ? 0 : 1;
}
