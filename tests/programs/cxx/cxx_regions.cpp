// e2e: regions in C++ code that puts static data in COMDAT groups (inline
// functions, class bodies, templates, lambdas) and the RAII guard. Built
// by tests/cli/test_cxx.c with g++ and clang++ in C++11..C++20.
#include <stdexcept>

#include "rlprof.h"

static volatile double sink;

static void work(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += i * 0.5;
	sink = s;
}

inline void in_inline()
{
	RL_REGION_BEGIN("cxx_inline");
	work(1000);
	RL_REGION_END("cxx_inline");
}

struct solver {
	void method()
	{
		RL_REGION_BEGIN("cxx_method");
		work(1000);
		RL_REGION_END("cxx_method");
	}
	static void scoped_method() { RL_REGION_SCOPE("cxx_scope_method"); work(500); }
};

template <class T> T in_template(T x)
{
	RL_REGION_BEGIN("cxx_template");
	work(1000);
	RL_REGION_END("cxx_template");
	return x;
}

// The guard ends its region on a return, a break and an exception.
static int early_return(int x)
{
	RL_REGION_SCOPE("cxx_scope_return");
	work(500);
	if (x > 0)
		return 1;
	work(500);
	return 0;
}

static void throws(int x)
{
	RL_REGION_SCOPE("cxx_scope_throw");
	work(500);
	if (x > 0)
		throw std::runtime_error("leaving by an exception");
}

int main()
{
	solver s;
	int hits = 0;

	RL_REGION_BEGIN("cxx_main");
	in_inline();
	s.method();
	solver::scoped_method();
	in_template(1);
	in_template(2.0);
	auto lambda = [] {
		RL_REGION_BEGIN("cxx_lambda");
		work(1000);
		RL_REGION_END("cxx_lambda");
	};
	lambda();
	hits += early_return(1);
	for (int i = 0; i < 3; i++) {
		RL_REGION_SCOPE("cxx_scope_loop");
		work(100);
		if (i == 1)
			break;
	}
	try {
		throws(1);
	} catch (const std::exception &) {
		hits++;
	}
	{
		rl::region guard("cxx_guard_object");
		work(500);
		RL_REGION_EXPECT("cxx_guard_object", 1000, 8u * 1000);
	}
	RL_REGION_END("cxx_main");
	return hits == 2 ? 0 : 3;
}
