/* '#pragma stencil region' followed by a declaration, not a loop: error at the declaration. */
void scale(int n, double *a) {
#pragma stencil region
  int k = 2;
  for (int i = 0; i < n; i++) a[i] = k * a[i];
}
