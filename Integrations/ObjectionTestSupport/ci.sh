#!/usr/bin/env bash
# CI for the shared test support: a strict build (warnings are errors) and the tests of its signals,
# gate, event log, counter, teardown helper, raw HTTP exchange, log capture, connection budget and
# server fixtures. No database: the example servers' tests use the PostgreSQL helper against a
# real one.
set -euo pipefail
cd "$(dirname "$0")"

bash ../../.ci/package-ci . ObjectionTestSupport
