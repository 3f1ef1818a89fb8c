/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: tool registration, options, per-thread counters and the
 * client requests librlprof's sim backend sends.
 *
 * Generated code and the cache helpers add to rs_live, the counters of the
 * thread now running; when Valgrind switches threads (track_start_client
 * _code) rs_live is folded into the previous thread's totals. Valgrind
 * runs one thread at a time, so flops per thread are exact; the caches
 * are shared by all threads.
 */
#include "counters/sim/rs.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "valgrind.h"

ULong rs_live[RS_NSLOTS];

static ULong (*thr)[RS_NSLOTS]; /* totals per ThreadId */
static ULong *thr_loop; /* per ThreadId: its rs_loop_cur when switched out */
/* per ThreadId: the totals when counting was paused (RS_REQ_PAUSE), and
 * how deep the pauses are nested (0: counting) */
static ULong (*paused_at)[RS_NSLOTS];
static UInt *pause_depth;
static ULong proc_slots[RS_NSLOTS]; /* totals of every thread */
static UInt thr_n;
static ThreadId cur_tid = VG_INVALID_THREADID;

static const HChar *clo_caches = NULL; /* required: rlprof run passes the
					  geometry it derived or was given */
static const HChar *const bounds_name[] = {"cause", "region", "raw"};
static Bool clo_native_fma = True;
static struct rs_level_spec spec[RS_MAX_LEVELS];
static Int nspec;

static ULong *thread_slots(ThreadId tid)
{
	if (tid >= thr_n) {
		UInt n = tid + 16;
		thr = VG_(realloc)("rlprofsim.thr", thr, n * sizeof *thr);
		VG_(memset)(thr + thr_n, 0, (n - thr_n) * sizeof *thr);
		thr_loop = VG_(realloc)("rlprofsim.thr", thr_loop,
					n * sizeof *thr_loop);
		VG_(memset)(thr_loop + thr_n, 0,
			    (n - thr_n) * sizeof *thr_loop);
		paused_at = VG_(realloc)("rlprofsim.paused", paused_at,
					 n * sizeof *paused_at);
		VG_(memset)(paused_at + thr_n, 0,
			    (n - thr_n) * sizeof *paused_at);
		pause_depth = VG_(realloc)("rlprofsim.depth", pause_depth,
					   n * sizeof *pause_depth);
		VG_(memset)(pause_depth + thr_n, 0,
			    (n - thr_n) * sizeof *pause_depth);
		thr_n = n;
	}
	return thr[tid];
}

static void fold_live(void)
{
	if (cur_tid != VG_INVALID_THREADID) {
		ULong *t = thread_slots(cur_tid);
		for (Int k = 0; k < RS_NSLOTS; k++) {
			t[k] += rs_live[k];
			proc_slots[k] += rs_live[k];
		}
	}
	rs_loops_charge(rs_live);
	VG_(memset)(rs_live, 0, sizeof rs_live);
}

VG_REGPARM(1) void rs_loop_switch(UWord id)
{
	fold_live();
	rs_loop_cur = id;
}

VG_REGPARM(2) void rs_loop_call(UWord sp, UWord id)
{
	fold_live();
	rs_loops_call_push((Addr)sp, (UInt)id);
}

VG_REGPARM(1) void rs_loop_ret(UWord sp)
{
	fold_live();
	rs_loops_call_pop((Addr)sp);
}

static void switch_to(ThreadId tid)
{
	if (tid != cur_tid) {
		fold_live();
		/* each thread keeps the loop it was in */
		if (cur_tid != VG_INVALID_THREADID)
			thread_slots(cur_tid), thr_loop[cur_tid] = rs_loop_cur;
		rs_loop_cur = 0;
		if (tid != VG_INVALID_THREADID) {
			thread_slots(tid);
			rs_loop_cur = thr_loop[tid];
		}
		cur_tid = tid;
		rs_loops_thread_now();
	}
}

static void start_client_code(ThreadId tid, ULong blocks)
{
	(void)blocks;
	switch_to(tid);
}

static void thread_created(ThreadId parent, ThreadId child)
{
	(void)parent;
	fold_live(); /* keep rs_live for the running thread's totals */
	VG_(memset)(thread_slots(child), 0, sizeof *thr);
	thr_loop[child] = rs_loop_cur; /* a new thread starts in its
					  creator's loop */
	pause_depth[child] = 0;
}

