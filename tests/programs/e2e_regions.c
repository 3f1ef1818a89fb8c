/* e2e: literal, escaped and runtime-named regions (rlprof inspect), and a
 * user program built with pkg-config (the install test). */
#include <stdio.h>

#include "rlprof.h"

static double work(int n)
{
	volatile double s = 0;
	for (int i = 0; i < n; i++)
		s += i * 0.5;
	return s;
}

int main(void)
{
	char buf[32];

	RL_REGION_BEGIN("alpha"); /* e2e-site: alpha */
	work(1000);
	RL_REGION_END("alpha");

	RL_REGION_BEGIN("tab\there"); /* e2e-site: escaped */
	work(1000);
	RL_REGION_END("tab\there");

	for (int k = 0; k < 2; k++) {
		snprintf(buf, sizeof buf, "dyn-%d", k);
		RL_REGION_BEGIN(buf); /* e2e-site: runtime */
		work(1000);
		RL_REGION_END(buf);
	}
	return 0;
}
