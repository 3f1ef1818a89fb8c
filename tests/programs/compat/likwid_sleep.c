/* Like LIKWID's C-markerAPI.c: an OpenMP program whose marker regions
 * only sleep, built with -DLIKWID_PERFMON -fopenmp against
 * likwid-marker.h, linked with -llikwid. Every thread registers, starts,
 * sleeps in and stops the region 'example' (twice), then reads it back
 * with LIKWID_MARKER_GET. The region does no floating-point work: rlprof
 * must count 0 flops in it (the shim's own work is not the program's). */
#include <likwid-marker.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

int main(void)
{
	LIKWID_MARKER_INIT;
#pragma omp parallel
	{
		LIKWID_MARKER_THREADINIT;
		LIKWID_MARKER_REGISTER("example");
	}
#pragma omp parallel
	{
		for (int k = 0; k < 2; k++) {
			struct timespec ts = {0, 2000000};
			LIKWID_MARKER_START("example");
			nanosleep(&ts, NULL);
			LIKWID_MARKER_STOP("example");
		}
	}
#pragma omp parallel
	{
		int nev = 10, count = 0;
		double ev[10], t = 0;
		LIKWID_MARKER_GET("example", &nev, ev, &t, &count);
#pragma omp critical
		printf("thread %d: count=%d time_ok=%d\n",
		       omp_get_thread_num(), count, t >= 0.002);
	}
	LIKWID_MARKER_CLOSE;
	return 0;
}
