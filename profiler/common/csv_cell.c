/* One CSV text cell (csv_cell.h). */
#include <string.h>

#include "common/csv_cell.h"

void rl_csv_text(FILE *out, const char *s)
{
	int formula;

	if (!s)
		return;
	formula = *s && strchr("=+-@\t\r", *s) != NULL;
	if (!strpbrk(s, ",\"\r\n")) {
		if (formula)
			fputc('\'', out);
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
