/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the cache hierarchy model.
 *
 * Up to three levels of set-associative LRU caches with 64-byte lines,
 * write-allocate (a store that misses reads the line first) and write-back
 * (a dirty line is written to the next level when evicted). A fill goes
 * into every level on the way (so levels are mostly inclusive); a dirty
 * line evicted from level i is written into level i+1, allocated there
 * without a read when absent. Non-temporal stores go straight to DRAM and
 * invalidate the line where present (written back first when dirty).
 *
 * Bytes are counted at each boundary: register <-> L1 by access size,
 * below level b by whole lines (the boundary below the last level is
 * DRAM); reads and writes apart.
 *
 * Write-backs are charged by rs_bounds (--sim-bounds):
 *  - cause (default): to the store that causes them. A line crosses
 *    boundary b once per "dirty episode" at b: from the store that makes
 *    it dirty while no level at or above b holds it dirty, to its eviction
 *    from the last of those levels (or a non-temporal store over it). The
 *    crossing is charged when the episode begins, to the thread and
 *    region running that store; the eviction itself, whenever and under
 *    whichever region it happens, is not charged again. A line still
 *    dirty at program end has been charged already, as it will be written
 *    back eventually. Should a level evict a dirty line that a level above
 *    still holds dirty (the levels are not strictly inclusive), the
 *    episode goes on and its next crossing is charged at that eviction.
 *    So every line written back, or still dirty at the end, is charged
 *    exactly once per boundary crossing, independently of region bounds.
 *  - region: every dirty line is written back at each counter read
 *    (rs_cache_flush), charged to the region that ends or encloses it.
 *  - raw: at the eviction, to whatever runs then (what a hardware counter
 *    sees). (Register <-> L1 bytes of unguarded
 * accesses are counted statically per block by rs_instrument.c; the
 * counted helpers below are for guarded ones.)
 *
 * Each set of L1 is an array of `ways` entries in recency order (MRU
 * first); below L1 a set is a ring in recency order from its head (the
 * way of its MRU entry, per set), so that a miss replaces the LRU way and
 * moves the head instead of every entry. Up to 16 ways, each set also
 * keeps a byte per way, a hash of its line (ptag), compared all at once:
 * a lookup reads only the ways whose byte matches, and a miss, what a
 * streaming walk does at every level, usually none. An entry is line << RS_ENTRY_SHIFT | above | dirty (RS_ABOVE, below
 * L1: a hint that a level above may hold the line, which spares a dirty
 * eviction the search above it in cause mode), or RS_EMPTY. rs_l1_mru,
 * indexed by a line's low bits, holds the entry of a line while it is
 * one of the two most recent lines of its L1 set (else another line's,
 * or RS_EMPTY):
 * generated code compares an access's line with it and calls a *_slow
 * helper only when it differs, so each stream of a loop calls once per
 * line even when several streams interleave, and two streams that share
 * the L1 sets (arrays a multiple of 4 KiB apart) call no more than one.
 * An access to either of the two lines changes only which of them is the
 * most recent: generated code writes the accessed line to rs_l1_last,
 * indexed by set, after each access, and the model puts that line first
 * before it next looks at the set (the order of ways 0 and 1 in the set
 * array may lag until then). When the L1's set count is not a power of
 * two, or above RS_LAST_N, only the MRU line of a set is in rs_l1_mru and
 * rs_l1_last is not read. Each level logs the lines that became dirty
 * since the last flush so that a flush visits only those (a full scan
 * when the log overflowed).
 */
#include "counters/sim/rs.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

/* Built with RS_CACHE_CHECK_ALL (tests/simcache only), every access walks
 * the model, a store that misses L1 is charged by searching the lower
 * levels first and a dirty eviction searches the levels above whatever
 * its hint (RS_ABOVE) and every lookup compares the line with each way
 * (no ptag): the reference that the MRU shortcut, the charge left to the
 * fill walk (store_line), the hints and the ways' bytes are checked
 * against. */
