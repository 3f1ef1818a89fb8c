/*
 * The known-answer kernels (see kat_kernels.h). Flops: four independent
 * chains of one intrinsic (an add, or an FMA counted 2) per precision and
 * width, compiled for that width alone (target attributes), the operands
 * read from volatiles so nothing is folded; nothing but the chains does
 * floating-point work between the counter reads. DRAM: an integer triad
 * a = b + c (no flops), write-allocating or with non-temporal stores,
 * between clflushes: every line comes from DRAM whatever the caches' size,
 * and the written lines are flushed back inside the measurement.
 */
#include "counters/selftest/kat_kernels.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define KAT_X86 1
#endif

#define KAT_ITER 20000 /* chain steps per flops kernel */
#define KAT_CHAINS 4
#define KAT_ARRAY_DEFAULT (1u << 20)

/* Integers: keeping the tally does no floating-point work, which the
 * flops counters would count between the reads around a kernel. */
static uint64_t truth[RL_COUNTER_COUNT];
static size_t array_bytes = KAT_ARRAY_DEFAULT; /* each DRAM array's */

void rl_kat_truth(double out[RL_COUNTER_COUNT])
{
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		out[c] = (double)truth[c];
}

#ifdef KAT_X86
static volatile double kat_xd = 0.9999999, kat_yd = 1e-7, kat_a0 = 0.5,
		       kat_a1 = 1.5, kat_a2 = 2.5, kat_a3 = 3.5;
/* where the chains end: outside this file's sight, so they are computed */
double rl_kat_sink_d[64] __attribute__((aligned(64)));
float rl_kat_sink_f[128] __attribute__((aligned(64)));

/* One flops kernel: KAT_CHAINS chains of STEP over KAT_ITER steps. */
#define KAT_FLOPS(NAME, TGT, VT, ET, SET1, STEP, STORE, SINK, W)              \
	__attribute__((target(TGT), noinline)) static void NAME(void)         \
	{                                                                     \
		VT x = SET1((ET)kat_xd), y = SET1((ET)kat_yd);                \
		VT a0 = SET1((ET)kat_a0), a1 = SET1((ET)kat_a1),              \
		   a2 = SET1((ET)kat_a2), a3 = SET1((ET)kat_a3);              \
		for (int i = 0; i < KAT_ITER; i++) {                          \
			a0 = STEP(a0);                                        \
			a1 = STEP(a1);                                        \
			a2 = STEP(a2);                                        \
			a3 = STEP(a3);                                        \
		}                                                             \
		STORE(SINK, a0);                                              \
		STORE(SINK + (W), a1);                                        \
		STORE(SINK + 2 * (W), a2);                                    \
		STORE(SINK + 3 * (W), a3);                                    \
		(void)x;                                                      \
	}

#define ADD_SD(a) _mm_add_sd(a, y)
#define FMA_SD(a) _mm_fmadd_sd(a, x, y)
#define ADD_SS(a) _mm_add_ss(a, y)
#define FMA_SS(a) _mm_fmadd_ss(a, x, y)
#define ADD_PD(a) _mm_add_pd(a, y)
#define FMA_PD(a) _mm_fmadd_pd(a, x, y)
#define ADD_PS(a) _mm_add_ps(a, y)
#define FMA_PS(a) _mm_fmadd_ps(a, x, y)
#define ADD_PD4(a) _mm256_add_pd(a, y)
#define FMA_PD4(a) _mm256_fmadd_pd(a, x, y)
#define ADD_PS8(a) _mm256_add_ps(a, y)
#define FMA_PS8(a) _mm256_fmadd_ps(a, x, y)
#define ADD_PD8(a) _mm512_add_pd(a, y)
#define FMA_PD8(a) _mm512_fmadd_pd(a, x, y)
#define ADD_PS16(a) _mm512_add_ps(a, y)
#define FMA_PS16(a) _mm512_fmadd_ps(a, x, y)

