/* Placeholder: the rlprof command is being written (issue 2). */
#include <stdio.h>

int main(void)
{
	fputs("rlprof: not built yet\n", stderr);
	return 1;
}