#ifdef RS_CACHE_CHECK_ALL
#define MRU_SKIP(cond) 0
#define DEFER_STORE_CHARGE 0
#define TRUST_HINTS 0
#define USE_PTAGS 0
#else
#define MRU_SKIP(cond) (cond)
#define DEFER_STORE_CHARGE 1
#define TRUST_HINTS 1
#define USE_PTAGS 1
#endif

#define RS_EMPTY ((UWord)-2) /* clean, never a real line's entry */
#define RS_KEYMASK (~((1UL << RS_ENTRY_SHIFT) - 1))
#define RS_DIRTY 1UL
/* Below L1: a level above may hold the line. Set when a fill passes
 * through (the line goes on up); when a write-back brings the line,
 * taken from the entry it leaves (none from L1); never cleared when a
 * level above drops a clean line, so a hint may be stale but a line that
 * a level above holds always has it. */
#define RS_ABOVE 2UL
#define RS_LINE_BYTES (1UL << RS_LINE_SHIFT)

struct level {
	UWord *tags;   /* sets * ways entries */
	UChar *head;   /* below L1: per set, the way of its MRU entry */
	UChar *ptag;   /* below L1 with up to PT_WAYS ways: per set,
			  PT_WAYS bytes, a hash of each way's line
			  (ptag_of), NULL otherwise */
	UInt way_mask; /* (1 << ways) - 1 */
	UWord sets, ways;
	UWord set_mask; /* sets - 1 when sets is a power of two */
	Bool pow2;
	UWord *dlog;   /* lines made dirty since the last flush */
	UWord dlog_n, dlog_cap;
	Bool dlog_over;
};

/* Below L1, each set keeps a byte per way, a hash of its line, so that
 * a lookup compares them all at once (SSE2) and reads only the ways
 * whose byte matches: a miss, the usual case of a streaming walk at
 * every level, usually reads none. An entry emptied in place (a
 * non-temporal store) keeps its byte: a match is always checked against
 * the entry. */
#define PT_WAYS 16
typedef char pt_vec __attribute__((vector_size(16)));

static inline UChar ptag_of(UWord line)
{
	return (UChar)((line * 0x9E3779B97F4A7C15ULL) >> 56);
}

/* The ways of set s of L whose byte is pt, as bits. */
static inline UInt ptag_match(const struct level *L, UWord s, UChar pt)
{
	pt_vec v, k;
	__builtin_memcpy(&v, L->ptag + s * PT_WAYS, sizeof v);
	k = (pt_vec){0} + (char)pt;
	return (UInt)__builtin_ia32_pmovmskb128(v == k) & L->way_mask;
}

static struct level lv[RS_MAX_LEVELS];
static Int nlv;
Int rs_bounds = RS_BOUNDS_CAUSE;
UWord rs_l1_mru[RS_MRU_N];
UWord rs_l1_last[RS_LAST_N]; /* in the tool's image: generated code
				 addresses it with a 32-bit displacement */
UWord rs_l1_last_mask;
static UWord l1_top; /* lines per L1 set kept in rs_l1_mru: 2, or 1 */

static inline UWord *mru_of(UWord line)
{
	return &rs_l1_mru[line & (RS_MRU_N - 1)];
}

/* A line that was among the first l1_top lines of its L1 set no longer
 * is, or its entry changed: forget it (its place may hold another line's
 * entry). */
static inline void mru_forget(UWord line)
{
	UWord *m = mru_of(line);
	if ((*m >> RS_ENTRY_SHIFT) == line)
		*m = RS_EMPTY;
}

Int rs_cache_nlevels(void)
{
	return nlv;
}

