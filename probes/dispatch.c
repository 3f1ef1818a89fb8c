/* Run-time choice of the ISA-specific kernels: a kernel is handed out
 * only when CPUID (and the OS's XSAVE state) says it can run. */
#include <cpuid.h>
#include <string.h>

#include "probes/probe.h"

void rl_triad_avx512(double *restrict, const double *restrict,
		     const double *restrict, double, size_t);
void rl_triad_avx512_nt(double *restrict, const double *restrict,
			const double *restrict, double, size_t);
void rl_triad_avx2(double *restrict, const double *restrict,
		   const double *restrict, double, size_t);
void rl_triad_avx2_nt(double *restrict, const double *restrict,
		      const double *restrict, double, size_t);
void rl_triad_sse2(double *restrict, const double *restrict,
		   const double *restrict, double, size_t);
void rl_triad_sse2_nt(double *restrict, const double *restrict,
		      const double *restrict, double, size_t);
void rl_triad_scalar(double *restrict, const double *restrict,
		     const double *restrict, double, size_t);
double rl_read_avx512(double *restrict, double *restrict, double *restrict,
		      double, size_t);
double rl_fill_avx512(double *restrict, double *restrict, double *restrict,
		      double, size_t);
double rl_fill_avx512_nt(double *restrict, double *restrict,
			 double *restrict, double, size_t);
double rl_read_avx2(double *restrict, double *restrict, double *restrict,
		    double, size_t);
double rl_fill_avx2(double *restrict, double *restrict, double *restrict,
		    double, size_t);
double rl_fill_avx2_nt(double *restrict, double *restrict, double *restrict,
		       double, size_t);
double rl_read_sse2(double *restrict, double *restrict, double *restrict,
		    double, size_t);
double rl_fill_sse2(double *restrict, double *restrict, double *restrict,
		    double, size_t);
double rl_fill_sse2_nt(double *restrict, double *restrict, double *restrict,
		       double, size_t);
double rl_read_scalar(double *restrict, double *restrict, double *restrict,
		      double, size_t);
double rl_fill_scalar(double *restrict, double *restrict, double *restrict,
		      double, size_t);
double rl_update_avx512(double *restrict, double *restrict,
			double *restrict, double, size_t);
double rl_update_avx2(double *restrict, double *restrict, double *restrict,
		      double, size_t);
double rl_update_sse2(double *restrict, double *restrict, double *restrict,
		      double, size_t);
double rl_update_scalar(double *restrict, double *restrict,
			double *restrict, double, size_t);
/* the read over 1, 2 and 4 streams (read_streams.h) */
#define READ_STREAMS(isa)                                                    \
	double rl_read_##isa##_s1(double *restrict, double *restrict,        \
				  double *restrict, double, size_t);         \
	double rl_read_##isa##_s2(double *restrict, double *restrict,        \
				  double *restrict, double, size_t);         \
	double rl_read_##isa##_s4(double *restrict, double *restrict,        \
				  double *restrict, double, size_t);
