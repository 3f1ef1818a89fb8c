/* rlprof inspect --loops: the loop tree of a program's own code as text
 * or JSON (render/render_loop_list.h). */
#include "render/render_loop_list.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "common/term_text.h"

void rl_loop_list_text(const char *prog, const struct rl_loops *l)
{
	size_t nf = 0;

	for (size_t i = 0; i < l->n; i++)
		if (i == 0 || l->v[i].func_addr != l->v[i - 1].func_addr)
			nf++;
	rl_term_put(stdout, prog);
	printf(": %zu loop%s in %zu of %zu function%s", l->n,
	       l->n == 1 ? "" : "s", nf, l->n_funcs,
	       l->n_funcs == 1 ? "" : "s");
	if (!l->have_symbols)
		printf("; no symbol table (stripped): no functions to read\n");
	else if (l->have_lines)
		printf(", named by source line (DWARF)\n");
	else
		printf("; no line table: loops named by function and address "
		       "(build with -g for source lines)\n");
	for (size_t i = 0; i < l->n; i++) {
		const struct rl_loop *p = &l->v[i];
		char name[1024];
		size_t cols = 2 + 2 * (size_t)p->depth;

		rl_loop_name(l, i, name, sizeof name);
		printf("%*s", (int)cols, "");
		rl_term_put(stdout, name);
		cols += strlen(name);
		for (; cols < 44; cols++)
			fputc(' ', stdout);
		printf("  0x%" PRIx64 "  %zu block%s, %zu instructions",
		       p->head, p->n_blocks, p->n_blocks == 1 ? "" : "s",
		       p->n_insns);
		if (p->chains.add + p->chains.mul + p->chains.madd)
			printf(", %u dependent floating-point chain%s",
			       p->chains.add + p->chains.mul + p->chains.madd,
			       p->chains.add + p->chains.mul + p->chains.madd == 1
				       ? "" : "s");
		fputc('\n', stdout);
	}
}

int rl_loop_json_names(json_t *o, const struct rl_loops *l, size_t i)
{
	const struct rl_loop *p = &l->v[i];
	char name[1024];
	json_t *inl, *ch;

	rl_loop_name(l, i, name, sizeof name);
	if (rl_json_set(o, "name", rl_json_text(name)) < 0 ||
	    rl_json_set(o, "scope", rl_json_text(p->scope ? p->scope : p->func)) < 0)
		return -1;
	if (p->n_inl) {
		if (!(inl = json_array()) || rl_json_set(o, "inlined", inl) < 0)
			return -1;
		for (size_t k = 0; k < p->n_inl; k++) {
			json_t *e = json_object();
			if (!e || json_array_append_new(inl, e) < 0 ||
			    rl_json_set(e, "function", rl_json_text(p->inl[k].func)) < 0 ||
			    rl_json_set(e, "file", rl_json_text(p->inl[k].call_file)) < 0 ||
			    rl_json_set(e, "line", p->inl[k].call_line
					? json_integer(p->inl[k].call_line)
					: json_null()) < 0 ||
			    rl_json_set(e, "into", rl_json_text(
					k + 1 < p->n_inl ? p->inl[k + 1].func
							 : p->func)) < 0)
				return -1;
		}
	}
	if (!p->chains.known)
		return 0;
	if (!(ch = json_object()) || rl_json_set(o, "chains", ch) < 0 ||
	    rl_json_set(ch, "add", json_integer(p->chains.add)) < 0 ||
	    rl_json_set(ch, "mul", json_integer(p->chains.mul)) < 0 ||
	    rl_json_set(ch, "madd", json_integer(p->chains.madd)) < 0)
		return -1;
	return 0;
}

int rl_loop_list_json(const char *prog, const struct rl_loops *l)
{
	json_t *root = json_object(), *arr = json_array();
	int rc = -1;

	if (!root || !arr || rl_json_set(root, "program", rl_json_text(prog)) < 0 ||
	    rl_json_set(root, "functions", json_integer((json_int_t)l->n_funcs)) < 0 ||
	    rl_json_set(root, "symbols", json_boolean(l->have_symbols)) < 0 ||
	    rl_json_set(root, "lines", json_boolean(l->have_lines)) < 0 ||
	    rl_json_set(root, "loops", json_incref(arr)) < 0)
		goto out;
	for (size_t i = 0; i < l->n; i++) {
		const struct rl_loop *p = &l->v[i];
		json_t *o = json_object();
		char label[1024], addr[32];

		rl_loop_label(l, i, label, sizeof label);
		snprintf(addr, sizeof addr, "0x%" PRIx64, p->head);
		if (!o || json_array_append_new(arr, o) < 0 ||
		    rl_json_set(o, "id", json_integer((json_int_t)i + 1)) < 0 ||
		    rl_json_set(o, "parent", p->parent < 0 ? json_null()
				    : json_integer(p->parent + 1)) < 0 ||
		    rl_json_set(o, "depth", json_integer(p->depth)) < 0 ||
		    rl_json_set(o, "label", rl_json_text(label)) < 0 ||
		    rl_json_set(o, "function", rl_json_text(p->func)) < 0 ||
		    rl_json_set(o, "file", rl_json_text(p->file)) < 0 ||
		    rl_json_set(o, "line", p->line ? json_integer(p->line)
					   : json_null()) < 0 ||
		    rl_json_set(o, "address", json_string(addr)) < 0 ||
		    rl_json_set(o, "blocks", json_integer((json_int_t)p->n_blocks)) < 0 ||
		    rl_json_set(o, "instructions",
			json_integer((json_int_t)p->n_insns)) < 0 ||
		    rl_loop_json_names(o, l, i) < 0)
			goto out;
	}
	rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (rc == 0)
		fputc('\n', stdout);
out:
	json_decref(arr);
	json_decref(root);
	return rc;
}

