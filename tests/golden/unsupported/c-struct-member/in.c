/* Struct members in a C region (bound and subscripts): one error for the region, saying to copy the member into a local before it. */
struct grid { double *x; int n; };
void scale(struct grid g) {
#pragma stencil region
  for (int i = 0; i < g.n; i++) g.x[i] = 2.0 * g.x[i];
}
