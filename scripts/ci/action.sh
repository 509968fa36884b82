#!/usr/bin/env bash
# The steps of the jsonbench GitHub Action (action.yml at the repository's root), one subcommand
# each, run in this order by the action and by scripts/ci/rehearse-action.sh:
#
#   install        read the inputs into a state folder (exported to later steps through
#                  $GITHUB_ENV); npm ci of jsonbench when it is not built; valgrind for
#                  metric instructions
#   measure-base   pull request only: the merge base ($BASE_SHA) in a git worktree, measured
#   measure-head   the checked-out head, measured
#   compare        pull request: `jsonbench compare base head --format md` with the gate's
#                  --metric/--fail-on, behind a hidden marker; outputs verdict=pass|fail and
#                  results=<head results.json>; push: verdict=none. Never fails itself (the
#                  comment comes first), except on an error of jsonbench
#   comment        pull request, input comment=true: updates the one comment that carries the
#                  marker, or posts it (`gh api`); a read-only token (a fork) only warns
#   history        push, input history-branch set: commits the head's results.json and report.md
#                  to that branch under runs/<UTC time>-<sha>/ and pushes it
#   gate           exits 1 when the verdict is fail
#
# Inputs come as INPUT_* variables (action.yml's `env:` of the install step; the defaults below are
# action.yml's); GitHub's own variables (GITHUB_EVENT_NAME, GITHUB_REPOSITORY, GITHUB_SHA,
# GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STEP_SUMMARY, RUNNER_TEMP) as GitHub sets them.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
jsonbench() { node "$here/bin/jsonbench.js" "$@"; }
MARKER='<!-- jsonbench-action -->'
state=${JSONBENCH_ACTION_STATE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/jsonbench-action}
event=${GITHUB_EVENT_NAME:-pull_request}
say() { echo "jsonbench-action: $*" >&2; }
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >> "$GITHUB_OUTPUT"; fi; echo "$1=$2"; }
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$1" >> "$GITHUB_STEP_SUMMARY"; fi; }

load_inputs() {
  # shellcheck source=/dev/null
  . "$state/inputs.sh"
}

# The `jsonbench run` arguments the inputs ask for, into the array RUN_ARGS.
run_args() {
  RUN_ARGS=(--policy "$INPUT_POLICY" --metric "$INPUT_METRIC" --no-ledger)
  [ -z "$INPUT_PAYLOAD" ] || RUN_ARGS+=(--payload "$INPUT_PAYLOAD")
  [ -z "$INPUT_WORKLOADS" ] || RUN_ARGS+=(--workload "$INPUT_WORKLOADS")
  [ -z "$INPUT_SERIALIZERS" ] || RUN_ARGS+=(--serializer "$INPUT_SERIALIZERS")
  [ -z "$INPUT_CONFIG" ] || RUN_ARGS+=(--config "$INPUT_CONFIG")
  [ -z "$INPUT_TARGETS" ] || RUN_ARGS+=(--target "$INPUT_TARGETS")
  if [ -n "$INPUT_ARGS" ]; then
    # extra arguments are words split at blanks, never glob patterns (a `*` stays a `*`)
    local extra
    read -r -a extra <<< "$INPUT_ARGS"
    RUN_ARGS+=("${extra[@]}")
  fi
}

# measure <folder to run in> <results folder>: exit 0 measured; exit 1 with results.json written is
# kept for compare to judge (nothing measured, or cases without numbers from an older jsonbench).
measure() {
  local dir=$1 out=$2 status=0
  run_args
  rm -rf "$out"
  (cd "$dir" && jsonbench run "${RUN_ARGS[@]}" --out "$out") || status=$?
  if [ "$status" -eq 1 ] && [ -f "$out/results.json" ]; then
    say "run exited 1 with results written (see $out/report.md); compare judges it"
  elif [ "$status" -ne 0 ]; then
    say "jsonbench run failed in $dir (exit $status)"
    exit "$status"
  fi
}