void rs_cache_init(const struct rs_level_spec *spec, Int nlevels)
{
	nlv = nlevels;
	for (Int i = 0; i < nlv; i++) {
		struct level *L = &lv[i];
		UWord lines = (UWord)(spec[i].size_bytes >> RS_LINE_SHIFT);
		L->ways = spec[i].ways;
		L->sets = lines / L->ways;
		L->pow2 = (L->sets & (L->sets - 1)) == 0;
		L->set_mask = L->sets - 1;
		L->tags = VG_(malloc)("rlprofsim.tags", lines * sizeof(UWord));
		for (UWord k = 0; k < lines; k++)
			L->tags[k] = RS_EMPTY;
		L->head = NULL;
		L->ptag = NULL;
		L->way_mask = L->ways >= 32 ? ~0U : (1U << L->ways) - 1;
		if (i > 0) {
			L->head = VG_(malloc)("rlprofsim.head", L->sets);
			for (UWord k = 0; k < L->sets; k++)
				L->head[k] = 0;
		}
		if (USE_PTAGS && L->ways <= PT_WAYS) {
			L->ptag = VG_(malloc)("rlprofsim.ptag",
					      L->sets * PT_WAYS);
			for (UWord k = 0; k < L->sets * PT_WAYS; k++)
				L->ptag[k] = 0;
		}
		L->dlog_cap = lines;
		L->dlog = VG_(malloc)("rlprofsim.dlog", lines * sizeof(UWord));
		L->dlog_n = 0;
		L->dlog_over = False;
	}
	for (UWord k = 0; k < RS_MRU_N; k++)
		rs_l1_mru[k] = RS_EMPTY;
	/* the sets of L1 by line & mask when their count is a power of two
	 * (RS_LAST_N at most); else one slot that generated code writes and
	 * nothing reads */
	l1_top = lv[0].pow2 && lv[0].ways >= 2 && lv[0].sets <= RS_LAST_N
		 ? 2 : 1;
	rs_l1_last_mask = l1_top == 2 ? lv[0].set_mask : 0;
	for (UWord k = 0; k < RS_LAST_N; k++)
		rs_l1_last[k] = RS_EMPTY >> RS_ENTRY_SHIFT;
}

static inline UWord set_index(const struct level *L, UWord line)
{
	return L->pow2 ? (line & L->set_mask) : (line % L->sets);
}

static inline UWord *set_of(const struct level *L, UWord line)
{
	return L->tags + set_index(L, line) * L->ways;
}

/* The most recent entry of line's set in level i (below L1). */
static inline UWord mru_entry(Int i, UWord line)
{
	UWord s = set_index(&lv[i], line);
	return lv[i].tags[s * lv[i].ways + lv[i].head[s]];
}

static inline void log_dirty(struct level *L, UWord line)
{
	if (rs_bounds != RS_BOUNDS_REGION)
		return; /* only rs_cache_flush reads the log */
	if (L->dlog_n < L->dlog_cap)
		L->dlog[L->dlog_n++] = line;
	else
		L->dlog_over = True;
}

/* Entry of line in L, or NULL; no recency change. */
static UWord *find(const struct level *L, UWord line)
{
	UWord *set = set_of(L, line), key = line << RS_ENTRY_SHIFT;
	if (L->ptag) {
		UInt m = ptag_match(L, set_index(L, line), ptag_of(line));
		for (; m; m &= m - 1) {
			UWord w = (UWord)__builtin_ctz(m);
			if ((set[w] & RS_KEYMASK) == key)
				return &set[w];
		}
		return NULL;
	}
	for (UWord w = 0; w < L->ways; w++)
		if ((set[w] & RS_KEYMASK) == key)
			return &set[w];
	return NULL;
}

static void writeback(Int from, UWord entry);

/* The line access_line is bringing into L1 (RS_EMPTY: none): it is in
 * L1 from the start, but the levels below that its fill walk has not
 * reached yet may still hint that no level above holds it. */
static UWord walk_line = RS_EMPTY;

/* Cause mode, a store that misses L1: charge_store's search of the lower
 * levels is left to the fill walk that follows (access_line), which looks
 * them up anyway. Until then store_line is the line, and store_dirty_at
 * the highest level below L1 that pushed it out dirty on the way (a
 * write-back or a fill evicting it), nlv when none has: the state before
 * the access that charge_store would have seen is what the walk finds
 * plus what those evictions took away. */
static UWord store_line = RS_EMPTY;
static Int store_dirty_at;

