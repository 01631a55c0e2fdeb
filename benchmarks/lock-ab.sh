#!/usr/bin/env bash
# The lock benchmarks with @ZkLock of this build measured against @ZkLock of an earlier commit in the
# same run (README, section Benchmarks). Usage, from the repository root:
#   benchmarks/lock-ab.sh [COMMIT] [benchmark arguments...]
# COMMIT defaults to b609605 (main before issue 14's one-round-trip acquire and background release).
# Extra arguments go to the benchmark (default: --locks-only; add --quick for a smoke check).
set -euo pipefail
commit="${1:-b609605}"
shift || true
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--locks-only)
mvn_flags=(-B -ntp -q -DskipTests)
[ -n "${MAVEN_OFFLINE:-}" ] && mvn_flags+=(-o)

baseline="$(mktemp -d)"
trap 'rm -rf "$baseline"' EXIT
git archive "$commit" | tar -x -C "$baseline"
(cd "$baseline" && mvn "${mvn_flags[@]}" package -pl zk-spring-autoconfigure -am)
jar="$(ls "$baseline"/zk-spring-autoconfigure/target/zk-spring-autoconfigure-*.jar | grep -v -- '-tests.jar' | head -1)"

mvn "${mvn_flags[@]}" package -pl benchmarks -am
java -jar benchmarks/target/benchmarks.jar "${args[@]}" --lock-ab="$jar" --lock-ab-label="$(git rev-parse --short "$commit")"
