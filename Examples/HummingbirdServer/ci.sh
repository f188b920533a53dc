#!/usr/bin/env bash
# CI for the Hummingbird example: a strict build (warnings are errors) and the tests, which start
# the server on an ephemeral loopback port and talk to it over real sockets.
set -euo pipefail
cd "$(dirname "$0")"

echo "== example: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== example: tests"
swift test
