/*
 * A program file opened for libelf, as the inspect readers need it: a
 * regular file (opened O_NONBLOCK, so that a FIFO never waits for a
 * writer) that is ELF. Prints nothing.
 */
#ifndef RL_ELF_FILE_H
#define RL_ELF_FILE_H

#include <gelf.h>
#include <libelf.h>
#include <stddef.h>

/* 0 with *fd and *elf set (close them with rl_elf_file_close); else
 * RL_ENOENT, RL_EPERM, RL_EIO (cannot open or read), RL_EINVAL (not a
 * regular file) or RL_EFORMAT (not ELF), with why in err. */
int rl_elf_file_open(const char *path, int *fd, Elf **elf, char *err,
		     size_t errlen);

void rl_elf_file_close(int fd, Elf *elf);

/* The symbol table to name functions by: .symtab, else .dynsym (a
 * stripped program). 1 with *scn and *sh set; 0 when there is none. */
int rl_elf_symbols(Elf *elf, Elf_Scn **scn, GElf_Shdr *sh);

#endif