KAT_FLOPS(f64_s_add, "sse2", __m128d, double, _mm_set1_pd, ADD_SD, _mm_storeu_pd, rl_kat_sink_d, 2)
KAT_FLOPS(f64_s_fma, "fma", __m128d, double, _mm_set1_pd, FMA_SD, _mm_storeu_pd, rl_kat_sink_d, 2)
KAT_FLOPS(f32_s_add, "sse2", __m128, float, _mm_set1_ps, ADD_SS, _mm_storeu_ps, rl_kat_sink_f, 4)
KAT_FLOPS(f32_s_fma, "fma", __m128, float, _mm_set1_ps, FMA_SS, _mm_storeu_ps, rl_kat_sink_f, 4)
KAT_FLOPS(f64_128_add, "sse2", __m128d, double, _mm_set1_pd, ADD_PD, _mm_storeu_pd, rl_kat_sink_d, 2)
KAT_FLOPS(f64_128_fma, "fma", __m128d, double, _mm_set1_pd, FMA_PD, _mm_storeu_pd, rl_kat_sink_d, 2)
KAT_FLOPS(f32_128_add, "sse2", __m128, float, _mm_set1_ps, ADD_PS, _mm_storeu_ps, rl_kat_sink_f, 4)
KAT_FLOPS(f32_128_fma, "fma", __m128, float, _mm_set1_ps, FMA_PS, _mm_storeu_ps, rl_kat_sink_f, 4)
KAT_FLOPS(f64_256_add, "avx", __m256d, double, _mm256_set1_pd, ADD_PD4, _mm256_storeu_pd, rl_kat_sink_d, 4)
KAT_FLOPS(f64_256_fma, "avx,fma", __m256d, double, _mm256_set1_pd, FMA_PD4, _mm256_storeu_pd, rl_kat_sink_d, 4)
KAT_FLOPS(f32_256_add, "avx", __m256, float, _mm256_set1_ps, ADD_PS8, _mm256_storeu_ps, rl_kat_sink_f, 8)
KAT_FLOPS(f32_256_fma, "avx,fma", __m256, float, _mm256_set1_ps, FMA_PS8, _mm256_storeu_ps, rl_kat_sink_f, 8)
KAT_FLOPS(f64_512_add, "avx512f", __m512d, double, _mm512_set1_pd, ADD_PD8, _mm512_storeu_pd, rl_kat_sink_d, 8)
KAT_FLOPS(f64_512_fma, "avx512f", __m512d, double, _mm512_set1_pd, FMA_PD8, _mm512_storeu_pd, rl_kat_sink_d, 8)
KAT_FLOPS(f32_512_add, "avx512f", __m512, float, _mm512_set1_ps, ADD_PS16, _mm512_storeu_ps, rl_kat_sink_f, 16)
KAT_FLOPS(f32_512_fma, "avx512f", __m512, float, _mm512_set1_ps, FMA_PS16, _mm512_storeu_ps, rl_kat_sink_f, 16)

static void (*const flops_fn[16])(void) = {
	f64_s_add,   f64_s_fma,   f32_s_add,   f32_s_fma,
	f64_128_add, f64_128_fma, f32_128_add, f32_128_fma,
	f64_256_add, f64_256_fma, f32_256_add, f32_256_fma,
	f64_512_add, f64_512_fma, f32_512_add, f32_512_fma,
};
#endif

/* What one run of k does, per counter. */
static void does(const struct rl_kat_kernel *k, uint64_t did[])
{
	uint64_t flops = (uint64_t)KAT_ITER * KAT_CHAINS * k->lanes *
			 (k->fma ? 2 : 1),
		 b = array_bytes;

	if (k->counter >= 0) {
		did[k->counter] += flops;
		did[RL_C_FLOPS_ANY] += flops;
		if (k->fma)
			did[RL_C_FLOPS_FMA] += flops;
		return;
	}
	/* reads: b and c, and a's lines for ownership unless streamed */
	did[RL_C_DRAM_READ_BYTES] += b * (k->nontemporal ? 2 : 3);
	did[RL_C_DRAM_WRITE_BYTES] += b;
	did[RL_C_DRAM_BYTES] += b * (k->nontemporal ? 3 : 4);
}

/* ---- DRAM ---- */

static uint64_t *arr_a, *arr_b, *arr_c;

void rl_kat_set_array_bytes(size_t bytes)
{
	rl_kat_release();
	array_bytes = bytes ? bytes & ~(size_t)63 : KAT_ARRAY_DEFAULT;
}

void rl_kat_release(void)
{
	free(arr_a);
	free(arr_b);
	free(arr_c);
	arr_a = arr_b = arr_c = NULL;
}

static int arrays(void)
{
	if (arr_a)
		return 0;
	if (posix_memalign((void **)&arr_a, 64, array_bytes) ||
	    posix_memalign((void **)&arr_b, 64, array_bytes) ||
	    posix_memalign((void **)&arr_c, 64, array_bytes)) {
		rl_kat_release();
		return -1;
	}
	for (size_t i = 0; i < array_bytes / 8; i++) {
		arr_a[i] = 0;
		arr_b[i] = i;
		arr_c[i] = 3 * i;
	}
	return 0;
}

