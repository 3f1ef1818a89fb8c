/* A loop nest that runs for about a third of a second natively, for the
 * time per loop (tests/counters/sim/test_sim_loops.c: rlprof run --loops samples it):
 * nearly all of its CPU time is in the loop marked inner. No annotation. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300;
	double s = 0;
	for (long i = 0; i < n; i++) /* loop:spin.outer */
		for (long j = 0; j < 1000000; j++) /* loop:spin.inner */
			s += (double)j * 0.5;
	printf("%g\n", s);
	return 0;
}
