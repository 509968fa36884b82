#!/usr/bin/env bash
# The steps of the jsonbench GitHub Action (action.yml at the repository's root), one subcommand
# each, run in this order by the action and by scripts/ci/rehearse-action.sh:
#
#   install        read the inputs into a state folder (exported to later steps through
#                  $GITHUB_ENV, with JSONBENCH_CACHE, the runtimes' cache folder); npm ci of
#                  jsonbench when it is not built; valgrind for metric instructions
#   runtimes       `jsonbench runtimes install` of each target of the `targets` input that is
#                  not installed yet (action.yml caches the folder between jobs); a target
#                  jsonbench cannot install (chromium: apt) is a warning
#   measure-base   pull request only: the merge base ($BASE_SHA) in a git worktree, measured;
#                  the worktree is removed after
#   measure-head   the checked-out head, measured
#   compare        pull request: `jsonbench compare base head --format md` with the gate's
#                  --metric/--fail-on (the gate's outcome as heading, each target's cases
#                  measured / failed, the runs named by ref and commit), behind this job's hidden
#                  marker; outputs verdict=pass|fail and results=<head results.json>; push:
#                  verdict=none. Never fails itself (the comment comes first), except on an
#                  error of jsonbench
#   comment        pull request, input comment=true: updates the one comment that carries this
#                  job's marker, or posts it (`gh api`); a read-only token (a fork) only warns
#   history        push, input history-branch set: commits the head's results.json (with its sidecar results.json.sha256) and report.md
#                  to that branch under runs/<UTC time>-<sha>/ (git plumbing: no worktree, no
#                  checkout) and pushes it to origin; without an origin remote the branch stays
#                  local, and a line says how to add one
#   gate           exits 1 when the verdict is fail
#
# Inputs come as INPUT_* variables (action.yml's `env:` of the install step; the defaults below are
# action.yml's); GitHub's own variables (GITHUB_EVENT_NAME, GITHUB_REPOSITORY, GITHUB_SHA,
# GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STEP_SUMMARY, RUNNER_TEMP) as GitHub sets them.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
jsonbench() { node "$here/bin/jsonbench.js" "$@"; }
state=${JSONBENCH_ACTION_STATE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/jsonbench-action}
event=${GITHUB_EVENT_NAME:-pull_request}
say() { echo "jsonbench-action: $*" >&2; }
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >> "$GITHUB_OUTPUT"; fi; echo "$1=$2"; }
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$1" >> "$GITHUB_STEP_SUMMARY"; fi; }

load_inputs() {
  # shellcheck source=/dev/null
  . "$state/inputs.sh"
  # this job's comment: its hidden marker names the job (input comment-id, else its targets, metric
  # and a hash of its other inputs), so the jobs of a matrix on one pull request keep one comment each
  MARKER="<!-- jsonbench-action: $COMMENT_ID -->"
}