/* Cause mode: a store makes line dirty in L1, which held it clean or not
 * at all (called before any level changes). Each boundary b that no level
 * at or above b holds the line dirty for begins a dirty episode: its
 * crossing is charged now. */
static void charge_store(UWord line)
{
	Int d = 1;
	for (; d < nlv; d++) {
		const UWord *e = find(&lv[d], line);
		if (e && (*e & 1))
			break;
	}
	for (Int b = 0; b < d; b++)
		rs_live[RS_B1_W + 2 * b] += RS_LINE_BYTES;
}

/* A line becomes dirty in level i. */
static inline void became_dirty(Int i, UWord line)
{
	if (i == 0 && rs_bounds == RS_BOUNDS_CAUSE)
		charge_store(line);
	log_dirty(&lv[i], line);
}

/* An entry leaves level i (RS_EMPTY: none): a dirty one is written
 * back, and where it is the store's own line, the store's dirty mark
 * is the level it left. */
static inline void evicted(Int i, UWord prev)
{
	if (prev == RS_EMPTY || !(prev & RS_DIRTY))
		return;
	if ((prev >> RS_ENTRY_SHIFT) == store_line && i < store_dirty_at)
		store_dirty_at = i;
	writeback(i, prev);
}

/* Does a level above i hold line dirty? */
static Bool dirty_above(Int i, UWord line)
{
	for (Int j = 0; j < i; j++) {
		const UWord *e = find(&lv[j], line);
		if (e && (*e & 1))
			return True;
	}
	return False;
}

/* Look line up in level i, making it MRU; on a miss install it and evict
 * the LRU entry (written back when dirty). Returns True on a hit. dirty
 * (RS_DIRTY) is or-ed into the entry; below L1, above (RS_ABOVE or 0)
 * replaces its hint that a level above may hold the line. One pass: each
 * entry moves down one way until the line is found (it then goes to the
 * front) or falls off the end (the evicted one). */
static Bool touch_below(Int i, UWord line, UWord dirty, UWord above);

static Bool touch(Int i, UWord line, UWord dirty, UWord above)
{
	struct level *L = &lv[i];
	UWord *set = set_of(L, line), key = line << RS_ENTRY_SHIFT;
	UWord ways = L->ways, prev = set[0], cur;

	if ((prev & RS_KEYMASK) == key) {
		set[0] = (prev & ~RS_ABOVE) | dirty | above;
		if (dirty && !(prev & RS_DIRTY))
			became_dirty(i, line);
		return True;
	}
	set[0] = key | dirty | above;
	for (UWord w = 1; w < ways; w++) {
		cur = set[w];
		set[w] = prev;
		if ((cur & RS_KEYMASK) == key) {
			if (dirty && !(cur & RS_DIRTY))
				became_dirty(i, line);
			set[0] = (cur & ~RS_ABOVE) | dirty | above;
			return True;
		}
		prev = cur;
	}
	if (dirty && i == 0 && DEFER_STORE_CHARGE &&
	    rs_bounds == RS_BOUNDS_CAUSE) {
		store_line = line; /* charged by access_line after the walk */
		store_dirty_at = nlv;
	} else if (dirty) {
		became_dirty(i, line);
	}
	evicted(i, prev);
	return False;
}

/* touch(0, ...) where L1 keeps its ways' bytes (ptag): the line's way
 * found by them, no compare on a miss; the entries and their bytes
 * move as touch moves the entries. */
