/* c-struct-arrays: fields kept in a struct passed by pointer, as C codes
 * keep them: a pointer-to-array member `float (*u)[NY][NX]` indexed
 * s->u[k][j][i], a fixed-size array member `w[NZ][NY][NX]` (read, and
 * updated in place), flat double members behind an index macro over the
 * struct's own extents (s->t[SIDX(i,j,k)], through an index scalar the
 * region assigns once per iteration: delinearized as plain pointers are),
 * scalar members as loop bounds and a coefficient (s->nx, s->c); the same
 * through a struct passed by value (st.u, st.nz); a struct reached through
 * a member of another (m->state->v); and plain pointer
 * parameters indexed through index scalars (`int idx = IDX(i,j,k);`).
 * The pointer members are not restrict: the case is translated with
 * -Msafeptr (c-struct-may-overlap: without it). */
#define NX 37
#define NY 11
#define NZ 7

#define IDX(i, j, k) (((k) * ny + (j)) * nx + (i))
#define SIDX(i, j, k) (((k) * s->ny + (j)) * s->nx + (i))

typedef struct {
  int nx, ny, nz;
  float c;
  float (*u)[NY][NX];
  float (*v)[NY][NX];
  double *t;
  double *dt;
  float w[NZ][NY][NX];
} state_t;

/* v = c * (sum of u's six neighbours) + w, inside the box */
void smooth(state_t *restrict s)
{
#pragma stencil region
  for (int k = 1; k < s->nz - 1; k++)
    for (int j = 1; j < s->ny - 1; j++)
      for (int i = 1; i < s->nx - 1; i++)
        s->v[k][j][i] = s->c * (s->u[k][j][i - 1] + s->u[k][j][i + 1] + s->u[k][j - 1][i]
                                + s->u[k][j + 1][i] + s->u[k - 1][j][i] + s->u[k + 1][j][i])
                        + s->w[k][j][i];
}

/* w relaxed towards v, in place */
void relax(state_t *restrict s, float alpha)
{
#pragma stencil region
  for (int k = 0; k < s->nz; k++)
    for (int j = 0; j < s->ny; j++)
      for (int i = 0; i < s->nx; i++)
        s->w[k][j][i] = (1.0f - alpha) * s->w[k][j][i] + alpha * s->v[k][j][i];
}

/* dt from the differences of t along i and k, flat, through index scalars */
void tend(state_t *s)
{
#pragma stencil region
  for (int k = 1; k < s->nz; k++)
    for (int j = 0; j < s->ny; j++)
      for (int i = 0; i < s->nx - 1; i++) {
        int idx = SIDX(i, j, k);
        int below = SIDX(i, j, k - 1);
        s->dt[idx] = (s->t[idx + 1] - s->t[idx]) + 0.25 * (s->t[idx] - s->t[below]);
      }
}

/* a struct passed by value: its pointer member reaches the caller's array */
void scale(state_t st, float a)
{
#pragma stencil region
  for (int k = 0; k < st.nz; k++)
    for (int j = 0; j < st.ny; j++)
      for (int i = 0; i < st.nx; i++)
        st.u[k][j][i] = a * st.u[k][j][i] + (float)(i - j);
}

/* plain pointers indexed through index scalars */
void update(int nx, int ny, int nz, const double *t, double *dt)
{
#pragma stencil region
  for (int k = 0; k < nz; k++)
    for (int j = 1; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        int idx = IDX(i, j, k);
        int south;
        south = IDX(i, j - 1, k);
        dt[idx] = dt[idx] + 0.5 * (t[idx] - t[south]);
      }
}

/* a struct reached through a member of another: m->state->v */
typedef struct {
  state_t *state;
  float gain;
} model_t;

void amplify(model_t *m)
{
#pragma stencil region
  for (int k = 0; k < m->state->nz; k++)
    for (int j = 0; j < m->state->ny; j++)
      for (int i = 0; i < m->state->nx; i++)
        m->state->v[k][j][i] = m->gain * m->state->w[k][j][i] - m->state->v[k][j][i];
}
