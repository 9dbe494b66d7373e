# expect.sh - sourced by the shell tests.
#
# expect STATUS PATTERN -- COMMAND...: runs COMMAND, its output (stdout and
# stderr) kept in $EXPECT_OUT; passes (the test's pass) when it exits with
# STATUS and its output matches the extended regex PATTERN (an empty PATTERN:
# any output), else fails (the test's fail) showing the output.  With
# EXPECT_LIMIT set, a COMMAND still running after that many seconds is
# stopped and the case fails instead of holding the test up.
expect() {
  local want=$1 pat=$2 got
  shift 3
  if [ -n "${EXPECT_LIMIT:-}" ]; then
    timeout -k 5 "$EXPECT_LIMIT" "$@" > "$EXPECT_OUT" 2>&1
  else
    "$@" > "$EXPECT_OUT" 2>&1
  fi
  got=$?
  if [ "$got" -ne "$want" ] || { [ -n "$pat" ] && ! grep -Eq -- "$pat" "$EXPECT_OUT"; }; then
    fail "$* -> status $got (want $want, output matching '$pat'), output:"
    sed 's/^/    /' "$EXPECT_OUT" | head -20
  else
    pass
  fi
}