# A run's name in the comment: <ref>@<commit, 12 digits>, or the commit alone.
label() { if [ -n "$1" ]; then echo "$1@${2:0:12}"; else echo "${2:0:12}"; fi; }

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
      printf 'BASE_SHA=%q\nPR_NUMBER=%q\nBASE_REF=%q\nHEAD_REF=%q\n' "${BASE_SHA:-}" "${PR_NUMBER:-}" "${BASE_REF:-}" "${HEAD_REF:-}"
      # the marker's id: only words, so it cannot end the HTML comment or the jq string it is found with
      id=${INPUT_COMMENT_ID:-}
      if [ -z "$id" ]; then
        hash=$(printf '%s\n' "${INPUT_PAYLOAD:-}" "${INPUT_WORKLOADS:-}" "${INPUT_SERIALIZERS:-}" "${INPUT_CONFIG:-}" \
          "${INPUT_POLICY:-}" "${INPUT_FAIL_ON:-}" "${INPUT_ARGS:-}" | sha256sum | cut -c1-8)
        id="${INPUT_TARGETS:-node} ${INPUT_METRIC:-time} $hash"
      fi
      printf 'COMMENT_ID=%q\n' "$(printf '%s' "$id" | tr -c 'A-Za-z0-9 ,.:@_/+=-' '_')"
    } > "$state/inputs.sh"
    cache=${JSONBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/jsonbench}
    if [ -n "${GITHUB_ENV:-}" ]; then
      echo "JSONBENCH_ACTION_STATE=$state" >> "$GITHUB_ENV"
      echo "JSONBENCH_CACHE=$cache" >> "$GITHUB_ENV"
    fi
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
  runtimes)
    load_inputs
    [ -n "$INPUT_TARGETS" ] || { say "no targets input: the runner's Node only"; exit 0; }
    # the targets named that are not installed: those jsonbench installs, and those it cannot (warned)
    # shellcheck disable=SC2016 # a JavaScript program, not shell
    missing=$(jsonbench runtimes list --json | node -e '
      let text = ""; process.stdin.on("data", (d) => (text += d)).on("end", () => {
        const rows = new Map(JSON.parse(text).map((r) => [r.target, r]));
        const out = [];
        for (const id of process.argv[1].split(",").map((s) => s.trim()).filter(Boolean)) {
          const r = rows.get(id);
          if (r?.installed) console.error(`jsonbench-action: ${id}: ${r.version} is installed (${r.where})`);
          else if (r?.install?.startsWith("jsonbench runtimes install")) out.push(id);
          else console.error(`::warning::jsonbench: target ${id} is not one jsonbench installs (${r?.install ?? "see docs/targets.md"}): its cases fail unless the runner has it`);
        }
        console.log(out.join(" "));
      });' "$INPUT_TARGETS")
    if [ -n "$missing" ]; then
      say "installing $missing into ${JSONBENCH_CACHE:-~/.cache/jsonbench}/runtimes"
      # shellcheck disable=SC2086 # target ids are words
      jsonbench runtimes install $missing || echo "::warning::jsonbench: a runtime did not install: its cases fail, and the comment's Target table says so"
    fi
    ;;
  measure-base)
    load_inputs
    if [ "$event" != pull_request ]; then say "not a pull request: no base to measure"; exit 0; fi
    [ -n "$BASE_SHA" ] || { say "pull request without a base commit (BASE_SHA)"; exit 2; }
    git worktree remove --force "$state/base-tree" 2> /dev/null || rm -rf "$state/base-tree"
    git worktree prune
    git worktree add --detach "$state/base-tree" "$BASE_SHA" > /dev/null
    # the base's worktree is only needed while it is measured: never left registered in the repository
    trap 'git worktree remove --force "$state/base-tree" 2> /dev/null || true' EXIT
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
    head_sha=$(git rev-parse HEAD 2> /dev/null || echo "${GITHUB_SHA:-HEAD}")
    jsonbench compare "$state/base" "$state/head" --metric "$INPUT_METRIC" --fail-on "$INPUT_FAIL_ON" --format md \
      --base-label "$(label "$BASE_REF" "$BASE_SHA")" --head-label "$(label "$HEAD_REF" "$head_sha")" \
      > "$state/compare.md" || status=$?
    [ "$status" -le 1 ] || { say "jsonbench compare failed (exit $status)"; exit "$status"; }
    { echo "$MARKER"; cat "$state/compare.md"; } > "$state/comment.md"
    summary "$state/comment.md"
    if [ "$status" -eq 0 ]; then verdict=pass; else verdict=fail; fi
    echo "$verdict" > "$state/verdict"
    output verdict "$verdict"
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
    # this job's marker only: another job's comment (a matrix) or another bot's is never touched
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
    sha=${GITHUB_SHA:-$(git rev-parse HEAD)}
    run="runs/$(date -u +%Y%m%dT%H%M%SZ)-${sha:0:12}"
    remote=''
    if git remote get-url origin > /dev/null 2>&1; then remote=origin; fi
    # the commit is made with git's plumbing in a private index: no worktree, no checkout, nothing
    # left registered in the repository, and a second run (or a second rehearsal) starts clean
    index="$state/history-index"
    export GIT_AUTHOR_NAME=jsonbench GIT_AUTHOR_EMAIL=jsonbench@users.noreply.github.com
    export GIT_COMMITTER_NAME=jsonbench GIT_COMMITTER_EMAIL=jsonbench@users.noreply.github.com
    for attempt in 1 2 3; do
      parent=''
      if [ -n "$remote" ] && git fetch -q "$remote" "+refs/heads/$branch:refs/remotes/$remote/$branch" 2> /dev/null; then
        parent=$(git rev-parse "refs/remotes/$remote/$branch")
      elif git rev-parse -q --verify "refs/heads/$branch" > /dev/null; then
        parent=$(git rev-parse "refs/heads/$branch")
      fi
      rm -f "$index"
      if [ -n "$parent" ]; then GIT_INDEX_FILE=$index git read-tree "$parent"; else GIT_INDEX_FILE=$index git read-tree --empty; fi
      for f in results.json results.json.sha256 report.md; do
        [ -f "$state/head/$f" ] || continue
        blob=$(git hash-object -w "$state/head/$f")
        GIT_INDEX_FILE=$index git update-index --add --cacheinfo "100644,$blob,$run/$f"
      done
      tree=$(GIT_INDEX_FILE=$index git write-tree)
      commit=$(git commit-tree "$tree" ${parent:+-p "$parent"} -m "jsonbench results of $sha")
      rm -f "$index"
      git update-ref "refs/heads/$branch" "$commit"
      if [ -z "$remote" ]; then
        say "results kept on the local branch $branch at $run (no origin remote to push to; to keep them elsewhere: git init --bare ../history.git && git remote add origin ../history.git)"
        exit 0
      fi
      if git push -q "$remote" "$commit:refs/heads/$branch"; then
        say "results kept on branch $branch at $run"
        exit 0
      fi
      say "push of $branch refused (another job pushed first?): attempt $attempt of 3"
    done
    exit 1
    ;;
  gate)
    load_inputs
    if [ "$event" != pull_request ]; then exit 0; fi
    if [ "$(cat "$state/verdict" 2> /dev/null)" = fail ]; then
      say "the gate failed: $(sed -n 's/^### jsonbench: //p' "$state/compare.md" | head -n 1) (see the comment or the job summary)"
      exit 1
    fi
    ;;
  *)
    echo "usage: action.sh install|runtimes|measure-base|measure-head|compare|comment|history|gate" >&2
    exit 2
    ;;
esac
