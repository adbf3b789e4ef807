/*
 * calls.h: the library's converters and their length functions behind one signature each
 * (calls.c), input and output as untyped buffers and lengths in units, so that one loop can
 * call each.
 */
#ifndef LIBUTF8_CALLS_H
#define LIBUTF8_CALLS_H

#include <libutf8.h>

#include <stddef.h>
#include <stdint.h>

typedef utf8_result (*convert_fn)(const void *in, size_t len, void *out, size_t cap,
                                  uint32_t flags);
typedef size_t (*length_fn)(const void *in, size_t len);

utf8_result conv_8_16(const void *in, size_t len, void *out, size_t cap, uint32_t flags);
utf8_result conv_8_32(const void *in, size_t len, void *out, size_t cap, uint32_t flags);
utf8_result conv_16_8(const void *in, size_t len, void *out, size_t cap, uint32_t flags);
utf8_result conv_32_8(const void *in, size_t len, void *out, size_t cap, uint32_t flags);

size_t len_8_16(const void *in, size_t len);
size_t len_8_32(const void *in, size_t len);
size_t len_16_8(const void *in, size_t len);
size_t len_32_8(const void *in, size_t len);

#endif
