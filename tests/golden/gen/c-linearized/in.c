/* A pointer indexed with a linearized subscript, read-only: delinearized to
 * w[i][j] of a [][m] array; its GPU copy is the flat range w[0:n*m]. */
#include <math.h>

void rowscale(int n, int m, const double *restrict w, double a[restrict n][m], double *restrict s)
{
  int i, j;
#pragma stencil region copyin(s[0:n])
  for (i = 0; i < n; i++) {
    for (j = 0; j < m; j += 1) {
      double t = w[i * m + j];
      a[i][j] = fabs(t) > 1.0 ? sqrt(fabs(t)) * s[i] : t * t;
    }
  }
}
