#!/usr/bin/env bash
# Runs one benchmark on this working tree and on an earlier commit, alternately, so that a refactoring can be checked
# for regressions in the same session on the same machine (each benchmark already reports its peers as ratios).
#
#   bash bench/against-commit.sh <commit> <pairs> <npm script> [benchmark flags...]
#   bash bench/against-commit.sh a8bea28 6 bench:agent --steps=400 --rounds=9
#
# The commit is checked out once into a temporary git worktree that borrows this tree's node_modules; the pairs
# alternate which side runs first. Each run's output is kept in the printed folder as <side>-<pair>.txt.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: bash bench/against-commit.sh <commit> <pairs> <npm script> [benchmark flags...]" >&2
  exit 2
fi
commit=$1
pairs=$2
script=$3
shift 3
here=$(git rev-parse --show-toplevel)
base=$(mktemp -d)/base
out=$(mktemp -d)
git -C "$here" worktree add --quiet --detach "$base" "$commit"
trap 'git -C "$here" worktree remove --force "$base"' EXIT
ln -s "$here/node_modules" "$base/node_modules"
for pair in $(seq 1 "$pairs"); do
  if [ $((pair % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
  for side in $order; do
    dir=$here
    [ "$side" = base ] && dir=$base
    (cd "$dir" && npm run --silent "$script" -- "$@" >"$out/$side-$pair.txt" 2>&1)
  done
done
echo "outputs: $out (base-N.txt is $commit, new-N.txt is this working tree)"
