/* Reads a program file: kind, linkage and the region records (libelf). */
#include "inspect/inspect_elf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/rl_error.h"

#define RL_SECTION_NAME "rlprof_regions"
#define RL_RECORD_MAGIC "RLR1"

const char *rl_file_kind_name(enum rl_file_kind kind)
{
	switch (kind) {
	case RL_FILE_EXEC: return "ELF executable";
	case RL_FILE_PIE: return "ELF position-independent executable";
	case RL_FILE_SHARED: return "ELF shared object";
	case RL_FILE_ELF_OTHER: return "ELF file that is not a program";
	case RL_FILE_SCRIPT: return "script";
	case RL_FILE_OTHER: break;
	}
	return "not an ELF program or a script";
}

void rl_elf_info_release(struct rl_elf_info *info)
{
	for (size_t i = 0; i < info->n_sites; i++) {
		free(info->sites[i].file);
		free(info->sites[i].expr);
		free(info->sites[i].name);
	}
	free(info->sites);
	free(info->interpreter);
	free(info->damage);
	memset(info, 0, sizeof *info);
}

/* Decodes one escape after the backslash at *pp; advances *pp. */
static int decode_escape(const char **pp)
{
	const char *p = *pp;
	int c = (unsigned char)*p++;
	switch (c) {
	case 'n': c = '\n'; break;
	case 't': c = '\t'; break;
	case 'r': c = '\r'; break;
	case 'a': c = '\a'; break;
	case 'b': c = '\b'; break;
	case 'f': c = '\f'; break;
	case 'v': c = '\v'; break;
	case 'e': c = 27; break;
	case '\\': case '\'': case '"': case '?': break;
	case 'x': {
		/* C reads every hex digit; only the low byte is kept, so the
		 * sum is kept in 8 bits (an int overflowed past 7 digits) */
		unsigned v = 0;
		int n = 0;
		while (isxdigit((unsigned char)*p)) {
			int d = *p;
			v = (v * 16 + (unsigned)(isdigit(d) ? d - '0'
						  : tolower(d) - 'a' + 10)) &
			    0xffu;
			p++;
			n++;
		}
		if (n == 0)
			return -1;
		c = (int)v;
		break;
	}
	default:
		if (c >= '0' && c <= '7') {
			int v = c - '0';
			for (int n = 1; n < 3 && *p >= '0' && *p <= '7'; n++)
				v = v * 8 + (*p++ - '0');
			c = v & 0xff;
		} else {
			return -1; /* \u, \U and unknown escapes: not decoded */
		}
	}
	*pp = p;
	return c;
}

char *rl_c_literal_value(const char *expr)
{
	size_t cap = strlen(expr) + 1, len = 0;
	char *out = malloc(cap);
	const char *p = expr;
	int literals = 0;

	if (!out)
		return NULL;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (strncmp(p, "u8\"", 3) == 0)
			p += 2;
		if (*p != '"')
			goto not_literal;
		p++;
		while (*p && *p != '"') {
			int c = (unsigned char)*p;
			if (c == '\\') {
				p++;
				c = decode_escape(&p);
				if (c < 0)
					goto not_literal;
			} else {
				p++;
			}
			if (c == 0)
				goto not_literal; /* embedded NUL ends a C name */
			out[len++] = (char)c;
		}
		if (*p != '"')
			goto not_literal;
		p++;
		literals++;
	}
	if (literals == 0)
		goto not_literal;
	out[len] = '\0';
	return out;
not_literal:
	free(out);
	return NULL;
}

/* Sites in order of (file, line, expr), then position: the first of
 * equal ones comes first. */
static int cmp_site_at(const void *a, const void *b, void *ctx)
{
	const struct rl_region_site *v = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(v[i].file, v[j].file);

	if (!c)
		c = v[i].line < v[j].line ? -1 : v[i].line > v[j].line;
	if (!c)
		c = strcmp(v[i].expr, v[j].expr);
	return c ? c : i < j ? -1 : i > j;
}

/* The same record (file, line, expression) kept once, the first, in the
 * order found: n log n. */
static int sites_dedupe(struct rl_elf_info *info)
{
	size_t n = info->n_sites, k = 0, *ix;
	unsigned char *drop;
	struct rl_region_site *v = info->sites;

	if (n < 2)
		return 0;
	ix = malloc(n * sizeof *ix);
	drop = calloc(n, 1);
	if (!ix || !drop) {
		free(ix);
		free(drop);
		return RL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, n, sizeof *ix, cmp_site_at, v);
	for (size_t i = 1; i < n; i++) {
		const struct rl_region_site *a = &v[ix[i - 1]], *b = &v[ix[i]];
		if (a->line == b->line && !strcmp(a->file, b->file) &&
		    !strcmp(a->expr, b->expr))
			drop[ix[i]] = 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (drop[i]) {
			free(v[i].file);
			free(v[i].expr);
			free(v[i].name);
			continue;
		}
		v[k++] = v[i];
	}
	info->n_sites = k;
	free(ix);
	free(drop);
	return 0;
}

