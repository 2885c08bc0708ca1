/* The advice pass in C: a for loop around a region, arrays through
 * pointers (no declared extent): the clause names the region's box. */
void relax(int n, int nsteps, double *restrict u, const double *restrict f, double *restrict v)
{
  for (int it = 0; it < nsteps; it++) {
#pragma stencil region
    for (int i = 1; i < n - 1; i++)
      v[i] = 0.5 * (u[i - 1] + u[i + 1]) + f[i];
    double *t = u;
    u = v;
    v = t;
  }
}
