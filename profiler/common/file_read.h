/*
 * Opening a file for reading, the one way every reader does it: what is
 * not a regular file (a FIFO, a device, a directory) is refused without
 * blocking (the open is non-blocking, so a FIFO with no writer never
 * hangs), a file over the caller's size cap is refused before anything
 * is read, and with RL_READ_NOFOLLOW a symbolic link at a name rlprof
 * owns (DIR/raw/...) is refused instead of followed.
 */
#ifndef RL_FILE_READ_H
#define RL_FILE_READ_H

#include <stddef.h>

#define RL_READ_NOFOLLOW 1u

/* Files rlprof reads whole: results, reports, run records, machine
 * models. 1 GiB is some 10^7 regions; more is not a file rlprof wrote. */
#define RL_READ_CAP ((size_t)1 << 30)

/* path opened read-only (blocking mode restored) into *fd, its size in
 * *size. Returns 0, or RL_ENOENT, RL_EPERM, RL_EIO (not a regular file,
 * a link with RL_READ_NOFOLLOW), RL_ELIMIT (over cap) with
 * "cannot read 'PATH': WHY" in err. */
int rl_file_read_open(const char *path, unsigned flags, size_t cap, int *fd,
		      size_t *size, char *err, size_t errlen);

/* The whole file into a new NUL-terminated buffer (*len bytes before the
 * NUL); the same errors, RL_ENOMEM. */
int rl_file_read_all(const char *path, unsigned flags, size_t cap,
		     char **text, size_t *len, char *err, size_t errlen);

#endif
