// A domain whose accessors are inlined into the loops of
// omp_accessor.cpp, as LULESH's Domain::x is into its loops: their lines
// are this header's, never a loop's name (issue 39).
#ifndef OMP_ACCESSOR_H
#define OMP_ACCESSOR_H

class Domain {
public:
	explicit Domain(long n)
		: m_n(n), m_x(new double[n]), m_y(new double[n]),
		  m_nodes(new int[8 * n]) {}
	~Domain() { delete[] m_x; delete[] m_y; delete[] m_nodes; }
	double &x(long i) { return m_x[i]; }
	double &y(long i) { return m_y[i]; }
	int *nodes(long e) { return &m_nodes[8 * e]; }
	long numElem() const { return m_n; }

private:
	long m_n;
	double *m_x, *m_y;
	int *m_nodes;
};

#endif
