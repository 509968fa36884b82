#!/bin/sh
# The steps of jsonbench's CI recipe (.github/workflows/jsonbench.yml, docs/ci.md), one
# subcommand each, so the workflow and a local rehearsal (scripts/ci/try-locally.sh) run the
# same commands.
#
#   jsonbench-ci.sh measure <out-dir> [ledger]   run the CI suite into <out-dir>; record it in
#                                                [ledger] when given (else --no-ledger)
#   jsonbench-ci.sh compare <base> <head> <md>   compare head against base on instruction counts;
#                                                the Markdown goes to <md>; exit 1 when a case
#                                                is slower (or broken), 0 otherwise
#
# Environment:
#   JSONBENCH        the command (default: node bin/jsonbench.js of this checkout)
#   JSONBENCH_SUITE  the run's arguments (default below: the CI suite)
#   JSONBENCH_GATE   compare's gate (default: --metric instructions --fail-on slower,broken)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
JSONBENCH=${JSONBENCH:-"node $here/bin/jsonbench.js"}
# The CI suite: one small document and one list, serialize and deserialize, the schema-compiled
# libraries against the built-ins; quick policy; instruction counts (valgrind) for the gate.
JSONBENCH_SUITE=${JSONBENCH_SUITE:-"--policy quick --workload weather-station --serializer json,fast-json-stringify,typia,ajv-jtd --metric instructions"}
JSONBENCH_GATE=${JSONBENCH_GATE:-"--metric instructions --fail-on slower,broken"}

case "${1:-}" in
  measure)
    out=${2:?measure: give the output folder}
    if [ -n "${3:-}" ]; then ledger="--ledger $3"; else ledger=--no-ledger; fi
    status=0
    # shellcheck disable=SC2086 # the suite is a list of arguments
    $JSONBENCH run $JSONBENCH_SUITE --out "$out" $ledger || status=$?
    # exit 0: measured and written (cases without numbers are listed on stderr; compare's
    # `--fail-on broken` names them against the base). exit 1 with results.json written: nothing
    # was measured (or, from an older jsonbench, as the merge base may be: a case had no number):
    # compare judges it. Anything else, or no results.json, is an error.
    if [ "$status" -eq 1 ] && [ -f "$out/results.json" ]; then
      echo "jsonbench-ci: run exited 1 with results written: cases without numbers, or nothing measured (see $out/report.md)" >&2
    elif [ "$status" -ne 0 ]; then
      exit "$status"
    fi
    ;;
  compare)
    base=${2:?compare: give the base run}; head=${3:?compare: give the head run}; md=${4:?compare: give the Markdown file}
    status=0
    # shellcheck disable=SC2086
    $JSONBENCH compare "$base" "$head" $JSONBENCH_GATE --format md > "$md" || status=$?
    # exit 1: the gate failed (the Markdown is still complete); anything else is an error
    [ "$status" -le 1 ] || { echo "jsonbench-ci: compare failed with exit $status" >&2; exit "$status"; }
    exit "$status"
    ;;
  *)
    echo "usage: jsonbench-ci.sh measure <out-dir> [ledger] | compare <base> <head> <md>" >&2
    exit 2
    ;;
esac
