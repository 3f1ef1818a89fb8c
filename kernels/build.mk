# kernels/: reference kernels and the rlprof-kernels program.
KERNEL_SRCS := $(wildcard kernels/*.c)
TARGETS += 
