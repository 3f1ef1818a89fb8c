/* rlprof inspect --loops: the loop tree of a program's own code. */
#include "cli/inspect_loops.h"

#include <stdio.h>

#include "cli/commands.h"
#include "inspect/loops.h"
#include "common/term_text.h"
#include "render/render_loop_list.h"

int rl_inspect_loops(const char *prog, int as_json)
{
	struct rl_loops l;
	char err[1024];
	int rc;

	if (rl_loops_find(prog, &l, err, sizeof err) < 0) {
		fputs("rlprof: ", stderr);
		rl_term_put(stderr, err);
		fputc('\n', stderr);
		return RL_EXIT_FAILURE;
	}
	if (as_json) {
		rc = rl_loop_list_json(prog, &l);
	} else {
		rl_loop_list_text(prog, &l);
		rc = 0;
	}
	rl_loops_release(&l);
	if (rc < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "rlprof: cannot write to stdout\n");
		return RL_EXIT_FAILURE;
	}
	return RL_EXIT_OK;
}
