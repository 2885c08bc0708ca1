/* rt_array.h -- array descriptors (S2sArray) for the runtime's tests and
 * benchmarks: what the emitted host code fills in, built here by hand.
 * C and C++; include after s2s_rt.h. */
#ifndef S2S_TESTS_RT_ARRAY_H
#define S2S_TESTS_RT_ARRAY_H

#include <string.h>

/* One dimension of an array: declared lower bound and extent, then the box. */
typedef struct Dim { long lo, ext, sub_lo, sub_hi; } Dim;

static inline S2sArray make_array(const char *name, void *host, size_t elem, int rank, const Dim *dims) {
  S2sArray a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.host = host;
  a.elem = elem;
  a.rank = rank;
  for (int d = 0; d < rank; d++) {
    a.lo[d] = dims[d].lo;
    a.ext[d] = dims[d].ext;
    a.sub_lo[d] = dims[d].sub_lo;
    a.sub_hi[d] = dims[d].sub_hi;
  }
  return a;
}

/* The whole array host(1:ext[0], ..., 1:ext[rank-1]). */
static inline S2sArray whole_array(const char *name, void *host, size_t elem, int rank, const long *ext) {
  Dim dims[S2S_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    Dim one = {1, ext[d], 1, ext[d]};
    dims[d] = one;
  }
  return make_array(name, host, elem, rank, dims);
}

#endif
