#!/usr/bin/env bash
# CI for the service-lifecycle integration: a strict build (warnings are errors) and the tests,
# which run the injector service inside real ServiceGroups and wait on signals, never on sleeps.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionServiceLifecycle: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionServiceLifecycle: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
