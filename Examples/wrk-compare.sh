#!/usr/bin/env bash
# The measuring half of the examples' load tests: wrk against a route served with the injector and
# its hand-wired twin on a running server, alternating, after a warm-up of each; per run, requests
# per second, the server's and PostgreSQL's CPU time per request and the other load on the machine;
# then the medians and the ratio. Each example's loadtest.sh starts its server and calls this:
#
#   bash ../wrk-compare.sh SERVER_PID BASE_URL HEADER SCOPED_LABEL SCOPED_PATH PLAIN_LABEL PLAIN_PATH
#
# e.g. `bash ../wrk-compare.sh 4242 http://127.0.0.1:8080 'Authorization: Bearer loadtest' links
# links/abc plain/links plain/links/abc`. Settings from the environment: THREADS, CONNECTIONS,
# DURATION, ROUNDS, PIN. wrk is installed with apt-get if missing.
#
# PIN=1 (on a machine of two or more CPUs) pins every thread of the server to CPU 0 and wrk and
# PostgreSQL (its postmaster, whose new backends inherit it, and every process it has forked) to
# CPU 1, so that the server never shares a core with the load it serves; its requests per second
# is then one core's worth. Off by default: on this project's 2-core VM it did not narrow the
# rounds' spread (Examples/HummingbirdServer/README.md, "Pinned").
set -euo pipefail

SERVER=$1 URL=$2 HEADER=$3 SCOPED=$4 SCOPED_PATH=$5 PLAIN=$6 PLAIN_PATH=$7
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15s}
ROUNDS=${ROUNDS:-3}
TICKS_PER_SECOND=$(getconf CLK_TCK)
PIN=${PIN:-0}
[ "$(nproc)" -ge 2 ] || PIN=0

if ! command -v wrk >/dev/null; then
    apt-get update -qq >/dev/null
    apt-get install -y -qq wrk >/dev/null
fi
LOAD=()
if [ "$PIN" = 1 ]; then
    taskset -apc 0 "$SERVER" >/dev/null
    for pid in $(pgrep -x postgres); do taskset -apc 1 "$pid" >/dev/null; done
    LOAD=(taskset -c 1)
fi
echo "server pid $SERVER, wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds, pinned: $PIN"

# CPU time used so far, in clock ticks: by the server (user + system), by PostgreSQL's processes
# (user + system, then user alone), and in user mode by the server, by this shell's finished
# children (wrk), and by the whole machine (with "all" including idle time).
server_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER/stat"; }
server_user_ticks() { awk '{ print $14 }' "/proc/$SERVER/stat"; }
# A process that exits between the glob and the read makes cat fail, which pipefail would turn into
# the script's silent end: its stat is not needed.
postgres_ticks() {
    { cat /proc/[0-9]*/stat 2>/dev/null || true; } |
        awk '$2 == "(postgres)" { all += $14 + $15; user += $14 } END { print all + 0, user + 0 }'
}
children_user_ticks() { awk '{ print $16 }' "/proc/$BASHPID/stat"; }
machine_ticks() { awk '/^cpu / { print $2 + $3, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

# One wrk run; prints "label requests/s server-CPU-µs/request PostgreSQL-CPU-µs/request
# other-load-%", where the last is the share of the machine's user-mode CPU time spent by processes
# other than the server, PostgreSQL and wrk (another build, say): it should be close to 0.
run() {
    local label=$1 path=$2 duration=$3 server0 server1 user0 user1 wrk0 wrk1 machine0 machine1 pg0 pg1 output
    server0=$(server_ticks) user0=$(server_user_ticks) wrk0=$(children_user_ticks) machine0=$(machine_ticks)
    pg0=$(postgres_ticks)
    output=$("${LOAD[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$duration" -H "$HEADER" "$URL/$path")
    server1=$(server_ticks) user1=$(server_user_ticks) wrk1=$(children_user_ticks) machine1=$(machine_ticks)
    pg1=$(postgres_ticks)
    if grep -q "Non-2xx" <<<"$output"; then
        echo "$output" >&2
        echo "error responses on /$path" >&2
        exit 1
    fi
    awk -v label="$label" -v server=$((server1 - server0)) -v user=$((user1 - user0)) -v wrk=$((wrk1 - wrk0)) \
        -v hz="$TICKS_PER_SECOND" -v m0="$machine0" -v m1="$machine1" -v pg0="$pg0" -v pg1="$pg1" '
        /requests in/ { requests = $1 }
        /Requests\/sec/ { rps = $2 }
        END {
            split(m0, a, " "); split(m1, b, " "); split(pg0, p, " "); split(pg1, q, " ")
            other = (b[1] - a[1] - user - wrk - (q[2] - p[2])) / (b[2] - a[2]) * 100
            printf "%-15s %10.0f %10.1f %10.1f %8.1f\n", label, rps, server / hz * 1e6 / requests,
                (q[1] - p[1]) / hz * 1e6 / requests, other < 0 ? 0 : other
        }' <<<"$output"
}

echo "warm-up"
run "$SCOPED" "$SCOPED_PATH" 5s >/dev/null
run "$PLAIN" "$PLAIN_PATH" 5s >/dev/null

printf "%-15s %10s %10s %10s %8s\n" route "req/s" "CPU µs/req" "PG µs/req" "other %"
RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"' EXIT
for _ in $(seq "$ROUNDS"); do
    run "$SCOPED" "$SCOPED_PATH" "$DURATION" | tee -a "$RESULTS"
    run "$PLAIN" "$PLAIN_PATH" "$DURATION" | tee -a "$RESULTS"
done

# The median of column $2 of the rows labelled $1.
median() { awk -v label="$1" -v column="$2" '$1 == label { print $column }' "$RESULTS" | sort -n |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

awk -v s="$(median "$SCOPED" 2)" -v p="$(median "$PLAIN" 2)" -v cs="$(median "$SCOPED" 3)" \
    -v cp="$(median "$PLAIN" 3)" -v gs="$(median "$SCOPED" 4)" -v gp="$(median "$PLAIN" 4)" '
    BEGIN {
        printf "median: scoped %.0f req/s, plain %.0f req/s, scoped/plain = %.3f\n", s, p, s / p
        printf "1/throughput: scoped %.2f µs, plain %.2f µs, difference %.2f µs per request\n", 1e6 / s, 1e6 / p, 1e6 / s - 1e6 / p
        printf "server CPU per request: scoped %.1f µs, plain %.1f µs, difference %.1f µs\n", cs, cp, cs - cp
        printf "PostgreSQL CPU per request: scoped %.1f µs, plain %.1f µs\n", gs, gp
    }'
