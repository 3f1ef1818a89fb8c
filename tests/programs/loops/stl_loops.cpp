// C++ loops of the kind real codes have (issue 39): an STL vector
// indexed through its inlined operator[] (whose line is in a libstdc++
// header), in a function of a namespace and a template (mangled names).
// Each loop statement carries a marker comment naming it. Built at -O2
// without vectorisation and with -g (tests/build.mk).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "stl_field.h"

namespace hydro {

template <typename T>
__attribute__((noinline)) T total(Field<T> &f)
{
	T s = 0;
	for (std::size_t i = 0; i < f.size(); i++) // loop:stl.total
		s += f.at(i);
	return s;
}

__attribute__((noinline)) void scale(std::vector<double> &x, double k)
{
	for (std::size_t i = 0; i < x.size(); i++) // loop:stl.scale
		x[i] = x[i] * k;
}

__attribute__((noinline)) double range_sum(const std::vector<double> &x)
{
	double s = 0;
	for (double e : x) // loop:stl.range
		s += e;
	return s;
}

__attribute__((noinline)) void add_into(std::vector<double> &y,
					const std::vector<double> &x)
{
	auto i = x.begin();
	for (auto o = y.begin(); o != y.end(); ++o, ++i) // loop:stl.iter
		*o += *i;
}

} // namespace hydro

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 100000;
	hydro::Field<double> f((std::size_t)n);
	for (long i = 0; i < n; i++) // loop:stl.init
		f.v[(std::size_t)i] = (double)(i % 3);
	hydro::scale(f.v, 0.5);
	std::vector<double> y(f.v.size(), 1.0);
	hydro::add_into(y, f.v);
	std::printf("%g %g\n", hydro::total(f), hydro::range_sum(y));
	return 0;
}
