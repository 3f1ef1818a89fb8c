/* Source lines from the DWARF line table, through libdw. */
#include "inspect/dwarf_lines.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_error.h"

struct rl_dwarf_lines {
	Dwarf *dw;
	char **paths; /* source paths made whole (whole_path), owned */
	size_t n_paths;
};

int rl_dwarf_lines_open(Elf *elf, struct rl_dwarf_lines **out)
{
	Dwarf *dw;

	*out = NULL;
	if (!(dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)))
		return 0; /* no DWARF: no lines */
	if (!(*out = malloc(sizeof **out))) {
		dwarf_end(dw);
		return RL_ENOMEM;
	}
	(*out)->dw = dw;
	(*out)->paths = NULL;
	(*out)->n_paths = 0;
	return 0;
}

/* A source path as the DWARF gives it, made whole: a relative one (a
 * file compiled as "kernels/k.f90") is under the CU's compilation
 * directory, so that the source can be read from wherever rlprof runs
 * (a loop's statement line, the report's source excerpts). Kept for the
 * table's life; the path itself where it cannot be made whole. */
static const char *whole_path(struct rl_dwarf_lines *d, Dwarf_Die *cu,
			      const char *f)
{
	Dwarf_Attribute a;
	const char *dir;
	char *p, **grown;

	if (!f || f[0] == '/' || !dwarf_attr(cu, DW_AT_comp_dir, &a) ||
	    !(dir = dwarf_formstring(&a)) || dir[0] != '/')
		return f;
	size_t ld = strlen(dir), lf = strlen(f);
	for (size_t i = 0; i < d->n_paths; i++)
		if (strncmp(d->paths[i], dir, ld) == 0 &&
		    d->paths[i][ld] == '/' && strcmp(d->paths[i] + ld + 1, f) == 0)
			return d->paths[i];
	if (!(p = malloc(ld + lf + 2)))
		return f;
	memcpy(p, dir, ld);
	p[ld] = '/';
	memcpy(p + ld + 1, f, lf + 1);
	if (!(grown = realloc(d->paths, (d->n_paths + 1) * sizeof *grown))) {
		free(p);
		return f;
	}
	d->paths = grown;
	d->paths[d->n_paths++] = p;
	return p;
}

int rl_dwarf_line(struct rl_dwarf_lines *d, uint64_t addr, const char **file,
		  int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *f;
	int n;

	if (!d || !dwarf_addrdie(d->dw, (Dwarf_Addr)addr, &cu) ||
	    !(l = dwarf_getsrc_die(&cu, (Dwarf_Addr)addr)) ||
	    !(f = dwarf_linesrc(l, NULL, NULL)) || dwarf_lineno(l, &n) != 0 ||
	    n <= 0)
		return 0;
	*file = whole_path(d, &cu, f);
	*line = n;
	return 1;
}

static const char *attr_string(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(die, name, &a) ? dwarf_formstring(&a)
						     : NULL;
}

static int attr_unsigned(Dwarf_Die *die, unsigned name, Dwarf_Word *v)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(die, name, &a) &&
	       dwarf_formudata(&a, v) == 0;
}

/* The function instances of scopes[0..n) (innermost first) into out
 * from its end backwards (outermost first overall), from slot *k down;
 * returns the last one seen (the outermost), or NULL. */
static Dwarf_Die *take_frames(Dwarf_Die *scopes, int n, Dwarf_Files *files,
			      size_t n_files, struct rl_dwarf_frame *tmp,
			      int *k, int max)
{
	Dwarf_Die *last = NULL;

	for (int i = 0; i < n && *k < max; i++) {
		Dwarf_Die *s = &scopes[i];
		int tag = dwarf_tag(s);
		struct rl_dwarf_frame *o = &tmp[*k];
		Dwarf_Word f, l;
		if ((tag != DW_TAG_subprogram &&
		     tag != DW_TAG_inlined_subroutine) ||
		    (*k > 0 && tmp[*k - 1].id == (uint64_t)dwarf_dieoffset(s)))
			continue;
		o->id = (uint64_t)dwarf_dieoffset(s);
		o->name = attr_string(s, DW_AT_linkage_name);
		if (!o->name)
			o->name = attr_string(s, DW_AT_MIPS_linkage_name);
		if (!o->name)
			o->name = attr_string(s, DW_AT_name);
		o->call_file = NULL;
		o->call_line = 0;
		if (tag == DW_TAG_inlined_subroutine && files &&
		    attr_unsigned(s, DW_AT_call_file, &f) && f < n_files)
			o->call_file = dwarf_filesrc(files, f, NULL, NULL);
		if (tag == DW_TAG_inlined_subroutine &&
		    attr_unsigned(s, DW_AT_call_line, &l) && l < 1u << 30)
			o->call_line = (int)l;
		(*k)++;
		last = s;
	}
	return last;
}

