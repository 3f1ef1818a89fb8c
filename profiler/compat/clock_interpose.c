/* The program's clock reads counted from a preloaded shim (see
 * runtime/rl_clock_interpose.h): the shims build with hidden visibility,
 * these three are the program's. */
#define RL_CLOCK_EXPORT __attribute__((visibility("default")))
#include "runtime/rl_clock_interpose.h"
