/*
 * Error codes, one X-macro table (after libuv's UV_ERRNO_MAP).
 *
 * Functions that can fail return 0 or a negative RL_E* code and fill a
 * caller-supplied message buffer (char *err, size_t errlen) with one
 * lowercase line: the problem first, the subject in quotes, what to do.
 * They never print and never exit; only profiler/ prints.
 */
#ifndef RL_ERROR_H
#define RL_ERROR_H

#include <stddef.h>

#define RL_ERRORS(X)                                                          \
	X(EINVAL, -1, "invalid argument")                                     \
	X(ENOMEM, -2, "out of memory")                                        \
	X(EIO, -3, "input/output error")                                      \
	X(ENOENT, -4, "not found")                                            \
	X(EPERM, -5, "permission denied")                                     \
	X(ENOTSUP, -6, "not supported on this machine")                       \
	X(EFORMAT, -7, "malformed file")                                      \
	X(EVERSION, -8, "file written by a newer rlprof")                     \
	X(ENOCOUNTERS, -9, "no hardware counters")                            \
	X(EBUSY, -10, "resource busy")                                        \
	X(ECHILD, -11, "profiled program failed")                             \
	X(ELIMIT, -12, "limit exceeded")

enum rl_error {
#define RL_ERROR_ENUM(name, code, text) RL_##name = code,
	RL_ERRORS(RL_ERROR_ENUM)
#undef RL_ERROR_ENUM
};

const char *rl_strerror(int code);   /* text of a code; "success" for 0 */
const char *rl_error_name(int code); /* "RL_EINVAL" */

/* snprintf into err (may be NULL) and return code: `return rl_fail(err,
 * len, RL_EINVAL, "unknown backend '%s'", name);` */
int rl_fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* snprintf at the end of the string in buf (len bytes in all), cut to
 * fit; nothing when buf is full: for messages and notes built in parts */
void rl_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
