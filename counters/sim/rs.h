/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the simulated PMU of rlprof, a Valgrind tool.
 *
 * Counts floating-point operations exactly (by precision and vector width,
 * FMA = 2) and feeds every load and store into a set-associative LRU cache
 * hierarchy (write-allocate, write-back) that counts the bytes crossing
 * each boundary. The profiled program's runtime (librlprof) reads the
 * counters of the calling thread through a client request.
 *
 * Files: rs_main.c (tool registration, options, threads, client requests,
 * skipping the code of rlprof's runtime), rs_instrument.c (IR
 * instrumentation), rs_flops.c (flop classification), rs_fmair.c (the
 * plan of the FMA lanes rewritten to calls of rs_fma.c, which runs them
 * on the host's FMA unit) and rs_fmaemit.c (those calls emitted),
 * rs_cache.c (the cache model) and rs_cache_spec.c (its levels read
 * from --caches), rs_loops.c (counts per loop), rs_decode.c (guest
 * instruction bytes: non-temporal stores, VEX.L, addsub, dpp).
 */
#ifndef RS_H
#define RS_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_guest.h"

/* The counter slots and client requests: formats/sim_protocol.h, shared
 * with counters/backend_sim.c. */
#include "formats/sim_caches.h"
#include "formats/sim_protocol.h"

#define RS_LINE_SHIFT 6 /* 64-byte lines */

/* A bad option found once Valgrind has parsed the options (in
 * post_clo_init and what it calls): VG_(fmsg_bad_option) then only
 * prints (it exits while the core parses them), and the tool went on
 * and crashed (SIGSEGV, SIGFPE); it stops here, exit status 1. The
 * including file includes pub_tool_libcprint.h and pub_tool_libcassert.h. */
#define RS_BAD_OPTION(opt, ...)                                        \
	do {                                                           \
		VG_(fmsg_bad_option)(opt, __VA_ARGS__);                \
		VG_(exit)(1);                                          \
	} while (0)

/* --sim-bounds: how write-backs are charged (see rs_cache.c).
 * cause: to the store that dirtied the line, when it did (the default);
 * region: every dirty line written back at each counter read;
 * raw: when the line is evicted, to whatever runs then. */
enum { RS_BOUNDS_CAUSE, RS_BOUNDS_REGION, RS_BOUNDS_RAW };
extern Int rs_bounds;

/* rs_main.c: is a in rlprof's own runtime (librlprof.so)? Its code is
 * not instrumented: the runtime's instructions are never counted. */
Bool rs_runtime_code(Addr a);

/* Counters of the running thread, added to by generated code and the
 * cache helpers; folded into the thread's own totals on a switch. */
extern ULong rs_live[RS_NSLOTS];

/* rs_loops.c: counts per loop (--sim-loops) */
#define RS_LOOP_INHERIT (-1) /* code outside the object: no switch */
extern const HChar *rs_loops_in, *rs_loops_out;
/* --sim-loop-calls: the calls made from loops counted (rs_loops_emit_calls) */
extern Bool rs_loop_calls;
extern ULong rs_loop_cur; /* the loop id now charged (0: none) */
void rs_loops_init(void);
Bool rs_loops_on(void);
/* The loop id of the guest instruction at a, or RS_LOOP_INHERIT. */
Int rs_loop_of(Addr a);
/* Add live (rs_live) to the loop now charged, in the thread now
 * charged. */
void rs_loops_charge(const ULong *live);
/* The thread now running (called on its own kernel thread once it is
 * switched to) is the one charged from here on. */
void rs_loops_thread_now(void);
/* The thread now charged enters region name (NULL: leaves its innermost
 * one); its loops are marked with the regions they ran in. A scoped
 * region (a process-scope call) is also the region of the loops that
 * threads with no region of their own open run while it is open. */
void rs_loops_region(const HChar *name, Bool scoped);
void rs_loops_fini(void);
/* rs_main.c: fold rs_live into the loop that ran, then charge id */
VG_REGPARM(1) void rs_loop_switch(UWord id);
/* Calls made from inside a loop (rs_loops.c): what the thread counts
 * until the call returns is also the calling loop's "calls" (its total
 * with callees), and, for the process's first thread, what the other
 * threads count meanwhile (an OpenMP team's workers). A block ending in a call from loop id calls
 * rs_loop_call with the stack pointer after the call; a block ending in
 * a return calls rs_loop_ret while the thread has calls open
 * (rs_calls_open). Both fold rs_live first (rs_main.c). */
extern ULong rs_calls_open;
VG_REGPARM(2) void rs_loop_call(UWord sp, UWord id);
VG_REGPARM(1) void rs_loop_ret(UWord sp);
void rs_loops_call_push(Addr sp, UInt id);
void rs_loops_call_pop(Addr sp);
/* The IR of both at the end of block out (jk: its jump kind, loop: the
 * loop its last instruction is in, sp: the guest stack pointer's
 * offset). */
void rs_loops_emit_calls(IRSB *out, IRJumpKind jk, Int loop, Int sp,
			 IRType word);

/* rs_cache.c (rs_parse_caches: rs_cache_spec.c) */
struct rs_level_spec {
	ULong size_bytes;
	UInt ways;
};
/* Parse "48K:12,1M:8,32M:16"; fills spec[], returns the level count or 0
 * with a message in err. */
Int rs_parse_caches(const HChar *text, struct rs_level_spec *spec,
		    HChar *err, Int errlen);
void rs_cache_init(const struct rs_level_spec *spec, Int nlevels);
Int rs_cache_nlevels(void);
/* Write back every dirty line, counting the bytes at each boundary. */
void rs_cache_flush(void);
/* Counted: add the access to the register <-> L1 bytes, then simulate. */
VG_REGPARM(2) void rs_cache_read(Addr a, UWord size);
VG_REGPARM(2) void rs_cache_write(Addr a, UWord size);
/* Simulate only (the L1 bytes counted statically by the caller). */
VG_REGPARM(2) void rs_cache_read_slow(Addr a, UWord size);
VG_REGPARM(2) void rs_cache_write_slow(Addr a, UWord size);
/* read_slow then write_slow, for a load and a store of the same bytes */
VG_REGPARM(2) void rs_cache_modify_slow(Addr a, UWord size);
/* an entry of the cache model: line << RS_ENTRY_SHIFT | flags (bit 0:
 * dirty; bit 1, below L1: a level above may hold the line) */
#define RS_ENTRY_SHIFT 2
/* Per line low bits, the L1 entry (line << RS_ENTRY_SHIFT | dirty) of a
 * line that is one of the two most recent lines of its L1 set, or another
 * value; per L1 set (line & rs_l1_last_mask), the line accessed last,
 * which generated code writes after each access (see rs_cache.c). */
#define RS_MRU_N 1024
extern UWord rs_l1_mru[RS_MRU_N];
#define RS_LAST_N 4096 /* L1 sets with two lines kept, at most */
/* Generated code tests the last line of an access inline only above this
 * many bytes: smaller accesses cross a line only when misaligned, and
 * one that does calls the helper (32-byte vectors at malloc's 16-byte
 * alignment cross one time in four). */
#define RS_ONE_LINE_TEST_MAX 16
extern UWord rs_l1_last[RS_LAST_N];
extern UWord rs_l1_last_mask;
VG_REGPARM(2) void rs_cache_write_nt(Addr a, UWord size);

/* rs_decode.c: what the bytes of one guest instruction say. */
struct rs_insn {
	Bool nt_store;  /* movnt*, maskmovdqu: stores bypass the caches */
	Bool vex_256;   /* VEX.L = 1 */
	Bool addsub;    /* (v)addsubp[sd]: count the Add half only */
	Bool gather;    /* VEX gathers: lanes load under their mask bit */
	Int dpp_flops;  /* (v)dpp[sd]: flops by Intel's rule, else 0 */
	Int dpp_prec;   /* 0 f64, 1 f32 */
};
void rs_decode(const UChar *bytes, UInt len, struct rs_insn *out);

/* rs_instrument.c */
IRSB *rs_instrument(VgCallbackClosure *closure, IRSB *in,
		    const VexGuestLayout *layout,
		    const VexGuestExtents *vge,
		    const VexArchInfo *archinfo_host, IRType gWordTy,
		    IRType hWordTy);
/* rs_flops.c */
extern Bool rs_census_on;
void rs_census_print(void);
/* The address of the tool's variable p (+ index * 8 when index is not
 * NULL) in the block being instrumented, from a base held in one
 * temporary of the block (see rs_instrument.c). */
IRExpr *rs_tool_addr(IRSB *out, const void *p, IRExpr *index);

/* rs_fma.c (built with -mfma): FMA lanes on the host's FMA unit */
extern Bool rs_fma_native; /* set by rs_fma_init when the host has FMA */
void rs_fma_init(void);
/* +-(a*b) +- c as x86's vf[n]m{add,sub}231s[ds] computes it; the operands
 * and result as bits (F32 in the low half) */
ULong rs_fmadd64(ULong a, ULong b, ULong c);
ULong rs_fmsub64(ULong a, ULong b, ULong c);
ULong rs_fnmadd64(ULong a, ULong b, ULong c);
ULong rs_fnmsub64(ULong a, ULong b, ULong c);
ULong rs_fmadd32(ULong a, ULong b, ULong c);
ULong rs_fmsub32(ULong a, ULong b, ULong c);
ULong rs_fnmadd32(ULong a, ULong b, ULong c);
ULong rs_fnmsub32(ULong a, ULong b, ULong c);
/* The lanes of one instruction (rs_fmair.c): rs_fma_fns[kind][form]
 * (kind 0 fmadd, 1 fmsub, 2 fnmadd, 3 fnmsub; form 0 f64 x 2, 1 f64 x 4,
 * 2 f32 x 4, 3 f32 x 8, plus 4 when no operand was stored lane by lane:
 * one vector FMA), called with the guest state and offs = a | b << 12 |
 * c << 24 | result << 36, each the offset in the guest state of lane 0:
 * a guest register, or in VEX's shadow state after it (which this tool
 * has no other use for; per thread, laid out by the core) the buffer
 * (RS_FMA_BUF: operands stored lane by lane at +0, +32, +64, a result
 * read back at +96) or slot s (RS_FMA_SLOT(s), 1 <= s <= RS_FMA_SLOTS: a
 * result kept for a later batch of the block). */
#define RS_FMA_BUF ((Int)sizeof(VexGuestArchState))
#define RS_FMA_SLOT(s) (RS_FMA_BUF + 96 + 32 * (s))
#define RS_FMA_SLOTS ((2 * (Int)sizeof(VexGuestArchState) - 128) / 32)
/* in rs_fmair.c's plan: a field below this is 0 (the buffer) or a slot
 * number, from it a guest register's offset */
#define RS_FMA_GS_MIN 64
#define RS_FMA_GS_MAX ((Int)sizeof(VexGuestArchState))
typedef void (*rs_fma_fn)(UChar *gs, UWord offs);
extern const rs_fma_fn rs_fma_fns[4][8];

/* rs_fmair.c: the FMA lanes of a superblock rewritten to the above */
struct rs_fma_plan;
struct rs_fma_plan *rs_fma_plan_new(const IRSB *in);
/* Before copying statement i of the block: True when it was replaced
 * (the caller copies nothing). */
Bool rs_fma_rewrite(struct rs_fma_plan *p, IRSB *out, Int i);
void rs_fma_plan_free(struct rs_fma_plan *p);

#endif
