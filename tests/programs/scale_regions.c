/* SPDX-License-Identifier: MIT */
/*
 * N distinct region names (default 100000), entered once each by the main
 * thread and by one other thread: the scale benchmark (scripts/bench-scale)
 * for rlprof run and rlprof report. Names are made at run time, so they go
 * through rl_region_begin() directly (no site records).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "rlprof.h"

static long n_regions = 100000;

static void *enter_all(void *arg)
{
	char name[32];

	(void)arg;
	for (long i = 0; i < n_regions; i++) {
		snprintf(name, sizeof name, "region%06ld", i);
		rl_region_begin(name);
		rl_region_end(name);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		n_regions = strtol(argv[1], NULL, 10);
	if (pthread_create(&t, NULL, enter_all, NULL) != 0)
		return 1;
	enter_all(NULL);
	pthread_join(t, NULL);
	return 0;
}
