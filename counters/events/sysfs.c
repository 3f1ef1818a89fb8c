/*
 * The kernel's description of a PMU under /sys/bus/event_source/devices/
 * <pmu>/: type, cpumask (uncore: one cpu per socket), format/<field>
 * ("config:0-7,32-35"), events/<name> ("event=0x04,umask=0x03") with
 * optional <name>.scale and <name>.unit (Documentation/ABI/testing/
 * sysfs-bus-event_source-devices-events).
 */
#include "counters/events/events.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_error.h"

/* First line of dir/name without its newline; -1 when unreadable. */
static int read_line(const char *dir, const char *name, char *buf,
		     size_t len)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int rl_cpulist_parse(const char *text, int *cpus, size_t max)
{
	size_t n = 0;
	const char *p = text;

	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p || lo < 0)
			return RL_EFORMAT;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo)
				return RL_EFORMAT;
			p = end;
		}
		for (long c = lo; c <= hi; c++) {
			if (n == max)
				return RL_ELIMIT;
			cpus[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return RL_EFORMAT;
	}
	return (int)n;
}

/* "config1:0-7,32-35" or "config:8" */
static int parse_format(const char *text, struct rl_sysfs_field *f)
{
	const char *p;

	if (strncmp(text, "config", 6) != 0)
		return RL_EFORMAT;
	p = text + 6;
	f->config = 0;
	if (*p == '1' || *p == '2')
		f->config = *p++ - '0';
	if (*p++ != ':')
		return RL_EFORMAT;
	f->n_ranges = 0;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p || f->n_ranges == 4)
			return RL_EFORMAT;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return RL_EFORMAT;
			p = end;
		}
		if (hi < lo || hi > 63)
			return RL_EFORMAT;
		f->lo[f->n_ranges] = (unsigned)lo;
		f->hi[f->n_ranges++] = (unsigned)hi;
		if (*p == ',')
			p++;
		else if (*p)
			return RL_EFORMAT;
	}
	return f->n_ranges ? 0 : RL_EFORMAT;
}

int rl_sysfs_pmu_load(const char *dir, struct rl_sysfs_pmu *p, char *err,
		      size_t errlen)
{
	char buf[512], fdir[600];
	const char *base = strrchr(dir, '/');
	DIR *d;
	struct dirent *e;
	int n;

	memset(p, 0, sizeof *p);
	snprintf(p->dir, sizeof p->dir, "%s", dir);
	snprintf(p->name, sizeof p->name, "%s", base ? base + 1 : dir);
	if (read_line(dir, "type", buf, sizeof buf) < 0)
		return rl_fail(err, errlen, RL_ENOENT,
			       "no PMU at '%s': cannot read its type", dir);
	p->type = (uint32_t)strtoul(buf, NULL, 10);
	if (read_line(dir, "cpumask", buf, sizeof buf) == 0) {
		n = rl_cpulist_parse(buf, p->cpus, sizeof p->cpus /
							 sizeof *p->cpus);
		if (n < 0)
			return rl_fail(err, errlen, RL_EFORMAT,
				       "bad cpumask '%s' in '%s'", buf, dir);
		p->n_cpus = (size_t)n;
	}
	snprintf(fdir, sizeof fdir, "%s/format", dir);
	d = opendir(fdir);
	if (!d)
		return 0; /* a PMU without format/ takes no terms */
	while ((e = readdir(d)) && p->n_fields < RL_SYSFS_FORMAT_MAX) {
		struct rl_sysfs_field *f = &p->fields[p->n_fields];
		size_t nlen = strlen(e->d_name);
		if (e->d_name[0] == '.' || nlen >= sizeof f->name)
			continue;
		if (read_line(fdir, e->d_name, buf, sizeof buf) < 0)
			continue;
		if (parse_format(buf, f) < 0) {
			closedir(d);
			return rl_fail(err, errlen, RL_EFORMAT,
				       "bad format '%s' for '%s' in '%s'", buf,
				       e->d_name, dir);
		}
		memcpy(f->name, e->d_name, nlen + 1);
		p->n_fields++;
	}
	closedir(d);
	return 0;
}

