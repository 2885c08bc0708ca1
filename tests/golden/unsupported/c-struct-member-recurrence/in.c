/* A recurrence through a struct member (s->u[i] from s->u[i-1]): the loop
 * cannot run in parallel, and the refusal names the member as written
 * (s->u), not the translator's own name for it. */
typedef struct { int n; float c; float *restrict u; } line_t;

void prefix(line_t *s)
{
#pragma stencil region
  for (int i = 1; i < s->n; i++)
    s->u[i] = s->u[i - 1] + s->c;
}
