/* A region in each branch of an if/else. */
void f(int n, int mode, double *restrict a, const double *restrict b)
{
  if (mode == 1) {
#pragma stencil region
    for (int i = 0; i < n; i++)
      a[i] = b[i];
  } else {
#pragma stencil region
    for (int i = 0; i < n; i++)
      a[i] = 2.0 * b[i];
  }
}
