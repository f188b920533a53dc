#!/usr/bin/env bash
# CI for the observability integration: a strict build (warnings are errors) and the tests, which
# record to swift-distributed-tracing's InMemoryTracer and swift-metrics' TestMetrics.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionObservability: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionObservability: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
