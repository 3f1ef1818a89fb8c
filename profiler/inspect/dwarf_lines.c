/* Source lines from the DWARF line table, through libdw. */
#include "inspect/dwarf_lines.h"

#include <elfutils/libdw.h>
#include <stdlib.h>

#include "common/rl_error.h"

struct rl_dwarf_lines {
	Dwarf *dw;
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
	return 0;
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
	*file = f;
	*line = n;
	return 1;
}

void rl_dwarf_lines_close(struct rl_dwarf_lines *d)
{
	if (!d)
		return;
	dwarf_end(d->dw);
	free(d);
}
