/* Where the sampled program's code lies: loop_samples_map.h. */
#include "cli/run/loop_samples_map.h"

#include <gelf.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inspect/elf_file.h"

int rl_loop_map_prepare(const char *program, struct rl_loop_map *m)
{
	char err[256];
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	size_t n;

	memset(m, 0, sizeof *m);
	if (!realpath(program, m->real) ||
	    rl_elf_file_open(program, &fd, &elf, err, sizeof err) < 0) {
		m->real[0] = '\0';
		return -1;
	}
	if (gelf_getehdr(elf, &eh))
		m->position_independent = eh.e_type == ET_DYN;
	if (elf_getphdrnum(elf, &n) == 0)
		for (size_t i = 0; i < n && m->n_seg < RL_LOOP_MAP_SEGS; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, (int)i, &ph) ||
			    ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
				continue;
			m->seg_off[m->n_seg] = ph.p_offset & ~(uint64_t)0xfff;
			m->seg_vaddr[m->n_seg] = ph.p_vaddr & ~(uint64_t)0xfff;
			m->n_seg++;
		}
	rl_elf_file_close(fd, elf);
	return 0;
}

int rl_loop_map_record(const struct rl_loop_map *m, pid_t pid,
		       const unsigned char *body, size_t size, uint64_t *bias)
{
	uint32_t p;
	uint64_t addr, pgoff;
	size_t name_len;

	if (!m->real[0] || !m->position_independent || size < 32 + 2)
		return 0;
	memcpy(&p, body, 4);
	memcpy(&addr, body + 8, 8);
	memcpy(&pgoff, body + 24, 8);
	name_len = strnlen((const char *)body + 32, size - 32);
	if ((pid_t)p != pid || name_len == size - 32 ||
	    strcmp((const char *)body + 32, m->real) != 0)
		return 0;
	for (size_t i = 0; i < m->n_seg; i++)
		if (m->seg_off[i] == pgoff) {
			*bias = addr - m->seg_vaddr[i];
			return 1;
		}
	return 0;
}

int rl_loop_map_scan(const struct rl_loop_map *m, pid_t pid, void *ring,
		     size_t data_len, uint64_t *bias)
{
	unsigned char rec[PATH_MAX + 64];
	struct perf_event_mmap_page *meta = ring;
	const unsigned char *data =
		(const unsigned char *)ring +
		(meta->data_offset ? meta->data_offset
				   : (uint64_t)sysconf(_SC_PAGESIZE));
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);

	for (uint64_t tail = meta->data_tail; tail < head;) {
		struct perf_event_header h;
		size_t size, n;
		for (size_t k = 0; k < sizeof h; k++)
			((unsigned char *)&h)[k] = data[(tail + k) % data_len];
		if ((size = h.size) < sizeof h)
			break;
		if (h.type == PERF_RECORD_MMAP) {
			n = size < sizeof rec ? size : sizeof rec;
			for (size_t k = 0; k < n; k++)
				rec[k] = data[(tail + k) % data_len];
			if (rl_loop_map_record(m, pid, rec + sizeof h,
					       n - sizeof h, bias))
				return 1;
		}
		tail += size;
	}
	return 0;
}
