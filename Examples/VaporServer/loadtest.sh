#!/usr/bin/env bash
# Load test: GET /accounts/:id (request scope, transaction scope, resolved from the injector)
# against GET /plain/accounts/:id (the same work, hand-wired, with its own withTransaction),
# alternating, with wrk (installed with apt-get if missing). Both read the same PostgreSQL: the
# throwaway server of .ci/postgres-start (started unless it runs), in a schema of their own, made
# anew for each run. Not part of CI. Settings from the environment: PORT, THREADS, CONNECTIONS,
# DURATION, ROUNDS.
set -euo pipefail
cd "$(dirname "$0")"

PORT=${PORT:-8080}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15s}
ROUNDS=${ROUNDS:-3}
URL="http://127.0.0.1:$PORT"
AUTH="Authorization: Bearer loadtest"
TICKS_PER_SECOND=$(getconf CLK_TCK)

command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null

# On its own line, so that set -e stops here if the start fails.
pg_env=$(bash ../../.ci/postgres-start)
eval "$pg_env"
export LEDGER_SCHEMA=vapor_ledger_loadtest
PGPASSWORD="$POSTGRES_PASSWORD" psql -q -v ON_ERROR_STOP=1 -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" \
    -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "SET client_min_messages = warning" \
    -c "DROP SCHEMA IF EXISTS $LEDGER_SCHEMA CASCADE"

swift build -c release 2>&1 | tail -n 1
# At warning, Vapor's route logging (info, a line per request) stays off for both routes.
.build/release/ledger serve --hostname 127.0.0.1 --port "$PORT" --log warning >/dev/null &
SERVER=$!
trap 'kill -INT "$SERVER"; wait "$SERVER" || true' EXIT
until curl -sf "$URL/stats" >/dev/null; do sleep 0.2; done

ID=$(curl -sf -X POST "$URL/accounts" -H "$AUTH" -H 'Content-Type: application/json' \
    -d '{"owner":"loadtest","balance":100}' | sed -E 's/.*"id":([0-9]+).*/\1/')
echo "server pid $SERVER, account $ID, wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds"

# CPU time used so far, in clock ticks: by the server (user + system), by PostgreSQL's processes
# (user + system, then user alone), and in user mode by the server, by this shell's finished
# children (wrk), and by the whole machine (with "all" including idle time).
server_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER/stat"; }
server_user_ticks() { awk '{ print $14 }' "/proc/$SERVER/stat"; }
postgres_ticks() {
    cat /proc/[0-9]*/stat 2>/dev/null | awk '$2 == "(postgres)" { all += $14 + $15; user += $14 } END { print all + 0, user + 0 }'
}
children_user_ticks() { awk '{ print $16 }' "/proc/$BASHPID/stat"; }
machine_ticks() { awk '/^cpu / { print $2 + $3, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

# One wrk run; prints "route requests/s server-CPU-µs/request PostgreSQL-CPU-µs/request
# other-load-%", where the last is the share of the machine's user-mode CPU time spent by processes
# other than the server, PostgreSQL and wrk (another build, say): it should be close to 0.
run() {
    local route=$1 duration=$2 server0 server1 user0 user1 wrk0 wrk1 machine0 machine1 pg0 pg1 output
    server0=$(server_ticks) user0=$(server_user_ticks) wrk0=$(children_user_ticks) machine0=$(machine_ticks)
    pg0=$(postgres_ticks)
    output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$duration" -H "$AUTH" "$URL/$route/$ID")
    server1=$(server_ticks) user1=$(server_user_ticks) wrk1=$(children_user_ticks) machine1=$(machine_ticks)
    pg1=$(postgres_ticks)
    if grep -q "Non-2xx" <<<"$output"; then
        echo "$output" >&2
        echo "error responses on /$route" >&2
        exit 1
    fi
    awk -v route="$route" -v server=$((server1 - server0)) -v user=$((user1 - user0)) -v wrk=$((wrk1 - wrk0)) \
        -v hz="$TICKS_PER_SECOND" -v m0="$machine0" -v m1="$machine1" -v pg0="$pg0" -v pg1="$pg1" '
        /requests in/ { requests = $1 }
        /Requests\/sec/ { rps = $2 }
        END {
            split(m0, a, " "); split(m1, b, " "); split(pg0, p, " "); split(pg1, q, " ")
            other = (b[1] - a[1] - user - wrk - (q[2] - p[2])) / (b[2] - a[2]) * 100
            printf "%-15s %10.0f %10.1f %10.1f %8.1f\n", route, rps, server / hz * 1e6 / requests,
                (q[1] - p[1]) / hz * 1e6 / requests, other < 0 ? 0 : other
        }' <<<"$output"
}

echo "warm-up"
run accounts 5s >/dev/null
run plain/accounts 5s >/dev/null

printf "%-15s %10s %10s %10s %8s\n" route "req/s" "CPU µs/req" "PG µs/req" "other %"
RESULTS=$(mktemp)
for _ in $(seq "$ROUNDS"); do
    run accounts "$DURATION" | tee -a "$RESULTS"
    run plain/accounts "$DURATION" | tee -a "$RESULTS"
done

# The median of column $2 of the rows of route $1.
median() { awk -v route="$1" -v column="$2" '$1 == route { print $column }' "$RESULTS" | sort -n |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

awk -v s="$(median accounts 2)" -v p="$(median plain/accounts 2)" -v cs="$(median accounts 3)" \
    -v cp="$(median plain/accounts 3)" -v gs="$(median accounts 4)" -v gp="$(median plain/accounts 4)" '
    BEGIN {
        printf "median: scoped %.0f req/s, plain %.0f req/s, scoped/plain = %.3f\n", s, p, s / p
        printf "1/throughput: scoped %.2f µs, plain %.2f µs, difference %.2f µs per request\n", 1e6 / s, 1e6 / p, 1e6 / s - 1e6 / p
        printf "server CPU per request: scoped %.1f µs, plain %.1f µs, difference %.1f µs\n", cs, cp, cs - cp
        printf "PostgreSQL CPU per request: scoped %.1f µs, plain %.1f µs\n", gs, gp
    }'
rm -f "$RESULTS"
