/* A member of a member (s->grid->u) inside a region: refused once for the
 * region, naming the inner struct to copy into a local pointer first. */
struct grid { int n; float *u; };
struct state { struct grid *grid; float *v; };

void copy_in(struct state *s, int n)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    s->v[i] = s->grid->u[i] + s->grid->u[i];
}
