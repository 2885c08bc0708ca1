/* s2s_pack.h — moving a box of a present copy to and from its rows packed
 * back to back, on the device (not installed).  A staged transfer of a box
 * with holes crosses the bus packed; the device side is then a gather
 * (copy-out, update host) or a scatter (copy-in, update device) over the
 * box's rows.  cudaMemcpy2D/3D between device buffers did this with the copy
 * engine, one row at a time, at about 50 GB/s for rows of 256-500 bytes (an
 * H100: a quarter of a 17 MB copy-in); a kernel moves them at memory speed.
 *
 * s2s_pack.cu holds the kernel and its launcher (GPU builds, compiled by
 * nvcc into libs2srt.a); the emulation queues the same row walk as a
 * stream operation (s2s_rt.c), so the tests run the shared index code. */
#ifndef S2S_PACK_H
#define S2S_PACK_H

#include <stddef.h>
#include "s2s_rt.h"

#ifdef __CUDACC__
#define S2S_PACK_HD __host__ __device__
#else
#define S2S_PACK_HD
#endif

/* A box as rows: `width` contiguous bytes each; row k lies at
 * s2s_pack_row_offset(k) from the box's first element and at k * width in
 * the packed buffer. */
typedef struct S2sPackShape {
  size_t width;                   /* bytes per row */
  long nrows;                     /* the product of the outer counts */
  int nouter;                     /* runs beyond the row, fastest first */
  long count[S2S_MAX_RANK];       /* per outer run */
  size_t stride[S2S_MAX_RANK];    /* per outer run, in bytes */
} S2sPackShape;

/* Byte offset of row `k` from the box's first element. */
static inline S2S_PACK_HD size_t s2s_pack_row_offset(const S2sPackShape *s, long k) {
  size_t off = 0;
  for (int d = 0; d < s->nouter; d++) {
    off += (size_t)(k % s->count[d]) * s->stride[d];
    k /= s->count[d];
  }
  return off;
}

/* Queue the gather (to_packed) or scatter of the box at `box` and the rows
 * at `packed` on `stream`; the error of the launch. */
#ifdef __cplusplus
extern "C"
#endif
cudaError_t s2s_pack_launch(cudaStream_t stream, char *box, char *packed, const S2sPackShape *s,
                            int to_packed);

#endif
