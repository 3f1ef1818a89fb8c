/* The region APIs a program imports (elf_imports.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "inspect/elf_imports.h"
#include "common/rl_error.h"

/* name without its trailing underscores, lower case, equals api: the C
 * name or a Fortran binding of it (gfortran's likwid_markerstartregion_,
 * papif_hl_region_begin_, f2c's double underscore, PAPIF_HL_REGION_BEGIN) */
static bool names(const char *name, const char *api)
{
	size_t n = strlen(name), m = strlen(api);

	while (n > 0 && name[n - 1] == '_')
		n--;
	return n == m && strncasecmp(name, api, n) == 0;
}

static void note(struct rl_elf_imports *out, const char *name, bool defined)
{
	if (names(name, "likwid_markerStartRegion")) {
		if (defined)
			out->likwid_marker_inside = true;
		else
			out->likwid_marker = true;
	} else if (names(name, "PAPI_hl_region_begin") ||
		   names(name, "PAPIf_hl_region_begin")) {
		if (defined)
			out->papi_hl_inside = true;
		else
			out->papi_hl = true;
	} else if (defined) {
		return;
	} else if (strcmp(name, "rl_region_begin") == 0) {
		out->rl_regions = true;
	} else if (strcmp(name, "MPI_Finalize") == 0) {
		out->mpi_finalize = true;
	}
}

/* .dynsym: imports (undefined) and definitions; .symtab: definitions
 * (a static program, or an archive linked in) */
static void read_syms(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		      struct rl_elf_imports *out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n;

	if (!d || sh->sh_entsize == 0)
		return;
	n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		bool defined;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(sym.st_info) != STT_NOTYPE)
			continue;
		defined = sym.st_shndx != SHN_UNDEF;
		if (!defined && sh->sh_type != SHT_DYNSYM)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (name)
			note(out, name, defined);
	}
}

int rl_elf_imports(const char *path, struct rl_elf_imports *out, char *err,
		   size_t errlen)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	int fd;

	memset(out, 0, sizeof *out);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return rl_fail(err, errlen,
			       e == ENOENT ? RL_ENOENT
			       : e == EACCES ? RL_EPERM : RL_EIO,
			       "cannot open '%s': %s", path, strerror(e));
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return rl_fail(err, errlen, RL_EIO, "cannot read '%s': libelf: %s",
			       path, elf_errmsg(-1));
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			if (gelf_getshdr(scn, &sh) &&
			    (sh.sh_type == SHT_DYNSYM ||
			     sh.sh_type == SHT_SYMTAB))
				read_syms(elf, scn, &sh, out);
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return 0;
}
