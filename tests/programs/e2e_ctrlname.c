/* A misused region whose name carries a C1 control sequence introducer
 * (U+009B, which the runtime keeps as valid UTF-8): the warning rlprof
 * prints must show it escaped, not send it to the terminal. A region
 * whose name holds U+202E (right-to-left override) must not reverse the
 * rest of its table row. */
#include "rlprof.h"

int main(void)
{
	RL_REGION_BEGIN("ok");
	RL_REGION_END("ok");
	RL_REGION_BEGIN("rtl\xe2\x80\xae" "x");
	RL_REGION_END("rtl\xe2\x80\xae" "x");
	RL_REGION_END("\xc2\x9b" "31mred");
	return 0;
}
