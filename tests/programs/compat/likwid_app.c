/* A program annotated for LIKWID's marker API, as LIKWID's documentation
 * shows it: built with -DLIKWID_PERFMON against likwid-marker.h, linked
 * with -llikwid, never built for rlprof. tests/compat/test_compat.c runs it under
 * rlprof run (the shim librlprof-likwid.so answers the marker calls).
 * Prints what LIKWID_MARKER_GET and the return codes gave it. */
#include <errno.h>
#include <likwid-marker.h>
#include <pthread.h>
#include <stdio.h>

static volatile double sink;

static void work(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += i * 0.5;
	sink = s;
}

static void *thread_main(void *arg)
{
	int nev = 4, count = -1;
	double ev[4], t = -1;

	(void)arg;
	LIKWID_MARKER_THREADINIT;
	for (int k = 0; k < 2; k++) {
		LIKWID_MARKER_START("lk_thread");
		work(100000);
		LIKWID_MARKER_STOP("lk_thread");
	}
	LIKWID_MARKER_GET("lk_thread", &nev, ev, &t, &count);
	printf("thread get: nevents=%d count=%d time_positive=%d\n", nev,
	       count, t > 0);
	return NULL;
}

int main(void)
{
	pthread_t th;
	int nev = 4, count = -1, rc;
	double ev[4], t = -1;

	LIKWID_MARKER_INIT;
	LIKWID_MARKER_THREADINIT;
	LIKWID_MARKER_REGISTER("lk_compute");
	for (int k = 0; k < 3; k++) {
		LIKWID_MARKER_START("lk_compute");
		work(200000);
		LIKWID_MARKER_STOP("lk_compute");
	}
	LIKWID_MARKER_GET("lk_compute", &nev, ev, &t, &count);
	printf("main get: nevents=%d count=%d time_positive=%d\n", nev, count,
	       t > 0);

	LIKWID_MARKER_START("lk_setup");
	rc = likwid_markerStartRegion("lk_setup");
	printf("double start: %d\n", rc == -EFAULT);
	work(1000);
	LIKWID_MARKER_STOP("lk_setup");
	rc = likwid_markerStopRegion("lk_never_started");
	printf("stray stop: %d\n", rc == -EFAULT);

	LIKWID_MARKER_RESET("lk_compute");
	nev = 4;
	LIKWID_MARKER_GET("lk_compute", &nev, ev, &t, &count);
	printf("after reset: count=%d time=%g\n", count, t);

	pthread_create(&th, NULL, thread_main, NULL);
	pthread_join(th, NULL);
	LIKWID_MARKER_SWITCH;
	LIKWID_MARKER_CLOSE;
	return 0;
}
