/* Finding the program to run, as execvp would, with a shell's statuses. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"

static int check_file(const char *path, char *msg, size_t msglen)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		int e = errno;
		snprintf(msg, msglen, "cannot run '%s': %s%s", path, strerror(e),
			 e == ENOENT ? "; check the path" : "");
		return e == ENOENT || e == ENOTDIR ? RL_EXIT_NOTFOUND
						   : RL_EXIT_NOEXEC;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(msg, msglen, "cannot run '%s': it is a directory", path);
		return RL_EXIT_NOEXEC;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(msg, msglen, "cannot run '%s': not a regular file", path);
		return RL_EXIT_NOEXEC;
	}
	/* access() says yes to root for any file with one x bit: test bits */
	if (access(path, X_OK) != 0 ||
	    !(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH))) {
		snprintf(msg, msglen,
			 "cannot run '%s': Permission denied (not executable); "
			 "make it executable (chmod +x) or run it through its "
			 "interpreter",
			 path);
		return RL_EXIT_NOEXEC;
	}
	return 0;
}

int rl_resolve_program(const char *name, char *buf, size_t len, char *msg,
		       size_t msglen)
{
	const char *path, *p;
	bool denied = false;
	char denied_path[4096] = "";

	if (name[0] == '\0') {
		snprintf(msg, msglen, "cannot run '': empty program name");
		return RL_EXIT_NOTFOUND;
	}
	if (strchr(name, '/')) {
		int rc = check_file(name, msg, msglen);
		if (rc == 0 && snprintf(buf, len, "%s", name) >= (int)len) {
			snprintf(msg, msglen, "cannot run '%s': path too long", name);
			return RL_EXIT_NOTFOUND;
		}
		return rc;
	}
	path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p++) {
		const char *colon = strchr(p, ':');
		size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
		char cand[4096];
		char ignored[512];
		int n;

		/* an empty PATH element is the current directory */
		n = dlen ? snprintf(cand, sizeof cand, "%.*s/%s", (int)dlen, p, name)
			 : snprintf(cand, sizeof cand, "%s", name);
		if (n > 0 && (size_t)n < sizeof cand) {
			int rc = check_file(cand, ignored, sizeof ignored);
			if (rc == 0) {
				if (snprintf(buf, len, "%s", cand) < (int)len)
					return 0;
			} else if (rc == RL_EXIT_NOEXEC && !denied) {
				struct stat st;
				if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
					denied = true;
					snprintf(denied_path, sizeof denied_path,
						 "%s", cand);
				}
			}
		}
		if (!colon)
			break;
		p = colon;
	}
	if (denied) {
		snprintf(msg, msglen,
			 "cannot run '%s': '%s' is not executable; make it "
			 "executable (chmod +x) or give another path",
			 name, denied_path);
		return RL_EXIT_NOEXEC;
	}
	snprintf(msg, msglen,
		 "cannot run '%s': command not found in PATH; give a path "
		 "such as './%s'",
		 name, name);
	return RL_EXIT_NOTFOUND;
}
