#!/usr/bin/env bash
# What the injector's observers cost GET /links/:code in this server, measured by sampling rather
# than by the difference of two load tests, whose spread (several µs per request between runs of
# the same binary) is wider than the cost. The server runs under `perf record` (cpu-clock, call
# graphs) while wrk loads the route; each sample whose call stack holds an observer's frame is
# charged to it, and so is each clock read made for an observer. Per request, in µs of server CPU:
# the observers' share, by part, beside the whole server's CPU per request in the same run.
#
#   ./profile-observers.sh               # OBJECTION_OBSERVERS=all, as the server runs by default
#   OBJECTION_TRACING_MINIMUM_MICROSECONDS=0 ./profile-observers.sh   # a span for everything
#
# Settings from the environment: PORT, THREADS, CONNECTIONS, DURATION, ROUNDS, FREQUENCY, and the
# server's own (OBJECTION_OBSERVERS, OBJECTION_TRACING_MINIMUM_MICROSECONDS). perf (Debian's
# linux-perf) and wrk are installed with apt-get if missing. Not part of CI. Sampling slows the
# server (about 10 %): the shares are of that slower server, an upper bound.
set -euo pipefail
cd "$(dirname "$0")"

PORT=${PORT:-8080}
URL="http://127.0.0.1:$PORT"
AUTH="Authorization: Bearer loadtest"
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-3}
FREQUENCY=${FREQUENCY:-997}
TICKS_PER_SECOND=$(getconf CLK_TCK)

for tool in perf:linux-perf wrk:wrk; do
    if ! command -v "${tool%%:*}" >/dev/null; then
        apt-get update -qq >/dev/null
        apt-get install -y -qq "${tool#*:}" >/dev/null
    fi
done

# On its own line, so that set -e stops here if the start fails.
pg_env=$(bash ../fresh-schema.sh link_shortener_profile)
eval "$pg_env"

swift build -c release 2>&1 | tail -n 1
WORK=$(mktemp -d)
.build/release/link-shortener "$PORT" >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill -INT "$SERVER" 2>/dev/null; wait "$SERVER" || true; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do
    curl -sf "$URL/stats" >/dev/null && break
    kill -0 "$SERVER" || { cat "$WORK/server.log" >&2; exit 1; }
    sleep 0.2
done
CODE=$(curl -sf -X POST "$URL/links" -H "$AUTH" -d '{"url":"https://www.swift.org"}' | sed -E 's/.*"code":"([^"]+)".*/\1/')
echo "server pid $SERVER, observers ${OBJECTION_OBSERVERS:-all}, tracing minimum" \
    "${OBJECTION_TRACING_MINIMUM_MICROSECONDS:-100} µs; wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s," \
    "$ROUNDS rounds, perf at $FREQUENCY Hz"
wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -H "$AUTH" "$URL/links/$CODE" >/dev/null

# Charges each sample (a block of `perf script` lines, demangled) to the first part whose frame
# is on its stack (simplified demangling names no parameter types, so a name is its own); a clock read
# (the leaf) below the injector's own frames counts as the reporting's. Prints one line:
# "tracing metrics combination reporting logging samples".
attribute() {
    swift demangle --simplified | awk '
        function part(name) {
            if (name ~ /(TracingObserver|ConstructionSpan|WallClockInstant)/) return "tracing"
            if (name ~ /MetricsObserver/) return "metrics"
            if (name ~ /(CombinedObserver|CombinedBindingObserver|CombinedConstructionObserver|ConstructionObserverList)/) return "combination"
            if (name ~ /(ConstructionReports|ObserverReference|ObservationClock|ObservedConstruction|ObservedSubject|ObservedParent|ConstructionObservation|ForwardingBindingObserver)/) return "reporting"
            if (name ~ /LoggingObserver/) return "logging"
            return ""
        }
        function finish() {
            if (depth == 0) return
            samples++
            charged = ""
            for (i = 1; i <= depth && charged == ""; i++) charged = part(frames[i])
            if (charged == "" && frames[1] ~ /clock_gettime|swift_get_time/) {
                for (i = 2; i <= depth; i++) if (frames[i] ~ /(InjectorActor|SynchronousResolver)/) { charged = "reporting"; break }
            }
            if (charged != "") count[charged]++
            depth = 0
        }
        /^[^ \t]/ { finish(); next }
        /^[ \t]*$/ { finish(); next }
        {
            line = $0
            sub(/^[ \t]*[0-9a-f]+ /, "", line)
            sub(/\+0x[0-9a-f]+ \(.*$/, "", line)
            frames[++depth] = line
        }
        END {
            finish()
            printf "%d %d %d %d %d %d\n", count["tracing"], count["metrics"], count["combination"], count["reporting"], count["logging"], samples
        }'
}

printf "%-6s %9s %11s %8s %8s %12s %10s %8s %10s\n" round "req/s" "CPU µs/req" tracing metrics combination reporting logging "observers"
for round in $(seq "$ROUNDS"); do
    cpu0=$(awk '{ print $14 + $15 }' "/proc/$SERVER/stat")
    perf record -q -F "$FREQUENCY" -g -o "$WORK/perf.data" -p "$SERVER" -- sleep "$DURATION" >/dev/null 2>&1 &
    PERF=$!
    output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" -H "$AUTH" "$URL/links/$CODE")
    wait "$PERF"
    cpu1=$(awk '{ print $14 + $15 }' "/proc/$SERVER/stat")
    if grep -q "Non-2xx" <<<"$output"; then
        echo "$output" >&2
        exit 1
    fi
    requests=$(awk '/requests in/ { print $1 }' <<<"$output")
    rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$output")
    read -r tracing metrics combination reporting logging samples < <(perf script -i "$WORK/perf.data" 2>/dev/null | attribute)
    # A sample stands for 1/FREQUENCY s of CPU; per request, in µs.
    awk -v r="$round" -v rps="$rps" -v req="$requests" -v cpu=$((cpu1 - cpu0)) -v hz="$TICKS_PER_SECOND" -v f="$FREQUENCY" \
        -v t="$tracing" -v m="$metrics" -v c="$combination" -v p="$reporting" -v l="$logging" 'BEGIN {
            us = 1e6 / f / req
            printf "%-6s %9.0f %11.1f %8.2f %8.2f %12.2f %10.2f %8.2f %10.2f\n", r, rps, cpu / hz * 1e6 / req,
                t * us, m * us, c * us, p * us, l * us, (t + m + c + p + l) * us
        }'
done