#define MAX_DEPTH 64

/* The DIEs under parent that hold a, one per level, into path[n..):
 * returns the new n. Blocks and inlined copies hold their children's
 * code, so one child per level holds a. */
static int path_down(Dwarf_Die *parent, Dwarf_Addr a, Dwarf_Die *path, int n)
{
	Dwarf_Die c;

	if (n >= MAX_DEPTH || dwarf_child(parent, &c) != 0)
		return n;
	do {
		int tag = dwarf_tag(&c);
		if ((tag == DW_TAG_inlined_subroutine ||
		     tag == DW_TAG_lexical_block) &&
		    dwarf_haspc(&c, a) == 1) {
			path[n++] = c;
			return path_down(&path[n - 1], a, path, n);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return n;
}

/* The function (DW_TAG_subprogram with code) holding a anywhere below
 * die, depth first; 1 when found into *out. */
static int find_function(Dwarf_Die *die, Dwarf_Addr a, Dwarf_Die *out,
			 int depth)
{
	Dwarf_Die c;

	if (depth > MAX_DEPTH || dwarf_child(die, &c) != 0)
		return 0;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram &&
		    dwarf_haspc(&c, a) == 1) {
			*out = c;
			return 1;
		}
		if (dwarf_haschildren(&c) &&
		    find_function(&c, a, out, depth + 1))
			return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* The scopes of a, innermost first (malloc'd, as dwarf_getscopes gives
 * them), found by walking every DIE of the CU: dwarf_getscopes descends
 * only into DIEs whose ranges hold the address, and GCC nests the DIE
 * of an OpenMP-outlined function (its "._omp_fn.N" clone) inside the
 * DIE of the function it came from, whose ranges do not hold the
 * outlined code: every loop of an OpenMP-parallel loop nest was found in
 * no function, and named by whichever inlined accessor its first
 * instruction came from (LULESH: lulesh.h:266, Domain::x, for six
 * loops of lulesh.cc). */
static int deep_scopes(Dwarf_Die *cu, Dwarf_Addr a, Dwarf_Die **out)
{
	Dwarf_Die path[MAX_DEPTH];
	int n;

	*out = NULL;
	if (!find_function(cu, a, &path[0], 0))
		return 0;
	n = path_down(&path[0], a, path, 1);
	if (!(*out = malloc((size_t)n * sizeof **out)))
		return 0;
	for (int i = 0; i < n; i++)
		(*out)[i] = path[n - 1 - i];
	return n;
}

int rl_dwarf_frames(struct rl_dwarf_lines *d, uint64_t addr,
		    struct rl_dwarf_frame *out, int max)
{
	struct rl_dwarf_frame tmp[MAX_DEPTH];
	Dwarf_Die cu, *scopes = NULL, *last, outer;
	Dwarf_Files *files = NULL;
	size_t n_files = 0;
	int n, k = 0;

	if (!d || !dwarf_addrdie(d->dw, (Dwarf_Addr)addr, &cu))
		return 0;
	if ((n = dwarf_getscopes(&cu, (Dwarf_Addr)addr, &scopes)) < 0)
		n = 0;
	if (dwarf_getsrcfiles(&cu, &files, &n_files) != 0)
		files = NULL;
	/* innermost first into tmp; libdw's scopes of an address stop at
	 * the outermost inlined copy: the function it was inlined into is
	 * among the scopes of that copy's DIE */
	last = take_frames(scopes, n, files, n_files, tmp, &k, MAX_DEPTH);
	if (k == 0) {
		/* no function among them: one nested where libdw does not
		 * look (deep_scopes) */
		free(scopes);
		if ((n = deep_scopes(&cu, (Dwarf_Addr)addr, &scopes)) <= 0)
			return 0;
		last = take_frames(scopes, n, files, n_files, tmp, &k,
				   MAX_DEPTH);
	}
	while (last && dwarf_tag(last) == DW_TAG_inlined_subroutine &&
	       k < MAX_DEPTH) {
		Dwarf_Die *more = NULL;
		int m;
		outer = *last;
		free(scopes);
		scopes = NULL;
		if ((m = dwarf_getscopes_die(&outer, &more)) <= 1) {
			free(more);
			break;
		}
		scopes = more;
		last = take_frames(more + 1, m - 1, files, n_files, tmp, &k,
				   MAX_DEPTH);
	}
	free(scopes);
	for (int i = 0; i < k && i < max; i++) {
		out[i] = tmp[k - 1 - i];
		out[i].call_file = whole_path(d, &cu, out[i].call_file);
	}
	return k;
}

void rl_dwarf_lines_close(struct rl_dwarf_lines *d)
{
	if (!d)
		return;
	dwarf_end(d->dw);
	for (size_t i = 0; i < d->n_paths; i++)
		free(d->paths[i]);
	free(d->paths);
	free(d);
}
