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

echo "== example: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== example: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
