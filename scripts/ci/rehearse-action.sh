#!/usr/bin/env bash
# Rehearses the jsonbench GitHub Action (action.yml) in the git repository of the working
# directory, as GitHub would run it there: the `run:` lines of action.yml's steps, in order, each
# in its own shell, with GitHub's variables set and $GITHUB_ENV carried from step to step; a
# failing step stops the job with its exit code (as on GitHub). The pull request's comment goes to
# a stand-in `gh` (scripts/ci/fake-gh-bin/gh) that keeps each pull request's comments as files
# (comments/pr-<n>/<id>.md), so nothing is posted. `uses:` steps (actions/cache of the runtimes)
# are GitHub's and are skipped. A fresh repository works as it is: without an `origin` remote a
# push keeps its results on the local history branch (a line says how to add a remote). Nothing is
# left in the repository (no worktree stays registered, nothing is checked out), so rehearsals can
# follow each other, in new folders or the same one.
# Like the real gh, the stand-in refuses without GH_TOKEN, which only the steps whose `env:` gives it
# have here.
#
#   scripts/ci/rehearse-action.sh pull_request <base-sha> [pr-number]   # measure base and head, compare, comment, gate
#   scripts/ci/rehearse-action.sh push                                  # measure the head, keep it on the history branch
#
# Inputs are the action's, as INPUT_* variables (INPUT_PAYLOAD=response.json INPUT_SERIALIZERS=json,ours …).
# REHEARSAL_DIR (default: a new temporary folder) holds the state, GitHub's files and the comments;
# it is printed at the end. Exit: the job's (0 passed; 1 the gate failed; else the failing step's).
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
event=${1:?usage: rehearse-action.sh pull_request <base-sha> [pr] | push}
work=${REHEARSAL_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/jsonbench-action-XXXXXX")}
mkdir -p "$work/comments" "$work/runner"
export GITHUB_ACTION_PATH=$here GITHUB_EVENT_NAME=$event GITHUB_REPOSITORY=${GITHUB_REPOSITORY:-local/rehearsal}
export GITHUB_SHA=$(git rev-parse HEAD) GITHUB_WORKSPACE=$PWD RUNNER_TEMP=$work/runner
export GITHUB_OUTPUT=$work/output GITHUB_ENV=$work/env GITHUB_STEP_SUMMARY=$work/summary.md
export FAKE_GH_DIR=$work/comments PATH="$here/scripts/ci/fake-gh-bin:$PATH"
if [ "$event" = pull_request ]; then
  export BASE_SHA=${2:?pull_request: give the base commit} PR_NUMBER=${3:-1}
  # the refs the comment names the runs by (GitHub's github.base_ref and github.head_ref)
  export BASE_REF=${BASE_REF:-$(git branch --format='%(refname:short)' --points-at "$BASE_SHA" | head -n 1)}
  export HEAD_REF=${HEAD_REF:-$(git symbolic-ref -q --short HEAD || true)}
fi
: > "$GITHUB_OUTPUT"; : > "$GITHUB_ENV"
steps=$(sed -n "s/^ *run: '\"\$GITHUB_ACTION_PATH\/scripts\/ci\/action.sh\" \([a-z-]*\)'$/\1/p" "$here/action.yml")
# the steps whose `env:` block gives GH_TOKEN (as on GitHub, a step's env is its own: no other step has the token)
token_steps=$(awk '/^ *- name:/ { step = "" } match($0, /action\.sh" [a-z-]+/) { step = substr($0, RSTART + 11, RLENGTH - 11) } /^ *GH_TOKEN:/ && step != "" { print step }' "$here/action.yml")
[ -n "$steps" ] || { echo "rehearse-action: no steps found in $here/action.yml" >&2; exit 2; }
status=0
for step in $steps; do
  printf '== %s (load %s)\n' "$step" "$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"
  t0=$(date +%s)
  # shellcheck disable=SC2046 # GITHUB_ENV holds NAME=value lines
  token=()
  case " $(echo $token_steps) " in *" $step "*) token=(GH_TOKEN="${REHEARSAL_TOKEN:-rehearsal-token}") ;; esac
  env -u GH_TOKEN -u GITHUB_TOKEN $(cat "$GITHUB_ENV") ${token[@]+"${token[@]}"} bash "$here/scripts/ci/action.sh" "$step" || status=$?
  echo "   $(($(date +%s) - t0)) s, exit $status"
  [ "$status" -eq 0 ] || break
done
echo "rehearsal folder: $work"
exit "$status"
