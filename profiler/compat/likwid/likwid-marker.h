/*
 * rlprof's stand-in for LIKWID's likwid-marker.h, for building a program
 * annotated with LIKWID's marker API where LIKWID is not installed:
 *
 *   cc -DLIKWID_PERFMON -I$PREFIX/include/rlprof/likwid app.c -o app \
 *      -L$PREFIX/lib -lrlprof-likwid -Wl,-rpath,$PREFIX/lib
 *   rlprof run ./app
 *
 * The macros are LIKWID's (LIKWID_MARKER_INIT ... LIKWID_MARKER_CLOSE);
 * with LIKWID_PERFMON defined they call the likwid_marker* functions,
 * which librlprof-likwid.so answers: each region becomes an rlprof region
 * of the same name (the semantics: docs/commands.md, "Programs annotated
 * for LIKWID or PAPI"). Without LIKWID_PERFMON they are empty, as
 * LIKWID's are. The same source builds against the real LIKWID (its own
 * header, -llikwid) unchanged.
 */
#ifndef RLPROF_LIKWID_MARKER_H
#define RLPROF_LIKWID_MARKER_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef LIKWID_PERFMON
void likwid_markerInit(void);
void likwid_markerThreadInit(void);
void likwid_markerNextGroup(void);
void likwid_markerClose(void);
int likwid_markerRegisterRegion(const char *regionTag);
int likwid_markerStartRegion(const char *regionTag);
int likwid_markerStopRegion(const char *regionTag);
int likwid_markerResetRegion(const char *regionTag);
void likwid_markerGetRegion(const char *regionTag, int *nr_events,
			    double *events, double *time, int *count);

#define LIKWID_MARKER_INIT likwid_markerInit()
#define LIKWID_MARKER_THREADINIT likwid_markerThreadInit()
#define LIKWID_MARKER_SWITCH likwid_markerNextGroup()
#define LIKWID_MARKER_REGISTER(regionTag) likwid_markerRegisterRegion(regionTag)
#define LIKWID_MARKER_START(regionTag) likwid_markerStartRegion(regionTag)
#define LIKWID_MARKER_STOP(regionTag) likwid_markerStopRegion(regionTag)
#define LIKWID_MARKER_CLOSE likwid_markerClose()
#define LIKWID_MARKER_RESET(regionTag) likwid_markerResetRegion(regionTag)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count) \
	likwid_markerGetRegion(regionTag, nevents, events, time, count)
#else
#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(regionTag)
#define LIKWID_MARKER_START(regionTag)
#define LIKWID_MARKER_STOP(regionTag)
#define LIKWID_MARKER_CLOSE
#define LIKWID_MARKER_RESET(regionTag)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count)
#endif

#ifdef __cplusplus
}
#endif

#endif