static Bool touch_l1(UWord line, UWord dirty)
{
	struct level *L = &lv[0];
	UWord s, *set, key = line << RS_ENTRY_SHIFT, ways = L->ways, w, prev;
	UChar *pt, ptl;

	if (!L->ptag)
		return touch(0, line, dirty, 0);
	s = set_index(L, line);
	set = L->tags + s * ways;
	pt = L->ptag + s * PT_WAYS;
	ptl = ptag_of(line);
	for (UInt m = ptag_match(L, s, ptl); m; m &= m - 1) {
		w = (UWord)__builtin_ctz(m);
		if ((set[w] & RS_KEYMASK) != key)
			continue;
		prev = set[w];
		if (dirty && !(prev & RS_DIRTY))
			became_dirty(0, line);
		for (; w > 0; w--) {
			set[w] = set[w - 1];
			pt[w] = pt[w - 1];
		}
		set[0] = (prev & ~RS_ABOVE) | dirty;
		pt[0] = ptl;
		return True;
	}
	prev = set[ways - 1];
	for (w = ways - 1; w > 0; w--)
		set[w] = set[w - 1];
	set[0] = key | dirty;
	/* the bytes one way on, as a 16-byte shift (those past the ways
	 * are never read) */
	ULong lo, hi;
	__builtin_memcpy(&lo, pt, 8);
	__builtin_memcpy(&hi, pt + 8, 8);
	hi = hi << 8 | lo >> 56;
	lo = lo << 8 | ptl;
	__builtin_memcpy(pt, &lo, 8);
	__builtin_memcpy(pt + 8, &hi, 8);
	if (dirty && DEFER_STORE_CHARGE && rs_bounds == RS_BOUNDS_CAUSE) {
		store_line = line; /* charged by access_line after the walk */
		store_dirty_at = nlv;
	} else if (dirty) {
		became_dirty(0, line);
	}
	evicted(0, prev);
	return False;
}

/* touch below L1, where a set's ways are a ring in recency order from
 * its head (the MRU entry): a miss scans the ways without moving them,
 * then puts the line in the LRU way (the one before the head), which
 * becomes the head; a hit moves the entries more recent than it one way
 * on. The same order and evictions as touch's array, with no stores on a
 * miss (a streaming walk misses at every level). */
static Bool touch_below(Int i, UWord line, UWord dirty, UWord above)
{
	struct level *L = &lv[i];
	UWord s = set_index(L, line);
	UWord *set = L->tags + s * L->ways, key = line << RS_ENTRY_SHIFT;
	UWord ways = L->ways, h = L->head[s], w = ways, prev;
	UChar *pt = L->ptag ? L->ptag + s * PT_WAYS : NULL, ptl = ptag_of(line);

	if (pt) {
		for (UInt m = ptag_match(L, s, ptl); m; m &= m - 1)
			if ((set[__builtin_ctz(m)] & RS_KEYMASK) == key) {
				w = (UWord)__builtin_ctz(m);
				break;
			}
	} else {
		for (w = 0; w < ways; w++)
			if ((set[w] & RS_KEYMASK) == key)
				break;
	}
	if (w < ways) {
		UWord cur = set[w];
		if (dirty && !(cur & RS_DIRTY))
			became_dirty(i, line);
		if (w == (h ? h - 1 : ways - 1)) {
			L->head[s] = (UChar)w; /* the LRU: the ring turns */
		} else {
			while (w != h) {
				UWord q = w ? w - 1 : ways - 1;
				set[w] = set[q];
				if (pt)
					pt[w] = pt[q];
				w = q;
			}
			if (pt)
				pt[w] = ptl;
		}
		set[w] = (cur & ~RS_ABOVE) | dirty | above;
		return True;
	}
	h = h ? h - 1 : ways - 1;
	prev = set[h];
	set[h] = key | dirty | above;
	if (pt)
		pt[h] = ptl;
	L->head[s] = (UChar)h;
	if (dirty)
		became_dirty(i, line);
	evicted(i, prev);
	return False;
}

/* A dirty entry leaves level i: its line crosses boundary i+1 and is
 * written into level i+1 (or DRAM below the last level). In cause mode
 * the crossing is charged only when a level above still holds the line
 * dirty, looked for only when the entry's hint says a level above may
 * hold it at all. The line is in no level above i+1 once it has left i
 * but where the entry's hint says (L1 has none above it). */
static void writeback(Int i, UWord entry)
{
	UWord line = entry >> RS_ENTRY_SHIFT;
	UWord above = i > 0 ? entry & RS_ABOVE : 0;
	if (line == walk_line)
		above = RS_ABOVE; /* in L1 already, its hints not yet set */
	if (rs_bounds != RS_BOUNDS_CAUSE ||
	    ((above || !TRUST_HINTS) && dirty_above(i, line)))
		rs_live[RS_B1_W + 2 * i] += RS_LINE_BYTES;
	if (i + 1 < nlv)
		touch_below(i + 1, line, RS_DIRTY, above);
}

