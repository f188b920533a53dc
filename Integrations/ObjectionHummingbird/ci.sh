#!/usr/bin/env bash
# CI for the Hummingbird integration: a strict build (warnings are errors) and the tests, which
# drive the router directly and, in one suite, a live server on an ephemeral loopback port.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionHummingbird: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionHummingbird: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
