/*
 * What `rlprof run` and `rlprof inspect` need to know about a program file:
 * its kind (ELF executable, PIE, shared object, `#!` script), whether it is
 * dynamically linked, whether it links librlprof (DT_NEEDED or the
 * runtime linked in statically), and the
 * region records compiled into its ELF section "rlprof_regions" (see
 * rlprof.h for the record layout). Reads the file with libelf; prints
 * nothing.
 *
 * Ownership: rl_elf_inspect() fills a caller-allocated struct rl_elf_info
 * and allocates every string and the sites array in it;
 * rl_elf_info_release() frees them and leaves a zeroed struct.
 */
#ifndef RL_INSPECT_ELF_H
#define RL_INSPECT_ELF_H

#include <stdbool.h>
#include <stddef.h>

enum rl_file_kind {
	RL_FILE_OTHER = 0,   /* neither ELF nor a script: cannot be executed */
	RL_FILE_EXEC,        /* ELF ET_EXEC (position-dependent executable) */
	RL_FILE_PIE,         /* ELF ET_DYN with an interpreter or DF_1_PIE */
	RL_FILE_SHARED,      /* ELF ET_DYN shared library */
	RL_FILE_ELF_OTHER,   /* ELF relocatable object, core file, ... */
	RL_FILE_SCRIPT,      /* starts with "#!" */
};

/* One region record: RL_REGION_BEGIN(expr) at file:line. */
struct rl_region_site {
	char *file;
	unsigned line;
	char *expr;  /* the name expression as written, e.g. "\"triad\"" */
	char *name;  /* the literal's value unescaped; NULL: runtime name */
};

struct rl_elf_info {
	enum rl_file_kind kind;
	bool dynamic;          /* has a program interpreter (ld.so) */
	bool links_rlprof;     /* DT_NEEDED names librlprof.so*, or the
				  program defines rl_region_begin itself
				  (linked with librlprof.a) */
	char *interpreter;     /* ELF PT_INTERP or the script's "#!" path */
	struct rl_region_site *sites; /* deduplicated, by file and line */
	size_t n_sites;
	size_t n_malformed;    /* records that did not parse */
	char *damage;          /* NULL, or why the section table cannot be
				  trusted ("its section table cannot be
				  read (...)"): the regions may be
				  incomplete; readelf reports errors */
};

/* Reads path. Fails (RL_ENOENT, RL_EPERM, RL_EIO, RL_EFORMAT) only when
 * the file cannot be read or its ELF header is broken, and (RL_EINVAL)
 * when it is not a regular file (a FIFO is refused, never waited on); a
 * file of another kind is RL_FILE_OTHER with success; a damaged section
 * table is success with info->damage set. */
int rl_elf_inspect(const char *path, struct rl_elf_info *out, char *err,
		   size_t errlen);
void rl_elf_info_release(struct rl_elf_info *info);

/* Parses the records in a raw "rlprof_regions" section image (exposed for
 * the tests). Appends to info->sites, deduplicating. */
int rl_elf_parse_sites(const char *data, size_t size,
		       struct rl_elf_info *info);

/* The value of a C string-literal expression (adjacent literals joined,
 * escapes decoded), or NULL when expr is not only string literals.
 * malloc'd. */
char *rl_c_literal_value(const char *expr);

const char *rl_file_kind_name(enum rl_file_kind kind);

#endif
