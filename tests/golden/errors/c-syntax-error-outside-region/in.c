/* A syntax error in a function without directives, in a file with a region: error at it (as in Fortran), nothing written. */
void init(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = = 1.0;
}
void scale(int n, double *a) {
#pragma stencil region
  for (int i = 0; i < n; i++) a[i] = 2.0 * a[i];
}