/* RS_REQ_PAUSE / RS_REQ_RESUME: what the thread counts between them (an
 * MPI call, under librlprof's PMPI wrappers) is taken back out of its
 * totals and the process's, as if never counted; the caches keep what
 * it touched (their state is real). Other threads count on. */
static void pause_counting(ThreadId tid)
{
	ULong *t = thread_slots(tid);

	if (pause_depth[tid]++ == 0) {
		fold_live();
		for (Int k = 0; k < RS_NSLOTS; k++)
			paused_at[tid][k] = t[k];
	}
}

static void resume_counting(ThreadId tid)
{
	ULong *t = thread_slots(tid);

	if (pause_depth[tid] == 0 || --pause_depth[tid] > 0)
		return;
	fold_live();
	for (Int k = 0; k < RS_NSLOTS; k++) {
		ULong d = t[k] - paused_at[tid][k];
		t[k] -= d;
		proc_slots[k] -= d;
	}
}

/* librlprof.so's text, found by its soname (a program linked with the
 * static librlprof.a has the runtime inside its own text: not found). */
Bool rs_runtime_code(Addr a)
{
	DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
	const HChar *so = di ? VG_(DebugInfo_get_soname)(di) : NULL;
	return so && VG_(strncmp)(so, "librlprof.so", 12) == 0;
}

/* rlprof's runtime is not counted: its blocks run uninstrumented (no
 * flops, no simulated cache access). */
static IRSB *instrument(VgCallbackClosure *closure, IRSB *in,
			const VexGuestLayout *layout,
			const VexGuestExtents *vge,
			const VexArchInfo *archinfo_host, IRType gWordTy,
			IRType hWordTy)
{
	if (vge->n_used > 0 && rs_runtime_code((Addr)vge->base[0]))
		return in;
	return rs_instrument(closure, in, layout, vge, archinfo_host, gWordTy,
			     hWordTy);
}

static Int info_text(HChar *buf, Int len, Bool compact)
{
	static const HChar *const names[] = {"L1", "L2", "L3"};
	Int n = compact ? 0 : VG_(snprintf)(buf, len, "caches");
	if (compact)
		buf[0] = '\0';
	for (Int i = 0; i < nspec && n < len; i++) {
		ULong s = spec[i].size_bytes;
		const HChar *u = "";
		if (s % (1ULL << 20) == 0)
			s >>= 20, u = "M";
		else if (s % 1024 == 0)
			s >>= 10, u = "K";
		if (compact)
			n += VG_(snprintf)(buf + n, len - n, "%s%llu%s:%u",
					   i ? "," : "", s, u, spec[i].ways);
		else
			n += VG_(snprintf)(buf + n, len - n, "%s %s %llu%s:%u",
					   i ? "," : "", names[i], s, u,
					   spec[i].ways);
	}
	if (!compact && n < len)
		n += VG_(snprintf)(buf + n, len - n,
				   ", 64 B lines, LRU, write-allocate, "
				   "write-back; bounds %s",
				   bounds_name[rs_bounds]);
	return n;
}

static Bool handle_request(ThreadId tid, UWord *arg, UWord *ret)
{
	if (!VG_IS_TOOL_USERREQ('R', 'L', arg[0]))
		return False;
	switch_to(tid);
	switch (arg[0] - VG_USERREQ_TOOL_BASE('R', 'L')) {
	case RS_REQ_READ:
	case RS_REQ_READ_PROCESS: {
		ULong *out = (ULong *)arg[1];
		if (rs_bounds == RS_BOUNDS_REGION)
			rs_cache_flush();
		fold_live();
		ULong *t = arg[0] - VG_USERREQ_TOOL_BASE('R', 'L') ==
					   RS_REQ_READ_PROCESS
				   ? proc_slots
				   : thread_slots(tid);
		/* arg2: the slots the caller has room for (0: a v1 caller's
		 * 16); it finds RS_PROTOCOL in slot 15 and refuses a newer
		 * one */
		UWord n = arg[2] ? arg[2] : RS_VERSION + 1;
		if (n > RS_NSLOTS)
			n = RS_NSLOTS;
		for (UWord k = 0; k < n; k++)
			out[k] = t[k];
		if (n > RS_NLEVELS)
			out[RS_NLEVELS] = (ULong)rs_cache_nlevels();
		if (n > RS_VERSION)
			out[RS_VERSION] = RS_PROTOCOL;
		*ret = 0;
		return True;
	}
	case RS_REQ_PAUSE:
		pause_counting(tid);
		*ret = 0;
		return True;
	case RS_REQ_RESUME:
		resume_counting(tid);
		*ret = 0;
		return True;
	case RS_REQ_REGION:
		fold_live(); /* what ran so far is the region's before */
		rs_loops_region((const HChar *)arg[1], arg[2] != 0);
		*ret = 0;
		return True;
	case RS_REQ_INFO: {
		HChar *buf = (HChar *)arg[1];
		Int len = (Int)arg[2];
		*ret = len > 0 ? (UWord)info_text(buf, len, arg[3] != 0) : 0;
		return True;
	}
	default:
		*ret = (UWord)-1;
		return True;
	}
}

