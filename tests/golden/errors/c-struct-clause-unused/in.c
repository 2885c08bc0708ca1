/* A data clause naming a struct member that no region of the routine
 * uses: an error at the name, saying a clause names a member a region uses. */
typedef struct { int n; float *u; float *w; } state_t;

void run(state_t *s, int nt)
{
#pragma stencil data copyin(s->w[0:s->n])
  for (int it = 0; it < nt; it++) {
#pragma stencil region
    for (int i = 0; i < s->n; i++)
      s->u[i] = 2.0f * s->u[i];
  }
}