static const struct rl_sysfs_field *field_find(const struct rl_sysfs_pmu *p,
					       const char *name, size_t len)
{
	for (size_t i = 0; i < p->n_fields; i++)
		if (strlen(p->fields[i].name) == len &&
		    strncmp(p->fields[i].name, name, len) == 0)
			return &p->fields[i];
	return NULL;
}

/* Spreads value over the field's bit ranges, low bits first. */
static int put_field(const struct rl_sysfs_field *f, uint64_t value,
		     uint64_t cfg[3])
{
	for (unsigned r = 0; r < f->n_ranges; r++) {
		unsigned width = f->hi[r] - f->lo[r] + 1;
		uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
		cfg[f->config] |= (value & mask) << f->lo[r];
		value = width == 64 ? 0 : value >> width;
	}
	return value ? -1 : 0;
}

int rl_sysfs_encode(const struct rl_sysfs_pmu *p, const char *terms,
		    uint64_t cfg[3], char *err, size_t errlen)
{
	const char *t = terms;

	cfg[0] = cfg[1] = cfg[2] = 0;
	while (*t) {
		size_t len = strcspn(t, "=,");
		const struct rl_sysfs_field *f = field_find(p, t, len);
		uint64_t value = 1;
		if (!f)
			return rl_fail(err, errlen, RL_ENOENT,
				       "PMU '%s' has no format field '%.*s'",
				       p->name, (int)len, t);
		t += len;
		if (*t == '=') {
			char *end;
			errno = 0;
			value = strtoull(t + 1, &end, 0);
			if (end == t + 1 || errno)
				return rl_fail(err, errlen, RL_EFORMAT,
					       "bad value in '%s'", terms);
			t = end;
		}
		if (put_field(f, value, cfg) < 0)
			return rl_fail(err, errlen, RL_EFORMAT,
				       "value too wide for field '%s' in '%s'",
				       f->name, terms);
		while (isspace((unsigned char)*t))
			t++;
		if (*t == ',')
			t++;
		else if (*t)
			return rl_fail(err, errlen, RL_EFORMAT,
				       "bad terms '%s'", terms);
	}
	return 0;
}

int rl_sysfs_event_read(const struct rl_sysfs_pmu *p, const char *event,
			char *terms, size_t termslen, double *scale,
			char *unit, size_t unitlen, char *err, size_t errlen)
{
	char edir[600], name[256], buf[64];

	snprintf(edir, sizeof edir, "%s/events", p->dir);
	if (read_line(edir, event, terms, termslen) < 0)
		return rl_fail(err, errlen, RL_ENOENT,
			       "PMU '%s' has no event '%s'", p->name, event);
	*scale = 1.0;
	snprintf(name, sizeof name, "%s.scale", event);
	if (read_line(edir, name, buf, sizeof buf) == 0) {
		char *end;
		double s = strtod(buf, &end);
		if (end == buf || !(s > 0))
			return rl_fail(err, errlen, RL_EFORMAT,
				       "bad scale '%s' for '%s/%s'", buf,
				       p->name, event);
		*scale = s;
	}
	unit[0] = '\0';
	snprintf(name, sizeof name, "%s.unit", event);
	if (read_line(edir, name, unit, unitlen) < 0)
		unit[0] = '\0';
	return 0;
}

double rl_sysfs_unit_bytes(const char *unit)
{
	static const struct {
		const char *name;
		double bytes;
	} units[] = {{"B", 1},       {"Bytes", 1},
		     {"KiB", 1024.0}, {"MiB", 1048576.0},
		     {"GiB", 1073741824.0}, {"KB", 1e3},
		     {"MB", 1e6},    {"GB", 1e9}};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strcmp(units[i].name, unit) == 0)
			return units[i].bytes;
	return 0;
}
