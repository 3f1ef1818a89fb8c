/* Single multiply chains, scalar (chain_mul_*.c): acc = (acc * x) * (1/x),
 * two dependent multiplies per step, so the value stays near its seed and
 * the step is the multiply's latency twice. Measures the ceiling of a
 * product reduction built without reassociation. Built with vectorization
 * off (build.mk). */
#include "probes/probe.h"

static double mul_f64(long iters, double seed)
{
	volatile double vx = RL_MUL_CHAIN_X;
	double x = vx, xi = 1.0 / vx, a = seed;
	for (long i = 0; i < iters; i++)
		a = (a * x) * xi;
	return a;
}

static double mul_f32(long iters, double seed)
{
	volatile float vx = (float)RL_MUL_CHAIN_X;
	float x = vx, xi = 1.0f / vx, a = (float)seed;
	for (long i = 0; i < iters; i++)
		a = (a * x) * xi;
	return a;
}

rl_chain_fn rl_chain_mul_scalar(int f32);
rl_chain_fn rl_chain_mul_scalar(int f32)
{
	return f32 ? mul_f32 : mul_f64;
}
