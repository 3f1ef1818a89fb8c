/* Report files through memory, a temporary file and a rename
 * (render_file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_write.h"
#include "render_file.h"
#include "rl_error.h"

int rl_render_file(const struct rl_renderer *r, const char *path,
		   const struct rl_report *rep,
		   const struct rl_render_options *ropt, char *err,
		   size_t errlen)
{
	char *buf = NULL, why[1024] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc, e;

	if (!f)
		return rl_fail(err, errlen, RL_ENOMEM,
			       "cannot write the %s report '%s': out of memory",
			       r->format, path);
	rc = r->render(f, rep, ropt, why, sizeof why);
	if ((fclose(f) != 0 || !buf) && rc == 0)
		rc = rl_fail(why, sizeof why, RL_ENOMEM, "out of memory");
	if (rc == 0 && (e = rl_file_write_errno(path, buf, len)) != 0)
		rc = rl_fail(err, errlen, rl_file_errno_code(-e),
			     "cannot write the %s report '%s': %s", r->format,
			     path, strerror(-e));
	else if (rc)
		rl_fail(err, errlen, rc, "cannot write the %s report '%s': %s",
			r->format, path, why[0] ? why : rl_strerror(rc));
	free(buf);
	return rc;
}
