/* 'copyinn' on a C region: error listing the clauses of region. */
void scale(int n, double *a, const double *b) {
#pragma stencil region copyinn(b[0:n])
  for (int i = 0; i < n; i++) a[i] = 2.0 * b[i];
}
