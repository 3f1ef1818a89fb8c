/*
 * Why LIKWID cannot reach the MSRs here, and the fix (msr_why.c; libc
 * only, shared by the likwid plugin and the command). The files are read
 * under a root directory ("" for this machine) so tests can lay out any.
 */
#ifndef RL_MSR_WHY_H
#define RL_MSR_WHY_H

#include <stddef.h>

/* Writes into why (one line) what keeps /dev/cpu/0/msr from LIKWID: the
 * msr module not loaded, the device missing in a container, no read and
 * write access for this user, or MSR writes turned off in the kernel.
 * Returns 1 when one of them applies, 0 when the MSRs look reachable
 * (why then ""). */
int rl_msr_why(const char *root, char *why, size_t len);

#endif
