/* A member of an element of an array of structs (s->grids[0].u[i], twice):
 * one error for the region, saying which members a region can use. */
struct grid { int n; float *u; };
struct state { struct grid grids[4]; float *v; };

void copy_in(struct state *s, int n)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    s->v[i] = s->grids[0].u[i] + s->grids[0].u[i];
}
