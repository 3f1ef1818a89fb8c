/*
 * libpfm4: event names -> perf_event_attr encodings, on the command side.
 * libpfm4 only encodes events of PMUs it detects on this host unless
 * LIBPFM_ENCODE_INACTIVE is set when it initialises; rlprof sets it for
 * pfm_initialize() (and removes it again so the profiled program does not
 * inherit it), so the tables of every supported CPU can be checked here.
 */
#include "counters/events/events.h"

#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_error.h"

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_status = PFM_SUCCESS;

static void pfm_init_once(void)
{
	int set = getenv("LIBPFM_ENCODE_INACTIVE") == NULL;

	if (set)
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	pfm_status = pfm_initialize();
	if (set)
		unsetenv("LIBPFM_ENCODE_INACTIVE");
}

int rl_pfm_encode(const char *pmu, const char *event,
		  struct rl_perf_event_spec *s, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char full[256];
	int r;

	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_status != PFM_SUCCESS)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "libpfm4 does not initialise: %s",
			       pfm_strerror(pfm_status));
	if (pmu && !strstr(event, "::"))
		snprintf(full, sizeof full, "%s::%s", pmu, event);
	else
		snprintf(full, sizeof full, "%s", event);
	memset(&attr, 0, sizeof attr);
	memset(&arg, 0, sizeof arg);
	arg.size = sizeof arg;
	arg.attr = &attr;
	r = pfm_get_os_event_encoding(full, PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
				      &arg);
	if (r != PFM_SUCCESS)
		return rl_fail(err, errlen,
			       r == PFM_ERR_NOTFOUND ? RL_ENOENT : RL_ENOTSUP,
			       "libpfm4 cannot encode '%s': %s", full,
			       pfm_strerror(r));
	s->type = attr.type;
	s->config = attr.config;
	s->config1 = attr.config1;
	s->config2 = attr.config2;
	return 0;
}
