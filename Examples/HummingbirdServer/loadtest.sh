#!/usr/bin/env bash
# Load test: GET /links/:code (request scope, transaction scope, resolved from the injector) against
# GET /plain/links/:code (the same work, hand-wired, with its own withTransaction), alternating, with
# wrk (installed with apt-get if missing), measured by ../wrk-compare.sh. With ROUTE=api, the
# OpenAPI operation instead: GET /api/links/{code} (through ObjectionOpenAPI) against
# GET /plain/api/links/{code} (the same generated operation, hand-wired). Both read the same
# PostgreSQL: the throwaway server of .ci/postgres-start (started unless it runs), in a schema of
# their own, made anew for each run. Not part of CI. Settings from the environment: ROUTE (links or
# api), PORT, THREADS, CONNECTIONS, DURATION, ROUNDS.
set -euo pipefail
cd "$(dirname "$0")"

PORT=${PORT:-8080}
URL="http://127.0.0.1:$PORT"
AUTH="Authorization: Bearer loadtest"

# On its own line, so that set -e stops here if the start fails.
pg_env=$(bash ../fresh-schema.sh link_shortener_loadtest)
eval "$pg_env"

swift build -c release 2>&1 | tail -n 1
.build/release/link-shortener "$PORT" >/dev/null &
SERVER=$!
trap 'kill -INT "$SERVER"; wait "$SERVER" || true' EXIT
until curl -sf "$URL/stats" >/dev/null; do sleep 0.2; done

CODE=$(curl -sf -X POST "$URL/links" -H "$AUTH" -d '{"url":"https://www.swift.org"}' | sed -E 's/.*"code":"([^"]+)".*/\1/')
echo "link $CODE"
case "${ROUTE:-links}" in
links) bash ../wrk-compare.sh "$SERVER" "$URL" "$AUTH" links "links/$CODE" plain/links "plain/links/$CODE" ;;
api) bash ../wrk-compare.sh "$SERVER" "$URL" "$AUTH" api/links "api/links/$CODE" plain/api/links "plain/api/links/$CODE" ;;
*) echo "ROUTE must be links or api" >&2; exit 64 ;;
esac
