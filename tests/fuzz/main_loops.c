/* libFuzzer entry of the 'loops' target (fuzz_targets.h). */
#include "tests/fuzz/fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return rl_fuzz_loops(data, size);
}