static int add_site(struct rl_elf_info *info, const char *file,
		    unsigned line, const char *expr)
{
	struct rl_region_site *s;
	size_t n = info->n_sites;

	/* room doubled when n is 0 or a power of two: the array always has
	 * room for more than n (duplicates are removed after parsing, in
	 * sites_dedupe: a scan per record was quadratic, 16 s for 300k) */
	if ((n & (n - 1)) == 0) {
		struct rl_region_site *grown =
			realloc(info->sites, (n ? 2 * n : 1) * sizeof *grown);
		if (!grown)
			return RL_ENOMEM;
		info->sites = grown;
	}
	s = &info->sites[info->n_sites];
	memset(s, 0, sizeof *s);
	s->file = strdup(file);
	s->expr = strdup(expr);
	s->line = line;
	s->name = rl_c_literal_value(expr);
	if (!s->file || !s->expr) {
		free(s->file);
		free(s->expr);
		free(s->name);
		return RL_ENOMEM;
	}
	info->n_sites++;
	return 0;
}

/* The string at data[*pos] if NUL-terminated inside size; advances. */
static const char *take_string(const char *data, size_t size, size_t *pos)
{
	const char *s = data + *pos;
	const char *nul = memchr(s, '\0', size - *pos);
	if (!nul)
		return NULL;
	*pos += (size_t)(nul - s) + 1;
	return s;
}

int rl_elf_parse_sites(const char *data, size_t size,
		       struct rl_elf_info *info)
{
	const size_t magic_len = sizeof RL_RECORD_MAGIC; /* with its NUL */
	size_t pos = 0;

	while (pos < size) {
		const char *file, *line, *expr;
		char *end;
		unsigned long ln;
		int rc;

		if (data[pos] == '\0') { /* alignment padding between records */
			pos++;
			continue;
		}
		if (size - pos < magic_len ||
		    memcmp(data + pos, RL_RECORD_MAGIC, magic_len) != 0) {
			info->n_malformed++;
			/* resynchronise on the next magic */
			while (pos < size && !(size - pos >= magic_len &&
					       memcmp(data + pos, RL_RECORD_MAGIC,
						      magic_len) == 0))
				pos++;
			continue;
		}
		pos += magic_len;
		file = take_string(data, size, &pos);
		line = file ? take_string(data, size, &pos) : NULL;
		expr = line ? take_string(data, size, &pos) : NULL;
		if (!expr) {
			info->n_malformed++;
			break;
		}
		errno = 0;
		ln = strtoul(line, &end, 10);
		if (errno || *end || end == line || ln > 0xffffffffUL) {
			info->n_malformed++;
			continue;
		}
		rc = add_site(info, file, (unsigned)ln, expr);
		if (rc < 0)
			return rc;
	}
	return sites_dedupe(info);
}

static int read_script(int fd, struct rl_elf_info *out)
{
	char buf[256];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	char *p, *e;

	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return 0;
	buf[n] = '\0';
	out->kind = RL_FILE_SCRIPT;
	p = buf + 2;
	while (*p == ' ' || *p == '\t')
		p++;
	e = p;
	while (*e && !isspace((unsigned char)*e))
		e++;
	*e = '\0';
	out->interpreter = strdup(p);
	return out->interpreter ? 1 : RL_ENOMEM;
}

/* Program headers: interpreter path. */
static int read_phdrs(Elf *elf, int fd, struct rl_elf_info *out)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		out->dynamic = true;
		if (ph.p_filesz > 0 && ph.p_filesz < 4096) {
			char *s = calloc(1, ph.p_filesz + 1);
			if (!s)
				return RL_ENOMEM;
			if (pread(fd, s, ph.p_filesz, (off_t)ph.p_offset) !=
			    (ssize_t)ph.p_filesz) {
				free(s);
				continue;
			}
			free(out->interpreter);
			out->interpreter = s;
		}
	}
	return 0;
}

static void read_dynamic(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			 struct rl_elf_info *out, bool *pie_flag)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count;

	if (!d || sh->sh_entsize == 0)
		return;
	count = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(d, (int)i, &dyn))
			break;
		if (dyn.d_tag == DT_NEEDED) {
			const char *lib =
				elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
			if (lib && strncmp(lib, "librlprof.so", 12) == 0)
				out->links_rlprof = true;
		} else if (dyn.d_tag == DT_FLAGS_1 &&
			   (dyn.d_un.d_val & DF_1_PIE)) {
			*pie_flag = true;
		}
	}
}

/* A program linked with librlprof.a defines the runtime itself. */
static bool defines_runtime(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count;

	if (!d || sh->sh_entsize == 0)
		return false;
	count = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;
		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (name && strcmp(name, "rl_region_begin") == 0)
			return true;
	}
	return false;
}

