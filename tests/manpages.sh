#!/usr/bin/env bash
# manpages.sh — the manual pages say what the programs do (issue 14, item 6):
#   - every environment variable the translator, the driver and the runtime
#     read (the names on the source lines that call getenv, the runtime's
#     s2s_rt_env_* readers and the driver's build_tool_words) is described
#     in man/s2s-cuda.1;
#   - every option of `s2s-cuda --help` and every pass of --dump-ir=list is
#     in man/s2s-cuda.1, and every option of s2s_compare's usage in
#     man/s2s_compare.1;
#   - every construct and clause keyword the directive parser knows
#     (translator/fe/directive.c) is in man/s2s-directives.7, and every
#     !$acc clause word in it or in man/s2s-cuda.1;
#   - groff formats the three pages without a warning (when groff is there).
# Environment (make check sets it): top_srcdir, top_builddir, S2S.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
man=$top_srcdir/man
fail=0
failed() {
  echo "FAIL $*"
  fail=$((fail + 1))
}

# A name is described when the page has it in bold or roman words (groff
# escapes a '-' as '\-' in the source).
described() { # PAGE WORD
  local word=${2//-/\\\\-}
  grep -qE -- "(^|[^A-Za-z0-9_])${word}([^A-Za-z0-9_]|$)" "$1"
}

# ---- environment variables
vars=$(cd "$top_srcdir" && grep -rhE 'getenv|s2s_rt_env_[a-z]+\(|build_tool_words\(' \
         translator analysis transforms rt --include='*.c' --include='*.h' |
       grep -oE '"[A-Z][A-Z0-9_]+"' | tr -d '"' | sort -u)
[ -n "$vars" ] || failed "found no environment variable in the sources (the grep is broken)"
for v in $vars; do
  described "$man/s2s-cuda.1" "$v" || failed "s2s-cuda.1 does not describe the environment variable $v"
done

# ---- options
help_options=$("$S2S" --help | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9_=-]*' | sed 's/^[ ,]//; s/=.*//' | sort -u)
[ -n "$help_options" ] || failed "s2s-cuda --help lists no option"
for opt in $help_options; do
  described "$man/s2s-cuda.1" "$opt" || failed "s2s-cuda.1 does not describe $opt (in --help)"
done
compare_options=$("$top_builddir/tests/s2s_compare" --help 2>&1 | grep -oE -- '--[a-z]+' | sort -u)
for opt in $compare_options; do
  described "$man/s2s_compare.1" "$opt" || failed "s2s_compare.1 does not describe $opt"
done

# ---- the passes --dump-ir names
passes=$("$S2S" --dump-ir=list)
[ -n "$passes" ] || failed "s2s-cuda --dump-ir=list printed nothing"
for pass in $passes; do
  described "$man/s2s-cuda.1" "$pass" || failed "s2s-cuda.1 does not name the pass $pass (--dump-ir=list)"
done

# ---- directive keywords: the clause table and the constructs
keywords=$(cd "$top_srcdir" && sed -n 's/^ *{"\([a-z]*\)", CL_.*/\1/p' translator/fe/directive.c | sort -u)
[ -n "$keywords" ] || failed "found no clause in translator/fe/directive.c (the sed is broken)"
for k in $keywords region data do update end enter exit; do
  described "$man/s2s-directives.7" "$k" || failed "s2s-directives.7 does not describe '$k'"
done

# ---- the !$acc clause words (the acc_words table): in either page, the
# OpenACC and PGI Accelerator input being described in s2s-cuda.1
acc_words=$(cd "$top_srcdir" && sed -n 's/^ *{"\([a-z_]*\)", M_[A-Z]*,.*/\1/p' translator/fe/directive.c | sort -u)
[ -n "$acc_words" ] || failed "found no !\$acc clause in translator/fe/directive.c (the sed is broken)"
for k in $acc_words; do
  described "$man/s2s-directives.7" "$k" || described "$man/s2s-cuda.1" "$k" ||
    failed "neither s2s-cuda.1 nor s2s-directives.7 describes the !\$acc clause '$k'"
done

# ---- formatting
if command -v groff >/dev/null 2>&1; then
  for page in s2s-cuda.1 s2s_compare.1 s2s-directives.7; do
    warnings=$(groff -man -Tutf8 -ww -z "$man/$page" 2>&1)
    [ -z "$warnings" ] || failed "groff warns about $page: $warnings"
  done
fi

nvars=$(echo "$vars" | wc -w)
nopts=$(echo "$help_options" | wc -w)
echo "manpages: $nvars environment variables, $nopts options of --help, $(echo "$keywords" | wc -w) clauses and $(echo "$acc_words" | wc -w) !\$acc clauses checked; $fail failed"
[ $fail = 0 ]
