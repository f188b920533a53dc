#!/usr/bin/env bash
# CI for the observability integration: a strict build (warnings are errors) and the tests, which
# record to swift-distributed-tracing's InMemoryTracer and swift-metrics' TestMetrics.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionObservability
