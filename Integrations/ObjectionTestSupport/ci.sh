#!/usr/bin/env bash
# CI for the shared test support: a strict build (warnings are errors) and the tests of its signals,
# gate, event log, counter, teardown helper, raw HTTP exchange, log capture, connection budget and
# server fixtures. No database: the example servers' tests use the PostgreSQL helper against a
# real one.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionTestSupport: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionTestSupport: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