/* Cause mode: the charge of a store that missed L1 (store_line), once the
 * fill walk has stopped at level hit (nlv: every level missed). The first
 * level below L1 that held the line dirty before the access is the first
 * that holds it dirty now, or one that evicted it dirty meanwhile
 * (store_dirty_at), whichever is higher; levels above hit miss it. */
static void charge_store_missed(UWord line, Int hit)
{
	Int d = hit;
	if (d < nlv && !(mru_entry(d, line) & RS_DIRTY)) {
		/* the walk made it MRU there, clean: look below */
		for (d++; d < nlv; d++) {
			const UWord *e = find(&lv[d], line);
			if (e && (*e & RS_DIRTY))
				break;
		}
	}
	if (store_dirty_at < d)
		d = store_dirty_at;
	store_line = RS_EMPTY;
	for (Int b = 0; b < d; b++)
		rs_live[RS_B1_W + 2 * b] += RS_LINE_BYTES;
}

/* The L1 set of line in recency order: generated code may have made the
 * line in way 1 the most recent (rs_l1_last) without telling the model. */
static UWord *l1_set(UWord line)
{
	UWord *set = set_of(&lv[0], line);
	if (l1_top == 2) {
		UWord last = rs_l1_last[line & rs_l1_last_mask];
		if (set[1] != RS_EMPTY && (set[1] >> RS_ENTRY_SHIFT) == last &&
		    (set[0] >> RS_ENTRY_SHIFT) != last) {
			UWord t = set[0];
			set[0] = set[1];
			set[1] = t;
			if (lv[0].ptag) {
				UChar *pt = lv[0].ptag +
					    (UWord)(set - lv[0].tags) /
						    lv[0].ways * PT_WAYS;
				UChar b = pt[0];
				pt[0] = pt[1];
				pt[1] = b;
			}
		}
	}
	return set;
}

/* Bring line into L1 (dirty for a store): fetch from the first level that
 * has it, counting a line read at each boundary crossed. It becomes the
 * MRU line of its L1 set; rs_l1_mru then holds the set's first l1_top
 * lines (a line pushed out of them is forgotten first, as its slot may
 * be that of one of them). */
static void access_line(UWord line, UWord dirty)
{
	UWord *set, prev[2];

	set = l1_set(line);
	prev[0] = set[0];
	prev[1] = l1_top == 2 ? set[1] : RS_EMPTY;
	walk_line = line;
	if (!touch_l1(line, dirty)) {
		Int i = 0;
		do
			rs_live[RS_B1_R + 2 * i] += RS_LINE_BYTES;
		while (++i < nlv && !touch_below(i, line, 0, RS_ABOVE));
		if (store_line == line)
			charge_store_missed(line, i);
	}
	walk_line = RS_EMPTY;
	/* prev[l1_top - 1] has left the first l1_top ways, unless it is
	 * line (then no line has) */
	UWord out = prev[l1_top - 1];
	if (out != RS_EMPTY && (out >> RS_ENTRY_SHIFT) != line)
		mru_forget(out >> RS_ENTRY_SHIFT);
	if (l1_top == 2 && set[1] != RS_EMPTY)
		*mru_of(set[1] >> RS_ENTRY_SHIFT) = set[1];
	*mru_of(line) = set[0];
	rs_l1_last[line & rs_l1_last_mask] = line;
}

VG_REGPARM(2) void rs_cache_read_slow(Addr a, UWord size)
{
	UWord line = a >> RS_LINE_SHIFT;
	UWord last = (a + size - 1) >> RS_LINE_SHIFT;

	for (; line <= last; line++) {
		if (MRU_SKIP((*mru_of(line) >> RS_ENTRY_SHIFT) == line))
			rs_l1_last[line & rs_l1_last_mask] = line;
		else
			access_line(line, 0);
	}
}

