/* '!$stencil region' in a C file: error saying it is the Fortran form, write '#pragma stencil'. */
void scale(int n, double *a) {
!$stencil region
  for (int i = 0; i < n; i++) a[i] = 2.0 * a[i];
}
