/* The renderers, one line each (render.h). */
#include <string.h>

#include "render/render.h"

extern const struct rl_renderer rl_renderer_table, rl_renderer_json,
	rl_renderer_csv, rl_renderer_svg, rl_renderer_html;

static const struct rl_renderer *const rl_renderers[] = {
	&rl_renderer_table, &rl_renderer_json, &rl_renderer_csv,
	&rl_renderer_svg,   &rl_renderer_html,
};

size_t rl_renderer_count(void)
{
	return sizeof rl_renderers / sizeof *rl_renderers;
}

const struct rl_renderer *rl_renderer_at(size_t i)
{
	return i < rl_renderer_count() ? rl_renderers[i] : NULL;
}

const struct rl_renderer *rl_renderer_find(const char *format)
{
	for (size_t i = 0; format && i < rl_renderer_count(); i++)
		if (strcmp(rl_renderers[i]->format, format) == 0)
			return rl_renderers[i];
	return NULL;
}
