/* Why LIKWID cannot reach the MSRs here (see msr_why.h). */
#include "counters/events/msr_why.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool exists_under(const char *root, const char *path, int mode)
{
	char full[1024];

	snprintf(full, sizeof full, "%s%s", root, path);
	return access(full, mode) == 0;
}

static bool hypervisor_under(const char *root)
{
	char full[1024], line[4096];
	bool hv = false;
	FILE *f;

	snprintf(full, sizeof full, "%s/proc/cpuinfo", root);
	if (!(f = fopen(full, "r")))
		return false;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "flags", 5) == 0) {
			hv = strstr(line, " hypervisor") != NULL;
			break;
		}
	fclose(f);
	return hv;
}

int rl_msr_why(const char *root, char *why, size_t len)
{
	char full[1024], writes[16] = "";
	FILE *f;

	if (!root)
		root = "";
	why[0] = '\0';
	if (!exists_under(root, "/dev/cpu/0/msr", F_OK)) {
		if (exists_under(root, "/sys/module/msr", F_OK))
			snprintf(why, len,
				 "the msr module is loaded but there is no "
				 "/dev/cpu/0/msr (a container without the "
				 "host's /dev/cpu?): pass the devices in "
				 "(docker: --device /dev/cpu)");
		else
			snprintf(why, len,
				 "no /dev/cpu/0/msr: the msr module is not "
				 "loaded: run 'sudo modprobe msr'%s",
				 hypervisor_under(root)
					 ? " (in this virtual machine the "
					   "hypervisor may still refuse the "
					   "PMU's MSRs)"
					 : "");
		return 1;
	}
	if (!exists_under(root, "/dev/cpu/0/msr", R_OK | W_OK)) {
		snprintf(why, len,
			 "/dev/cpu/0/msr is not readable and writable for "
			 "this user: run as root, or through LIKWID's setuid "
			 "access daemon (likwid-accessD, ACCESSMODE "
			 "accessdaemon in likwid's config)");
		return 1;
	}
	snprintf(full, sizeof full, "%s/sys/module/msr/parameters/allow_writes",
		 root);
	if ((f = fopen(full, "r"))) {
		if (!fgets(writes, sizeof writes, f))
			writes[0] = '\0';
		fclose(f);
	}
	if (strncmp(writes, "off", 3) == 0) {
		snprintf(why, len,
			 "the kernel refuses MSR writes (msr.allow_writes is "
			 "off): run 'echo on | sudo tee "
			 "/sys/module/msr/parameters/allow_writes'");
		return 1;
	}
	return 0;
}
