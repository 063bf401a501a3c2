#!/usr/bin/env bash
# `npm test`: lint, then the type check beside the vitest run, then both verdicts. tsc needs one core for
# ~30 s; the run's real-time suites (players, live sources, outages) leave a core idle most of the time,
# so the type check costs the run almost no wall clock. Arguments go to vitest.
set -uo pipefail
npm run -s lint || exit 1
types_log=$(mktemp)
npm run -s typecheck >"$types_log" 2>&1 &
types_pid=$!
vitest run "$@"
tests=$?
wait "$types_pid"
types=$?
if [ "$types" -ne 0 ]; then
  cat "$types_log"
  echo "typecheck failed (exit $types)" >&2
fi
rm -f "$types_log"
[ "$tests" -eq 0 ] && [ "$types" -eq 0 ]
