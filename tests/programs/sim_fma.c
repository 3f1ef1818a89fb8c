/* SPDX-License-Identifier: MIT */
/*
 * FMA results and counts for the simulated PMU (tests/counters/sim/test_sim_fma.c).
 *
 * Prints, one line per case, the bits of FMA results (vfmadd, vfmsub,
 * vfnmadd, vfnmsub, vfmaddsub, vfmsubadd; scalar, 128 and 256 bits; f64
 * and f32) on operands
 * where the fused result differs from a multiply then an add, plus
 * special values (signed zeros, subnormals, infinities, overflow), then a
 * hash of 4096 pseudo-random cases per kind, then chains of FMAs whose
 * results feed the next ones in registers, then FMAs with a memory
 * operand and a result kept in its register that feeds the next FMA.
 * The test runs it natively and under the simulator and compares the
 * output: bit-identical or not.
 * Each handpicked line ends in "fused!=unfused" when that case tells the
 * two apart natively.
 *
 * Then regions with a known number of FMA lanes (RL_REGION_EXPECT gives
 * their flops, all FMA): fma_f64_scalar, fma_f64_128, fma_f64_256,
 * fma_f32_scalar, fma_f32_128, fma_f32_256, and mul_add (a multiply and
 * an add, no FMA).
 *
 * usage: sim_fma [N]   (N FMA instructions per region, default 1000)
 */
#include <immintrin.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rlprof.h"

#define FMA __attribute__((target("avx2,fma"), noinline))
#define BARRIER() __asm__ volatile("" ::: "memory")

