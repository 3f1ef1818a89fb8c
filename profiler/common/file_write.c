/* Whole files through a temporary file and a rename (file_write.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_write.h"
#include "common/rl_error.h"

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

int rl_file_open(const char *path, struct rl_file_out *o)
{
	char real[PATH_MAX];
	struct stat st, lst;
	int fd;

	memset(o, 0, sizeof *o);
	/* what is not a regular file (-o /dev/stdout, a FIFO), or a link
	 * that names no file yet, is written straight: a rename would
	 * replace the device node, the pipe or the link */
	if ((stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
	    (stat(path, &st) != 0 && lstat(path, &lst) == 0 &&
	     S_ISLNK(lst.st_mode))) {
		fd = open(path, O_WRONLY | O_CLOEXEC | O_CREAT | O_TRUNC, 0666);
	} else {
		/* a symbolic link stays one: the file it names is replaced */
		if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
		    realpath(path, real))
			path = real;
		if (strlen(path) >= sizeof o->path ||
		    temp_name(o->tmp, sizeof o->tmp, path) < 0)
			return -ENAMETOOLONG;
		strcpy(o->path, path);
		unlink(o->tmp); /* left by an earlier rlprof of the same pid */
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0666);
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		if (o->tmp[0] && fd >= 0)
			unlink(o->tmp);
		o->tmp[0] = '\0';
		return -e;
	}
	setvbuf(o->f, NULL, _IOFBF, 1 << 16);
	return 0;
}

int rl_file_commit(struct rl_file_out *o)
{
	int e = 0;

	if (!o->f)
		return -EBADF;
	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (o->tmp[0]) {
		if (!e && rename(o->tmp, o->path) != 0)
			e = errno;
		if (e)
			unlink(o->tmp);
		o->tmp[0] = '\0';
	}
	return -e;
}

void rl_file_discard(struct rl_file_out *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

int rl_file_write_errno(const char *path, const void *data, size_t len)
{
	struct rl_file_out o;
	int e = rl_file_open(path, &o);

	if (e)
		return e;
	errno = 0;
	if (len && fwrite(data, 1, len, o.f) != len) {
		e = errno ? errno : ENOSPC;
		rl_file_discard(&o);
		return -e;
	}
	return rl_file_commit(&o);
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
