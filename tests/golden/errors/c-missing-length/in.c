/* A C sub-array t[0:] without a length: error at the ']'; C sub-arrays are [start:length]. */
#include <math.h>

void qsat_block(int n, int nz, const float *p, const float *t, float *qs)
{
  const float ep2 = 0.622f, svp1 = 0.6112f, svp2 = 17.67f, svp3 = 29.65f;

#pragma stencil region copyin(p[0:n*nz], t[0:]) copyout(qs[0:n*nz])
  for (int k = 0; k < nz; k++)
    for (int i = 0; i < n; i++) {
      float tk = t[k*n + i];
      float es = 1000.0f * svp1 * expf(svp2 * (tk - 273.15f) / (tk - svp3));
      qs[k*n + i] = ep2 * es / (p[k*n + i] - es);
    }
}
