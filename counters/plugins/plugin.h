/*
 * Backend plugins: librlprof must not link libpapi or liblikwid, so those
 * backends live in $(LIB)/rlprof/rlprof-<name>.so, which export one
 * function returning their struct rl_backend. The forwarding backends
 * compiled into librlprof (backend_papi.c, backend_likwid.c) load them
 * with dlopen from the directory next to librlprof (or ../lib/rlprof next
 * to the rlprof command) and say clearly why when that fails.
 *
 * A plugin's thread state must fit in RL_PLUGIN_STATE_MAX bytes (the
 * forwarder's thread_state_size). Third-party libraries print to stderr;
 * the forwarder mutes fd 2 around probe() and init() so `rlprof counters`
 * stays one line per backend.
 */
#ifndef RL_PLUGIN_H
#define RL_PLUGIN_H

#include <pthread.h>
#include <stddef.h>

#include "counters/backend.h"

#define RL_PLUGIN_SYMBOL "rl_plugin_backend"
#define RL_PLUGIN_STATE_MAX 1024

typedef const struct rl_backend *(*rl_plugin_get_fn)(unsigned abi);

struct rl_plugin {
	const char *file;    /* "rlprof-papi.so" */
	const char *library; /* "libpapi", for messages */
	pthread_once_t once;
	const struct rl_backend *backend; /* NULL: not loaded, see why */
	char why[512];
};
#define RL_PLUGIN_INIT(file, library)                                      \
	{file, library, PTHREAD_ONCE_INIT, NULL, ""}

/* Loads the plugin once; 0, or RL_ENOENT with p->why set. */
int rl_plugin_load(struct rl_plugin *p);

/* Forwarding helpers for the backends in librlprof. */
int rl_plugin_probe(struct rl_plugin *p, char *why, size_t len);
int rl_plugin_init(struct rl_plugin *p, const char *options,
		   struct rl_backend_setup *setup, char *err, size_t errlen);
/* The runtime side of the plugin a successful rl_plugin_init() started
 * (one backend runs per process): the forwarders' remaining members. */
int rl_plugin_thread_open(void *state, char *err, size_t errlen);
int rl_plugin_read(void *state, struct rl_counter_value *values);
void rl_plugin_thread_close(void *state);
void rl_plugin_fini(void);

/* A backend of librlprof that forwards to a plugin: defines the plugin
 * (file, the library it links, for messages) and the struct rl_backend
 * sym named name_ (backend_papi.c, backend_likwid.c: one line each). */
#define RL_PLUGIN_BACKEND(sym, name_, file, library, summary_)            \
	static struct rl_plugin sym##_plugin = RL_PLUGIN_INIT(file, library); \
	static int sym##_probe(char *why, size_t len)                      \
	{                                                                  \
		return rl_plugin_probe(&sym##_plugin, why, len);           \
	}                                                                  \
	static int sym##_init(const char *options,                         \
			      struct rl_backend_setup *setup, char *err,   \
			      size_t errlen)                               \
	{                                                                  \
		return rl_plugin_init(&sym##_plugin, options, setup, err,  \
				      errlen);                             \
	}                                                                  \
	const struct rl_backend sym = {                                    \
		.abi = RL_BACKEND_ABI,                                     \
		.name = name_,                                             \
		.summary = summary_,                                       \
		.thread_state_size = RL_PLUGIN_STATE_MAX,                  \
		.probe = sym##_probe,                                      \
		.init = sym##_init,                                        \
		.thread_open = rl_plugin_thread_open,                      \
		.read = rl_plugin_read,                                    \
		.thread_close = rl_plugin_thread_close,                    \
		.fini = rl_plugin_fini,                                    \
	}

/* Redirects fd 2 to a temporary file; returns the saved fd or -1. */
int rl_stderr_mute(void);
/* Restores fd 2; the first line the library printed goes to first (may
 * be NULL). */
void rl_stderr_restore(int saved, char *first, size_t len);

#endif
