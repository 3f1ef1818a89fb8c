/*
 * RLPROF_PERF_EVENTS text <-> struct rl_perf_event_spec (format in
 * perf_spec.h). Part of librlprof: libc only. An absent g= means the event
 * is a group of its own (group -1).
 */
#include "counters/perf_spec.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/counter_ids.h"
#include "common/rl_error.h"

static int bad(char *err, size_t errlen, const char *item, size_t len,
	       const char *what)
{
	return rl_fail(err, errlen, RL_EFORMAT, "%s in perf event '%.*s'",
		       what, (int)(len > 200 ? 200 : len), item);
}

static int parse_u64(const char *v, size_t n, int base, uint64_t *out)
{
	char tmp[32];
	if (n == 0 || n >= sizeof tmp || v[0] == '-' || v[0] == '+')
		return -1;
	memcpy(tmp, v, n);
	tmp[n] = '\0';
	char *end;
	errno = 0;
	unsigned long long x = strtoull(tmp, &end, base);
	if (errno || *end)
		return -1;
	*out = x;
	return 0;
}

static int parse_int(const char *v, size_t n, long min, long max, long *out)
{
	char tmp[24];
	if (n == 0 || n >= sizeof tmp)
		return -1;
	memcpy(tmp, v, n);
	tmp[n] = '\0';
	char *end;
	errno = 0;
	long x = strtol(tmp, &end, 10);
	if (errno || *end || x < min || x > max)
		return -1;
	*out = x;
	return 0;
}

static int parse_item(const char *item, size_t len,
		      struct rl_perf_event_spec *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->counter = -1;
	s->weight = 1.0;
	s->cpu = -1;
	s->group = -1;
	bool have_type = false;
	const char *p = item, *end = item + len;
	while (p < end) {
		const char *f = p;
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *fend = comma ? comma : end;
		p = comma ? comma + 1 : end;
		const char *eq = memchr(f, '=', (size_t)(fend - f));
		if (!eq)
			return bad(err, errlen, item, len, "field without '='");
		size_t kl = (size_t)(eq - f), vl = (size_t)(fend - eq - 1);
		const char *v = eq + 1;
		uint64_t u;
		long l;
		if (kl == 1 && f[0] == 'c') {
			char name[64];
			if (vl >= sizeof name)
				return bad(err, errlen, item, len,
					   "unknown counter");
			memcpy(name, v, vl);
			name[vl] = '\0';
			s->counter = rl_counter_from_name(name);
			if (s->counter < 0)
				return bad(err, errlen, item, len,
					   "unknown counter");
		} else if (kl == 1 && f[0] == 't') {
			if (parse_u64(v, vl, 10, &u) < 0 || u > UINT32_MAX)
				return bad(err, errlen, item, len,
					   "bad type (t=)");
			s->type = (uint32_t)u;
			have_type = true;
		} else if (kl == 3 && memcmp(f, "cfg", 3) == 0) {
			if (parse_u64(v, vl, 16, &s->config) < 0)
				return bad(err, errlen, item, len,
					   "bad hex config (cfg=)");
		} else if (kl == 4 && memcmp(f, "cfg1", 4) == 0) {
			if (parse_u64(v, vl, 16, &s->config1) < 0)
				return bad(err, errlen, item, len,
					   "bad hex config1 (cfg1=)");
		} else if (kl == 4 && memcmp(f, "cfg2", 4) == 0) {
			if (parse_u64(v, vl, 16, &s->config2) < 0)
				return bad(err, errlen, item, len,
					   "bad hex config2 (cfg2=)");
		} else if (kl == 1 && f[0] == 'w') {
			char tmp[40], *e;
			if (vl == 0 || vl >= sizeof tmp)
				return bad(err, errlen, item, len,
					   "bad weight (w=)");
			memcpy(tmp, v, vl);
			tmp[vl] = '\0';
			errno = 0;
			s->weight = strtod(tmp, &e);
			if (errno || *e || !isfinite(s->weight) ||
			    s->weight <= 0)
				return bad(err, errlen, item, len,
					   "bad weight (w=)");
		} else if (kl == 3 && memcmp(f, "cpu", 3) == 0) {
			if (parse_int(v, vl, -1, 1 << 20, &l) < 0)
				return bad(err, errlen, item, len,
					   "bad cpu (cpu=)");
			s->cpu = (int)l;
		} else if (kl == 1 && f[0] == 'g') {
			if (parse_int(v, vl, -1, 1 << 20, &l) < 0)
				return bad(err, errlen, item, len,
					   "bad group (g=)");
			s->group = (int)l;
		} else if (kl == 4 && memcmp(f, "name", 4) == 0) {
			if (vl >= sizeof s->name)
				return bad(err, errlen, item, len,
					   "name longer than 95 bytes");
			memcpy(s->name, v, vl);
			s->name[vl] = '\0';
		} else {
			return bad(err, errlen, item, len, "unknown field");
		}
	}
	if (s->counter < 0)
		return bad(err, errlen, item, len, "no counter (c=)");
	if (!have_type)
		return bad(err, errlen, item, len, "no type (t=)");
	return 0;
}

