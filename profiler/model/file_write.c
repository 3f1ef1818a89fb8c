/* Whole files through a temporary file and a rename (file_write.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_write.h"
#include "rl_error.h"

int rl_file_errno_code(int e)
{
	return e == ENOENT ? RL_ENOENT : e == EACCES || e == EPERM ? RL_EPERM
								  : RL_EIO;
}

/* ".NAME.tmp-PID" beside path. */
static int temp_name(char *buf, size_t len, const char *path)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	int n = snprintf(buf, len, "%.*s.%s.tmp-%ld", dir, path,
			 path + dir, (long)getpid());

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* len bytes of p to fd, then fd closed: 0 or the errno. */
static int write_close(int fd, const char *p, size_t len)
{
	int e = 0;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : ENOSPC;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	if (close(fd) != 0 && !e)
		e = errno;
	return e;
}

int rl_file_write_errno(const char *path, const void *data, size_t len)
{
	char tmp[PATH_MAX + 64], real[PATH_MAX];
	struct stat st, lst;
	int fd, e;

	/* what is not a regular file (-o /dev/stdout, a FIFO), or a link
	 * that names no file yet, is written straight: a rename would
	 * replace the device node, the pipe or the link */
	if ((stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
	    (stat(path, &st) != 0 && lstat(path, &lst) == 0 &&
	     S_ISLNK(lst.st_mode))) {
		fd = open(path, O_WRONLY | O_CLOEXEC | O_CREAT | O_TRUNC, 0666);
		return fd < 0 ? -errno : -write_close(fd, data, len);
	}
	/* a symbolic link stays one: the file it names is replaced */
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
	    realpath(path, real))
		path = real;
	if (temp_name(tmp, sizeof tmp, path) < 0)
		return -ENAMETOOLONG;
	unlink(tmp); /* left by an earlier rlprof of the same pid */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	if ((e = write_close(fd, data, len)) == 0 && rename(tmp, path) != 0)
		e = errno;
	if (e)
		unlink(tmp);
	return -e;
}

int rl_file_write(const char *path, const void *data, size_t len, char *err,
		  size_t errlen)
{
	int e = rl_file_write_errno(path, data, len);

	if (e == 0)
		return 0;
	return rl_fail(err, errlen, rl_file_errno_code(-e),
		       "cannot write '%s': %s", path, strerror(-e));
}
