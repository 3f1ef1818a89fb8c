# counters/sim/: the Valgrind tool of the simulated PMU (GPL-2.0-or-later).
