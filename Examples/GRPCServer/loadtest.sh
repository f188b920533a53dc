#!/usr/bin/env bash
# Load test: GetNote (a request scope per RPC, a transaction scope in it, the notebook resolved from
# the injector) against PlainNotes/GetNote (the same work, hand-wired, with its own withTransaction
# and no interceptor), alternating, after a warm-up of each, with grpc-load (this package's own
# client: CONNECTIONS concurrent callers on one HTTP/2 connection). Per round: RPCs per second and
# the server's CPU time per RPC, from /proc/PID/stat; then the medians, their spread (min–max) and
# the ratio. Both read the same note from the same PostgreSQL: the throwaway server of
# .ci/postgres-start (started unless it runs), in a schema of their own, made anew for each run.
# Not part of CI. Settings from the environment: PORT (50051), CONNECTIONS (64), DURATION (15,
# seconds; `15s` also works), ROUNDS (3).
set -euo pipefail
cd "$(dirname "$0")"

PORT=${PORT:-50051}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15}
DURATION=${DURATION%s}
ROUNDS=${ROUNDS:-3}
TICKS_PER_SECOND=$(getconf CLK_TCK)
BIN=.build/release
SERVER_LOG=.build/loadtest-server.log

# On its own line, so that set -e stops here if the start fails.
pg_env=$(bash ../fresh-schema.sh notes_loadtest)
eval "$pg_env"

swift build -c release 2>&1 | tail -n 1
"$BIN/notes-server" "$PORT" >"$SERVER_LOG" 2>&1 &
SERVER=$!
RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"; kill -INT "$SERVER" 2>/dev/null || true; wait "$SERVER" || true' EXIT

client() { "$BIN/notes-client" --port "$PORT" "$@" 2>/dev/null; }

# Up once it answers a listing: at most 150 tries, and not once the server has exited.
for _ in $(seq 150); do
    if client list 0 1 >/dev/null; then break; fi
    if ! kill -0 "$SERVER" 2>/dev/null; then
        echo "the server exited; its log, $SERVER_LOG:" >&2
        tail -n 20 "$SERVER_LOG" >&2
        exit 1
    fi
    sleep 0.2
done
client list 0 1 >/dev/null

ID=$(client add "load test note" | sed -E 's/.*"id":([0-9]+).*/\1/')
echo "server pid $SERVER, note $ID, $CONNECTIONS callers, ${DURATION}s per run, $ROUNDS rounds"

# CPU time the server has used so far, in clock ticks (user + system).
server_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER/stat"; }

# One grpc-load run; prints "label RPCs/s server-CPU-µs/RPC". grpc-load fails the script when an
# RPC failed.
run() {
    local label=$1 method=$2 duration=$3 before after output
    before=$(server_ticks)
    output=$("$BIN/grpc-load" "$method" --port "$PORT" --id "$ID" --connections "$CONNECTIONS" --duration "$duration")
    after=$(server_ticks)
    awk -v label="$label" -v ticks=$((after - before)) -v hz="$TICKS_PER_SECOND" '
        { for (i = 1; i <= NF; i++) { split($i, pair, "="); value[pair[1]] = pair[2] } }
        END { printf "%-8s %10.0f %12.1f\n", label, value["rps"], ticks / hz * 1e6 / value["rpcs"] }' <<<"$output"
}

echo "warm-up"
run scoped get 5 >/dev/null
run plain plain-get 5 >/dev/null

printf "%-8s %10s %12s\n" method "RPCs/s" "CPU µs/RPC"
for _ in $(seq "$ROUNDS"); do
    run scoped get "$DURATION" | tee -a "$RESULTS"
    run plain plain-get "$DURATION" | tee -a "$RESULTS"
done

# The median, minimum and maximum of column $2 of the rows labelled $1.
stats() {
    awk -v label="$1" -v column="$2" '$1 == label { print $column }' "$RESULTS" | sort -n |
        awk '{ v[NR] = $1 } END { printf "%s %s %s\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}

read -r scoped_rps scoped_rps_min scoped_rps_max <<<"$(stats scoped 2)"
read -r plain_rps plain_rps_min plain_rps_max <<<"$(stats plain 2)"
read -r scoped_cpu scoped_cpu_min scoped_cpu_max <<<"$(stats scoped 3)"
read -r plain_cpu plain_cpu_min plain_cpu_max <<<"$(stats plain 3)"
awk -v s="$scoped_rps" -v s0="$scoped_rps_min" -v s1="$scoped_rps_max" \
    -v p="$plain_rps" -v p0="$plain_rps_min" -v p1="$plain_rps_max" \
    -v cs="$scoped_cpu" -v cs0="$scoped_cpu_min" -v cs1="$scoped_cpu_max" \
    -v cp="$plain_cpu" -v cp0="$plain_cpu_min" -v cp1="$plain_cpu_max" '
    BEGIN {
        printf "median RPCs/s: scoped %.0f (%.0f–%.0f), plain %.0f (%.0f–%.0f), scoped/plain = %.3f\n", s, s0, s1, p, p0, p1, s / p
        printf "1/throughput: scoped %.2f µs, plain %.2f µs, difference %.2f µs per RPC\n", 1e6 / s, 1e6 / p, 1e6 / s - 1e6 / p
        printf "median server CPU per RPC: scoped %.1f µs (%.1f–%.1f), plain %.1f µs (%.1f–%.1f), difference %.1f µs\n", cs, cs0, cs1, cp, cp0, cp1, cs - cp
    }'
