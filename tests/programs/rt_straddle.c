/* A thread's call of region "x" that begins before the main thread's
 * call of "x" (process scope) and ends inside it: its work inside the
 * main thread's call is counted twice, which librlprof warns of (kind
 * "scope-straddle", tests/cli/test_e2e_counts.c). Region "y" is opened
 * by the thread inside the main thread's "y": counted once, no warning. */
#include <pthread.h>

#include "rlprof.h"

static pthread_barrier_t begun, inside, done;

static void work(void)
{
	volatile double a = 0;
	for (int i = 0; i < 1000; i++)
		a = a + 1.0;
}

static void *thread(void *arg)
{
	(void)arg;
	RL_REGION_BEGIN("x");
	pthread_barrier_wait(&begun);  /* the main thread opens "x" */
	pthread_barrier_wait(&inside);
	work();
	RL_REGION_END("x");
	RL_REGION_BEGIN("y");
	work();
	RL_REGION_END("y");
	pthread_barrier_wait(&done);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_barrier_init(&begun, NULL, 2);
	pthread_barrier_init(&inside, NULL, 2);
	pthread_barrier_init(&done, NULL, 2);
	pthread_create(&t, NULL, thread, NULL);
	pthread_barrier_wait(&begun);
	RL_REGION_BEGIN("x");
	RL_REGION_BEGIN("y");
	pthread_barrier_wait(&inside);
	pthread_barrier_wait(&done);
	RL_REGION_END("y");
	RL_REGION_END("x");
	pthread_join(t, NULL);
	return 0;
}
