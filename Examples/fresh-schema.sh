#!/usr/bin/env bash
# The database of the examples' load tests and profiles: starts the throwaway PostgreSQL of
# .ci/postgres-start unless it runs, makes the schema named by $1 anew, and prints the settings to
# `eval` (POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB and
# POSTGRES_SCHEMA), as postgres-start does:
#
#   pg_env=$(bash ../fresh-schema.sh link_shortener_loadtest)
#   eval "$pg_env"
set -euo pipefail
SCHEMA=$1
# On its own line, so that set -e stops here if the start fails.
pg_env=$(bash "$(dirname "$0")/../.ci/postgres-start")
eval "$pg_env"
PGPASSWORD="$POSTGRES_PASSWORD" psql -q -v ON_ERROR_STOP=1 -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" \
    -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "SET client_min_messages = warning" \
    -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" -c "CREATE SCHEMA $SCHEMA" >&2
echo "$pg_env"
echo "export POSTGRES_SCHEMA=$SCHEMA"
