# probes/: roof probes linked into the rlprof command. ISA-specific files
# get their flags per object (below): only those files may use the
# instructions, and dispatch.c hands their kernels out only when CPUID
# (and the OS's XSAVE state) says they run here. The rest is plain C11.
PROBE_SRCS := $(wildcard probes/*.c)
PROBE_OBJS := $(PROBE_SRCS:%.c=$(OBJ)/%.o)
PROBE_LIBS := -lpthread -lm

# Keep scalar code scalar (gcc and clang both take these spellings).
PROBE_NOVEC := -fno-tree-vectorize -fno-tree-slp-vectorize

$(OBJ)/probes/triad_avx512.o: ALL_CFLAGS += -mavx512f -mfma
$(OBJ)/probes/fma_avx512.o:   ALL_CFLAGS += -mavx512f -mfma
$(OBJ)/probes/triad_avx2.o:   ALL_CFLAGS += -mavx2 -mfma
$(OBJ)/probes/fma_avx2.o:     ALL_CFLAGS += -mavx2 -mfma
$(OBJ)/probes/triad_sse2.o:   ALL_CFLAGS += -msse2
$(OBJ)/probes/fma_sse2.o:     ALL_CFLAGS += -msse2 $(PROBE_NOVEC)
$(OBJ)/probes/triad_scalar.o: ALL_CFLAGS += $(PROBE_NOVEC)
$(OBJ)/probes/fma_scalar.o:   ALL_CFLAGS += $(PROBE_NOVEC)

$(OBJ)/probes/fma_sse_fma.o:    ALL_CFLAGS += -mfma $(PROBE_NOVEC)
$(OBJ)/probes/fma_avx2_mad.o:   ALL_CFLAGS += -mavx2
$(OBJ)/probes/fma_avx512_mad.o: ALL_CFLAGS += -mavx512f

# The chain files instantiate 128 register-only kernels each: their debug
# info is large and useless, and halves everyone's compile time without.
$(OBJ)/probes/fma_avx512.o $(OBJ)/probes/fma_avx2.o \
$(OBJ)/probes/fma_sse2.o $(OBJ)/probes/fma_scalar.o \
$(OBJ)/probes/fma_sse_fma.o $(OBJ)/probes/fma_avx2_mad.o \
$(OBJ)/probes/fma_avx512_mad.o: ALL_CFLAGS += -g0

# single multiply chains (the add chains are the fma_*.c add variants)
$(OBJ)/probes/chain_mul_avx512.o: ALL_CFLAGS += -mavx512f
$(OBJ)/probes/chain_mul_avx2.o:   ALL_CFLAGS += -mavx2
$(OBJ)/probes/chain_mul_sse2.o:   ALL_CFLAGS += -msse2 $(PROBE_NOVEC)
$(OBJ)/probes/chain_mul_scalar.o: ALL_CFLAGS += $(PROBE_NOVEC)

$(OBJ)/probes/rw_avx512.o: ALL_CFLAGS += -mavx512f
$(OBJ)/probes/rw_avx2.o:   ALL_CFLAGS += -mavx2
$(OBJ)/probes/rw_sse2.o:   ALL_CFLAGS += -msse2
$(OBJ)/probes/rw_scalar.o: ALL_CFLAGS += $(PROBE_NOVEC)
