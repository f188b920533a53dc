#!/usr/bin/env bash
# CI for the Hummingbird integration: a strict build (warnings are errors) and the tests, which
# drive the router directly and, in one suite, a live server on an ephemeral loopback port.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionHummingbird
