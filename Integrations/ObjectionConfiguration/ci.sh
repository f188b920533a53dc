#!/usr/bin/env bash
# CI for the swift-configuration integration: a strict build (warnings are errors) and the tests,
# which read settings from environment variables given to the provider, not the process's.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionConfiguration
