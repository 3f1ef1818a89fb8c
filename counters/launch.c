/* struct rl_launch: the program `rlprof run` starts, as backends change it. */
#include "counters/launch.h"

#include <stdlib.h>
#include <string.h>

static int grow(char ***v, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 8;
	char **nv;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	nv = realloc(*v, ncap * sizeof *nv);
	if (!nv)
		return RL_ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

int rl_launch_init(struct rl_launch *l, char *const *argv, size_t argc)
{
	memset(l, 0, sizeof *l);
	if (grow(&l->argv, &l->argv_cap, argc + 1) < 0)
		return RL_ENOMEM;
	for (size_t i = 0; i < argc; i++) {
		l->argv[i] = strdup(argv[i]);
		if (!l->argv[i]) {
			l->argc = i;
			rl_launch_release(l);
			return RL_ENOMEM;
		}
	}
	l->argc = argc;
	l->argv[argc] = NULL;
	return 0;
}

void rl_launch_release(struct rl_launch *l)
{
	for (size_t i = 0; i < l->argc; i++)
		free(l->argv[i]);
	for (size_t i = 0; i < l->envc; i++)
		free(l->env[i]);
	free(l->argv);
	free(l->env);
	memset(l, 0, sizeof *l);
}

int rl_launch_prepend(struct rl_launch *l, const char *const *args, size_t n)
{
	char **copies;

	if (n == 0)
		return 0;
	copies = calloc(n, sizeof *copies);
	if (!copies)
		return RL_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		copies[i] = strdup(args[i] ? args[i] : "");
		if (!copies[i])
			goto nomem;
	}
	if (grow(&l->argv, &l->argv_cap, l->argc + n + 1) < 0)
		goto nomem;
	memmove(l->argv + n, l->argv, (l->argc + 1) * sizeof *l->argv);
	memcpy(l->argv, copies, n * sizeof *copies);
	l->argc += n;
	free(copies);
	return 0;
nomem:
	for (size_t i = 0; i < n; i++)
		free(copies[i]);
	free(copies);
	return RL_ENOMEM;
}

int rl_launch_setenv(struct rl_launch *l, const char *name, const char *value)
{
	size_t nlen = strlen(name);
	char *entry;

	if (nlen == 0 || strchr(name, '='))
		return RL_EINVAL;
	entry = malloc(nlen + strlen(value) + 2);
	if (!entry)
		return RL_ENOMEM;
	memcpy(entry, name, nlen);
	entry[nlen] = '=';
	strcpy(entry + nlen + 1, value);
	for (size_t i = 0; i < l->envc; i++) {
		if (strncmp(l->env[i], name, nlen) == 0 &&
		    l->env[i][nlen] == '=') {
			free(l->env[i]);
			l->env[i] = entry;
			return 0;
		}
	}
	if (grow(&l->env, &l->env_cap, l->envc + 2) < 0) {
		free(entry);
		return RL_ENOMEM;
	}
	l->env[l->envc++] = entry;
	l->env[l->envc] = NULL;
	return 0;
}

const char *rl_launch_getenv(const struct rl_launch *l, const char *name)
{
	size_t nlen = strlen(name);
	for (size_t i = 0; i < l->envc; i++)
		if (strncmp(l->env[i], name, nlen) == 0 &&
		    l->env[i][nlen] == '=')
			return l->env[i] + nlen + 1;
	return NULL;
}

static bool overridden(const struct rl_launch *l, const char *entry,
		       const char *const *drop)
{
	const char *eq = strchr(entry, '=');
	size_t nlen = eq ? (size_t)(eq - entry) : strlen(entry);

	for (size_t i = 0; i < l->envc; i++)
		if (strncmp(l->env[i], entry, nlen) == 0 &&
		    l->env[i][nlen] == '=')
			return true;
	for (size_t i = 0; drop && drop[i]; i++)
		if (strlen(drop[i]) == nlen && strncmp(drop[i], entry, nlen) == 0)
			return true;
	return false;
}

char **rl_launch_environ(const struct rl_launch *l, char *const *base,
			 const char *const *drop)
{
	size_t nbase = 0, k = 0;
	char **envp;

	while (base && base[nbase])
		nbase++;
	envp = malloc((nbase + l->envc + 1) * sizeof *envp);
	if (!envp)
		return NULL;
	for (size_t i = 0; i < nbase; i++)
		if (!overridden(l, base[i], drop))
			envp[k++] = base[i];
	for (size_t i = 0; i < l->envc; i++)
		envp[k++] = l->env[i];
	envp[k] = NULL;
	return envp;
}