/* The section table cannot be trusted: said in out->damage (the caller
 * decides), the regions found so far kept. */
static int damaged(struct rl_elf_info *out, const char *what)
{
	char msg[512];
	int e = elf_errno();

	if (out->damage)
		return 0;
	if (e)
		snprintf(msg, sizeof msg, "%s (%s)", what, elf_errmsg(e));
	else
		snprintf(msg, sizeof msg, "%s", what);
	out->damage = strdup(msg);
	return out->damage ? 0 : RL_ENOMEM;
}

static int read_sections(Elf *elf, const GElf_Ehdr *eh, off_t file_size,
			 struct rl_elf_info *out, bool *pie_flag, char *err,
			 size_t errlen, const char *path)
{
	size_t shstrndx, shnum;
	Elf_Scn *scn = NULL;

	if (eh->e_shoff == 0 && eh->e_shnum == 0)
		return 0; /* stripped of section headers: nothing to read */
	if (eh->e_shoff > (uint64_t)file_size ||
	    (uint64_t)eh->e_shnum * eh->e_shentsize >
		    (uint64_t)file_size - eh->e_shoff)
		return damaged(out, "its section table lies beyond the end "
				    "of the file");
	if (elf_getshdrnum(elf, &shnum) != 0 ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    (shnum > 0 && shstrndx >= shnum))
		return damaged(out, "its section table cannot be read");
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return damaged(out, "a section header cannot be read");
		if (sh.sh_type != SHT_NOBITS && sh.sh_size > 0 &&
		    (sh.sh_offset > (uint64_t)file_size ||
		     sh.sh_size > (uint64_t)file_size - sh.sh_offset))
			return damaged(out, "a section lies beyond the end of "
					    "the file");
		if (sh.sh_type == SHT_DYNAMIC) {
			read_dynamic(elf, scn, &sh, out, pie_flag);
			continue;
		}
		if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
		    !out->links_rlprof && defines_runtime(elf, scn, &sh)) {
			out->links_rlprof = true;
			continue;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			return damaged(out, "a section name cannot be read");
		if (strcmp(name, RL_SECTION_NAME) != 0 ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		Elf_Data *d = NULL;
		while ((d = elf_getdata(scn, d)) != NULL) {
			if (!d->d_buf)
				continue;
			int rc = rl_elf_parse_sites(d->d_buf, d->d_size, out);
			if (rc < 0)
				return rl_fail(err, errlen, rc,
					       "cannot read the regions of '%s': %s",
					       path, rl_strerror(rc));
		}
	}
	return 0;
}

static int cmp_site(const void *a, const void *b)
{
	const struct rl_region_site *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->expr, y->expr);
}

int rl_elf_inspect(const char *path, struct rl_elf_info *out, char *err,
		   size_t errlen)
{
	Elf *elf = NULL;
	GElf_Ehdr eh;
	bool pie_flag = false;
	struct stat st = {0};
	int fd, rc = 0;

	memset(out, 0, sizeof *out);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		return rl_fail(err, errlen,
			       e == ENOENT ? RL_ENOENT
			       : e == EACCES ? RL_EPERM : RL_EIO,
			       "cannot open '%s': %s", path, strerror(e));
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = rl_fail(err, errlen, RL_EINVAL,
			     "cannot read '%s': not a regular file (%s): give "
			     "a program file",
			     path,
			     S_ISDIR(st.st_mode)    ? "a directory"
			     : S_ISFIFO(st.st_mode) ? "a FIFO"
			     : S_ISSOCK(st.st_mode) ? "a socket"
						    : "a device");
		goto out;
	}
	rc = read_script(fd, out);
	if (rc != 0)
		goto out;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		rc = rl_fail(err, errlen, RL_EIO, "cannot read '%s': libelf: %s",
			     path, elf_errmsg(-1));
		goto out;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		out->kind = RL_FILE_OTHER;
		goto out;
	}
	if (!gelf_getehdr(elf, &eh)) {
		rc = rl_fail(err, errlen, RL_EFORMAT,
			     "cannot read '%s': broken ELF header: %s", path,
			     elf_errmsg(-1));
		goto out;
	}
	rc = read_phdrs(elf, fd, out);
	if (rc < 0)
		goto out;
	rc = read_sections(elf, &eh, st.st_size, out, &pie_flag, err, errlen,
			   path);
	if (rc < 0)
		goto out;
	if (eh.e_type == ET_EXEC)
		out->kind = RL_FILE_EXEC;
	else if (eh.e_type == ET_DYN)
		out->kind = (out->dynamic || pie_flag) ? RL_FILE_PIE
						       : RL_FILE_SHARED;
	else
		out->kind = RL_FILE_ELF_OTHER;
	if (out->n_sites > 1) /* the linker's order is not the source's */
		qsort(out->sites, out->n_sites, sizeof *out->sites, cmp_site);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	if (rc < 0) {
		rl_elf_info_release(out);
		return rc;
	}
	return 0;
}