VG_REGPARM(2) void rs_cache_write_slow(Addr a, UWord size)
{
	UWord line = a >> RS_LINE_SHIFT;
	UWord last = (a + size - 1) >> RS_LINE_SHIFT;

	for (; line <= last; line++) {
		if (MRU_SKIP(*mru_of(line) ==
			     (line << RS_ENTRY_SHIFT | RS_DIRTY)))
			rs_l1_last[line & rs_l1_last_mask] = line;
		else
			access_line(line, 1);
	}
}

/* A load and then a store of the same bytes, tested at once by generated
 * code (rs_instrument.c, struct load_run): as the two calls would do. */
VG_REGPARM(2) void rs_cache_modify_slow(Addr a, UWord size)
{
	rs_cache_read_slow(a, size);
	rs_cache_write_slow(a, size);
}

VG_REGPARM(2) void rs_cache_read(Addr a, UWord size)
{
	rs_live[RS_L1_R] += size;
	rs_cache_read_slow(a, size);
}

VG_REGPARM(2) void rs_cache_write(Addr a, UWord size)
{
	rs_live[RS_L1_W] += size;
	rs_cache_write_slow(a, size);
}

/* Non-temporal store: the bytes go to DRAM; a cached copy of the line is
 * written back first when dirty (once, from the highest level holding it
 * dirty) and invalidated everywhere. */
VG_REGPARM(2) void rs_cache_write_nt(Addr a, UWord size)
{
	UWord line = a >> RS_LINE_SHIFT;
	UWord last = (a + size - 1) >> RS_LINE_SHIFT;

	rs_live[RS_L1_W] += size;
	rs_live[RS_B1_W + 2 * (nlv - 1)] += size;
	for (; line <= last; line++) {
		Int dirty_at = -1;
		(void)l1_set(line); /* in recency order before a way empties */
		for (Int i = nlv - 1; i >= 0; i--) {
			UWord *e = find(&lv[i], line);
			if (!e)
				continue;
			if (*e & 1)
				dirty_at = i;
			*e = RS_EMPTY;
		}
		/* in cause mode these crossings were charged by the store
		 * that dirtied the line */
		for (Int i = dirty_at; rs_bounds != RS_BOUNDS_CAUSE && i >= 0 &&
				       i < nlv; i++)
			rs_live[RS_B1_W + 2 * i] += RS_LINE_BYTES;
		mru_forget(line);
	}
}

/* Write back one dirty entry of level i: it crosses boundary i+1, then
 * stops in the next level holding the line (which becomes dirty and is
 * flushed in its turn) or goes on down to DRAM. */
static void flush_entry(Int i, UWord *e)
{
	UWord line = *e >> RS_ENTRY_SHIFT;
	*e &= ~RS_DIRTY;
	if (i == 0 && *mru_of(line) == (line << RS_ENTRY_SHIFT | RS_DIRTY))
		*mru_of(line) = line << RS_ENTRY_SHIFT; /* clean now */
	for (Int j = i; j < nlv; j++) {
		rs_live[RS_B1_W + 2 * j] += RS_LINE_BYTES;
		if (j + 1 < nlv) {
			UWord *n = find(&lv[j + 1], line);
			if (n) {
				if (!(*n & 1)) {
					*n |= 1;
					log_dirty(&lv[j + 1], line);
				}
				return;
			}
		}
	}
}

void rs_cache_flush(void)
{
	for (Int i = 0; i < nlv; i++) {
		struct level *L = &lv[i];
		if (L->dlog_over) {
			UWord n = L->sets * L->ways;
			for (UWord k = 0; k < n; k++)
				if (L->tags[k] != RS_EMPTY && (L->tags[k] & 1))
					flush_entry(i, &L->tags[k]);
		} else {
			for (UWord k = 0; k < L->dlog_n; k++) {
				UWord *e = find(L, L->dlog[k]);
				if (e && (*e & 1))
					flush_entry(i, e);
			}
		}
		L->dlog_n = 0;
		L->dlog_over = False;
	}
}
