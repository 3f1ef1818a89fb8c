/*
 * Load-clock kernel (see rl_probe_load_clock_ghz in probe.h): included by
 * an ISA file after chains_template.h, once per precision, with CH_FN,
 * CH_VT, CH_ET, CH_SET1, CH_STEP (the FMA step) still defined and LC_CHAINS
 * the chain count (a CH_REP_n that exists). Defines
 *   static unsigned long CH_FN##_load(long iters, unsigned adds,
 *                                     unsigned long one, double *sum)
 * LC_CHAINS FMA chains and `adds` (2..LC_MAX_ADDS) dependent integer adds
 * of `one` per step; returns the add chain's value (iters x adds x one),
 * *sum gets the accumulators' sum so the FMAs cannot be dropped.
 */
#ifndef LC_MAX_ADDS
#define LC_MAX_ADDS 17
#define LC_ADD1 "add %[one], %[x]\n\t"
#define LC_ADD2 LC_ADD1 LC_ADD1
#define LC_ADD4 LC_ADD2 LC_ADD2
#define LC_ADD8 LC_ADD4 LC_ADD4
#define LC_ADD16 LC_ADD8 LC_ADD8
#define LC_CASE(n, text)                                                      \
	case n:                                                               \
		__asm__ volatile(text : [x] "+r"(cnt) : [one] "r"(one) : "cc"); \
		break;
#define LC_CASES                                                              \
	LC_CASE(2, LC_ADD2)                                                   \
	LC_CASE(3, LC_ADD2 LC_ADD1)                                           \
	LC_CASE(4, LC_ADD4)                                                   \
	LC_CASE(5, LC_ADD4 LC_ADD1)                                           \
	LC_CASE(6, LC_ADD4 LC_ADD2)                                           \
	LC_CASE(7, LC_ADD4 LC_ADD2 LC_ADD1)                                   \
	LC_CASE(8, LC_ADD8)                                                   \
	LC_CASE(9, LC_ADD8 LC_ADD1)                                           \
	LC_CASE(10, LC_ADD8 LC_ADD2)                                          \
	LC_CASE(11, LC_ADD8 LC_ADD2 LC_ADD1)                                  \
	LC_CASE(12, LC_ADD8 LC_ADD4)                                          \
	LC_CASE(13, LC_ADD8 LC_ADD4 LC_ADD1)                                  \
	LC_CASE(14, LC_ADD8 LC_ADD4 LC_ADD2)                                  \
	LC_CASE(15, LC_ADD8 LC_ADD4 LC_ADD2 LC_ADD1)                          \
	LC_CASE(16, LC_ADD16)                                                 \
	LC_CASE(17, LC_ADD16 LC_ADD1)
#define LC_REP2(n, X) CH_REP_##n(X)
#define LC_REP(n, X) LC_REP2(n, X)
#endif

static unsigned long CH_CAT(CH_FN, _load)(long iters, unsigned adds,
					  unsigned long one, double *sum)
{
	const CH_VT x = CH_SET1((CH_ET)RL_CHAIN_X);
	const CH_VT y = CH_SET1((CH_ET)RL_CHAIN_Y);
	const double seed = 1.0;
	unsigned long cnt = 0;
	LC_REP(LC_CHAINS, CH_DECL)
	for (long it = 0; it < iters; it++) {
		LC_REP(LC_CHAINS, CH_DO)
		switch (adds) {
		LC_CASES
		default:
			break;
		}
	}
	double s = 0;
	LC_REP(LC_CHAINS, CH_ADDUP)
	*sum = s;
	return cnt;
}
