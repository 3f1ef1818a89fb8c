// A field of the kind C++ proxy applications keep their data in
// (stl_loops.cpp): an STL vector behind inlined accessors, in a header
// of its own, so that a loop over it runs through code of this file.
#include <cstddef>
#include <vector>

namespace hydro {

template <typename T> struct Field {
	std::vector<T> v;
	explicit Field(std::size_t n) : v(n) {}
	std::size_t size() const { return v.size(); }
	T &at(std::size_t i) { return v[i]; }
	const T &at(std::size_t i) const { return v[i]; }
};

} // namespace hydro
