/* The width of a program's floating-point arithmetic, from its code
 * (libelf for the sections, Zydis to decode them). */
#include "inspect/elf_code_isa.h"

#include <elf.h>
#include <gelf.h>
#include <string.h>

#ifdef RL_HAVE_ZYDIS
#include <Zydis/Zydis.h>
#endif

#include "inspect/elf_file.h"
#include "common/rl_error.h"

const char *rl_code_isa_ceiling(unsigned widest_bits)
{
	switch (widest_bits) {
	case 64: return "scalar";
	case 128: return "sse2";
	case 256: return "avx2";
	case 512: return "avx512";
	default: return NULL;
	}
}

int rl_code_no_decoder(const char *what, const char *path, char *err,
		       size_t errlen)
{
	return rl_fail(err, errlen, RL_ENOTSUP,
		       "cannot %s '%s': rlprof was built without an x86 "
		       "decoder (libzydis-dev)", what, path);
}

#ifndef RL_HAVE_ZYDIS

int rl_code_isa_available(void)
{
	return 0;
}

int rl_elf_code_isa(const char *path, struct rl_code_isa *out, char *err,
		    size_t errlen)
{
	memset(out, 0, sizeof *out);
	return rl_code_no_decoder("read the code of", path, err, errlen);
}

#else

int rl_code_isa_available(void)
{
	return 1;
}

/* The operations counted as flops (rlprof's flop events and the
 * simulator count the same ones), without the AVX 'v' prefix: 2 for a
 * fused multiply-add, 1 for another, 0 for none. */
static int fp_arith(const char *m)
{
	static const char *const ops[] = {"fmadd", "fmsub", "fnmadd", "fnmsub",
					  "add", "sub", "mul", "div", "sqrt"};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (strncmp(m, ops[i], strlen(ops[i])) == 0)
			return i < 4 ? 2 : 1;
	return 0;
}

/* The width of floating-point arithmetic as an index of the counts (0
 * scalar, 1 128-bit, 2 256-bit, 3 512-bit), else -1; *fma set for a
 * fused multiply-add. */
static int fp_width(const ZydisDecodedInstruction *in, int *fma)
{
	const char *m = ZydisMnemonicGetString(in->mnemonic);
	size_t n;

	if (!m)
		return -1;
	if (m[0] == 'v')
		m++;
	n = strlen(m);
	/* packed (ps, pd) or scalar (ss, sd) single or double */
	if (n < 5 || (m[n - 2] != 'p' && m[n - 2] != 's') ||
	    (m[n - 1] != 's' && m[n - 1] != 'd') || !(*fma = fp_arith(m)))
		return -1;
	*fma = *fma == 2;
	if (m[n - 2] == 's')
		return 0;
	/* legacy SSE has no vector length: 128 */
	return in->avx.vector_length == 512 ? 3
	       : in->avx.vector_length == 256 ? 2 : 1;
}

static void scan_code(const ZydisDecoder *dec, const unsigned char *p,
		      size_t size, struct rl_code_isa *out)
{
	ZydisDecodedInstruction in;
	size_t off = 0;
	int fma = 0, w;

	while (off < size) {
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(
			    dec, NULL, p + off, size - off, &in))) {
			off++; /* data or padding: step over a byte */
			continue;
		}
		off += in.length;
		if ((w = fp_width(&in, &fma)) < 0)
			continue;
		out->n[w]++;
		out->n_fma[w] += fma != 0;
	}
}

int rl_elf_code_walk(const char *path, rl_code_section_fn fn, void *ctx,
		     char *err, size_t errlen)
{
	ZydisDecoder dec;
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	int fd, rc;

	if ((rc = rl_elf_file_open(path, &fd, &elf, err, errlen)) < 0)
		return rc;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64) {
		rc = rl_fail(err, errlen, RL_EFORMAT,
			     "'%s' is not an x86-64 ELF file", path);
		goto out;
	}
	if (!ZYAN_SUCCESS(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64,
					   ZYDIS_STACK_WIDTH_64))) {
		rc = rl_fail(err, errlen, RL_ENOTSUP,
			     "the x86 decoder (Zydis) would not start");
		goto out;
	}
	while (rc == 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(data = elf_getdata(scn, NULL)) || !data->d_buf)
			continue;
		rc = fn(ctx, &dec, elf, sh.sh_addr, data->d_buf, data->d_size);
	}
out:
	rl_elf_file_close(fd, elf);
	return rc;
}

static int isa_section(void *ctx, const ZydisDecoder *dec, Elf *elf,
		       uint64_t addr, const unsigned char *code, size_t size)
{
	(void)elf;
	(void)addr;
	scan_code(dec, code, size, ctx);
	return 0;
}

int rl_elf_code_isa(const char *path, struct rl_code_isa *out, char *err,
		    size_t errlen)
{
	static const unsigned bits[4] = {64, 128, 256, 512};
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = rl_elf_code_walk(path, isa_section, out, err, errlen)) < 0)
		return rc;
	for (int w = 3; w >= 0 && !out->widest_bits; w--)
		if (out->n[w]) {
			out->widest_bits = bits[w];
			out->widest_fma = out->n_fma[w] > 0;
		}
	return rc;
}

#endif