#ifdef KAT_X86
static void flush(const void *p)
{
	for (size_t off = 0; off < array_bytes; off += 64)
		_mm_clflush((const char *)p + off);
}

__attribute__((target("sse2"), noinline)) static void triad_nt(size_t n)
{
	for (size_t i = 0; i < n; i += 2) {
		__m128i b = _mm_load_si128((const __m128i *)&arr_b[i]);
		__m128i c = _mm_load_si128((const __m128i *)&arr_c[i]);
		_mm_stream_si128((__m128i *)&arr_a[i], _mm_add_epi64(b, c));
	}
	_mm_sfence();
}
#endif

__attribute__((noinline)) static void triad(size_t n)
{
	for (size_t i = 0; i < n; i++)
		arr_a[i] = arr_b[i] + arr_c[i];
}

/* The counted part: the triad and the write-back of what it wrote (the
 * flushes before the first read are rl_kat_dram_prepare's). */
static void run_dram(const struct rl_kat_kernel *k)
{
	size_t n = array_bytes / 8;

	if (!arr_a)
		return;
#ifdef KAT_X86
	if (k->nontemporal)
		triad_nt(n);
	else
		triad(n);
	flush(arr_a);
	_mm_mfence();
#else
	triad(n);
#endif
}

int rl_kat_dram_prepare(void)
{
	if (arrays() < 0)
		return -1;
#ifdef KAT_X86
	flush(arr_a);
	flush(arr_b);
	flush(arr_c);
	_mm_mfence();
#endif
	return 0;
}

void rl_kat_run(const struct rl_kat_kernel *k)
{
	if (k->counter >= 0) {
#ifdef KAT_X86
		flops_fn[k->index]();
#endif
	} else {
		if (!arr_a)
			return;
		run_dram(k);
	}
	does(k, truth);
}

void rl_kat_did(const struct rl_kat_kernel *k, double did[])
{
	uint64_t one[RL_COUNTER_COUNT] = {0};

	does(k, one);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		did[c] += (double)one[c];
}

static struct rl_kat_kernel table[18];
static size_t n_table;

const struct rl_kat_kernel *rl_kat_kernels(size_t *n)
{
	static const unsigned lanes_d[4] = {1, 2, 4, 8}, lanes_f[4] = {1, 4, 8, 16};
	static const char *const names[16] = {
		"f64 scalar add", "f64 scalar FMA", "f32 scalar add",
		"f32 scalar FMA", "f64 128-bit add", "f64 128-bit FMA",
		"f32 128-bit add", "f32 128-bit FMA", "f64 256-bit add",
		"f64 256-bit FMA", "f32 256-bit add", "f32 256-bit FMA",
		"f64 512-bit add", "f64 512-bit FMA", "f32 512-bit add",
		"f32 512-bit FMA"};

	if (!n_table) {
		for (int i = 0; i < 16; i++) {
			struct rl_kat_kernel *k = &table[n_table++];
			int w = i / 4, f32 = (i / 2) % 2, fma = i % 2;
			k->name = names[i];
			k->index = i;
			k->fma = fma;
			k->counter = (f32 ? RL_C_FLOPS_F32_SCALAR
					  : RL_C_FLOPS_F64_SCALAR) + w;
			k->lanes = f32 ? lanes_f[w] : lanes_d[w];
#ifdef KAT_X86
			__builtin_cpu_init();
			k->runs_here =
				w == 3	 ? __builtin_cpu_supports("avx512f")
				: fma	 ? __builtin_cpu_supports("fma")
				: w == 2 ? __builtin_cpu_supports("avx")
					 : 1;
#endif
		}
		for (int nt = 0; nt < 2; nt++) {
			struct rl_kat_kernel *k = &table[n_table++];
			k->name = nt ? "DRAM triad, non-temporal stores"
				     : "DRAM triad, write-allocating";
			k->counter = -1;
			k->nontemporal = nt;
			k->index = 16 + nt;
#ifdef KAT_X86
			k->runs_here = true;
#else
			k->runs_here = !nt;
#endif
		}
	}
	*n = n_table;
	return table;
}

double rl_kat_run_alone(void)
{
	struct timespec t0, t1;
	const struct rl_kat_kernel *ks;
	size_t n;

	ks = rl_kat_kernels(&n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < n; i++) {
		if (!ks[i].runs_here)
			continue;
		for (int t = 0; t < (ks[i].counter < 0 ? RL_KAT_DRAM_TRIES : 1); t++) {
			if (ks[i].counter < 0 && rl_kat_dram_prepare() < 0)
				break;
			rl_kat_run(&ks[i]);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rl_kat_release();
	return (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}
