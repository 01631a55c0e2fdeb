#!/usr/bin/env bash
# The sample's startup with and without a CDS archive (README, section "AOT and CDS"). Usage, from the
# repository root, after `mvn -pl sample-app -am package -DskipTests`:
#   benchmarks/cds-startup.sh [RUNS]
# Extracts the sample's jar (CDS archives classes from plain jars only), makes the archive with a training
# run (spring.context.exit=onRefresh), then starts the sample RUNS times (default 7) without and with the
# archive, alternating, each time with its embedded ZooKeeper on a free port, and reports Boot's own
# "process running for" figure (JVM start to a ready application) as medians.
set -euo pipefail
runs="${1:-7}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
jar="sample-app/target/sample-app.jar"
[ -f "$jar" ] || { echo "no $jar: run mvn -pl sample-app -am package -DskipTests first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$java" -Djarmode=tools -jar "$jar" extract --destination "$work/app" >/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
sample_args() { echo "--server.port=$(free_port) --zk.embedded.port=$(free_port) --sample.data-dir=$work/db"; }

start=$(date +%s.%N)
# shellcheck disable=SC2046
"$java" -XX:ArchiveClassesAtExit="$work/app.jsa" -Dspring.context.exit=onRefresh -Xlog:cds=off -Xlog:cds+dynamic=off \
  -jar "$work/app/sample-app.jar" $(sample_args) >"$work/training.log" 2>&1
echo "training run: exit 0 in $(echo "$(date +%s.%N) - $start" | bc | cut -c1-4) s, archive $(du -m "$work/app.jsa" | cut -f1) MB" >&2

# one start until "Started ...", then SIGTERM; prints Boot's "process running for" seconds
measure() {
  local log
  log="$(mktemp -p "$work" run-XXXX.log)"
  # shellcheck disable=SC2046
  "$java" "$@" -jar "$work/app/sample-app.jar" $(sample_args) >"$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 600); do
    if grep -q "Started SampleApplication" "$log" 2>/dev/null; then break; fi
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.2
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  grep -o "process running for [0-9.]*" "$log" | grep -o "[0-9.]*$"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

without=(); with=()
for i in $(seq 1 "$runs"); do
  without+=("$(measure -Xshare:auto)")
  with+=("$(measure -XX:SharedArchiveFile="$work/app.jsa")")
  echo "run $i: without ${without[-1]} s, with ${with[-1]} s" >&2
done
m_without=$(printf '%s\n' "${without[@]}" | median)
m_with=$(printf '%s\n' "${with[@]}" | median)
echo "| sample-app start (JVM start to ready) | runs | median | all |"
echo "|---|---:|---:|---|"
echo "| without the archive | $runs | ${m_without} s | ${without[*]} |"
echo "| with the archive (-XX:SharedArchiveFile) | $runs | ${m_with} s | ${with[*]} |"
echo "ratio with ÷ without: $(echo "scale=2; $m_with / $m_without" | bc)"
