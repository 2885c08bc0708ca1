/* '#pragma stencil region' at file scope, before the function: error, it belongs inside the function. */
#pragma stencil region
void scale(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = 2.0 * a[i];
}
