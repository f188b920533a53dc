#!/usr/bin/env bash
# Load test: GET /accounts/:id (request scope, transaction scope, resolved from the injector)
# against GET /plain/accounts/:id (the same work, hand-wired, with its own withTransaction),
# alternating, with wrk (installed with apt-get if missing), measured by ../wrk-compare.sh. Both
# read the same PostgreSQL: the throwaway server of .ci/postgres-start (started unless it runs), in
# a schema of their own, made anew for each run. Not part of CI. Settings from the environment:
# PORT, THREADS, CONNECTIONS, DURATION, ROUNDS.
set -euo pipefail
cd "$(dirname "$0")"

PORT=${PORT:-8080}
URL="http://127.0.0.1:$PORT"
AUTH="Authorization: Bearer loadtest"

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
echo "account $ID"
bash ../wrk-compare.sh "$SERVER" "$URL" "$AUTH" accounts "accounts/$ID" plain/accounts "plain/accounts/$ID"
