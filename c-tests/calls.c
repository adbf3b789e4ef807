/*
 * calls.c: the library's converters behind one signature (see calls.h).
 */

#include "calls.h"

utf8_result conv_8_16(const void *in, size_t len, void *out, size_t cap, uint32_t flags)
{
    return utf8_to_utf16((const char *)in, len, (uint16_t *)out, cap, flags);
}

utf8_result conv_8_32(const void *in, size_t len, void *out, size_t cap, uint32_t flags)
{
    return utf8_to_utf32((const char *)in, len, (uint32_t *)out, cap, flags);
}

utf8_result conv_16_8(const void *in, size_t len, void *out, size_t cap, uint32_t flags)
{
    return utf16_to_utf8((const uint16_t *)in, len, (char *)out, cap, flags);
}

utf8_result conv_32_8(const void *in, size_t len, void *out, size_t cap, uint32_t flags)
{
    return utf32_to_utf8((const uint32_t *)in, len, (char *)out, cap, flags);
}

size_t len_8_16(const void *in, size_t len)
{
    return utf16_length_from_utf8((const char *)in, len);
}

size_t len_8_32(const void *in, size_t len)
{
    return utf32_length_from_utf8((const char *)in, len);
}

size_t len_16_8(const void *in, size_t len)
{
    return utf8_length_from_utf16((const uint16_t *)in, len);
}

size_t len_32_8(const void *in, size_t len)
{
    return utf8_length_from_utf32((const uint32_t *)in, len);
}
