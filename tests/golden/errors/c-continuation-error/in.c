/* A clause list left open on the last '\' continuation line: error there, note at its '('. */
void rain_evap(int n, int nz, float dt, const float *qs, float *q, float *qr, float *t)
{
  const float xlv = 2.5e6f, cp = 1004.5f, evap_rate = 1.0e-3f;

#pragma stencil region copyin(qs[0:n*nz]) \
                       copy(q[0:n*nz], qr[0:n*nz]) \
                       copy(t[0:n*nz]
  for (int k = 0; k < nz; k++)
    for (int i = 0; i < n; i++) {
      int c = k*n + i;
      float ev = evap_rate * dt * (qs[c] - q[c]);
      if (ev > qr[c]) ev = qr[c];
      if (ev > 0.0f) {
        qr[c] -= ev;
        q[c] += ev;
        t[c] -= xlv / cp * ev;
      }
    }
}
