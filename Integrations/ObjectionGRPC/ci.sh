#!/usr/bin/env bash
# CI for the gRPC integration: a strict build (warnings are errors) and the tests, which serve a
# hand-written service over a real HTTP/2 socket on an ephemeral loopback port and call it with
# grpc-swift's own client.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionGRPC: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionGRPC: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
