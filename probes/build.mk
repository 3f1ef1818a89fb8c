# probes/: roof probes linked into the rlprof command. ISA-specific files
# get their flags per object (see below); the rest is plain C11.
PROBE_SRCS := $(wildcard probes/*.c)
PROBE_OBJS := $(PROBE_SRCS:%.c=$(OBJ)/%.o)
PROBE_LIBS := -lpthread -lm
