/* '#pragma stencil regoin': error listing the directives. */
void scale(int n, double *a) {
#pragma stencil regoin
  for (int i = 0; i < n; i++) a[i] = 2.0 * a[i];
}
