/* s2s_dump.h — write a program's output arrays to one file, for comparison.
 *
 * The samples' drivers write every output array through this writer; the
 * original program and its translation write the same dump, and
 * tests/s2s_compare checks them element by element.  s2s_dump.f90 writes the
 * same format from Fortran.
 *
 * File format: no file header; a sequence of records, one per array:
 *
 *   offset  size  field
 *        0    32  name, ASCII, padded with blanks (not NUL-terminated)
 *       32     4  int32 type code: 1 real(4)/float, 2 real(8)/double, 3 int32
 *       36     8  int64 element count n
 *       44     *  the n elements, raw, in memory order
 *
 * Integers and reals are in the writing machine's byte order (little-endian
 * on every machine we run on).  Names longer than 32 characters are an error.
 *
 * Usage:
 *   s2s_dump_open(argv[1]);
 *   s2s_dump_f64("u", &u[0][0][0], (long)nx * ny * nz);
 *   s2s_dump_close();
 * Any I/O failure prints a message naming the file and exits with status 1.
 */
#ifndef S2S_DUMP_H
#define S2S_DUMP_H

#include <stdint.h>

enum { S2S_DUMP_NAME_LEN = 32 };
enum { S2S_DUMP_REAL4 = 1, S2S_DUMP_REAL8 = 2, S2S_DUMP_INT32 = 3 };

void s2s_dump_open(const char *path);
void s2s_dump_f32(const char *name, const float *a, long n);
void s2s_dump_f64(const char *name, const double *a, long n);
void s2s_dump_i32(const char *name, const int32_t *a, long n);
void s2s_dump_close(void);

#endif
