/* openacc-laplace: samples/laplace/laplace.c spelled in OpenACC: `parallel
 * loop gang collapse(2)` with data clauses, `loop vector(128)` on i.  The
 * driver is the sample's.  Expected: one kernel over (i, j, k). */
/* laplace.c — the part of the laplace sample that runs on the GPU.
 *
 * This file holds only the routine to offload, so the translator rewrites
 * only it: `s2s-cuda laplace.c` writes laplace.s2s.c (this file with the loop
 * nest replaced by a call to its launcher) and laplace.s2s.cu (the kernel);
 * main.c is compiled as it is.
 *
 * The directive sits on the whole k/j/i nest, not on one loop: the tool
 * decides which loops run in parallel.  Here all three can: each (k,j,i)
 * writes its own unew element and reads only u, so there is no dependence
 * between iterations.  That holds only if u and unew are different arrays:
 * in C two pointer parameters may overlap, and `restrict` is the promise
 * that they do not (without it, a careful tool must keep the loops
 * sequential, and says so).  i runs along the contiguous last dimension, so
 * neighbouring GPU threads should take neighbouring i (threadIdx.x) and the
 * loads of a warp coalesce; j and k go to the other block/grid dimensions.
 * No data clauses are written: the tool infers copyin of u and copyout of
 * the interior of unew (the faces of unew are never written, so they must
 * not be copied back from the device).
 */
#include "laplace.h"

/* gcc -Wall warns about pragmas it does not know; the plain build ignores
 * the directive, as it should. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

void laplace3d(int nx, int ny, int nz, const double u[restrict nz][ny][nx],
               double unew[restrict nz][ny][nx], double w)
{
#pragma acc parallel loop gang collapse(2) copyin(u[0:nz][0:ny][0:nx]) \
    copyout(unew[1:nz-2][0:ny][0:nx])
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
#pragma acc loop vector(128)
      for (int i = 1; i < nx - 1; i++)
        unew[k][j][i] = u[k][j][i] + w * (u[k][j][i - 1] + u[k][j][i + 1]
                                          + u[k][j - 1][i] + u[k][j + 1][i]
                                          + u[k - 1][j][i] + u[k + 1][j][i]
                                          - 6.0 * u[k][j][i]);
}
