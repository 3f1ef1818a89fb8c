/*
 * The results folder (RLPROF_OUT), held open from start-up to the end:
 * the results file and the live file are made, renamed and removed
 * relative to that descriptor (openat, renameat, unlinkat), so the
 * folder swapped for a link while the program runs sends nothing
 * elsewhere. A descriptor the program closed, or that now names another
 * file (checked by device and inode before each use), or a folder that
 * was removed, is not used: then the path is, as before (the folder is
 * made again). Async-signal-safe after start-up.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/rt_internal.h"

static int out_fd = -1;
static dev_t out_dev;
static ino_t out_ino;

void rl_rt_out_hold(void)
{
	struct stat st;
	int fd = open(rl_rt.out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return; /* made at the first write, by its path */
	/* above the numbers a program expects its own next open() to get */
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 64);
	if (high >= 0) {
		close(fd);
		fd = high;
	}
	if (fstat(fd, &st) != 0) {
		close(fd);
		return;
	}
	out_dev = st.st_dev;
	out_ino = st.st_ino;
	out_fd = fd;
}

int rl_rt_out_at(const char *path, const char **name)
{
	struct stat st;
	size_t n = strlen(rl_rt.out_dir);

	*name = path;
	if (out_fd < 0 || strncmp(path, rl_rt.out_dir, n) != 0 ||
	    path[n] != '/' || strchr(path + n + 1, '/'))
		return AT_FDCWD;
	if (fstat(out_fd, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_dev != out_dev || st.st_ino != out_ino || st.st_nlink == 0)
		return AT_FDCWD;
	*name = path + n + 1;
	return out_fd;
}
