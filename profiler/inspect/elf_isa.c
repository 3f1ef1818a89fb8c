/* The x86 ISA level a program needs, from its GNU property note (libelf). */
#include "inspect/elf_isa.h"

#include <elf.h>
#include <gelf.h>
#include <string.h>

#include "inspect/elf_file.h"

const char *rl_isa_level_name(enum rl_isa_level level)
{
	switch (level) {
	case RL_ISA_LEVEL_BASELINE: return "x86-64-baseline";
	case RL_ISA_LEVEL_V2: return "x86-64-v2";
	case RL_ISA_LEVEL_V3: return "x86-64-v3";
	case RL_ISA_LEVEL_V4: return "x86-64-v4";
	case RL_ISA_LEVEL_NONE: break;
	}
	return "none";
}

const char *rl_isa_level_ceiling(enum rl_isa_level level)
{
	switch (level) {
	case RL_ISA_LEVEL_BASELINE: return "sse2";
	case RL_ISA_LEVEL_V2: return "sse";
	case RL_ISA_LEVEL_V3: return "avx2";
	case RL_ISA_LEVEL_V4: return "avx512";
	case RL_ISA_LEVEL_NONE: break;
	}
	return NULL;
}

static enum rl_isa_level level_of_bits(uint32_t bits)
{
	if (bits & GNU_PROPERTY_X86_ISA_1_V4)
		return RL_ISA_LEVEL_V4;
	if (bits & GNU_PROPERTY_X86_ISA_1_V3)
		return RL_ISA_LEVEL_V3;
	if (bits & GNU_PROPERTY_X86_ISA_1_V2)
		return RL_ISA_LEVEL_V2;
	if (bits & GNU_PROPERTY_X86_ISA_1_BASELINE)
		return RL_ISA_LEVEL_BASELINE;
	return RL_ISA_LEVEL_NONE;
}

/* The properties of one NT_GNU_PROPERTY_TYPE_0 descriptor: pr_type,
 * pr_datasz, data padded to 8 bytes (ELFCLASS64). */
static enum rl_isa_level scan_properties(const unsigned char *d, size_t n)
{
	enum rl_isa_level best = RL_ISA_LEVEL_NONE;
	size_t off = 0;

	while (off + 8 <= n) {
		uint32_t type, size, bits;
		memcpy(&type, d + off, 4);
		memcpy(&size, d + off + 4, 4);
		off += 8;
		if (size > n - off)
			break;
		if (type == GNU_PROPERTY_X86_ISA_1_NEEDED && size >= 4) {
			memcpy(&bits, d + off, 4);
			if (level_of_bits(bits) > best)
				best = level_of_bits(bits);
		}
		off += (size + 7u) & ~7u;
	}
	return best;
}

static enum rl_isa_level scan_notes(Elf_Data *data)
{
	enum rl_isa_level best = RL_ISA_LEVEL_NONE, l;
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type != NT_GNU_PROPERTY_TYPE_0 || nh.n_namesz != 4 ||
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4) != 0)
			continue;
		l = scan_properties((const unsigned char *)data->d_buf +
					    desc_off,
				    nh.n_descsz);
		if (l > best)
			best = l;
	}
	return best;
}

int rl_elf_isa_level(const char *path, enum rl_isa_level *level, char *err,
		     size_t errlen)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd, rc;

	*level = RL_ISA_LEVEL_NONE;
	if ((rc = rl_elf_file_open(path, &fd, &elf, err, errlen)) < 0)
		return rc;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		enum rl_isa_level l;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)) || !data->d_buf)
			continue;
		l = scan_notes(data);
		if (l > *level)
			*level = l;
	}
	rl_elf_file_close(fd, elf);
	return 0;
}
