/* A '{' of the loop body never closed: error at the end of the file where '}' was expected. */
void scale(int n, double *a) {
#pragma stencil region
  for (int i = 0; i < n; i++) {
    a[i] = 2.0 * a[i];
}
