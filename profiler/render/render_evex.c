/* The AVX-512 note of rlprof run and rlprof inspect: see render_evex.h. */
#include "render/render_evex.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/json_text.h"
#include "common/shell_quote.h"
#include "common/term_text.h"

static void put_line(FILE *out, const char *prefix, const char *text)
{
	fputs(prefix, out);
	rl_term_put(out, text);
	fputc('\n', out);
}

void rl_evex_note_functions(FILE *out, const char *prefix,
			    const struct rl_evex_scan *s, const char *program)
{
	char line[1024], where[400];

	for (size_t i = 0; i < s->n_funcs; i++) {
		const struct rl_evex_func *f = &s->funcs[i];
		const char *lib = strrchr(f->object, '/');

		where[0] = 0;
		if (f->file[0])
			snprintf(where, sizeof where, " (%s:%d)", f->file,
				 f->line);
		snprintf(line, sizeof line, "%s%s%s%s: %lu AVX-512 instruction%s",
			 f->name[0] ? f->name : "code outside any function",
			 where, strcmp(f->object, program) ? " in " : "",
			 strcmp(f->object, program) ? (lib ? lib + 1 : f->object)
						    : "",
			 f->n, f->n == 1 ? "" : "s");
		put_line(out, prefix, line);
	}
	if (s->more_funcs) {
		snprintf(line, sizeof line, "and %zu more function%s",
			 s->more_funcs, s->more_funcs == 1 ? "" : "s");
		put_line(out, prefix, line);
	}
}

void rl_evex_note_rebuild(FILE *out, const char *prefix, const char *program,
			  char *const *args)
{
	size_t len = 2 * rl_shell_quote_len(program) + 64;
	char *line, *p, v3[4096];

	for (size_t i = 0; args && args[i]; i++)
		len += rl_shell_quote_len(args[i]) + 1;
	if (!(line = malloc(len)))
		return;
	put_line(out, prefix,
		 "rebuild the program (and any library of its listed) without "
		 "AVX-512 (-march=x86-64-v3 in place of "
		 "-march=native, or add -mno-avx512f) into a second program "
		 "and count that one while this one is timed, e.g.:");
	snprintf(v3, sizeof v3, "%s-v3", program);
	p = line + sprintf(line, "  rlprof run --count-with ");
	p = rl_shell_quote(p, v3);
	*p++ = ' ';
	p = rl_shell_quote(p, program);
	for (size_t i = 0; args && args[i]; i++) {
		*p++ = ' ';
		p = rl_shell_quote(p, args[i]);
	}
	*p = 0;
	put_line(out, prefix, line);
	free(line);
}

json_t *rl_evex_note_json(const struct rl_evex_scan *s)
{
	json_t *o = json_object(), *fs;

	/* fs belongs to o once set: freed with it */
	if (!o ||
	    rl_json_set(o, "instructions", json_integer((json_int_t)s->total)) < 0 ||
	    rl_json_set(o, "dispatch_variants",
			json_integer((json_int_t)s->dispatched)) < 0 ||
	    rl_json_set(o, "functions", fs = json_array()) < 0 ||
	    rl_json_set(o, "more_functions",
			json_integer((json_int_t)s->more_funcs)) < 0 ||
	    rl_json_set(o, "files_read",
			json_integer((json_int_t)s->n_objects)) < 0)
		goto nomem;
	for (size_t i = 0; i < s->n_funcs; i++) {
		const struct rl_evex_func *f = &s->funcs[i];
		json_t *e = json_object();
		if (!e || json_array_append_new(fs, e) ||
		    rl_json_set(e, "function", rl_json_text(f->name)) < 0 ||
		    rl_json_set(e, "object", rl_json_text(f->object)) < 0 ||
		    rl_json_set(e, "file", f->file[0] ? rl_json_text(f->file)
						      : json_null()) < 0 ||
		    rl_json_set(e, "line", f->file[0] ? json_integer(f->line)
						      : json_null()) < 0 ||
		    rl_json_set(e, "instructions",
				json_integer((json_int_t)f->n)) < 0)
			goto nomem;
	}
	return o;
nomem:
	json_decref(o);
	return NULL;
}
