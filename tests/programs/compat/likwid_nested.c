/* LIKWID marker regions that do no floating-point work, nested three deep
 * on every OpenMP thread: 'outer' around 'mid' around 1000 empty 'inner'
 * regions, then LIKWID_MARKER_GET of 'inner'. Built with -DLIKWID_PERFMON
 * -fopenmp against likwid-marker.h. rlprof must count 0 flops in each of
 * them, parents included: the shim's bookkeeping at each STOP is not the
 * program's work (issue 40: it once added 3 flops per nested STOP). */
#include <likwid-marker.h>
#include <omp.h>
#include <stdio.h>

int main(void)
{
	LIKWID_MARKER_INIT;
#pragma omp parallel
	{
		int nev = 10, count = 0;
		double ev[10], t = -1;

		LIKWID_MARKER_THREADINIT;
		LIKWID_MARKER_START("outer");
		LIKWID_MARKER_START("mid");
		for (int i = 0; i < 1000; i++) {
			LIKWID_MARKER_START("inner");
			LIKWID_MARKER_STOP("inner");
		}
		LIKWID_MARKER_STOP("mid");
		LIKWID_MARKER_STOP("outer");
		LIKWID_MARKER_GET("inner", &nev, ev, &t, &count);
#pragma omp critical
		printf("thread %d: count=%d time_ok=%d\n",
		       omp_get_thread_num(), count, t >= 0);
	}
	LIKWID_MARKER_CLOSE;
	return 0;
}
