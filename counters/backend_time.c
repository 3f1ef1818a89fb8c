/* Placeholder: the time backend is being written (see its issue). */
#include "backend.h"

static int stub_probe(char *why, size_t len)
{
	rl_fail(why, len, RL_ENOTSUP, "the time backend is not built yet");
	return RL_CAP_NONE;
}

const struct rl_backend rl_backend_time = {
	.abi = RL_BACKEND_ABI,
	.name = "time",
	.summary = "placeholder",
	.probe = stub_probe,
};
