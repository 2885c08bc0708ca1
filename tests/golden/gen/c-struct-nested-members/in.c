/* Members of members: a struct inside a struct (s->in.w) and a struct a
 * member points to (s->grid->u, s->grid->n), each its own array or scalar
 * (s_in_w, s_grid_u), passed by the launcher as written; the restrict
 * pointer member and the array member of a restrict struct pointer need
 * no -Msafeptr. */
struct grid { int n; float *restrict u; };
struct state { struct grid *grid; struct { float w[128]; } in; };

void copy_in(struct state *restrict s)
{
#pragma stencil region
  for (int i = 0; i < s->grid->n; i++)
    s->in.w[i] = 2.0f * s->grid->u[i];
}
