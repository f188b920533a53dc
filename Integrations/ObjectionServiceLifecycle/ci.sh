#!/usr/bin/env bash
# CI for the service-lifecycle integration: a strict build (warnings are errors) and the tests,
# which run the injector service inside real ServiceGroups and wait on signals, never on sleeps.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionServiceLifecycle
