/* AVX-512 (EVEX) code in a program and the libraries it brings: see
 * elf_evex.h. */
#include "inspect/elf_evex.h"

#include <ctype.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/rl_error.h"
#include "inspect/dwarf_lines.h"
#include "inspect/elf_code_isa.h"
#include "inspect/elf_file.h"

#ifndef RL_HAVE_ZYDIS

int rl_elf_evex_scan(const char *path, struct rl_evex_scan *out, char *err,
		     size_t errlen)
{
	memset(out, 0, sizeof *out);
	return rl_code_no_decoder("read the code of", path, err, errlen);
}

#else

/* one file's scan */
struct object {
	const char *path;
	struct rl_evex_scan *out;
	uint64_t *addr; /* one section's EVEX instructions */
	size_t n, cap;
	int nomem;
};

/* a name that says AVX-512: a CPU-dispatch variant */
static int dispatch_variant(const char *name)
{
	char low[128];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof low; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = 0;
	return strstr(low, "avx512") || strstr(low, "_evex") ||
	       strstr(low, ".evex");
}

/* adds a function to the list, which keeps the most instructions first */
static void list_func(struct rl_evex_scan *s, const struct rl_evex_func *f)
{
	size_t at = s->n_funcs;

	while (at > 0 && s->funcs[at - 1].n < f->n)
		at--;
	if (at >= RL_EVEX_MAX_FUNCS) {
		s->more_funcs++;
		return;
	}
	if (s->n_funcs == RL_EVEX_MAX_FUNCS)
		s->more_funcs++;
	else
		s->n_funcs++;
	memmove(&s->funcs[at + 1], &s->funcs[at],
		(s->n_funcs - 1 - at) * sizeof *f);
	s->funcs[at] = *f;
}

static size_t first_at_or_after(const uint64_t *a, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void put_func(struct object *o, struct rl_dwarf_lines *dw,
		     const char *name, uint64_t entry, const uint64_t *first,
		     size_t n_first, unsigned long n)
{
	struct rl_evex_func f;
	const char *file = NULL;

	if (dispatch_variant(name)) {
		o->out->dispatched += n;
		return;
	}
	memset(&f, 0, sizeof f);
	snprintf(f.object, sizeof f.object, "%s", o->path);
	snprintf(f.name, sizeof f.name, "%s", name);
	/* the line of its first AVX-512 instruction in the program's own
	 * source, not a system header's (an intrinsic inlined); else the
	 * function's first line; else the first instruction's as it is */
	for (size_t i = 0; i < n_first && !f.file[0]; i++)
		if (rl_dwarf_line(dw, first[i], &file, &f.line) && file &&
		    strncmp(file, "/usr/", 5) != 0)
			snprintf(f.file, sizeof f.file, "%s", file);
	if (!f.file[0] &&
	    ((rl_dwarf_line(dw, entry, &file, &f.line) && file &&
	      strncmp(file, "/usr/", 5) != 0) ||
	     (rl_dwarf_line(dw, first[0], &file, &f.line) && file)))
		snprintf(f.file, sizeof f.file, "%s", file);
	f.n = n;
	o->out->total += n;
	list_func(o->out, &f);
}

/* The section's EVEX instructions (o->addr) by function of the symbol
 * table (.symtab, else .dynsym); what no function holds as one entry. */
static void by_function(struct object *o, Elf *elf, uint64_t lo, uint64_t hi)
{
	Elf_Scn *symscn = NULL;
	GElf_Shdr symsh = {0};
	struct rl_dwarf_lines *dw = NULL;
	unsigned long covered = 0;

	rl_elf_symbols(elf, &symscn, &symsh);
	rl_dwarf_lines_open(elf, &dw); /* none: no lines */
	Elf_Data *syms = symscn ? elf_getdata(symscn, NULL) : NULL;
	size_t nsym = syms && symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize
					       : 0;
	for (size_t k = 0; k < nsym; k++) {
		GElf_Sym s;
		const char *name;
		size_t a, b;
		if (!gelf_getsym(syms, (int)k, &s) ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_size ||
		    s.st_value < lo || s.st_value >= hi ||
		    !(name = elf_strptr(elf, symsh.sh_link, s.st_name)))
			continue;
		a = first_at_or_after(o->addr, o->n, s.st_value);
		b = first_at_or_after(o->addr, o->n, s.st_value + s.st_size);
		if (b > a) {
			put_func(o, dw, name, s.st_value, o->addr + a, b - a,
				 b - a);
			covered += b - a;
		}
	}
	/* aliases may cover the same code twice; never below zero */
	if (covered < o->n)
		put_func(o, dw, "", o->addr[0], o->addr, 1, o->n - covered);
	rl_dwarf_lines_close(dw);
}

static int evex_section(void *ctx, const ZydisDecoder *dec, Elf *elf,
			uint64_t addr, const unsigned char *code, size_t size)
{
	struct object *o = ctx;
	ZydisDecodedInstruction in;
	size_t off = 0;

	o->n = 0;
	while (off < size) {
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(
			    dec, NULL, code + off, size - off, &in))) {
			off++; /* data or padding: step over a byte */
			continue;
		}
		if (in.encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX) {
			if (o->n == o->cap) {
				size_t cap = o->cap ? 2 * o->cap : 256;
				uint64_t *p = realloc(o->addr, cap * sizeof *p);
				if (!p) {
					o->nomem = 1;
					return RL_ENOMEM;
				}
				o->addr = p;
				o->cap = cap;
			}
			o->addr[o->n++] = addr + off;
		}
		off += in.length;
	}
	if (o->n)
		by_function(o, elf, addr, addr + size);
	return 0;
}

