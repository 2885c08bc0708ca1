/* Arrays reached as struct members inside a region: refused at each, naming
 * the local pointer to copy the member into before the region. */
struct grid { int n; float *u; double *v; };

void copy_grid(struct grid *g, int n)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    g->v[i] = g->u[i];
}
