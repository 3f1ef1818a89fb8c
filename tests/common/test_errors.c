/* rl_error.h: codes, names and messages from one table. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/rl_error.h"

Test(errors, strerror_and_name_come_from_the_table)
{
	cr_assert_str_eq(rl_strerror(0), "success");
	cr_assert_str_eq(rl_strerror(RL_EVERSION), "file written by a newer rlprof");
	cr_assert_str_eq(rl_error_name(RL_ENOENT), "RL_ENOENT");
	cr_assert_str_eq(rl_strerror(-999), "unknown error");
}

Test(errors, fail_fills_the_message_and_returns_the_code)
{
	char msg[64];
	int rc = rl_fail(msg, sizeof msg, RL_EINVAL, "unknown backend '%s'", "x");
	cr_assert_eq(rc, RL_EINVAL);
	cr_assert_str_eq(msg, "unknown backend 'x'");
	cr_assert_eq(rl_fail(NULL, 0, RL_EIO, "ignored"), RL_EIO);
}
