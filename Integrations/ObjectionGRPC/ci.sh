#!/usr/bin/env bash
# CI for the gRPC integration: a strict build (warnings are errors) and the tests, which serve a
# hand-written service over a real HTTP/2 socket on an ephemeral loopback port and call it with
# grpc-swift's own client.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionGRPC
