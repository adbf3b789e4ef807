/* A program as a user writes it: built with nothing but `pkg-config --cflags --libs libutf8`. */
#include <libutf8.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  /* "h\u00e9llo \u20ac" and the Euro sign's encoding from RFC 3629 / the encyclopedia. */
  const char text[] = "h\xc3\xa9llo \xe2\x82\xac";
  const char bad[] = "ab\xc0\xafz"; /* overlong '/' */
  char euro[UTF8_MAX_BYTES];
  size_t n = 0, at = 0;
  uint32_t cp = 0;
  int failures = 0;

  failures += utf8_validate(text, strlen(text), &at) != UTF8_OK || at != strlen(text);
  failures += utf8_validate(bad, strlen(bad), &at) != UTF8_ERR_OVERLONG || at != 2;
  failures += utf8_decode_next(text + 1, 2, &cp, &n) != UTF8_OK || cp != 0xE9 || n != 2;
  failures += utf8_encode(0x20AC, euro, sizeof euro, &n) != UTF8_OK || n != 3 ||
              memcmp(euro, "\xe2\x82\xac", 3) != 0;
  /* The library found at run time has the major version of the header it was built with. */
  failures += atoi(utf8_version()) != LIBUTF8_VERSION_MAJOR;
  printf("libutf8 %s: %s\n", utf8_version(), failures ? "FAILED" : "works");
  return failures != 0;
}
