/* A timer signal (every 20 us) whose handler does one properly nested
 * region "tick", while the main thread does N calls of region "work"
 * (argv[1]), most of its time inside the runtime. At the end, the
 * handler's count is declared as the flops of "tick" (RL_REGION_EXPECT),
 * so a reader can check every handler call was counted or refused. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "rlprof.h"

static volatile sig_atomic_t ticks;

static void on_alarm(int sig)
{
	(void)sig;
	RL_REGION_BEGIN("tick");
	RL_REGION_END("tick");
	ticks++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	struct sigaction sa;
	struct itimerval it = {{0, 20}, {0, 20}};
	sigset_t alrm;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (long i = 0; i < n; i++) {
		RL_REGION_BEGIN("work");
		RL_REGION_END("work");
	}
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	RL_REGION_EXPECT("tick", (double)ticks, 0);
	return 0;
}
