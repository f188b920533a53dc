#!/usr/bin/env bash
# CI for the OpenAPI integration: a strict build (warnings are errors) and the tests, whose API is
# generated from Tests/ObjectionOpenAPITests/openapi.yaml by swift-openapi-generator's build plugin
# and served over real sockets on ephemeral loopback ports, by Hummingbird's transport and by
# Vapor's.
set -euo pipefail
cd "$(dirname "$0")"

echo "== ObjectionOpenAPI: strict build (all targets, warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== ObjectionOpenAPI: tests"
# With the build's flags: the tests run on the strict build, where plain `swift test` would
# compile every module again.
swift test -Xswiftc -warnings-as-errors
