/* Struct members in data clauses: a data region around a time loop names
 * s->u and s->v with bounds over s->n (the data functions get the members'
 * values where the data region starts and ends); a region's own clauses
 * name them too.  Another time loop gets the advice, in the user's
 * spelling; a third one, whose host code swaps the members (mentions s),
 * gets none. */
typedef struct { int n; float *u; float *v; } state_t;

void run(state_t *s, int nt)
{
#pragma stencil data copyin(s->u[0:s->n]) copy(s->v[0:s->n])
  for (int it = 0; it < nt; it++) {
#pragma stencil region copyin(s->u[0:s->n]) copy(s->v[0:s->n])
    for (int i = 1; i < s->n - 1; i++)
      s->v[i] = 0.5f * (s->u[i - 1] + s->u[i + 1]);
  }
}

void advised(state_t *s, int nt)
{
  for (int it = 0; it < nt; it++) {
#pragma stencil region
    for (int i = 1; i < s->n - 1; i++)
      s->v[i] = 0.5f * (s->u[i - 1] + s->u[i + 1]);
  }
}

void swapped(state_t *s, int nt)
{
  for (int it = 0; it < nt; it++) {
#pragma stencil region
    for (int i = 1; i < s->n - 1; i++)
      s->v[i] = 0.5f * (s->u[i - 1] + s->u[i + 1]);
    float *t = s->u;
    s->u = s->v;
    s->v = t;
  }
}
