/*
 * C++ symbol names made readable: libstdc++'s demangler (__cxa_demangle,
 * the one g++ and c++filt use; a C function of the C++ runtime), and a
 * short form without the parameter list and a template's return type
 * for tables. Prints nothing.
 */
#ifndef RL_DEMANGLE_H
#define RL_DEMANGLE_H

#include <stddef.h>

/* The demangled form of a C++ (Itanium ABI, "_Z...") name, or of a
 * gfortran module procedure ("__kern_MOD_total": "kern::total"),
 * malloc'd; NULL when name is neither (C) or the demangler refuses it. */
char *rl_demangle(const char *name);

/* name (demangled or not) without its parameter list and, before a
 * template's name, its return type: "double ns::f<double>(A&) const" ->
 * "ns::f<double>"; into buf, cut to len. */
void rl_demangle_short(const char *name, char *buf, size_t len);

#endif
