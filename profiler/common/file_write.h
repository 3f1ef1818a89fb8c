/*
 * Writing a whole file so that no reader ever sees a part of it: the bytes
 * go to a temporary file beside it (".NAME.tmp-" and 16 random hex digits,
 * created relative to the folder's descriptor with O_EXCL|O_NOFOLLOW, so a
 * link planted at a guessed name is never followed), which is renamed over
 * NAME within the folder only once everything is written and closed. On
 * failure the temporary file is removed, NAME is left as it was, and err
 * says the system's own reason (ENOSPC: "No space left on device").
 *
 * A path the user gave (rl_file_open: -o FILE): what is not a regular file
 * (/dev/stdout, a FIFO) is written straight, never replaced; a symbolic
 * link stays one (the file it names is replaced). A name rlprof owns in
 * its output directory (rl_file_open_owned, rl_file_write): whatever is
 * there, a link or a FIFO placed while the program ran, is replaced by the
 * rename, never followed: nothing outside DIR is written.
 */
#ifndef RL_FILE_WRITE_H
#define RL_FILE_WRITE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* data[0..len) into path (a name rlprof owns), created with mode 0666 & ~umask. Returns 0, or
 * RL_EIO (a full disk among others), RL_EPERM, RL_ENOENT, RL_EINVAL with
 * the message in err: "cannot write 'PATH': STRERROR". */
int rl_file_write(const char *path, const void *data, size_t len, char *err,
		  size_t errlen);

/* The same, returning 0 or -errno, for a caller that words the message. */
int rl_file_write_errno(const char *path, const void *data, size_t len);
/* The same as a stream, for what is too big to hold in memory:
 * rl_file_open() gives o->f, on the temporary file (or on path itself when
 * it is not a regular file); rl_file_commit() closes it and renames it over
 * path, or removes it when a write failed; rl_file_discard() closes and
 * removes it (path untouched). Each returns 0 or -errno. */
struct rl_file_out {
	FILE *f;
	int dir_fd;              /* the folder of path; -1 when written straight */
	char tmp[NAME_MAX + 1];  /* in dir_fd; "" when written straight */
	char name[NAME_MAX + 1]; /* path's last part */
	char path[PATH_MAX];
};
int rl_file_open(const char *path, struct rl_file_out *o);
int rl_file_open_owned(const char *path, struct rl_file_out *o);
int rl_file_commit(struct rl_file_out *o);
void rl_file_discard(struct rl_file_out *o);

/* n random lowercase hex digits and a NUL into buf (n <= 62): names
 * nobody can plant a link at beforehand. */
void rl_file_random_hex(char *buf, size_t n);

/* The RL_E* code of an errno value. */
int rl_file_errno_code(int e);

#endif
