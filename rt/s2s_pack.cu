/* s2s_pack.cu — the gather/scatter kernel of boxes with holes (see
 * s2s_pack.h), compiled by nvcc into libs2srt.a for every major GPU
 * architecture. */
#include <stdint.h>
#include "s2s_pack.h"

/* One thread per unit of U bytes of the box, over a grid that strides:
 * consecutive threads take consecutive units of a row, so both sides are
 * read and written in full transactions when rows are 128 bytes or more,
 * and several short rows share a warp. */
template <typename U>
__global__ void s2s_pack_rows(char *box, char *packed, S2sPackShape s, int to_packed) {
  const long units = (long)(s.width / sizeof(U)), total = units * s.nrows;
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < total;
       g += (long)gridDim.x * blockDim.x) {
    long row = g / units, i = g - row * units;
    U *b = (U *)(box + s2s_pack_row_offset(&s, row)) + i;
    U *p = (U *)(packed + (size_t)row * s.width) + i;
    if (to_packed) *p = *b;
    else *b = *p;
  }
}

template <typename U>
static cudaError_t s2s_pack_queue(cudaStream_t stream, char *box, char *packed,
                                  const S2sPackShape *s, int to_packed) {
  long total = (long)(s->width / sizeof(U)) * s->nrows, blocks = (total + 255) / 256;
  if (blocks > 65536) blocks = 65536; /* enough to fill any GPU; the grid strides */
  if (blocks > 0) s2s_pack_rows<U><<<(unsigned)blocks, 256, 0, stream>>>(box, packed, *s, to_packed);
  return cudaGetLastError();
}

/* The widest unit that every row start, on both sides, and the row width
 * are aligned to. */
extern "C" cudaError_t s2s_pack_launch(cudaStream_t stream, char *box, char *packed,
                                       const S2sPackShape *s, int to_packed) {
  uintptr_t bits = (uintptr_t)box | (uintptr_t)packed | (uintptr_t)s->width;
  for (int d = 0; d < s->nouter; d++) bits |= (uintptr_t)s->stride[d];
  if (!(bits & 15)) return s2s_pack_queue<uint4>(stream, box, packed, s, to_packed);
  if (!(bits & 7)) return s2s_pack_queue<unsigned long long>(stream, box, packed, s, to_packed);
  if (!(bits & 3)) return s2s_pack_queue<unsigned>(stream, box, packed, s, to_packed);
  if (!(bits & 1)) return s2s_pack_queue<unsigned short>(stream, box, packed, s, to_packed);
  return s2s_pack_queue<unsigned char>(stream, box, packed, s, to_packed);
}
