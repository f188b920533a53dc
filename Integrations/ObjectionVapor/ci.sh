#!/usr/bin/env bash
# CI for the Vapor integration: a strict build (warnings are errors) and the tests, which drive
# the application in memory and, in two suites, a live server on an ephemeral loopback port.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionVapor: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionVapor: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
