/* An undeclared name in a C region: error at it (a macro needs -cpp). */
void scale(int n, double *a) {
#pragma stencil region
  for (int i = 0; i < n; i++) a[i] = x * a[i];
}
