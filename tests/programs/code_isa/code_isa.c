/* SPDX-License-Identifier: MIT */
/*
 * Built five times (tests/build.mk, -DISA=0..4) for tests/inspect/test_code_isa.c,
 * which decodes each binary and checks the floating-point arithmetic found
 * by width. The instructions are never run (argc is never 100), so any
 * x86-64 machine builds and holds them. Each build also has decoys that
 * must not count: integer vector adds, moves, BMI2's mulx.
 * (FMAs in brackets):
 *   ISA=0  none
 *   ISA=1  scalar: 2 x scalar [1]
 *   ISA=2  128-bit: 2 x 128 (legacy SSE)
 *   ISA=3  256-bit widest: 2 x 128 [1], 1 x 256 [1]
 *   ISA=4  512-bit widest (EVEX): 2 x scalar [1], 1 x 256, 2 x 512 [1]
 */
int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 100)
		return 0;
	__asm__ volatile("vpaddd %%xmm1, %%xmm2, %%xmm3\n\t"
			 "movsd %%xmm1, %%xmm0\n\t"
			 "mulxq %%rax, %%rbx, %%rcx\n\t"
#if ISA == 1
			 "addsd %%xmm1, %%xmm0\n\t"
			 "vfmadd231sd %%xmm2, %%xmm1, %%xmm0\n\t"
#elif ISA == 2
			 "mulpd %%xmm1, %%xmm0\n\t"
			 "sqrtps %%xmm1, %%xmm0\n\t"
#elif ISA == 3
			 "vaddps %%xmm1, %%xmm2, %%xmm3\n\t"
			 "vfmadd213pd %%ymm2, %%ymm1, %%ymm0\n\t"
			 "vfnmsub231ps %%xmm1, %%xmm2, %%xmm3\n\t"
			 "vpaddq %%ymm1, %%ymm2, %%ymm3\n\t"
#elif ISA == 4
			 "vaddsd %%xmm17, %%xmm18, %%xmm19\n\t"
			 "vsubpd %%ymm17, %%ymm18, %%ymm19\n\t"
			 "vmulpd %%zmm1, %%zmm2, %%zmm3\n\t"
			 "vfmsub132pd %%zmm1, %%zmm2, %%zmm3\n\t"
			 "vfnmadd213sd %%xmm17, %%xmm18, %%xmm19\n\t"
#endif
			 ::: "rax", "rbx", "rcx", "xmm0", "xmm3", "memory");
	return 1;
}
