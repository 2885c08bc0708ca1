/* affine.c — reading integer expressions as affine forms (see affine.h). */
#include <stdio.h>
#include <string.h>
#include "affine.h"

bool aff_add_term(Affine *a, IrSym *var, IrSym *scale, long coef)
{
  for (int i = 0; i < a->n; i++)
    if (a->t[i].var == var && a->t[i].scale == scale) {
      a->t[i].coef += coef;
      if (!a->t[i].coef)  /* cancelled: drop the term */
        a->t[i] = a->t[--a->n];
      return true;
    }
  if (!coef)
    return true;
  if (a->n == AFF_MAX_TERMS)
    return false;
  a->t[a->n++] = (AffTerm){ var, scale, coef };
  return true;
}

/* Remove terms whose coefficients cancelled. */
static void compact(Affine *a)
{
  int k = 0;
  for (int i = 0; i < a->n; i++)
    if (a->t[i].coef)
      a->t[k++] = a->t[i];
  a->n = k;
}

static bool add_scaled(Affine *dst, const Affine *src, long factor)
{
  for (int i = 0; i < src->n; i++)
    if (!aff_add_term(dst, src->t[i].var, src->t[i].scale, src->t[i].coef * factor))
      return false;
  dst->c += src->c * factor;
  return true;
}

/* (terms) * var, allowed only when every term has no scale yet. */
static bool scale_by_var(const Affine *src, IrSym *var, Affine *out)
{
  memset(out, 0, sizeof *out);
  for (int i = 0; i < src->n; i++) {
    if (src->t[i].scale)
      return false;
    if (!aff_add_term(out, src->t[i].var, var, src->t[i].coef))
      return false;
  }
  if (src->c && !aff_add_term(out, var, NULL, src->c))
    return false;
  return true;
}

static bool build_mul(const IrExpr *e, Affine *out)
{
  Affine a, b;
  if (!aff_build(e->u.binary.lhs, &a) || !aff_build(e->u.binary.rhs, &b))
    return false;
  memset(out, 0, sizeof *out);
  if (a.n == 0)
    return add_scaled(out, &b, a.c);
  if (b.n == 0)
    return add_scaled(out, &a, b.c);
  /* (x + c) * m with m a single plain variable: a symbolic scale */
  if (b.n == 1 && b.c == 0 && b.t[0].coef == 1 && !b.t[0].scale)
    return scale_by_var(&a, b.t[0].var, out);
  if (a.n == 1 && a.c == 0 && a.t[0].coef == 1 && !a.t[0].scale)
    return scale_by_var(&b, a.t[0].var, out);
  return false;
}

bool aff_build(const IrExpr *e, Affine *out)
{
  long v;
  memset(out, 0, sizeof *out);
  if (!ir_type_is_integer(e->type))
    return false;
  if (ir_eval_const(e, &v)) {
    out->c = v;
    return true;
  }
  switch (e->kind) {
  case IR_E_VAR:
    return aff_add_term(out, e->u.var, NULL, 1);
  case IR_E_CONVERT:
    return aff_build(e->u.operand, out);
  case IR_E_UNARY: {
    Affine a;
    return e->u.unary.op == IR_OP_NEG && aff_build(e->u.unary.arg, &a) && add_scaled(out, &a, -1);
  }
  case IR_E_BINARY: {
    Affine a, b;
    IrOp op = e->u.binary.op;
    if (op == IR_OP_MUL)
      return build_mul(e, out);
    if (op != IR_OP_ADD && op != IR_OP_SUB)
      return false;
    if (!aff_build(e->u.binary.lhs, &a) || !aff_build(e->u.binary.rhs, &b))
      return false;
    if (!add_scaled(out, &a, 1) || !add_scaled(out, &b, op == IR_OP_ADD ? 1 : -1))
      return false;
    compact(out);
    return true;
  }
  default:
    return false;
  }
}

const AffTerm *aff_term(const Affine *a, const IrSym *var)
{
  for (int i = 0; i < a->n; i++)
    if (a->t[i].var == var)
      return &a->t[i];
  return NULL;
}

static bool has_term(const Affine *a, const AffTerm *t)
{
  for (int i = 0; i < a->n; i++)
    if (a->t[i].var == t->var && a->t[i].scale == t->scale && a->t[i].coef == t->coef)
      return true;
  return false;
}

bool aff_same_terms(const Affine *a, const Affine *b)
{
  if (a->n != b->n)
    return false;
  for (int i = 0; i < a->n; i++)
    if (!has_term(b, &a->t[i]))
      return false;
  return true;
}

/* Source text of a: terms in order, then the constant: "ite+1", "2*k-kts". */
void aff_print(const Affine *a, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < a->n && len < size; i++) {
    long c = a->t[i].coef, m = c < 0 ? -c : c;
    const char *sign = c < 0 ? "-" : i ? "+" : "";
    len += (size_t)snprintf(buf + len, size - len, "%s", sign);
    if (m != 1 && len < size)
      len += (size_t)snprintf(buf + len, size - len, "%ld*", m);
    if (len < size)
      len += (size_t)snprintf(buf + len, size - len, "%s", ir_sym_user_name(a->t[i].var));
    if (a->t[i].scale && len < size)
      len += (size_t)snprintf(buf + len, size - len, "*%s", ir_sym_user_name(a->t[i].scale));
  }
  if (len >= size)
    return;
  if (a->n == 0)
    snprintf(buf, size, "%ld", a->c);
  else if (a->c)
    snprintf(buf + len, size - len, "%+ld", a->c);
}

/* a - b */
void aff_sub(const Affine *a, const Affine *b, Affine *out)
{
  *out = *a;
  for (int i = 0; i < b->n; i++) {
    int k = 0;
    while (k < out->n && !(out->t[k].var == b->t[i].var && out->t[k].scale == b->t[i].scale))
      k++;
    if (k == out->n) {
      if (out->n == AFF_MAX_TERMS)
        continue;
      out->t[out->n++] = (AffTerm){ b->t[i].var, b->t[i].scale, 0 };
    }
    out->t[k].coef -= b->t[i].coef;
  }
  out->c -= b->c;
  int k = 0;
  for (int i = 0; i < out->n; i++)
    if (out->t[i].coef)
      out->t[k++] = out->t[i];
  out->n = k;
}

bool aff_combine(Affine *a, const Affine *b, long factor)
{
  for (int i = 0; i < b->n; i++)
    if (!aff_add_term(a, b->t[i].var, b->t[i].scale, factor * b->t[i].coef))
      return false;
  a->c += factor * b->c;
  return true;
}

bool aff_coef(const Affine *a, const IrSym *v, long *coef)
{
  *coef = 0;
  for (int i = 0; i < a->n; i++) {
    if (a->t[i].scale == v || (a->t[i].var == v && a->t[i].scale))
      return false;
    if (a->t[i].var == v)
      *coef = a->t[i].coef;
  }
  return true;
}

bool aff_replace(Affine *a, IrSym *v, const Affine *by)
{
  long coef;
  if (!aff_coef(a, v, &coef))
    return false;
  return !coef || (aff_add_term(a, v, NULL, -coef) && aff_combine(a, by, coef));
}
