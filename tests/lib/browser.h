/*
 * Headless Chromium for the tests that open report.html in a real
 * browser (tests/render/test_browser*.c): Debian's /usr/bin/chromium, a
 * profile folder of its own per test process, stdout as text.
 */
#ifndef RL_TESTS_LIB_BROWSER_H
#define RL_TESTS_LIB_BROWSER_H

#define RL_TEST_CHROMIUM "/usr/bin/chromium"

/* Skips the test when chromium is missing; makes the profile folder. */
void rl_test_need_chromium(void);
/* Runs chromium headless on url with extra args (shell words, already
 * quoted); its stdout, malloc'd. Fails the test on a non-zero status. */
char *rl_test_chromium(const char *args, const char *url);
/* The profile folder ("" before rl_test_need_chromium), for files the
 * test writes beside it. */
const char *rl_test_chromium_dir(void);
/* Removes the profile folder (a suite's .fini). */
void rl_test_chromium_cleanup(void);

#endif