static int scan_object(const char *path, struct rl_evex_scan *out,
		       char *err, size_t errlen)
{
	struct object o = {.path = path, .out = out};
	int rc = rl_elf_code_walk(path, evex_section, &o, err, errlen);

	free(o.addr);
	if (o.nomem)
		return rl_fail(err, errlen, RL_ENOMEM,
			       "out of memory reading the code of '%s'", path);
	if (rc == 0)
		out->n_objects++;
	return rc;
}

/* ---- the libraries a program brings ---- */

/* the glibc's own libraries, wherever they are found */
static int system_c_library(const char *name)
{
	static const char *const libc[] = {"libc.so", "libm.so", "libmvec.so",
					   "libpthread.so", "libdl.so",
					   "librt.so", "ld-linux"};
	for (size_t i = 0; i < sizeof libc / sizeof *libc; i++)
		if (strncmp(name, libc[i], strlen(libc[i])) == 0)
			return 1;
	return 0;
}

/* dir/name into buf with $ORIGIN (or ${ORIGIN}) as origin; 1 when it is
 * a file */
static int try_dir(const char *dir, size_t dlen, const char *origin,
		   const char *name, char *buf, size_t len)
{
	char d[1024];
	size_t k = 0;

	for (size_t i = 0; i < dlen && k + 1 < sizeof d;) {
		if (strncmp(dir + i, "$ORIGIN", 7) == 0 ||
		    strncmp(dir + i, "${ORIGIN}", 9) == 0) {
			k += (size_t)snprintf(d + k, sizeof d - k, "%s", origin);
			if (k >= sizeof d)
				return 0;
			i += dir[i + 1] == '{' ? 9 : 7;
		} else {
			d[k++] = dir[i++];
		}
	}
	d[k] = 0;
	if (!k)
		return 0;
	if ((size_t)snprintf(buf, len, "%s/%s", d, name) >= len)
		return 0;
	return access(buf, R_OK) == 0;
}

/* name in the ':'-separated list of folders */
static int try_list(const char *list, const char *origin, const char *name,
		    char *buf, size_t len)
{
	while (list && *list) {
		size_t n = strcspn(list, ":");
		if (try_dir(list, n, origin, name, buf, len))
			return 1;
		list += n + (list[n] == ':');
	}
	return 0;
}

/* Adds to libs[*n] the libraries path needs that it brings: found through
 * its RPATH (without a RUNPATH), LD_LIBRARY_PATH or RUNPATH, as the
 * dynamic loader looks, or named with a '/'. */
static void brought(const char *path, char (*libs)[1024], size_t *n,
		    size_t cap)
{
	char origin[1024], err[256], found[1024];
	const char *rpath = NULL, *runpath = NULL, *needed[64];
	size_t n_needed = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd;

	if (rl_elf_file_open(path, &fd, &elf, err, sizeof err) < 0)
		return;
	snprintf(origin, sizeof origin, "%s", path);
	if (strrchr(origin, '/'))
		*strrchr(origin, '/') = 0;
	else
		snprintf(origin, sizeof origin, ".");
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *d;
		GElf_Dyn dyn;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			const char *s;
			if (!gelf_getdyn(d, (int)i, &dyn) ||
			    !(s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)))
				continue;
			if (dyn.d_tag == DT_NEEDED && n_needed < 64)
				needed[n_needed++] = s;
			else if (dyn.d_tag == DT_RPATH)
				rpath = s;
			else if (dyn.d_tag == DT_RUNPATH)
				runpath = s;
		}
	}
	for (size_t i = 0; i < n_needed && *n < cap; i++) {
		const char *name = needed[i];
		int hit;
		if (system_c_library(name))
			continue;
		if (strchr(name, '/'))
			hit = snprintf(found, sizeof found, "%s", name) > 0 &&
			      access(found, R_OK) == 0;
		else
			hit = (!runpath &&
			       try_list(rpath, origin, name, found, sizeof found)) ||
			      try_list(getenv("LD_LIBRARY_PATH"), origin, name,
				       found, sizeof found) ||
			      try_list(runpath, origin, name, found,
				       sizeof found);
		for (size_t k = 0; hit && k < *n; k++)
			hit = strcmp(libs[k], found) != 0;
		if (hit)
			snprintf(libs[(*n)++], sizeof *libs, "%s", found);
	}
	rl_elf_file_close(fd, elf);
}

int rl_elf_evex_scan(const char *path, struct rl_evex_scan *out, char *err,
		     size_t errlen)
{
	char (*libs)[1024] = calloc(RL_EVEX_MAX_OBJECTS, sizeof *libs);
	size_t n = 0;
	int rc;

	memset(out, 0, sizeof *out);
	if (!libs)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if ((rc = scan_object(path, out, err, errlen)) < 0)
		goto done;
	brought(path, libs, &n, RL_EVEX_MAX_OBJECTS - 1);
	/* the libraries' own: breadth first, each once */
	for (size_t i = 0; i < n; i++) {
		char ignored[256];
		brought(libs[i], libs, &n, RL_EVEX_MAX_OBJECTS - 1);
		if (scan_object(libs[i], out, ignored, sizeof ignored) ==
		    RL_ENOMEM) {
			rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
			goto done;
		}
	}
done:
	free(libs);
	return rc;
}

#endif
