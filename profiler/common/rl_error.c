/* rl_strerror() and friends, generated from the table in rl_error.h. */
#include "common/rl_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *rl_strerror(int code)
{
	switch (code) {
	case 0:
		return "success";
#define RL_ERROR_TEXT(name, value, text)                                       \
	case value:                                                            \
		return text;
		RL_ERRORS(RL_ERROR_TEXT)
#undef RL_ERROR_TEXT
	}
	return "unknown error";
}

const char *rl_error_name(int code)
{
	switch (code) {
	case 0:
		return "RL_OK";
#define RL_ERROR_NAME(name, value, text)                                       \
	case value:                                                            \
		return "RL_" #name;
		RL_ERRORS(RL_ERROR_NAME)
#undef RL_ERROR_NAME
	}
	return "RL_E?";
}

int rl_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

void rl_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
