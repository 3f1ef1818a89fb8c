/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: counts per loop (--sim-loops=FILE, --sim-loops-out=FILE).
 *
 * rlprof run --loops finds the loops of the program's code
 * (profiler/inspect/loops.c) and writes the spans of its functions, each
 * with its innermost loop (0: in no loop), as file addresses:
 *   rlprof-loops 1
 *   object PATH
 *   span LO HI LOOP        (hex, hex, decimal)
 * Each guest instruction of that object is thereby in a loop or in none;
 * code of other objects (shared libraries) belongs to the loop that ran
 * before it (a libm call inside a loop counts in the loop). The
 * instrumentation (rs_instrument.c) asks rs_loop_of for each instruction
 * and, where the loop changes, has the block call rs_loop_switch (at a
 * block's first instruction only when rs_loop_cur differs, a load and a
 * compare): the counts of rs_live so far are folded into the loop that
 * ran (rs_main.c's fold_live calls rs_loops_charge). Every flop and every
 * byte at every level is charged where rs_live is: to the loop running
 * when it is counted, in the thread then running (by its kernel thread
 * id: a Valgrind ThreadId is reused after a thread exits). At exit the
 * totals per loop (exclusive) of each thread are written to
 * --sim-loops-out (%p: the process id):
 *   rlprof-loop-counts 1
 *   object PATH
 *   levels N
 *   thread TID             (its kernel thread id; then its loops)
 *   calls ID S0 ... S16    (what the thread counted inside the calls made
 *                           from loop ID's body until they returned: its
 *                           total is its inclusive counts and these)
 *   loop ID S0 S1 ... S16  (the slots of rs.h, decimal; loops with counts)
 * A reader that skips the thread lines gets the process's totals.
 * A program that opens regions (librlprof tells each with RS_REQ_REGION)
 * also gets, before the threads, each region's number and name, and
 * after each loop line the regions innermost open on that thread while
 * the loop was charged (0: none; at most 64 regions are told apart, a
 * later one counts as the 64th):
 *   region R NAME
 *   loop-regions ID R ...
 * (a version 1 reader skips both). A thread with no region of its own
 * open runs in the innermost process-scope region open (RS_REQ_REGION's
 * scoped: the main thread's call outside a parallel region, whose counts
 * hold every thread's work, runtime/rt_scope.h): the loops of an OpenMP
 * team's workers are that region's, as their flops are in its counts.
 */
#include "counters/sim/rs.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"

const HChar *rs_loops_in = NULL;
Bool rs_loop_calls = False;
const HChar *rs_loops_out = NULL;
ULong rs_loop_cur;
ULong rs_calls_open; /* the charged thread's open calls */

struct span {
	Addr lo, hi;
	UInt loop;
};

static struct span *spans;
static UInt n_spans, n_loops;
static HChar *object;
static ULong obj_dev, obj_ino;
static ULong (*acc)[RS_NSLOTS]; /* per loop id, 0: in no loop: the
				   accumulator of the thread charged */
/* a call made from inside loop `loop`, not yet returned: the stack
 * pointer after the call and the thread's counts then */
struct call_frame {
	Addr sp;
	UInt loop;
	ULong at[RS_NSLOTS];
};
struct thread_acc {
	Int lwp;
	ULong (*acc)[RS_NSLOTS];
	ULong (*calls)[RS_NSLOTS]; /* per loop id: counted inside its calls */
	ULong all[RS_NSLOTS];      /* everything charged to the thread */
	struct call_frame *frame;  /* open calls, innermost last */
	UInt n_frame, cap_frame;
	UInt *open;                /* per loop id: its open calls */
	ULong *in_regions; /* per loop id: bit r, charged in region r */
	UInt *stack;       /* the regions open, innermost last (| SCOPED) */
	UInt depth, cap;
};
#define SCOPED 0x80000000u /* a process-scope call's entry */
#define MAX_REGIONS 64
static HChar *region_name[MAX_REGIONS]; /* 0 unused: no region */
static UInt n_regions = 1;
static struct thread_acc *cur_thr;
/* the process-scope regions open (any thread's, in practice the main
 * thread's), innermost last */
static UInt *scope_stack;
static UInt scope_depth, scope_cap;
static struct thread_acc *thr_acc; /* every thread seen, exited too */
static UInt n_thr_acc, cap_thr_acc;
static Bool obj_seen;

/* the DebugInfo last asked about and whether it is the object */
static const DebugInfo *last_di;
static Bool last_match;
static PtrdiffT last_bias;

Bool rs_loops_on(void)
{
	return spans != NULL;
}

static Bool same_file(const HChar *path)
{
	struct vg_stat st;
	if (!path || sr_isError(VG_(stat)(path, &st)))
		return False;
	return st.dev == obj_dev && st.ino == obj_ino;
}

void rs_loops_init(void)
{
	struct vg_stat st;
	SysRes r;
	Int fd, len = 0, cap = 1 << 16, got;
	HChar *buf, *line, *next;
	UInt cap_spans = 1024;

	if (!rs_loops_in)
		return;
	r = VG_(open)(rs_loops_in, VKI_O_RDONLY, 0);
	if (sr_isError(r))
		RS_BAD_OPTION("--sim-loops", "cannot open '%s'\n", rs_loops_in);
	fd = (Int)sr_Res(r);
	buf = VG_(malloc)("rlprofsim.loops", cap + 1);
	while ((got = VG_(read)(fd, buf + len, cap - len)) > 0) {
		len += got;
		if (len == cap) {
			cap *= 2;
			buf = VG_(realloc)("rlprofsim.loops", buf, cap + 1);
		}
	}
	VG_(close)(fd);
	buf[len] = '\0';
	spans = VG_(malloc)("rlprofsim.loops", cap_spans * sizeof *spans);
	for (line = buf; line && *line; line = next) {
		next = VG_(strchr)(line, '\n');
		if (next)
			*next++ = '\0';
		if (VG_(strncmp)(line, "object ", 7) == 0) {
			object = VG_(strdup)("rlprofsim.loops", line + 7);
		} else if (VG_(strncmp)(line, "span ", 5) == 0) {
			HChar *p = line + 5;
			struct span s;
			s.lo = (Addr)VG_(strtoull16)(p, &p);
			s.hi = (Addr)VG_(strtoull16)(p, &p);
			s.loop = (UInt)VG_(strtoull10)(p, &p);
			if (s.hi <= s.lo ||
			    (n_spans && s.lo < spans[n_spans - 1].hi))
				RS_BAD_OPTION("--sim-loops",
					      "'%s': spans out of order\n",
					      rs_loops_in);
			if (n_spans == cap_spans) {
				cap_spans *= 2;
				spans = VG_(realloc)("rlprofsim.loops", spans,
						     cap_spans * sizeof *spans);
			}
			spans[n_spans++] = s;
			if (s.loop + 1 > n_loops)
				n_loops = s.loop + 1;
		}
	}
	VG_(free)(buf);
	if (!object || sr_isError(VG_(stat)(object, &st)))
		RS_BAD_OPTION("--sim-loops", "'%s': no readable object named\n",
			      rs_loops_in);
	obj_dev = st.dev;
	obj_ino = st.ino;
	if (!n_loops)
		n_loops = 1;
	/* each thread's accumulator is made when it first runs */
}

Int rs_loop_of(Addr a)
{
	DebugInfo *di;
	Addr fa;
	UInt lo = 0, hi = n_spans;

	if (!spans)
		return RS_LOOP_INHERIT;
	di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
	if (!di)
		return RS_LOOP_INHERIT;
	if (di != last_di) {
		last_di = di;
		last_match = same_file(VG_(DebugInfo_get_filename)(di));
		last_bias = VG_(DebugInfo_get_text_bias)(di);
	}
	if (!last_match)
		return RS_LOOP_INHERIT;
	obj_seen = True;
	fa = a - (Addr)last_bias;
	while (lo < hi) {
		UInt m = (lo + hi) / 2;
		if (spans[m].hi <= fa)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo < n_spans && spans[lo].lo <= fa)
		return (Int)spans[lo].loop;
	return RS_LOOP_INHERIT; /* the object's code outside its functions
				   (PLT stubs): the caller's loop */
}

/* A thread switch is rare (Valgrind's time slices), so a linear search
 * over the threads seen costs nothing measurable. */
void rs_loops_thread_now(void)
{
	Int lwp;

	if (!spans)
		return;
	lwp = VG_(gettid)();
	for (UInt i = 0; i < n_thr_acc; i++)
		if (thr_acc[i].lwp == lwp) {
			acc = thr_acc[i].acc;
			cur_thr = &thr_acc[i];
			rs_calls_open = cur_thr->n_frame;
			return;
		}
	if (n_thr_acc == cap_thr_acc) {
		cap_thr_acc = cap_thr_acc ? 2 * cap_thr_acc : 16;
		thr_acc = VG_(realloc)("rlprofsim.loops", thr_acc,
				       cap_thr_acc * sizeof *thr_acc);
	}
	VG_(memset)(&thr_acc[n_thr_acc], 0, sizeof *thr_acc);
	thr_acc[n_thr_acc].lwp = lwp;
	thr_acc[n_thr_acc].in_regions =
		VG_(calloc)("rlprofsim.loops", n_loops, sizeof(ULong));
	thr_acc[n_thr_acc].calls = VG_(calloc)("rlprofsim.loops", n_loops,
					       sizeof *thr_acc[0].calls);
	thr_acc[n_thr_acc].open = VG_(calloc)("rlprofsim.loops", n_loops,
					      sizeof(UInt));
	cur_thr = &thr_acc[n_thr_acc];
	rs_calls_open = 0;
	acc = thr_acc[n_thr_acc++].acc =
		VG_(calloc)("rlprofsim.loops", n_loops, sizeof *acc);
}

static UInt region_id(const HChar *name)
{
	for (UInt r = 1; r < n_regions; r++)
		if (VG_(strcmp)(region_name[r], name) == 0)
			return r;
	if (n_regions == MAX_REGIONS)
		return MAX_REGIONS - 1;
	region_name[n_regions] = VG_(strdup)("rlprofsim.loops", name);
	return n_regions++;
}

void rs_loops_region(const HChar *name, Bool scoped)
{
	struct thread_acc *t;
	UInt r;

	if (!spans)
		return;
	if (!acc)
		rs_loops_thread_now();
	t = cur_thr;
	if (!name) {
		if (t->depth && (t->stack[--t->depth] & SCOPED) && scope_depth)
			scope_depth--;
		return;
	}
	if (t->depth == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->stack = VG_(realloc)("rlprofsim.loops", t->stack,
					t->cap * sizeof *t->stack);
	}
	r = region_id(name);
	t->stack[t->depth++] = r | (scoped ? SCOPED : 0);
	if (!scoped)
		return;
	if (scope_depth == scope_cap) {
		scope_cap = scope_cap ? 2 * scope_cap : 16;
		scope_stack = VG_(realloc)("rlprofsim.loops", scope_stack,
					   scope_cap * sizeof *scope_stack);
	}
	scope_stack[scope_depth++] = r;
}

/* The region the thread charged runs in: its own innermost, else the
 * innermost process-scope one, else none (0). */
static UInt region_now(const struct thread_acc *t)
{
	if (t->depth)
		return t->stack[t->depth - 1] & ~SCOPED;
	return scope_depth ? scope_stack[scope_depth - 1] : 0;
}

void rs_loops_charge(const ULong *live)
{
	if (!acc && spans)
		rs_loops_thread_now(); /* before the first switch */
	ULong any = 0;

	if (!acc || rs_loop_cur >= n_loops)
		return;
	for (Int k = 0; k < RS_NSLOTS; k++) {
		acc[rs_loop_cur][k] += live[k];
		cur_thr->all[k] += live[k];
		any |= live[k];
	}
	if (any)
		cur_thr->in_regions[rs_loop_cur] |= 1ULL << region_now(cur_thr);
	/* the other threads work inside the calls the process's first
	 * thread has open, as an OpenMP team's workers run the parallel
	 * body while it waits in GOMP_parallel: their counts are in its
	 * calls' too (and in their own calls', which are other loops') */
	if (any && cur_thr != &thr_acc[0] && thr_acc[0].n_frame)
		for (Int k = 0; k < RS_NSLOTS; k++)
			thr_acc[0].all[k] += live[k];
}

void rs_loops_call_push(Addr sp, UInt id)
{
	struct thread_acc *t;
	struct call_frame *f;

	if (!acc)
		rs_loops_thread_now();
	if (!acc || id == 0 || id >= n_loops)
		return;
	t = cur_thr;
	if (t->n_frame == t->cap_frame) {
		t->cap_frame = t->cap_frame ? 2 * t->cap_frame : 64;
		t->frame = VG_(realloc)("rlprofsim.loops", t->frame,
					t->cap_frame * sizeof *t->frame);
	}
	f = &t->frame[t->n_frame++];
	f->sp = sp;
	f->loop = id;
	VG_(memcpy)(f->at, t->all, sizeof f->at);
	t->open[id]++;
	rs_calls_open = t->n_frame;
}

/* The thread's innermost open call returned: what it counted since is
 * its loop's, once (a loop whose call recurses into it again counts the
 * outermost call alone). */
static void close_call(struct thread_acc *t)
{
	struct call_frame *f = &t->frame[--t->n_frame];

	if (--t->open[f->loop])
		return;
	for (Int k = 0; k < RS_NSLOTS; k++)
		t->calls[f->loop][k] += t->all[k] - f->at[k];
}

/* sp: the stack pointer after a return; every call whose frame it is
 * above has returned (a longjmp or an exception may return from several
 * at once). */
void rs_loops_call_pop(Addr sp)
{
	struct thread_acc *t = cur_thr;

	if (!t)
		return;
	while (t->n_frame && t->frame[t->n_frame - 1].sp < sp)
		close_call(t);
	rs_calls_open = t->n_frame;
}

void rs_loops_emit_calls(IRSB *out, IRJumpKind jk, Int loop, Int sp,
			 IRType word)
{
	IRDirty *di;
	IRTemp now; /* the stack pointer (a dirty call's arguments are
		       atoms) */

	if (!(jk == Ijk_Call && loop > 0) && jk != Ijk_Ret)
		return;
	now = newIRTemp(out->tyenv, word);
	addStmtToIRSB(out, IRStmt_WrTmp(now, IRExpr_Get(sp, word)));
	if (jk == Ijk_Call) {
		di = unsafeIRDirty_0_N(2, "rs_loop_call",
				       VG_(fnptr_to_fnentry)(rs_loop_call),
				       mkIRExprVec_2(IRExpr_RdTmp(now),
						     mkIRExpr_HWord((HWord)loop)));
		addStmtToIRSB(out, IRStmt_Dirty(di));
	} else {
		/* only while the thread has calls open: a load and a
		 * compare */
		IRTemp n = newIRTemp(out->tyenv, Ity_I64);
		IRTemp g = newIRTemp(out->tyenv, Ity_I1);
		addStmtToIRSB(out, IRStmt_WrTmp(n, IRExpr_Load(Iend_LE, Ity_I64,
				rs_tool_addr(out, &rs_calls_open, NULL))));
		addStmtToIRSB(out, IRStmt_WrTmp(g, IRExpr_Binop(Iop_CmpNE64,
				IRExpr_RdTmp(n), IRExpr_Const(IRConst_U64(0)))));
		di = unsafeIRDirty_0_N(1, "rs_loop_ret",
				       VG_(fnptr_to_fnentry)(rs_loop_ret),
				       mkIRExprVec_1(IRExpr_RdTmp(now)));
		di->guard = IRExpr_RdTmp(g);
		addStmtToIRSB(out, IRStmt_Dirty(di));
	}
}

/* One line of the loop-counts file: "KEY ID S0 ... S16". */
static void write_counts(Int fd, const HChar *key, UInt id, const ULong *c)
{
	HChar line[64 + 24 * RS_NSLOTS];
	Int n = VG_(snprintf)(line, sizeof line, "%s %u", key, id);

	for (Int k = 0; k < RS_NSLOTS; k++)
		n += VG_(snprintf)(line + n, sizeof line - n, " %llu",
				   k == RS_VERSION ? 0ULL : c[k]);
	line[n++] = '\n';
	VG_(write)(fd, line, n);
}

void rs_loops_fini(void)
{
	HChar *path, line[64 + 24 * RS_NSLOTS];
	SysRes r;
	Int fd, n;

	if (!n_thr_acc || !rs_loops_out || !obj_seen)
		return;
	path = VG_(expand_file_name)("--sim-loops-out", rs_loops_out);
	r = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
	if (sr_isError(r)) {
		VG_(umsg)("rlprofsim: cannot write the counts per loop to "
			  "'%s'\n", path);
		VG_(free)(path);
		return;
	}
	fd = (Int)sr_Res(r);
	n = VG_(snprintf)(line, sizeof line, "rlprof-loop-counts 1\nobject ");
	VG_(write)(fd, line, n);
	VG_(write)(fd, object, (Int)VG_(strlen)(object));
	n = VG_(snprintf)(line, sizeof line, "\nlevels %d\n",
			  rs_cache_nlevels());
	VG_(write)(fd, line, n);
	for (UInt r = 1; r < n_regions; r++) {
		n = VG_(snprintf)(line, sizeof line, "region %u ", r);
		VG_(write)(fd, line, n);
		VG_(write)(fd, region_name[r],
			   (Int)VG_(strlen)(region_name[r]));
		VG_(write)(fd, "\n", 1);
	}
	for (UInt t = 0; t < n_thr_acc; t++) {
		ULong (*a)[RS_NSLOTS] = thr_acc[t].acc;
		n = VG_(snprintf)(line, sizeof line, "thread %d\n",
				  thr_acc[t].lwp);
		VG_(write)(fd, line, n);
		/* calls still open at the exit (exit() from a loop's
		 * callee) end here */
		while (thr_acc[t].n_frame)
			close_call(&thr_acc[t]);
		for (UInt id = 1; id < n_loops; id++) {
			Bool any = False;
			for (Int k = 0; k < RS_NSLOTS; k++)
				any |= thr_acc[t].calls[id][k] != 0;
			if (any)
				write_counts(fd, "calls", id,
					     thr_acc[t].calls[id]);
		}
		for (UInt id = 0; id < n_loops; id++) {
			Bool any = False;
			for (Int k = 0; k < RS_NSLOTS; k++)
				any |= a[id][k] != 0;
			if (!any)
				continue;
			write_counts(fd, "loop", id, a[id]);
			if (n_regions == 1)
				continue; /* the program opened none */
			n = VG_(snprintf)(line, sizeof line, "loop-regions %u",
					  id);
			for (UInt r = 0; r < MAX_REGIONS; r++)
				if (thr_acc[t].in_regions[id] >> r & 1)
					n += VG_(snprintf)(line + n,
							   sizeof line - n,
							   " %u", r);
			line[n++] = '\n';
			VG_(write)(fd, line, n);
		}
	}
	VG_(close)(fd);
	VG_(free)(path);
}