static uint64_t bits64(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static uint32_t bits32(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

/* the four FMA kinds on 4 lanes of f64 at the given width (1, 2, 4) */
FMA static void fma64(int kind, int lanes, const double *a, const double *b,
		      const double *c, double *r)
{
	if (lanes == 4) {
		__m256d x = _mm256_loadu_pd(a), y = _mm256_loadu_pd(b),
			z = _mm256_loadu_pd(c), v;
		v = kind == 0 ? _mm256_fmadd_pd(x, y, z)
		  : kind == 1 ? _mm256_fmsub_pd(x, y, z)
		  : kind == 2 ? _mm256_fnmadd_pd(x, y, z)
		  : kind == 3 ? _mm256_fnmsub_pd(x, y, z)
		  : kind == 4 ? _mm256_fmaddsub_pd(x, y, z)
			      : _mm256_fmsubadd_pd(x, y, z);
		_mm256_storeu_pd(r, v);
		return;
	}
	for (int k = 0; k < 4; k += lanes) {
		__m128d x = _mm_loadu_pd(a + k), y = _mm_loadu_pd(b + k),
			z = _mm_loadu_pd(c + k), v;
		if (lanes == 2)
			v = kind == 0 ? _mm_fmadd_pd(x, y, z)
			  : kind == 1 ? _mm_fmsub_pd(x, y, z)
			  : kind == 2 ? _mm_fnmadd_pd(x, y, z)
			  : kind == 3 ? _mm_fnmsub_pd(x, y, z)
			  : kind == 4 ? _mm_fmaddsub_pd(x, y, z)
				      : _mm_fmsubadd_pd(x, y, z);
		else
			v = kind == 0 || kind == 4 ? _mm_fmadd_sd(x, y, z)
			  : kind == 1 || kind == 5 ? _mm_fmsub_sd(x, y, z)
			  : kind == 2 ? _mm_fnmadd_sd(x, y, z)
				      : _mm_fnmsub_sd(x, y, z);
		if (lanes == 2)
			_mm_storeu_pd(r + k, v);
		else
			_mm_store_sd(r + k, v);
	}
}

/* the same on 8 lanes of f32 at width 1, 4, 8 */
FMA static void fma32(int kind, int lanes, const float *a, const float *b,
		      const float *c, float *r)
{
	if (lanes == 8) {
		__m256 x = _mm256_loadu_ps(a), y = _mm256_loadu_ps(b),
		       z = _mm256_loadu_ps(c), v;
		v = kind == 0 ? _mm256_fmadd_ps(x, y, z)
		  : kind == 1 ? _mm256_fmsub_ps(x, y, z)
		  : kind == 2 ? _mm256_fnmadd_ps(x, y, z)
		  : kind == 3 ? _mm256_fnmsub_ps(x, y, z)
		  : kind == 4 ? _mm256_fmaddsub_ps(x, y, z)
			      : _mm256_fmsubadd_ps(x, y, z);
		_mm256_storeu_ps(r, v);
		return;
	}
	for (int k = 0; k < 8; k += lanes) {
		__m128 x = _mm_loadu_ps(a + k), y = _mm_loadu_ps(b + k),
		       z = _mm_loadu_ps(c + k), v;
		if (lanes == 4)
			v = kind == 0 ? _mm_fmadd_ps(x, y, z)
			  : kind == 1 ? _mm_fmsub_ps(x, y, z)
			  : kind == 2 ? _mm_fnmadd_ps(x, y, z)
			  : kind == 3 ? _mm_fnmsub_ps(x, y, z)
			  : kind == 4 ? _mm_fmaddsub_ps(x, y, z)
				      : _mm_fmsubadd_ps(x, y, z);
		else
			v = kind == 0 || kind == 4 ? _mm_fmadd_ss(x, y, z)
			  : kind == 1 || kind == 5 ? _mm_fmsub_ss(x, y, z)
			  : kind == 2 ? _mm_fnmadd_ss(x, y, z)
				      : _mm_fnmsub_ss(x, y, z);
		if (lanes == 4)
			_mm_storeu_ps(r + k, v);
		else
			_mm_store_ss(r + k, v);
	}
}

/* a*b+c as a multiply then an add, each rounded (the volatile product
 * and the missing FMA target keep them apart) */
__attribute__((noinline))
static double unfused64(double a, double b, double c)
{
	volatile double p = a * b;
	return p + c;
}

__attribute__((noinline))
static float unfused32(float a, float b, float c)
{
	volatile float p = a * b;
	return p + c;
}

static const char *const kind_name[] = {"fmadd", "fmsub", "fnmadd", "fnmsub",
					"fmaddsub", "fmsubadd"};
#define NKIND 6 /* fmaddsub/fmsubadd: vector forms only (scalar: fmadd/fmsub) */

/* handpicked f64 cases: a, b, c */
static const double case64[][3] = {
	{1.0 + 0x1p-30, 1.0 - 0x1p-30, -1.0},     /* fused -2^-60, unfused 0 */
	{1.0 + 0x1p-52, 1.0 + 0x1p-52, -1.0},     /* product's low bits */
	{0x1.fffffffffffffp-1, 0x1.0000000000001p0, -1.0},
	{3.0, 1.0 / 3.0, -1.0},                    /* -2^-54 vs 0 */
	{0x1p-1022, 0x1p-30, 0x1p-1060},           /* subnormal result */
	{0x1p1023, 2.0, -0x1p1023},                /* no overflow inside */
	{0.1, 10.0, -1.0},
	{-0.0, 1.0, 0.0},                          /* signed zeros */
	{1.0 / 0.0, 0.0, 1.0},                     /* inf * 0: NaN */
	{1.0 + 0x1p-27, 1.0 + 0x1p-27, -(1.0 + 0x1p-26)}, /* tie-ish */
	{2.0, 3.0, 6.0},                           /* a*b - c = +0 exactly */
	{2.0, 3.0, -6.0},                          /* a*b + c = +0 exactly */
	{__builtin_nan("0x5"), 2.0, 1.0},          /* NaN operands */
	{1.0, 2.0, -__builtin_nan("0x7")},
};

static const float case32[][3] = {
	{1.0f + 0x1p-13f, 1.0f - 0x1p-13f, -1.0f},
	{1.0f + 0x1p-23f, 1.0f + 0x1p-23f, -1.0f},
	{3.0f, 1.0f / 3.0f, -1.0f},
	{0x1p-126f, 0x1p-10f, 0x1p-140f},
	{0x1p127f, 2.0f, -0x1p127f},
	{0.1f, 10.0f, -1.0f},
	{-0.0f, 1.0f, 0.0f},
	{1.0f + 0x1p-12f, 1.0f + 0x1p-12f, -(1.0f + 0x1p-11f)},
	{2.0f, 3.0f, 6.0f},
	{2.0f, 3.0f, -6.0f},
	{1.0f / 0.0f, 0.0f, 1.0f},
	{-__builtin_nanf("0x5"), 2.0f, 1.0f},
	{1.0f, 2.0f, __builtin_nanf("0x7")},
};

#define NCASE64 (sizeof case64 / sizeof case64[0])
#define NCASE32 (sizeof case32 / sizeof case32[0])

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a value with random mantissa bits and an exponent near 0 */
static double rand64(void)
{
	uint64_t u = next();
	u = (u & 0x800fffffffffffffu) | ((uint64_t)(1023 - 4 + (next() & 7)) << 52);
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3u;
}

/* Chains: each FMA's result is the next one's operand, in registers, in
 * straight-line code (a simulator may keep a result between instructions
 * of one block instead of writing it back): Horner-like steps of every
 * kind on 4 and 2 lanes of f64, 8 and 4 of f32. */
FMA static void chain64(const double *x, const double *k, double *r)
{
	__m256d v = _mm256_loadu_pd(x), acc = _mm256_set1_pd(k[1]);
	__m128d v2 = _mm_loadu_pd(x), acc2 = _mm_set1_pd(k[2]);
	acc = _mm256_fmadd_pd(acc, v, _mm256_set1_pd(k[3]));
	acc2 = _mm_fmadd_pd(acc2, v2, _mm_set1_pd(k[3]));
	acc = _mm256_fmsub_pd(acc, v, _mm256_set1_pd(k[4]));
	acc2 = _mm_fnmadd_pd(v2, acc2, _mm_set1_pd(k[4]));
	acc = _mm256_fnmadd_pd(v, acc, _mm256_set1_pd(k[5]));
	acc2 = _mm_fmsub_pd(acc2, acc2, _mm_set1_pd(k[5]));
	acc = _mm256_fnmsub_pd(acc, v, acc);
	acc2 = _mm_fnmsub_pd(v2, acc2, acc2);
	acc = _mm256_fmadd_pd(acc, acc, v);
	acc = _mm256_fmadd_pd(v, acc, _mm256_set1_pd(k[6]));
	_mm256_storeu_pd(r, acc);
	_mm_storeu_pd(r + 4, acc2);
}

FMA static void chain32(const float *x, const float *k, float *r)
{
	__m256 v = _mm256_loadu_ps(x), acc = _mm256_set1_ps(k[1]);
	__m128 v4 = _mm_loadu_ps(x), acc4 = _mm_set1_ps(k[2]);
	acc = _mm256_fmadd_ps(acc, v, _mm256_set1_ps(k[3]));
	acc4 = _mm_fmadd_ps(acc4, v4, _mm_set1_ps(k[3]));
	acc = _mm256_fmsub_ps(acc, v, _mm256_set1_ps(k[4]));
	acc4 = _mm_fnmadd_ps(v4, acc4, _mm_set1_ps(k[4]));
	acc = _mm256_fnmadd_ps(v, acc, _mm256_set1_ps(k[5]));
	acc4 = _mm_fmsub_ps(acc4, acc4, _mm_set1_ps(k[5]));
	acc = _mm256_fnmsub_ps(acc, v, acc);
	acc4 = _mm_fnmsub_ps(v4, acc4, acc4);
	acc = _mm256_fmadd_ps(acc, acc, v);
	acc = _mm256_fmadd_ps(v, acc, _mm256_set1_ps(k[6]));
	_mm256_storeu_ps(r, acc);
	_mm_storeu_ps(r + 8, acc4);
}

static void chains(void)
{
	uint64_t h64 = 0xcbf29ce484222325u, h32 = h64;
	for (int i = 0; i < 512; i++) {
		double x[4], k[8], r[6];
		float xf[8], kf[8], rf[12];
		for (int j = 0; j < 4; j++)
			x[j] = rand64();
		for (int j = 0; j < 8; j++)
			k[j] = rand64(), xf[j] = (float)rand64(),
			kf[j] = (float)rand64();
		chain64(x, k, r);
		chain32(xf, kf, rf);
		for (int j = 0; j < 6; j++)
			h64 = mix(h64, bits64(r[j]));
		for (int j = 0; j < 12; j++)
			h32 = mix(h32, bits32(rf[j]));
		if (i < 2) {
			printf("chain f64 %d:", i);
			for (int j = 0; j < 6; j++)
				printf(" %016" PRIx64, bits64(r[j]));
			printf("\nchain f32 %d:", i);
			for (int j = 0; j < 12; j++)
				printf(" %08" PRIx32, bits32(rf[j]));
			printf("\n");
		}
	}
	printf("chains: f64 hash %016" PRIx64 ", f32 hash %016" PRIx64 "\n",
	       h64, h32);
}

/* Memory operands: FMAs that read one operand from memory (the
 * multiplicand in the 231 and 132 forms, the addend in 213), every kind,
 * f64 and f32, 128 and 256 bits; a simulator may load such an operand
 * again, as one vector. */
#define FMA_MEM(INSN, ACC, V, P, T)                                          \
	__asm__(INSN " %[m], %[v], %[a]"                                      \
		: [a] "+x"(ACC) : [v] "x"(V), [m] "m"(*(const T *)(P)))
FMA static void mem64(const double *x, const double *m, double *r)
{
	__m256d v = _mm256_loadu_pd(x), acc = _mm256_loadu_pd(m + 8);
	__m128d v2 = _mm_loadu_pd(x + 4), acc2 = _mm_loadu_pd(m + 12);
	FMA_MEM("vfmadd231pd", acc, v, m, __m256d);
	FMA_MEM("vfmsub213pd", acc, v, m + 1, __m256d);
	FMA_MEM("vfnmadd132pd", acc, v, m + 2, __m256d);
	FMA_MEM("vfnmsub213pd", acc, v, m + 3, __m256d);
	FMA_MEM("vfmadd213pd", acc2, v2, m + 4, __m128d);
	FMA_MEM("vfmsub231pd", acc2, v2, m + 5, __m128d);
	FMA_MEM("vfnmadd213pd", acc2, v2, m + 6, __m128d);
	FMA_MEM("vfnmsub132pd", acc2, v2, m + 2, __m128d);
	_mm256_storeu_pd(r, acc);
	_mm_storeu_pd(r + 4, acc2);
}

FMA static void mem32(const float *x, const float *m, float *r)
{
	__m256 v = _mm256_loadu_ps(x), acc = _mm256_loadu_ps(m + 8);
	__m128 v4 = _mm_loadu_ps(x + 8), acc4 = _mm_loadu_ps(m + 16);
	FMA_MEM("vfmadd231ps", acc, v, m, __m256);
	FMA_MEM("vfmsub213ps", acc, v, m + 1, __m256);
	FMA_MEM("vfnmadd132ps", acc, v, m + 2, __m256);
	FMA_MEM("vfnmsub213ps", acc, v, m + 3, __m256);
	FMA_MEM("vfmadd213ps", acc4, v4, m + 4, __m128);
	FMA_MEM("vfmsub231ps", acc4, v4, m + 5, __m128);
	FMA_MEM("vfnmadd213ps", acc4, v4, m + 6, __m128);
	FMA_MEM("vfnmsub132ps", acc4, v4, m + 2, __m128);
	_mm256_storeu_ps(r, acc);
	_mm_storeu_ps(r + 8, acc4);
}

/* A result that stays in its register (its value is used after the
 * block) and feeds the next FMA of the block: a simulator may read it
 * where the first FMA wrote it. */
FMA static void kept64(const double *x, double *r)
{
	__m256d a = _mm256_loadu_pd(x), b = _mm256_loadu_pd(x + 4);
	__m256d c = _mm256_loadu_pd(x + 8), d = _mm256_loadu_pd(x + 12);
	__asm__("vfmadd231pd %[b], %[a], %[c]\n\t"
		"vfnmsub231pd %[c], %[a], %[d]"
		: [c] "+x"(c), [d] "+x"(d) : [a] "x"(a), [b] "x"(b));
	_mm256_storeu_pd(r, c);
	_mm256_storeu_pd(r + 4, d);
}

static void memory_operands(void)
{
	uint64_t h64 = 0xcbf29ce484222325u, h32 = h64;
	for (int i = 0; i < 512; i++) {
		double x[6], m[14], r[6];
		float xf[12], mf[20], rf[12];
		for (int j = 0; j < 6; j++)
			x[j] = rand64();
		for (int j = 0; j < 14; j++)
			m[j] = rand64();
		for (int j = 0; j < 12; j++)
			xf[j] = (float)rand64();
		for (int j = 0; j < 20; j++)
			mf[j] = (float)rand64();
		mem64(x, m, r);
		mem32(xf, mf, rf);
		for (int j = 0; j < 6; j++)
			h64 = mix(h64, bits64(r[j]));
		double kx[16], kr[8];
		for (int j = 0; j < 16; j++)
			kx[j] = rand64();
		kept64(kx, kr);
		for (int j = 0; j < 8; j++)
			h64 = mix(h64, bits64(kr[j]));
		for (int j = 0; j < 12; j++)
			h32 = mix(h32, bits32(rf[j]));
	}
	printf("memory operands, kept results: f64 hash %016" PRIx64
	       ", f32 hash %016" PRIx64 "\n", h64, h32);
}

static void results(void)
{
	static const int w64[] = {1, 2, 4}, w32[] = {1, 4, 8};
	for (int kind = 0; kind < NKIND; kind++)
		for (int wi = 0; wi < 3; wi++) {
			for (size_t i = 0; i < NCASE64; i++) {
				double a[4], b[4], c[4], r[4];
				for (int k = 0; k < 4; k++)
					a[k] = case64[i][0], b[k] = case64[i][1],
					c[k] = case64[i][2];
				fma64(kind, w64[wi], a, b, c, r);
				double u = unfused64(a[0], b[0], c[0]);
				int differ = kind == 0 && bits64(u) != bits64(r[0]);
				printf("f64 %s/%d case %zu:", kind_name[kind], w64[wi], i);
				for (int k = 0; k < 4; k++)
					printf(" %016" PRIx64, bits64(r[k]));
				printf("%s\n", differ ? " fused!=unfused" : "");
			}
			for (size_t i = 0; i < NCASE32; i++) {
				float a[8], b[8], c[8], r[8];
				for (int k = 0; k < 8; k++)
					a[k] = case32[i][0], b[k] = case32[i][1],
					c[k] = case32[i][2];
				fma32(kind, w32[wi], a, b, c, r);
				float u = unfused32(a[0], b[0], c[0]);
				int differ = kind == 0 && bits32(u) != bits32(r[0]);
				printf("f32 %s/%d case %zu:", kind_name[kind], w32[wi], i);
				for (int k = 0; k < 8; k++)
					printf(" %08" PRIx32, bits32(r[k]));
				printf("%s\n", differ ? " fused!=unfused" : "");
			}
		}
	/* random operands: a hash of all results and how many of them differ
	 * from the unfused computation */
	for (int kind = 0; kind < NKIND; kind++)
		for (int wi = 0; wi < 3; wi++) {
			uint64_t h64 = 0xcbf29ce484222325u, h32 = h64;
			int d64 = 0, d32 = 0;
			for (int i = 0; i < 1024; i++) {
				double a[4], b[4], c[4], r[4];
				float af[8], bf[8], cf[8], rf[8];
				for (int k = 0; k < 4; k++)
					a[k] = rand64(), b[k] = rand64(),
					c[k] = -a[k] * b[k] * (1.0 + 0x1p-20 * (double)(next() & 15));
				for (int k = 0; k < 8; k++)
					af[k] = (float)rand64(), bf[k] = (float)rand64(),
					cf[k] = -af[k] * bf[k];
				fma64(kind, w64[wi], a, b, c, r);
				fma32(kind, w32[wi], af, bf, cf, rf);
				for (int k = 0; k < 4; k++) {
					h64 = mix(h64, bits64(r[k]));
					d64 += kind == 0 && bits64(r[k]) !=
						bits64(unfused64(a[k], b[k], c[k]));
				}
				for (int k = 0; k < 8; k++) {
					h32 = mix(h32, bits32(rf[k]));
					d32 += kind == 0 && bits32(rf[k]) !=
						bits32(unfused32(af[k], bf[k], cf[k]));
				}
			}
			printf("random %s/%d: f64 hash %016" PRIx64 " (%d differ "
			       "from unfused), f32 hash %016" PRIx64
			       " (%d differ from unfused)\n",
			       kind_name[kind], w64[wi], h64, d64, h32, d32);
		}
}

static double x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static float xf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static volatile double sink;
static volatile float sinkf;

/* n FMA instructions at each width; an asm barrier per iteration keeps
 * the compiler from merging or vectorising them */
FMA static void count_f64(int lanes, long n)
{
	__m256d a4 = _mm256_set1_pd(0.5), acc4 = _mm256_loadu_pd(x);
	__m128d a2 = _mm_set1_pd(0.5), acc2 = _mm_loadu_pd(x);
	for (long i = 0; i < n; i++) {
		if (lanes == 4)
			acc4 = _mm256_fmadd_pd(a4, acc4, a4);
		else if (lanes == 2)
			acc2 = _mm_fmadd_pd(a2, acc2, a2);
		else
			acc2 = _mm_fmadd_sd(a2, acc2, a2);
		BARRIER();
	}
	_mm256_storeu_pd(x, acc4);
	sink = _mm_cvtsd_f64(acc2);
}

FMA static void count_f32(int lanes, long n)
{
	__m256 a8 = _mm256_set1_ps(0.5f), acc8 = _mm256_loadu_ps(xf);
	__m128 a4 = _mm_set1_ps(0.5f), acc4 = _mm_loadu_ps(xf);
	for (long i = 0; i < n; i++) {
		if (lanes == 8)
			acc8 = _mm256_fmadd_ps(a8, acc8, a8);
		else if (lanes == 4)
			acc4 = _mm_fmadd_ps(a4, acc4, a4);
		else
			acc4 = _mm_fmadd_ss(a4, acc4, a4);
		BARRIER();
	}
	_mm256_storeu_ps(xf, acc8);
	sinkf = _mm_cvtss_f32(acc4);
}

__attribute__((noinline))
static void mul_add(long n)
{
	double acc = x[0];
	for (long i = 0; i < n; i++) {
		acc = acc * 0.5 + 0.5;
		BARRIER();
	}
	sink = acc;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	if (n <= 0) {
		fprintf(stderr, "usage: sim_fma [N > 0]\n");
		return 2;
	}
	results();
	chains();
	memory_operands();
#define COUNT(name, fn, lanes)                                               \
	do {                                                                 \
		RL_REGION_BEGIN(name);                                       \
		fn(lanes, n);                                                \
		RL_REGION_END(name);                                         \
		RL_REGION_EXPECT(name, 2.0 * (lanes) * (double)n, 0);        \
	} while (0)
	COUNT("fma_f64_scalar", count_f64, 1);
	COUNT("fma_f64_128", count_f64, 2);
	COUNT("fma_f64_256", count_f64, 4);
	COUNT("fma_f32_scalar", count_f32, 1);
	COUNT("fma_f32_128", count_f32, 4);
	COUNT("fma_f32_256", count_f32, 8);
	RL_REGION_BEGIN("mul_add");
	mul_add(n);
	RL_REGION_END("mul_add");
	RL_REGION_EXPECT("mul_add", 2.0 * (double)n, 0);
	printf("sink %g %g\n", sink, (double)sinkf);
	return 0;
}
