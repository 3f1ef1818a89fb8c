/* e2e: no regions at all; rlprof run profiles it as '<program>'. */
#include <stdio.h>

int main(void)
{
	volatile double s = 0;

	for (int i = 0; i < 100000; i++)
		s += i * 0.5;
	printf("%g\n", s);
	return 0;
}