static Bool process_option(const HChar *arg)
{
	const HChar *bounds = NULL;
	if VG_STR_CLO (arg, "--sim-caches", clo_caches) {
	} else if VG_STR_CLO (arg, "--sim-bounds", bounds) {
		Int k = 0;
		while (k < 3 && VG_(strcmp)(bounds, bounds_name[k]) != 0)
			k++;
		if (k == 3)
			VG_(fmsg_bad_option)(arg,
					     "expected cause, region or raw\n");
		rs_bounds = k;
	} else if VG_STR_CLO (arg, "--sim-loops", rs_loops_in) {
	} else if VG_STR_CLO (arg, "--sim-loops-out", rs_loops_out) {
	} else if VG_BOOL_CLO (arg, "--sim-loop-calls", rs_loop_calls) {
	} else if VG_BOOL_CLO (arg, "--sim-census", rs_census_on) {
	} else if VG_BOOL_CLO (arg, "--sim-native-fma", clo_native_fma) {
	} else {
		return False;
	}
	return True;
}

static void print_usage(void)
{
	VG_(printf)(
"    --sim-caches=S:W,...   cache levels, size:ways each, 64 B lines\n"
"                           (required), e.g. 48K:12,1M:8,32M:16\n"
"    --sim-bounds=cause|region|raw  write-backs charged to the store that\n"
"                           dirtied the line (cause), at each counter read\n"
"                           (region) or at eviction (raw) [cause]\n"
"    --sim-loops=FILE       count per loop: the spans of the program's\n"
"                           functions and their loops (rlprof run --loops)\n"
"    --sim-loops-out=FILE   where the counts per loop go at exit (%%p: pid)\n"
"    --sim-loop-calls=no|yes each loop's total with the functions it calls\n"
"                           (rlprof run --loop-calls; blocks end at calls) [no]\n"
"    --sim-census=yes|no    print the floating-point IR ops seen [no]\n"
"    --sim-native-fma=yes|no  compute FMA lanes on the host's FMA unit\n"
"                           (same bits; when the host has FMA) [yes]\n");
}

static void print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

static void post_clo_init(void)
{
	HChar err[160];
	if (!clo_caches)
		RS_BAD_OPTION("--sim-caches",
			      "the cache geometry is required, e.g. "
			      "--sim-caches=48K:12,1M:8,32M:16\n");
	nspec = rs_parse_caches(clo_caches, spec, err, sizeof err);
	if (nspec == 0)
		RS_BAD_OPTION("--sim-caches", "'%s': %s\n", clo_caches, err);
	rs_cache_init(spec, nspec);
	if (clo_native_fma)
		rs_fma_init();
	rs_loops_init();
	/* --sim-loop-calls: a call ends its block, so that the calls made
	 * from a loop are seen (rs_loops_emit_calls): VEX would otherwise
	 * chase into the callee and the block would end elsewhere (a cost:
	 * only when asked) */
	if (rs_loops_on() && rs_loop_calls)
		VG_(clo_vex_control).guest_chase = False;
}

static void fini(Int exitcode)
{
	(void)exitcode;
	fold_live();
	rs_loops_fini();
	if (rs_census_on)
		rs_census_print();
}

static void pre_clo_init(void)
{
	VG_(details_name)("rlprofsim");
	VG_(details_version)("1");
	VG_(details_description)("the simulated PMU of rlprof: flops and "
				 "cache traffic");
	VG_(details_copyright_author)("Copyright (C) the rlprof authors; "
				      "GPL-2.0-or-later");
	VG_(details_bug_reports_to)("the rlprof maintainers");
	VG_(details_avg_translation_sizeB)(400);
	VG_(basic_tool_funcs)(post_clo_init, instrument, fini);
	VG_(needs_command_line_options)(process_option, print_usage,
					print_debug_usage);
	VG_(needs_client_requests)(handle_request);
	VG_(track_start_client_code)(start_client_code);
	VG_(track_pre_thread_ll_create)(thread_created);
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
