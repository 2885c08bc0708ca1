/* copyin(c[0:n]) where the function has no 'c': error at the name. */
void scale(int n, double *a, const double *b) {
#pragma stencil region copyin(c[0:n])
  for (int i = 0; i < n; i++) a[i] = 2.0 * b[i];
}