int rl_perf_spec_parse(const char *text, struct rl_perf_event_spec *specs,
		       size_t max, size_t *n, char *err, size_t errlen)
{
	*n = 0;
	const char *p = text ? text : "";
	while (*p) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		if (len > 0) {
			if (*n >= max)
				return rl_fail(err, errlen, RL_ELIMIT,
					       "more than %zu perf events in "
					       "RLPROF_PERF_EVENTS",
					       max);
			int rc = parse_item(p, len, &specs[*n], err, errlen);
			if (rc < 0)
				return rc;
			(*n)++;
		}
		p += len + (semi ? 1 : 0);
	}
	return 0;
}

int rl_perf_spec_format(const struct rl_perf_event_spec *specs, size_t n,
			char *buf, size_t buflen)
{
	size_t used = 0;
	if (buflen == 0)
		return RL_ELIMIT;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const struct rl_perf_event_spec *s = &specs[i];
		if (strpbrk(s->name, ",;") ||
		    s->counter < 0 || s->counter >= RL_COUNTER_COUNT)
			return RL_EINVAL;
		char item[320], w[40];
		snprintf(w, sizeof w, "%.15g", s->weight);
		if (strtod(w, NULL) != s->weight)
			snprintf(w, sizeof w, "%.17g", s->weight);
		int k = snprintf(item, sizeof item, "%sc=%s,t=%u,cfg=0x%llx",
				 i ? ";" : "",
				 rl_counter_name((enum rl_counter)s->counter),
				 (unsigned)s->type,
				 (unsigned long long)s->config);
		if (s->config1)
			k += snprintf(item + k, sizeof item - (size_t)k,
				      ",cfg1=0x%llx",
				      (unsigned long long)s->config1);
		if (s->config2)
			k += snprintf(item + k, sizeof item - (size_t)k,
				      ",cfg2=0x%llx",
				      (unsigned long long)s->config2);
		if (s->weight != 1.0)
			k += snprintf(item + k, sizeof item - (size_t)k, ",w=%s",
				      w);
		if (s->cpu >= 0)
			k += snprintf(item + k, sizeof item - (size_t)k,
				      ",cpu=%d", s->cpu);
		if (s->group >= 0)
			k += snprintf(item + k, sizeof item - (size_t)k, ",g=%d",
				      s->group);
		if (s->name[0])
			k += snprintf(item + k, sizeof item - (size_t)k,
				      ",name=%s", s->name);
		if (used + (size_t)k + 1 > buflen)
			return RL_ELIMIT;
		memcpy(buf + used, item, (size_t)k + 1);
		used += (size_t)k;
	}
	return 0;
}

static rl_perf_resolve_fn *resolver; /* set once at load, then read */

void rl_perf_set_resolver(rl_perf_resolve_fn *fn)
{
	__atomic_store_n(&resolver, fn, __ATOMIC_RELEASE);
}

rl_perf_resolve_fn *rl_perf_resolver(void)
{
	return __atomic_load_n(&resolver, __ATOMIC_ACQUIRE);
}
