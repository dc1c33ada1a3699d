#!/usr/bin/env bash
# The bench drivers refuse bad arguments by name (exit 2) and run good ones.
# Usage: tools/check_bench_args.sh BUILD_DIR   (a build with -DSPLENDOR_MCTS_CPP_TESTS=ON)
set -uo pipefail
build=${1:?usage: $0 BUILD_DIR}
failures=0

refused() {  # refused "expected text" command...
  local want=$1; shift
  local err status
  err=$("$@" 2>&1 >/dev/null); status=$?
  if [ "$status" -ne 2 ] || [[ "$err" != *"$want"* ]]; then
    echo "FAIL: $* -> exit $status, stderr '$err' (expected exit 2 naming '$want')"
    failures=$((failures + 1))
  fi
}

refused "usage: bench_playouts splendor" "$build/bench_playouts" duel 2 100
refused "PLAYERS" "$build/bench_playouts" splendor x
refused "players must be 2, 3 or 4" "$build/bench_playouts" splendor 7 100
refused "N must be" "$build/bench_duel" abc
refused "--game must be one of splendor, duel" "$build/bench_search" --game foo
refused "--rollout must be one of random, heuristic" "$build/bench_search" --rollout heurstic
refused "--threads must be" "$build/bench_search" --threads 0
refused "option --iterations needs a value" "$build/bench_search" --iterations
refused "--time must be a number of at least 0" "$build/bench_search" --time -1
refused "Splendor Duel has 2 players" "$build/bench_search" --game duel --players 3
refused "unknown option --colour" "$build/bench_search" --colour red
refused "--solver must be one of on, off" "$build/bench_search" --solver maybe
refused "analysis_moves must be between 0 (off) and 10, got 11" "$build/bench_search" --analysis-moves 11
refused "network file 'no-such.smnet': cannot be opened" "$build/bench_search" --network no-such.smnet
refused "value_mix must be between 0 and 1" "$build/bench_search" --value-mix 2

"$build/bench_playouts" splendor 3 20 >/dev/null || { echo "FAIL: bench_playouts splendor 3 20"; failures=$((failures + 1)); }
"$build/bench_duel" 20 >/dev/null || { echo "FAIL: bench_duel 20"; failures=$((failures + 1)); }
"$build/bench_search" --game duel --iterations 200 >/dev/null || { echo "FAIL: bench_search --game duel"; failures=$((failures + 1)); }

echo "bench argument checks: $failures failures"
[ "$failures" -eq 0 ]
