/* C++ names through libstdc++'s demangler; the short form by the
 * brackets' depth. */
#include "common/demangle.h"

#include <stdlib.h>
#include <string.h>

/* libstdc++ (cxxabi.h declares it in namespace abi, with C linkage) */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len,
			    int *status);

/* gfortran's module procedure "__kern_MOD_total" as "kern::total" (as
 * gdb names it); NULL when name is not one. */
static char *fortran_name(const char *name)
{
	const char *mod = strstr(name, "_MOD_");
	char *d;
	size_t n;

	if (strncmp(name, "__", 2) != 0 || !mod || mod == name + 2 ||
	    !mod[5])
		return NULL;
	n = (size_t)(mod - name - 2);
	if (!(d = malloc(n + strlen(mod + 5) + 3)))
		return NULL;
	memcpy(d, name + 2, n);
	memcpy(d + n, "::", 2);
	strcpy(d + n + 2, mod + 5);
	return d;
}

char *rl_demangle(const char *name)
{
	int status = -1;
	char *d;

	if (name && strncmp(name, "__", 2) == 0)
		return fortran_name(name);
	if (!name || strncmp(name, "_Z", 2) != 0)
		return NULL;
	d = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0) {
		free(d);
		return NULL;
	}
	return d;
}

static int opens(char c)
{
	return c == '<' || c == '(' || c == '{' || c == '[';
}

static int closes(char c)
{
	return c == '>' || c == ')' || c == '}' || c == ']';
}

/* Whether the text before s + k ends with "operator" followed by what
 * at s + k can be an operator's own characters. */
static int in_operator(const char *s, size_t k)
{
	size_t n = strlen("operator");
	while (k > 0 && strchr("()<>=!+-*/%&|^~[],", s[k - 1]))
		k--;
	return k >= n && strncmp(s + k - n, "operator", n) == 0;
}

void rl_demangle_short(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name), start = 0, end = n, k;
	int depth = 0;

	if (!len)
		return;
	/* "(anonymous namespace)::" is a name, not a parameter list */
	for (k = 0; k < n; k++) {
		char c = name[k];
		if (strncmp(name + k, "(anonymous namespace)", 21) == 0) {
			k += 20;
			continue;
		}
		if (c == '(' && k >= 8 &&
		    strncmp(name + k - 8, "operator", 8) == 0 &&
		    name[k + 1] == ')') {
			k++; /* operator(): a name */
			continue;
		}
		if (depth == 0 && c == '(' && k > 0) {
			end = k;
			break;
		}
		if (depth == 0 && c == ' ' && !in_operator(name, k))
			start = k + 1; /* a return type before it */
		if (opens(c) && !(c == '<' && in_operator(name, k + 1)))
			depth++;
		else if (closes(c) && depth > 0 &&
			 !(c == '>' && in_operator(name, k + 1)))
			depth--;
	}
	if (start >= end)
		start = 0;
	k = end - start < len - 1 ? end - start : len - 1;
	memcpy(buf, name + start, k);
	buf[k] = '\0';
}
