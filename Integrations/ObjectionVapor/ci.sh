#!/usr/bin/env bash
# CI for the Vapor integration: a strict build (warnings are errors) and the tests, which drive
# the application in memory and, in two suites, a live server on an ephemeral loopback port.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionVapor
