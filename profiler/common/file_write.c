/* Whole files through a temporary file and a rename (file_write.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/file_write.h"
#include "common/held_dir.h"
#include "common/rl_error.h"

int rl_file_errno_code(int e)
{
	return e == ENOENT ? RL_ENOENT : e == EACCES || e == EPERM ? RL_EPERM
								  : RL_EIO;
}

void rl_file_random_hex(char *buf, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char r[32];
	size_t want = n / 2 + 1 < sizeof r ? n / 2 + 1 : sizeof r;

	if (getrandom(r, want, GRND_NONBLOCK) != (ssize_t)want) {
		/* no entropy yet (early boot): the clock and the pid */
		struct timespec ts;
		unsigned long long x;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (unsigned long long)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
		    (unsigned long long)ts.tv_sec ^
		    (unsigned long long)getpid() << 32;
		for (size_t i = 0; i < want; i++, x = x * 6364136223846793005ull + 1)
			r[i] = (unsigned char)(x >> 56);
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = hex[(r[i / 2] >> (i % 2 ? 0 : 4)) & 15];
	buf[n] = '\0';
}

/* o->dir_fd: the folder of path, opened (through a held folder, see
 * held_dir.h: never through a link swapped in there); o->name: its last
 * part. */
static int open_parent(const char *path, struct rl_file_out *o)
{
	const char *name;

	if (strlen(path) >= sizeof o->path)
		return -ENAMETOOLONG;
	strcpy(o->path, path);
	o->dir_fd = rl_held_parent(path, &name);
	if (o->dir_fd < 0)
		return -errno;
	if (strlen(name) >= sizeof o->name || !name[0]) {
		close(o->dir_fd);
		o->dir_fd = -1;
		return name[0] ? -ENAMETOOLONG : -EISDIR;
	}
	strcpy(o->name, name);
	return 0;
}

/* ".NAME.tmp-<16 random hex digits>" in o->dir_fd, created new: never a
 * name given beforehand (a link planted there is not followed). */
static int create_temp(struct rl_file_out *o)
{
	for (int tries = 0; tries < 16; tries++) {
		char rnd[17];
		int fd, n;

		rl_file_random_hex(rnd, 16);
		n = snprintf(o->tmp, sizeof o->tmp, ".%s.tmp-%s", o->name, rnd);
		if (n < 0 || (size_t)n >= sizeof o->tmp)
			return -ENAMETOOLONG;
		fd = openat(o->dir_fd, o->tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	return -errno;
}

static int open_out(const char *path, bool owned, struct rl_file_out *o)
{
	char real[PATH_MAX];
	struct stat st, lst;
	int fd, e;

	memset(o, 0, sizeof *o);
	o->dir_fd = -1;
	if (!owned) {
		/* what is not a regular file (-o /dev/stdout, a FIFO), or a
		 * link that names no file yet, is written straight: a rename
		 * would replace the device node, the pipe or the link */
		if ((stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
		    (stat(path, &st) != 0 && lstat(path, &lst) == 0 &&
		     S_ISLNK(lst.st_mode))) {
			fd = open(path,
				  O_WRONLY | O_CLOEXEC | O_CREAT | O_TRUNC,
				  0666);
			if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
				e = errno;
				if (fd >= 0)
					close(fd);
				return -e;
			}
			return 0;
		}
		/* a symbolic link the user gave stays one: the file it
		 * names is replaced */
		if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
		    realpath(path, real))
			path = real;
	}
	/* owned: whatever is at the name (a link, a FIFO placed there) is
	 * replaced by the rename, never followed nor written into */
	if ((e = open_parent(path, o)) < 0 || (fd = e = create_temp(o)) < 0) {
		if (o->dir_fd >= 0)
			close(o->dir_fd);
		o->dir_fd = -1;
		o->tmp[0] = '\0';
		return e;
	}
	if (!(o->f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		rl_file_discard(o);
		return -e;
	}
	setvbuf(o->f, NULL, _IOFBF, 1 << 16);
	return 0;
}

int rl_file_open(const char *path, struct rl_file_out *o)
{
	return open_out(path, false, o);
}

int rl_file_open_owned(const char *path, struct rl_file_out *o)
{
	return open_out(path, true, o);
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
		if (!e && renameat(o->dir_fd, o->tmp, o->dir_fd, o->name) != 0)
			e = errno;
		if (e)
			unlinkat(o->dir_fd, o->tmp, 0);
		o->tmp[0] = '\0';
	}
	if (o->dir_fd >= 0)
		close(o->dir_fd);
	o->dir_fd = -1;
	return -e;
}

void rl_file_discard(struct rl_file_out *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0] && o->dir_fd >= 0)
		unlinkat(o->dir_fd, o->tmp, 0);
	o->tmp[0] = '\0';
	if (o->dir_fd >= 0)
		close(o->dir_fd);
	o->dir_fd = -1;
}

int rl_file_write_errno(const char *path, const void *data, size_t len)
{
	struct rl_file_out o;
	int e = rl_file_open_owned(path, &o);

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
