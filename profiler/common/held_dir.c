/* Folders held open from start to end (held_dir.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/held_dir.h"

#define HELD_MAX 8

static struct held {
	char *path;
	int fd;
} held[HELD_MAX];

int rl_held_dir_add(const char *dir)
{
	for (int i = 0; i < HELD_MAX; i++) {
		if (held[i].path)
			continue;
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					   O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (!(held[i].path = strdup(dir))) {
			close(fd);
			errno = ENOMEM;
			return -1;
		}
		held[i].fd = fd;
		return 0;
	}
	errno = EMFILE;
	return -1;
}

static struct held *find_exact(const char *dir)
{
	for (int i = 0; i < HELD_MAX; i++)
		if (held[i].path && strcmp(held[i].path, dir) == 0)
			return &held[i];
	return NULL;
}

bool rl_held_dir_in_place(const char *dir, bool *now_deleted)
{
	struct held *h = find_exact(dir);
	struct stat a, b;

	*now_deleted = false;
	if (!h || fstat(h->fd, &a) != 0)
		return true; /* not held: nothing to compare */
	*now_deleted = a.st_nlink == 0;
	return lstat(dir, &b) == 0 && S_ISDIR(b.st_mode) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void drop(struct held *h)
{
	close(h->fd);
	free(h->path);
	h->path = NULL;
	h->fd = -1;
}

void rl_held_dir_drop(const char *dir)
{
	size_t n = strlen(dir);
	for (int i = 0; i < HELD_MAX; i++)
		if (held[i].path && strncmp(held[i].path, dir, n) == 0 &&
		    (held[i].path[n] == '\0' || held[i].path[n] == '/'))
			drop(&held[i]);
}

void rl_held_dir_drop_all(void)
{
	for (int i = 0; i < HELD_MAX; i++)
		if (held[i].path)
			drop(&held[i]);
}

/* The held folder with the longest path that path lies under; *rest: what
 * follows it ("" when path is the folder). */
static struct held *holder_of(const char *path, const char **rest,
			      bool strict)
{
	struct held *best = NULL;
	size_t best_n = 0;

	for (int i = 0; i < HELD_MAX; i++) {
		size_t n = held[i].path ? strlen(held[i].path) : 0;
		if (n && n >= best_n && strncmp(path, held[i].path, n) == 0 &&
		    ((path[n] == '\0' && !strict) || path[n] == '/')) {
			best = &held[i];
			best_n = n;
		}
	}
	if (best)
		*rest = path + best_n + (path[best_n] == '/');
	return best;
}

static struct held *holder(const char *path, const char **rest)
{
	return holder_of(path, rest, false);
}

/* A new descriptor of the folder at rest (a relative path, "" the folder
 * itself) under fd, no component followed when a link. */
static int walk(int fd, const char *rest, size_t len)
{
	char comp[NAME_MAX + 1];
	int cur = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	while (cur >= 0 && len > 0) {
		const char *slash = memchr(rest, '/', len);
		size_t n = slash ? (size_t)(slash - rest) : len;
		if (n >= sizeof comp || (n == 2 && rest[0] == '.' &&
					 rest[1] == '.')) {
			close(cur);
			errno = n >= sizeof comp ? ENAMETOOLONG : EXDEV;
			return -1;
		}
		if (n > 0) {
			memcpy(comp, rest, n);
			comp[n] = '\0';
			int next = openat(cur, comp, O_RDONLY | O_DIRECTORY |
							     O_NOFOLLOW |
							     O_CLOEXEC);
			int e = errno;
			close(cur);
			errno = e;
			cur = next;
		}
		rest += n + (slash != NULL);
		len -= n + (slash != NULL);
	}
	return cur;
}

int rl_held_parent(const char *path, const char **name)
{
	const char *rest, *slash = strrchr(path, '/');
	struct held *h = holder_of(path, &rest, true);

	*name = slash ? slash + 1 : path;
	if (h) {
		const char *last = strrchr(rest, '/');
		return walk(h->fd, rest, last ? (size_t)(last - rest) : 0);
	}
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char dir[PATH_MAX];
	size_t n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= sizeof dir) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, path, n);
	dir[n] = '\0';
	return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int rl_held_open(const char *path, int flags, mode_t mode)
{
	const char *rest, *name;
	struct held *h = holder(path, &rest);
	if (!h)
		return open(path, flags, mode);
	if (!*rest)
		return openat(h->fd, ".", flags, mode);
	int dir = rl_held_parent(path, &name);
	if (dir < 0)
		return -1;
	int fd = openat(dir, name, flags | O_NOFOLLOW, mode);
	int e = errno;
	close(dir);
	errno = e;
	return fd;
}

DIR *rl_held_opendir(const char *path)
{
	const char *rest;
	struct held *h = holder(path, &rest);
	if (!h)
		return opendir(path);
	int fd = walk(h->fd, rest, strlen(rest));
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

int rl_held_rename(const char *from, const char *to)
{
	const char *a, *b;
	int fa = rl_held_parent(from, &a), fb = fa < 0 ? -1
						       : rl_held_parent(to, &b);
	int rc = fb < 0 ? -1 : renameat(fa, a, fb, b), e = errno;
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	errno = e;
	return rc;
}

int rl_held_unlink(const char *path, bool dir)
{
	const char *name;
	int fd = rl_held_parent(path, &name);
	int rc = fd < 0 ? -1 : unlinkat(fd, name, dir ? AT_REMOVEDIR : 0);
	int e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return rc;
}
