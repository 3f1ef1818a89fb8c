/* Opening files for reading (file_read.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_read.h"
#include "common/held_dir.h"
#include "common/rl_error.h"
#include "common/term_text.h"

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISLNK(m)  ? "a symbolic link"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m) || S_ISBLK(m) ? "a device"
				       : "a special file";
}

int rl_file_read_open(const char *path, unsigned flags, size_t cap, int *fd,
		      size_t *size, char *err, size_t errlen)
{
	int of = O_RDONLY | O_CLOEXEC | O_NONBLOCK |
		 (flags & RL_READ_NOFOLLOW ? O_NOFOLLOW : 0);
	char shown[512];
	struct stat st;
	int rc, e;

	rl_term_cut(shown, sizeof shown, path, 400);
	*fd = rl_held_open(path, of, 0);
	if (*fd < 0) {
		e = errno;
		if (e == ELOOP && (flags & RL_READ_NOFOLLOW))
			return rl_fail(err, errlen, RL_EIO,
				       "cannot read '%s': a symbolic link "
				       "where rlprof writes its own files: "
				       "remove it and run again",
				       shown);
		return rl_fail(err, errlen,
			       e == ENOENT   ? RL_ENOENT
			       : e == EACCES || e == EPERM ? RL_EPERM
							   : RL_EIO,
			       "cannot open '%s': %s", shown, strerror(e));
	}
	if (fstat(*fd, &st) != 0) {
		e = errno;
		rc = rl_fail(err, errlen, RL_EIO, "cannot read '%s': %s", shown,
			     strerror(e));
	} else if (!S_ISREG(st.st_mode)) {
		rc = rl_fail(err, errlen, RL_EIO,
			     "cannot read '%s': not a regular file (%s): "
			     "remove it or name a file",
			     shown, kind_of(st.st_mode));
	} else if ((unsigned long long)st.st_size > cap) {
		rc = rl_fail(err, errlen, RL_ELIMIT,
			     "cannot read '%s': %lld bytes, more than the "
			     "%zu MiB a file of rlprof can be",
			     shown, (long long)st.st_size, cap >> 20);
	} else {
		/* regular: reads never block; the flag goes for clarity */
		fcntl(*fd, F_SETFL, fcntl(*fd, F_GETFL) & ~O_NONBLOCK);
		*size = (size_t)st.st_size;
		return 0;
	}
	close(*fd);
	*fd = -1;
	return rc;
}

int rl_file_read_all(const char *path, unsigned flags, size_t cap,
		     char **text, size_t *len, char *err, size_t errlen)
{
	size_t size, n = 0, room;
	char *buf, shown[512];
	int fd, rc;

	*text = NULL;
	*len = 0;
	rl_term_cut(shown, sizeof shown, path, 400);
	if ((rc = rl_file_read_open(path, flags, cap, &fd, &size, err,
				    errlen)))
		return rc;
	/* the size may change while it is read: read to the end, bounded */
	room = size + 1;
	if (!(buf = malloc(room + 1))) {
		close(fd);
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
	for (;;) {
		ssize_t k;
		if (n == room) {
			char *x;
			if (room > cap) {
				free(buf);
				close(fd);
				return rl_fail(err, errlen, RL_ELIMIT,
					       "cannot read '%s': it grew "
					       "past the size cap while read",
					       shown);
			}
			room *= 2;
			if (!(x = realloc(buf, room + 1))) {
				free(buf);
				close(fd);
				return rl_fail(err, errlen, RL_ENOMEM,
					       "out of memory");
			}
			buf = x;
		}
		k = read(fd, buf + n, room - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			free(buf);
			close(fd);
			return rl_fail(err, errlen, RL_EIO,
				       "cannot read '%s': %s", shown,
				       strerror(e));
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}
