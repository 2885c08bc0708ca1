/* A function of another file called in a C region: error saying only math functions can be called and what to do. */
double f(double);
void scale(int n, double *a) {
#pragma stencil region
  for (int i = 0; i < n; i++) a[i] = f(a[i]);
}
