/* A program file opened for libelf (elf_file.h). */
#include "inspect/elf_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/rl_error.h"

int rl_elf_file_open(const char *path, int *fd, Elf **elf, char *err,
		     size_t errlen)
{
	struct stat st;
	int rc;

	*elf = NULL;
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0) {
		int e = errno;
		return rl_fail(err, errlen,
			       e == ENOENT ? RL_ENOENT
			       : e == EACCES ? RL_EPERM : RL_EIO,
			       "cannot open '%s': %s", path, strerror(e));
	}
	if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode))
		rc = rl_fail(err, errlen, RL_EINVAL,
			     "cannot read '%s': not a regular file", path);
	else if (elf_version(EV_CURRENT) == EV_NONE)
		rc = rl_fail(err, errlen, RL_EIO, "cannot read '%s': libelf: %s",
			     path, elf_errmsg(-1));
	else if (!(*elf = elf_begin(*fd, ELF_C_READ, NULL)) ||
		 elf_kind(*elf) != ELF_K_ELF)
		rc = rl_fail(err, errlen, RL_EFORMAT, "'%s' is not an ELF file",
			     path);
	else
		return 0;
	rl_elf_file_close(*fd, *elf);
	*fd = -1;
	*elf = NULL;
	return rc;
}

void rl_elf_file_close(int fd, Elf *elf)
{
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

int rl_elf_symbols(Elf *elf, Elf_Scn **scn, GElf_Shdr *sh)
{
	Elf_Scn *s = NULL;
	GElf_Shdr h;

	*scn = NULL;
	while ((s = elf_nextscn(elf, s)) != NULL)
		if (gelf_getshdr(s, &h) &&
		    (h.sh_type == SHT_SYMTAB ||
		     (h.sh_type == SHT_DYNSYM && !*scn))) {
			*scn = s;
			*sh = h;
			if (h.sh_type == SHT_SYMTAB)
				break;
		}
	return *scn != NULL;
}
