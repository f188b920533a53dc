#!/usr/bin/env bash
# CI for the gRPC example: a strict build (warnings are errors) and the tests, which start the
# server on an ephemeral loopback port, call it over real HTTP/2 with grpc-swift's client, and
# store the notes in a real PostgreSQL: the throwaway server of .ci/postgres-start (started here
# unless it runs; left running for the next job, `bash ../../.ci/postgres-stop` stops it).
set -euo pipefail
cd "$(dirname "$0")"

echo "== example: PostgreSQL"
# On its own line, so that set -e stops here if the start fails.
pg_env=$(bash ../../.ci/postgres-start)
eval "$pg_env"

bash ../../.ci/package-ci . GRPCServer
