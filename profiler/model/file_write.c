/* Whole files through a temporary file and a rename (file_write.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "file_write.h"
#include "rl_error.h"

static int code_of(int e)
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

int rl_file_write(const char *path, const void *data, size_t len, char *err,
		  size_t errlen)
{
	char tmp[PATH_MAX + 64];
	const char *p = data;
	int fd, e;

	if (temp_name(tmp, sizeof tmp, path) < 0)
		return rl_fail(err, errlen, RL_EINVAL,
			       "cannot write '%s': the path is too long", path);
	unlink(tmp); /* left by an earlier rlprof of the same pid */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		e = errno;
		return rl_fail(err, errlen, code_of(e), "cannot write '%s': %s",
			       path, strerror(e));
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : ENOSPC;
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (close(fd) != 0) {
		fd = -1;
		e = errno;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		e = errno;
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return rl_fail(err, errlen, code_of(e), "cannot write '%s': %s", path,
		       strerror(e));
}
