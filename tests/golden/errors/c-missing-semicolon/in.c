/* A missing ';' after the loop body in a region: error at the place of the ';'. */
void scale(int n, double *a) {
#pragma stencil region
  for (int i = 0; i < n; i++) a[i] = 2.0 * a[i]
}
