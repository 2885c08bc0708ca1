/* emit_text.h — the last passes over the text of NAME.s2s.cu: line
 * wrapping, and the #line directives that map kernel statements to the
 * user's source (emit_text.c).
 */
#ifndef S2S_EMIT_TEXT_H
#define S2S_EMIT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The line the emitters write after a kernel body: "the user's code ends
 * here".  emit_line_directives replaces it. */
#define EMIT_LINE_RESTORE "#line s2s-restore"

/* Where generated lines are broken (a soft margin: a line with no place to
 * break stays longer). */
#define EMIT_WRAP_WIDTH 100

/* `text` with every line longer than `width` broken (see emit_text.c);
 * malloc'ed, its length in *out_len. */
char *emit_wrap_text(const char *text, size_t len, size_t width, size_t *out_len);

/* `text` with its #line directives resolved: with `on`, each directive the
 * compiler would infer anyway dropped and each EMIT_LINE_RESTORE replaced
 * by `#line M "cu_name"` (the .cu's own next line); without, all of them
 * dropped.  cu_name is written as given (escaped for a C string already).
 * Malloc'ed, its length in *out_len. */
char *emit_line_directives(const char *text, size_t len, bool on, const char *cu_name,
                           size_t *out_len);

/* s with `"` and `\` escaped, for a C string literal (malloc'ed). */
char *emit_c_string_body(const char *s);

#endif
