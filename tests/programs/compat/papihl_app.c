/* A program annotated for PAPI's high-level API, as PAPI's documentation
 * shows it: papi.h, linked with -lpapi, never built for rlprof.
 * tests/compat/test_compat.c runs it under rlprof run (the shim
 * librlprof-papihl.so answers the PAPI_hl_* calls). Prints the return
 * codes it got. */
#include <papi.h>
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
	int rc = 0;

	(void)arg;
	for (int k = 0; k < 2; k++) {
		rc |= PAPI_hl_region_begin("ph_thread");
		work(100000);
		rc |= PAPI_hl_region_end("ph_thread");
	}
	printf("thread: ok=%d\n", rc == PAPI_OK);
	return NULL;
}

int main(void)
{
	pthread_t th;
	int rc = 0;

	printf("stop before any region: %d\n", PAPI_hl_stop() == PAPI_ENOEVNT);
	for (int k = 0; k < 3; k++) {
		rc |= PAPI_hl_region_begin("ph_compute");
		work(100000);
		rc |= PAPI_hl_read("ph_compute");
		work(100000);
		rc |= PAPI_hl_region_end("ph_compute");
	}
	printf("compute: ok=%d\n", rc == PAPI_OK);
	rc = PAPI_hl_region_begin("ph_outer");
	rc |= PAPI_hl_region_begin("ph_inner");
	work(1000);
	rc |= PAPI_hl_region_end("ph_inner");
	rc |= PAPI_hl_region_end("ph_outer");
	printf("nested: ok=%d\n", rc == PAPI_OK);
	printf("read outside: %d\n", PAPI_hl_read("ph_outer") == PAPI_ENOTRUN);
	printf("stray end: %d\n", PAPI_hl_region_end("ph_never") == PAPI_ENOTRUN);
	pthread_create(&th, NULL, thread_main, NULL);
	pthread_join(th, NULL);
	printf("stop: %d\n", PAPI_hl_stop() == PAPI_OK);
	return 0;
}
