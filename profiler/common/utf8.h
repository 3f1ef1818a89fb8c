/*
 * The one UTF-8 decoder of rlprof (the runtime's JSON writer, terminal
 * text, XML/HTML text): pure, no library, safe in a signal handler.
 */
#ifndef RL_UTF8_H
#define RL_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (a NUL-terminated string) and
 * its code point in *cp; 0 when invalid (overlong, surrogate, beyond
 * U+10FFFF, truncated). */
size_t rl_utf8_decode(const unsigned char *s, unsigned *cp);

#endif