case "${1:-}" in
  install)
    mkdir -p "$state"
    {
      for name in PAYLOAD WORKLOADS SERIALIZERS CONFIG TARGETS ARGS; do
        var=INPUT_$name
        printf 'INPUT_%s=%q\n' "$name" "${!var:-}"
      done
      printf 'INPUT_POLICY=%q\n' "${INPUT_POLICY:-default}"
      printf 'INPUT_METRIC=%q\n' "${INPUT_METRIC:-time}"
      printf 'INPUT_FAIL_ON=%q\n' "${INPUT_FAIL_ON:-slower,broken}"
      printf 'INPUT_COMMENT=%q\n' "${INPUT_COMMENT:-true}"
      printf 'INPUT_HISTORY_BRANCH=%q\n' "${INPUT_HISTORY_BRANCH-jsonbench-history}"
      printf 'BASE_SHA=%q\nPR_NUMBER=%q\n' "${BASE_SHA:-}" "${PR_NUMBER:-}"
    } > "$state/inputs.sh"
    if [ -n "${GITHUB_ENV:-}" ]; then echo "JSONBENCH_ACTION_STATE=$state" >> "$GITHUB_ENV"; fi
    load_inputs
    case ",$INPUT_METRIC," in
      *,instructions,*)
        if ! command -v valgrind > /dev/null; then
          say "metric instructions: installing valgrind"
          sudo apt-get update -qq && sudo apt-get install -y -qq valgrind > /dev/null
        fi
        ;;
    esac
    if [ ! -f "$here/build/.complete" ]; then
      say "installing jsonbench in $here (npm ci)"
      (cd "$here" && npm ci --no-audit --no-fund)
    fi
    jsonbench --version
    ;;
  measure-base)
    load_inputs
    if [ "$event" != pull_request ]; then say "not a pull request: no base to measure"; exit 0; fi
    [ -n "$BASE_SHA" ] || { say "pull request without a base commit (BASE_SHA)"; exit 2; }
    git worktree remove --force "$state/base-tree" 2> /dev/null || rm -rf "$state/base-tree"
    git worktree add --detach "$state/base-tree" "$BASE_SHA" > /dev/null
    # the consumer's own dependencies (a config that imports its libraries), as the head has them
    if [ -f "$state/base-tree/package-lock.json" ] && [ -d node_modules ]; then
      (cd "$state/base-tree" && npm ci --no-audit --no-fund --ignore-scripts > /dev/null)
    fi
    measure "$state/base-tree" "$state/base"
    ;;
  measure-head)
    load_inputs
    measure "$PWD" "$state/head"
    ;;
  compare)
    load_inputs
    output results "$state/head/results.json"
    if [ "$event" != pull_request ]; then
      output verdict none
      [ ! -f "$state/head/report.md" ] || summary "$state/head/report.md"
      exit 0
    fi
    status=0
    jsonbench compare "$state/base" "$state/head" --metric "$INPUT_METRIC" --fail-on "$INPUT_FAIL_ON" \
      --format md > "$state/compare.md" || status=$?
    [ "$status" -le 1 ] || { say "jsonbench compare failed (exit $status)"; exit "$status"; }
    {
      echo "$MARKER"
      if [ "$status" -eq 0 ]; then echo "### jsonbench: no regression"; else echo "### jsonbench: regression (fails on $INPUT_FAIL_ON)"; fi
      echo
      echo "Base \`${BASE_SHA:0:12}\` and head \`${GITHUB_SHA:-HEAD}\` measured on the same runner ($INPUT_METRIC, policy $INPUT_POLICY)."
      echo
      cat "$state/compare.md"
    } > "$state/comment.md"
    summary "$state/comment.md"
    if [ "$status" -eq 0 ]; then output verdict pass; else output verdict fail; fi
    ;;
  comment)
    load_inputs
    if [ "$event" != pull_request ] || [ "$INPUT_COMMENT" != true ] || [ ! -f "$state/comment.md" ]; then exit 0; fi
    repo=${GITHUB_REPOSITORY:?comment: GITHUB_REPOSITORY is not set}
    [ -n "$PR_NUMBER" ] || { say "no pull request number: no comment"; exit 0; }
    if [ -z "${GH_TOKEN:-}${GITHUB_TOKEN:-}" ]; then
      echo "::warning::jsonbench-action: no GH_TOKEN in the comment step (the github-token input is empty): no comment posted; the job summary has it"
      exit 0
    fi
    id=$(gh api "repos/$repo/issues/$PR_NUMBER/comments" --paginate \
      --jq ".[] | select(.body | contains(\"$MARKER\")) | .id" | head -n 1) || id=''
    if [ -n "$id" ]; then
      gh api -X PATCH "repos/$repo/issues/comments/$id" -F "body=@$state/comment.md" > /dev/null \
        && say "updated comment $id" || say "could not update comment $id (a read-only token?): the job summary has it"
    else
      gh api -X POST "repos/$repo/issues/$PR_NUMBER/comments" -F "body=@$state/comment.md" > /dev/null \
        && say "posted the comment" || say "could not post the comment (a read-only token?): the job summary has it"
    fi
    ;;
  history)
    load_inputs
    if [ "$event" != push ] || [ -z "$INPUT_HISTORY_BRANCH" ]; then exit 0; fi
    branch=$INPUT_HISTORY_BRANCH
    tree="$state/history-tree"
    git worktree remove --force "$tree" 2> /dev/null || rm -rf "$tree"
    if git fetch -q origin "refs/heads/$branch:refs/remotes/origin/$branch" 2> /dev/null; then
      git worktree add -q -B "$branch" "$tree" "origin/$branch"
    else
      git worktree add -q --detach "$tree"
      (cd "$tree" && git checkout -q --orphan "$branch" && git rm -rq --cached . && git clean -fdxq)
    fi
    sha=${GITHUB_SHA:-$(git rev-parse HEAD)}
    run="runs/$(date -u +%Y%m%dT%H%M%SZ)-${sha:0:12}"
    mkdir -p "$tree/$run"
    cp "$state/head/results.json" "$tree/$run/"
    [ ! -f "$state/head/report.md" ] || cp "$state/head/report.md" "$tree/$run/"
    (
      cd "$tree"
      git add runs
      git -c user.name=jsonbench -c user.email=jsonbench@users.noreply.github.com commit -qm "jsonbench results of $sha"
      git push -q origin "HEAD:refs/heads/$branch"
    )
    say "results kept on branch $branch at $run"
    ;;
  gate)
    load_inputs
    if [ "$event" != pull_request ]; then exit 0; fi
    if grep -q '^### jsonbench: regression' "$state/comment.md" 2> /dev/null; then
      say "the gate failed: a case is $INPUT_FAIL_ON (see the comment or the job summary)"
      exit 1
    fi
    ;;
  *)
    echo "usage: action.sh install|measure-base|measure-head|compare|comment|history|gate" >&2
    exit 2
    ;;
esac
