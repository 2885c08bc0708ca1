/* printf in a C region: error saying a kernel thread cannot do I/O, move it out of the region. */
#include <stdio.h>
void scale(int n, double *a) {
#pragma stencil region
  for (int i = 0; i < n; i++) { a[i] = 2.0 * a[i]; printf("%g\n", a[i]); }
}
