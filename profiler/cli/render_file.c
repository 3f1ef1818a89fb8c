/* Report files streamed into a temporary file and renamed into place
 * (render_file.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/file_write.h"
#include "cli/render_file.h"
#include "common/rl_error.h"

int rl_render_file(const struct rl_renderer *r, const char *path,
		   bool owned, const struct rl_report *rep,
		   const struct rl_render_options *ropt, char *err,
		   size_t errlen)
{
	struct rl_file_out o;
	char why[1024] = "";
	int rc, e;

	if ((e = owned ? rl_file_open_owned(path, &o)
		       : rl_file_open(path, &o)) != 0)
		return rl_fail(err, errlen, rl_file_errno_code(-e),
			       "cannot write the %s report '%s': %s", r->format,
			       path, strerror(-e));
	rc = r->render(o.f, rep, ropt, why, sizeof why);
	if (rc) { /* a failed write names the system's reason */
		const char *reason = ferror(o.f) && errno ? strerror(errno)
				   : why[0] ? why : rl_strerror(rc);
		rc = rl_fail(err, errlen, rc, "cannot write the %s report "
			     "'%s': %s", r->format, path, reason);
		rl_file_discard(&o);
		return rc;
	}
	if ((e = rl_file_commit(&o)) != 0)
		return rl_fail(err, errlen, rl_file_errno_code(-e),
			       "cannot write the %s report '%s': %s", r->format,
			       path, strerror(-e));
	return 0;
}
