#!/usr/bin/env bash
# CI for the swift-configuration integration: a strict build (warnings are errors) and the tests,
# which read settings from environment variables given to the provider, not the process's.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionConfiguration: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionConfiguration: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