READ_STREAMS(avx512)
READ_STREAMS(avx2)
READ_STREAMS(sse2)
rl_chain_fn rl_chain_avx512(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_avx2(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_sse2(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_scalar(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_scalar_fma(int f32, unsigned chains);
rl_chain_fn rl_chain_sse_fma(int f32, unsigned chains);
rl_chain_fn rl_chain_avx2_mad(int f32, unsigned chains);
rl_chain_fn rl_chain_avx512_mad(int f32, unsigned chains);
rl_chain_fn rl_chain_mul_scalar(int f32);
rl_chain_fn rl_chain_mul_sse2(int f32);
rl_chain_fn rl_chain_mul_avx2(int f32);
rl_chain_fn rl_chain_mul_avx512(int f32);
rl_load_kernel_fn rl_load_avx512(int f32, unsigned *chains);
rl_load_kernel_fn rl_load_avx2(int f32, unsigned *chains);

static const char *const isa_names[RL_ISA_COUNT] = {
	"scalar", "sse2", "avx2-fma", "avx512-fma"
};

const char *rl_isa_name(enum rl_isa isa)
{
	return (unsigned)isa < RL_ISA_COUNT ? isa_names[isa] : "?";
}

unsigned rl_isa_lanes(enum rl_isa isa, int f32)
{
	static const unsigned f64_lanes[RL_ISA_COUNT] = { 1, 2, 4, 8 };
	if ((unsigned)isa >= RL_ISA_COUNT)
		return 0;
	if (isa == RL_ISA_SCALAR)
		return 1;
	return f64_lanes[isa] * (f32 ? 2 : 1);
}

int rl_isa_usable(const struct rl_cpu *cpu, enum rl_isa isa)
{
	switch (isa) {
	case RL_ISA_SCALAR:
		return 1;
	case RL_ISA_SSE2:
		return cpu->sse2;
	case RL_ISA_AVX2:
		return cpu->avx2 && cpu->fma;
	case RL_ISA_AVX512:
		return cpu->avx512f && cpu->fma;
	default:
		return 0;
	}
}

int rl_isa_has_fma(const struct rl_cpu *cpu, enum rl_isa isa)
{
	if (isa == RL_ISA_SCALAR)
		return cpu->fma;
	return isa == RL_ISA_AVX2 || isa == RL_ISA_AVX512;
}

/* Feature flags only (CPUID, no files read). */
static const struct rl_cpu *features(struct rl_cpu *cpu)
{
	memset(cpu, 0, sizeof *cpu);
	rl_cpu_features(cpu);
	return cpu;
}

rl_triad_fn rl_triad_kernel(enum rl_isa isa, int nt)
{
	struct rl_cpu cpu;
	if (!rl_isa_usable(features(&cpu), isa))
		return NULL;
	switch (isa) {
	case RL_ISA_AVX512:
		return nt ? rl_triad_avx512_nt : rl_triad_avx512;
	case RL_ISA_AVX2:
		return nt ? rl_triad_avx2_nt : rl_triad_avx2;
	case RL_ISA_SSE2:
		return nt ? rl_triad_sse2_nt : rl_triad_sse2;
	case RL_ISA_SCALAR:
		return nt ? NULL : rl_triad_scalar;
	default:
		return NULL;
	}
}

const char *rl_stream_op_name(enum rl_stream_op op)
{
	return op == RL_OP_READ     ? "read"
	       : op == RL_OP_FILL   ? "fill"
	       : op == RL_OP_UPDATE ? "update"
				    : "triad";
}

rl_rw_fn rl_rw_kernel(enum rl_isa isa, enum rl_stream_op op, int nt)
{
	struct rl_cpu cpu;
	if (op == RL_OP_TRIAD || !rl_isa_usable(features(&cpu), isa))
		return NULL;
	int rd = op == RL_OP_READ;
	if (op == RL_OP_UPDATE) {
		if (nt)
			return NULL;
		return isa == RL_ISA_AVX512 ? rl_update_avx512
		       : isa == RL_ISA_AVX2 ? rl_update_avx2
		       : isa == RL_ISA_SSE2 ? rl_update_sse2
		       : isa == RL_ISA_SCALAR ? rl_update_scalar
					      : NULL;
	}
	switch (isa) {
	case RL_ISA_AVX512:
		return rd ? (nt ? NULL : rl_read_avx512)
			  : nt ? rl_fill_avx512_nt : rl_fill_avx512;
	case RL_ISA_AVX2:
		return rd ? (nt ? NULL : rl_read_avx2)
			  : nt ? rl_fill_avx2_nt : rl_fill_avx2;
	case RL_ISA_SSE2:
		return rd ? (nt ? NULL : rl_read_sse2)
			  : nt ? rl_fill_sse2_nt : rl_fill_sse2;
	case RL_ISA_SCALAR:
		return nt ? NULL : rd ? rl_read_scalar : rl_fill_scalar;
	default:
		return NULL;
	}
}

rl_rw_fn rl_read_kernel(enum rl_isa isa, unsigned streams)
{
	struct rl_cpu cpu;
	if (streams == 3)
		return rl_rw_kernel(isa, RL_OP_READ, 0);
	if (!rl_isa_usable(features(&cpu), isa))
		return NULL;
	static const rl_rw_fn k[][3] = {
		[RL_ISA_AVX512] = { rl_read_avx512_s1, rl_read_avx512_s2,
				    rl_read_avx512_s4 },
		[RL_ISA_AVX2] = { rl_read_avx2_s1, rl_read_avx2_s2,
				  rl_read_avx2_s4 },
		[RL_ISA_SSE2] = { rl_read_sse2_s1, rl_read_sse2_s2,
				  rl_read_sse2_s4 },
	};
	int i = streams == 1 ? 0 : streams == 2 ? 1 : streams == 4 ? 2 : -1;
	if (i < 0 || (unsigned)isa >= sizeof k / sizeof k[0])
		return NULL;
	return k[isa][i];
}

rl_chain_fn rl_chain_kernel(enum rl_isa isa, int f32, int add_only,
			    unsigned chains)
{
	struct rl_cpu cpu;
	if (!rl_isa_usable(features(&cpu), isa))
		return NULL;
	switch (isa) {
	case RL_ISA_AVX512:
		return rl_chain_avx512(f32, add_only, chains);
	case RL_ISA_AVX2:
		return rl_chain_avx2(f32, add_only, chains);
	case RL_ISA_SSE2:
		return rl_chain_sse2(f32, add_only, chains);
	case RL_ISA_SCALAR:
		if (cpu.fma && !add_only)
			return rl_chain_scalar_fma(f32, chains);
		return rl_chain_scalar(f32, add_only, chains);
	default:
		return NULL;
	}
}

rl_chain_fn rl_chain_kernel_op(enum rl_isa isa, enum rl_chain_op op,
			       int f32, int add_only, unsigned chains)
{
	struct rl_cpu cpu;
	if (op == RL_CHAIN_OWN || add_only)
		return rl_chain_kernel(isa, f32, add_only, chains);
	if (!rl_isa_usable(features(&cpu), isa))
		return NULL;
	if (op == RL_CHAIN_FMA && !cpu.fma)
		return NULL;
	if (op == RL_CHAIN_MUL) {
		if (chains != 1)
			return NULL;
		switch (isa) {
		case RL_ISA_AVX512: return rl_chain_mul_avx512(f32);
		case RL_ISA_AVX2: return rl_chain_mul_avx2(f32);
		case RL_ISA_SSE2: return rl_chain_mul_sse2(f32);
		case RL_ISA_SCALAR: return rl_chain_mul_scalar(f32);
		default: return NULL;
		}
	}
	switch (isa) {
	case RL_ISA_AVX512:
		return op == RL_CHAIN_FMA ? rl_chain_avx512(f32, 0, chains)
					  : rl_chain_avx512_mad(f32, chains);
	case RL_ISA_AVX2:
		return op == RL_CHAIN_FMA ? rl_chain_avx2(f32, 0, chains)
					  : rl_chain_avx2_mad(f32, chains);
	case RL_ISA_SSE2:
		return op == RL_CHAIN_FMA ? rl_chain_sse_fma(f32, chains)
					  : rl_chain_sse2(f32, 0, chains);
	case RL_ISA_SCALAR:
		return op == RL_CHAIN_FMA ? rl_chain_scalar_fma(f32, chains)
					  : rl_chain_scalar(f32, 0, chains);
	default:
		return NULL;
	}
}

const char *rl_ceiling_name(enum rl_isa isa, int fma)
{
	static const char *const names[RL_ISA_COUNT][2] = {
		{ "scalar", "scalar-fma" }, { "sse2", "sse-fma" },
		{ "avx2", "avx2-fma" },     { "avx512", "avx512-fma" },
	};
	return (unsigned)isa < RL_ISA_COUNT ? names[isa][fma != 0] : "?";
}

unsigned rl_isa_width_bits(enum rl_isa isa)
{
	static const unsigned w[RL_ISA_COUNT] = { 64, 128, 256, 512 };
	return (unsigned)isa < RL_ISA_COUNT ? w[isa] : 0;
}

double rl_chain_flops_per_step(enum rl_isa isa, int f32, int add_only)
{
	return (double)rl_isa_lanes(isa, f32) * (add_only ? 1 : 2);
}

rl_load_kernel_fn rl_load_kernel(enum rl_isa isa, int f32, unsigned *chains)
{
	struct rl_cpu cpu;
	unsigned ignored;
	if (!chains)
		chains = &ignored;
	*chains = 0;
	if (!rl_isa_usable(features(&cpu), isa))
		return NULL;
	if (isa == RL_ISA_AVX512)
		return rl_load_avx512(f32, chains);
	if (isa == RL_ISA_AVX2)
		return rl_load_avx2(f32, chains);
	return NULL;
}
