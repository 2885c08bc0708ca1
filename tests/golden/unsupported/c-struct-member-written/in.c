/* A scalar member written inside a region (a running count): refused,
 * saying to assign a local and copy it into the member after the region. */
struct stats { int n; int count; double *x; };

void count_positive(struct stats *st)
{
#pragma stencil region
  for (int i = 0; i < st->n; i++)
    if (st->x[i] > 0.0)
      st->count = st->count + 1;
}
