#!/usr/bin/env bash
# CI for the OpenAPI integration: a strict build (warnings are errors) and the tests, whose API is
# generated from Tests/ObjectionOpenAPITests/openapi.yaml by swift-openapi-generator's build plugin
# and served over real sockets on ephemeral loopback ports, by Hummingbird's transport and by
# Vapor's.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionOpenAPI
