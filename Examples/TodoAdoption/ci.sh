#!/usr/bin/env bash
# CI for the adoption example: a strict build (warnings are errors) and its tests, which run the
# application through Hummingbird's router test mode with the in-memory repository.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . TodoAdoption
