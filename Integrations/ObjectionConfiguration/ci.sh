#!/usr/bin/env bash
# CI for the swift-configuration integration: a strict build (warnings are errors) and the tests,
# which read settings from environment variables given to the provider, not the process's.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionConfiguration: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionConfiguration: tests"
swift test
