/* term_color.c: the table's colours by default only for a person at a
 * terminal: a pseudo-terminal without NO_COLOR, TERM=dumb or an MPI
 * rank's variables; never a file, a pipe, a rank of mpirun. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/term_color.h"

static int pty_fd(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY), s;
	const char *name;

	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0 ||
	    !(name = ptsname(m)))
		cr_skip_test("no pseudo-terminal here");
	s = open(name, O_RDWR | O_NOCTTY);
	if (s < 0)
		cr_skip_test("cannot open '%s'", name);
	return s;
}

static void clean_env(void)
{
	unsetenv("NO_COLOR");
	unsetenv("OMPI_COMM_WORLD_RANK");
	unsetenv("PMIX_RANK");
	unsetenv("PMI_RANK");
	setenv("TERM", "xterm", 1);
}

Test(term_color, a_person_at_a_terminal_gets_colours)
{
	int fd = pty_fd(), p[2];

	clean_env();
	cr_expect(rl_term_color_auto(fd));
	setenv("NO_COLOR", "", 1); /* empty: as unset (no-color.org) */
	cr_expect(rl_term_color_auto(fd));
	cr_assert_eq(pipe(p), 0);
	cr_expect(!rl_term_color_auto(p[1]), "a pipe");
	close(p[0]);
	close(p[1]);
	close(fd);
}

Test(term_color, no_color_dumb_terminals_and_mpi_ranks_get_none)
{
	int fd = pty_fd();
	const char *rank[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"};

	clean_env();
	setenv("NO_COLOR", "1", 1);
	cr_expect(!rl_term_color_auto(fd), "NO_COLOR=1");
	clean_env();
	setenv("TERM", "dumb", 1);
	cr_expect(!rl_term_color_auto(fd), "TERM=dumb");
	for (int i = 0; i < 3; i++) {
		clean_env();
		setenv(rank[i], "0", 1);
		cr_expect(!rl_term_color_auto(fd), "%s=0: a rank of mpirun",
			  rank[i]);
	}
	close(fd);
}
