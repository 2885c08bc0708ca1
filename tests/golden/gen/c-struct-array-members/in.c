/* Array members of one struct never overlap each other: a region that
 * writes s->out from s->in (both fixed-size array members) through a
 * plain (not restrict) struct pointer is translated without -Msafeptr,
 * the scalar member s->n a firstprivate scalar, the clauses and the
 * launcher's arguments in the user's spelling (s->in, s->n). */
#define N 64

struct grid { int n; double in[N][N]; double out[N][N]; };

void blur(struct grid *s)
{
#pragma stencil region
  for (int j = 1; j < s->n - 1; j++)
    for (int i = 1; i < s->n - 1; i++)
      s->out[j][i] = 0.25 * (s->in[j][i - 1] + s->in[j][i + 1] + s->in[j - 1][i] + s->in[j + 1][i]);
}
