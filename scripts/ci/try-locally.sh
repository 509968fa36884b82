#!/bin/sh
# Rehearses .github/workflows/jsonbench.yml on this machine with the same commands
# (scripts/ci/jsonbench-ci.sh): two pushes to main that share a ledger the way the workflow's
# cache carries it, then a pull request whose base and head are measured and compared. Prints
# each step's wall time with the load average, the comparisons, and the gate's exit codes.
#
#   scripts/ci/try-locally.sh [work-dir]
#
# BASE_JSONBENCH (default: this checkout) is the jsonbench the "merge base" runs with, e.g.
# BASE_JSONBENCH="node /path/to/other/checkout/bin/jsonbench.js"; JSONBENCH_SUITE narrows the suite.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
ci="$here/scripts/ci/jsonbench-ci.sh"
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/jsonbench-ci-XXXXXX")}
mkdir -p "$work/cache"
cd "$work"
step() { printf '\n== %s (load %s)\n' "$1" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"; }
timed() { t0=$(date +%s); "$@"; rc=$?; echo "   $(( $(date +%s) - t0 )) s, exit $rc, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"; return $rc; }

for push in 1 2; do
  step "push $push to main: restore the ledger, measure, compare with the previous main run, save the ledger"
  rm -rf "main$push" .jsonbench && mkdir -p .jsonbench
  [ ! -f cache/ledger.db ] || cp cache/ledger.db .jsonbench/ledger.db        # actions/cache/restore
  timed "$ci" measure "main$push" .jsonbench/ledger.db
  JSONBENCH_LEDGER=.jsonbench/ledger.db "$ci" compare latest~1 latest "main$push.compare.md" || echo "   (compare exit $?: nothing to compare with on the first push)"
  cp .jsonbench/ledger.db cache/ledger.db                                     # actions/cache/save
done
node "$here/bin/jsonbench.js" ledger list --ledger cache/ledger.db

step "pull request: measure the merge base and the head on this machine, compare (the gate)"
timed env JSONBENCH="${BASE_JSONBENCH:-node $here/bin/jsonbench.js}" "$ci" measure base
timed "$ci" measure head
gate=0
"$ci" compare base head pr.compare.md || gate=$?
echo "   gate exit $gate (0 pass, 1 a case is slower or broken)"
step "the comparison the pull request would get"
cat pr.compare.md
echo "work folder: $work"
exit $gate
