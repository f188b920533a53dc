import Testing

@testable import Objection

/// Health, readiness and liveness: checks contributed by modules, each cut at its deadline, run
/// once at a time whatever the number of probes, and the injector's own phase.
@Suite("Health and readiness", .hangLimit)
struct HealthTests {
    /// A check that answers `status` (or throws), counting its runs, optionally held at `gate`.
    struct ScriptedCheck: HealthCheck {
        let healthCheckName: String
        var isRequiredForReadiness = true
        var status: HealthStatus = .healthy
        var fails = false
        var gate: Gate?
        let runs: Counter

        func checkHealth() async throws -> HealthStatus {
            runs.increment()
            if let gate { await gate.wait() }
            if fails { throw LeakyError() }
            return status
        }
    }

    /// An error whose description carries a value no report may show.
    struct LeakyError: Error, CustomStringConvertible {
        var description: String { "password=hunter2" }
    }

    /// A database client that is its own check.
    final class Database: HealthCheck {
        let runs = Counter()
        var healthCheckName: String { "database" }
        func checkHealth() async throws -> HealthStatus {
            runs.increment()
            return .healthy
        }
    }

    private func injector(_ checks: [ScriptedCheck], startup: Startup = .immediate) async throws -> InjectorActor {
        try await InjectorActor(
            modules: [
                TestModule { b in
                    for check in checks { b.contribute((any HealthCheck).self).toInstance(check) }
                }
            ],
            startup: startup
        )
    }

    @Test("each check's status, duration and message; an optional check's failure degrades, a required one's fails")
    func aggregates() async throws {
        let runs = Counter()
        let optionalDown = try await injector([
            ScriptedCheck(healthCheckName: "db", runs: runs),
            ScriptedCheck(healthCheckName: "replica", status: .degraded, runs: runs),
            ScriptedCheck(healthCheckName: "cache", isRequiredForReadiness: false, fails: true, runs: runs),
        ])
        let report = await optionalDown.health(within: .seconds(60))
        #expect(report.checks.map(\.name) == ["db", "replica", "cache"])
        #expect(report.checks.map(\.status) == [.healthy, .degraded, .unhealthy])
        #expect(report.checks.map(\.message) == [nil, nil, "threw LeakyError"])
        #expect(report.checks.allSatisfy { $0.duration >= .zero })
        #expect(report.status == .degraded)
        #expect(report.isReady)
        #expect(report.phase == .running)

        let requiredDown = try await injector([
            ScriptedCheck(healthCheckName: "db", fails: true, runs: runs),
            ScriptedCheck(healthCheckName: "cache", runs: runs),
        ])
        let failing = await requiredDown.health(within: .seconds(60))
        #expect(failing.status == .unhealthy)
        #expect(!failing.isReady)
        #expect(!"\(failing)".contains("hunter2"))
    }

    @Test("a deadline of Int64.max seconds runs the checks without crashing the process")
    func hugeDeadline() async throws {
        let runs = Counter()
        let injector = try await injector([ScriptedCheck(healthCheckName: "db", runs: runs)])
        let report = await injector.health(within: .seconds(Int64.max), cachedFor: .zero)
        #expect(report.checks.map(\.name) == ["db"])
        #expect(report.status == .healthy)
        #expect(runs.value == 1)
    }

    @Test("a negative deadline counts as zero: no check is reported with a negative duration", arguments: [-1, -500])
    func negativeDeadline(milliseconds: Int) async throws {
        let injector = try await injector([ScriptedCheck(healthCheckName: "db", runs: Counter())])
        let report = await injector.health(within: .milliseconds(milliseconds), cachedFor: .zero)
        #expect(report.checks.map(\.name) == ["db"])
        for check in report.checks {
            #expect(check.duration >= .zero)
            #expect(check.message?.contains("-") != true, "\(check.message ?? "")")
        }
    }

    @Test("no checks bound: healthy and ready; a singleton can be its own check")
    func noChecksAndSelfCheckingSingleton() async throws {
        let empty = try await makeInjector { _ in }
        let report = await empty.health(within: .seconds(1))
        #expect(report.status == .healthy && report.isReady && report.checks.isEmpty)

        let injector = try await makeInjector { b in
            b.bind(Database.self).to(Database.init).asSingleton().contributing(to: (any HealthCheck).self) { $0 }
        }
        let database = try await injector.get(Database.self)
        #expect(await injector.health(within: .seconds(60), cachedFor: .zero).checks.map(\.name) == ["database"])
        #expect(await injector.health(within: .seconds(60), cachedFor: .zero).checks.map(\.name) == ["database"])
        #expect(database.runs.value == 2, "the same singleton checked each time")
    }

    @Test("a hanging check is cut at its deadline and named; it is not started again while it hangs")
    func hangingCheck() async throws {
        let runs = Counter()
        let never = Gate()
        let injector = try await injector([
            ScriptedCheck(healthCheckName: "db", runs: Counter()),
            ScriptedCheck(healthCheckName: "queue", gate: never, runs: runs),
        ])
        let report = try await withDeadline { await injector.health(within: .milliseconds(20), cachedFor: .zero) }
        let queue = report.checks.first { $0.name == "queue" }
        #expect(queue?.status == .unhealthy)
        #expect(queue?.message == "no answer within 0.02 seconds")
        #expect(queue?.duration == .milliseconds(20))
        #expect(!report.isReady)
        let again = try await withDeadline { await injector.health(within: .milliseconds(20), cachedFor: .zero) }
        #expect(again.checks.first { $0.name == "queue" }?.message == "still running from an earlier probe")
        #expect(runs.value == 1)
        never.open()
        await waitUntil {
            await injector.health(within: .seconds(60), cachedFor: .zero).checks.allSatisfy { $0.status == .healthy }
        }
        #expect(runs.value >= 2, "run again once it returned")
    }

    @Test("1,000 concurrent probes run each check once per cache period")
    func probeStorm() async throws {
        let runs = Counter()
        let hold = Gate()
        let injector = try await injector([ScriptedCheck(healthCheckName: "db", gate: hold, runs: runs)])
        let reports = try await withDeadline {
            try await withThrowingTaskGroup(of: HealthReport.self) { group in
                for _ in 0..<1_000 {
                    group.addTask { await injector.health(within: .seconds(60), cachedFor: .seconds(3_600)) }
                }
                await waitUntil { runs.value == 1 }
                hold.open()
                var reports: [HealthReport] = []
                for try await report in group { reports.append(report) }
                return reports
            }
        }
        #expect(reports.count == 1_000)
        #expect(reports.allSatisfy { $0.isReady && $0.checks.map(\.status) == [.healthy] })
        #expect(runs.value == 1)
        // A new period runs it again, once.
        _ = await injector.health(within: .seconds(60), cachedFor: .zero)
        #expect(runs.value == 2)
    }

    @Test("not ready, running no check, while a deferred start has not succeeded; ready after")
    func deferredStartIsNotReady() async throws {
        let runs = Counter()
        let injector = try await injector([ScriptedCheck(healthCheckName: "db", runs: runs)], startup: .deferred)
        let starting = await injector.health(within: .seconds(60))
        #expect(starting.phase == .starting)
        #expect(!starting.isReady)
        #expect(starting.status == .unhealthy)
        #expect(runs.value == 0)
        #expect(injector.liveness().status == .healthy, "starting is alive")
        try await injector.start()
        let running = await injector.health(within: .seconds(60))
        #expect(running.isReady && running.phase == .running)
        #expect(runs.value == 1)
    }

    @Test("not ready from the first moment of shutdown, while a request in flight still completes")
    func shutdownIsNotReady() async throws {
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to(Engine.init).asSingleton()
        }
        #expect(await injector.health(within: .seconds(1)).isReady)
        let request = await HeldRequest.open(on: injector) { try await $0.get(Engine.self) }
        let shutdown = Task { await injector.shutdown(within: nil) }
        await waitUntil { injector.phase == .shuttingDown }
        let draining = await injector.health(within: .seconds(1), cachedFor: .seconds(3_600))
        #expect(!draining.isReady)
        #expect(draining.phase == .shuttingDown)
        #expect(injector.liveness().status == .healthy)
        #expect(!injector.liveness().isReady)
        _ = try await request.finish()
        #expect(await shutdown.value == nil)
        #expect(injector.phase == .shutDown)
        #expect(injector.liveness().status == .unhealthy)
    }

    @Test("a failure to resolve the checks is one unhealthy check naming the error's type")
    func checksThatCannotBeResolved() async throws {
        let injector = try await makeInjector { b in
            b.contribute((any HealthCheck).self).to { _ in throw LeakyError() }
        }
        let report = await injector.health(within: .seconds(1))
        #expect(report.checks.map(\.name) == ["health checks"])
        #expect(report.checks.first?.message == "resolving the checks threw LeakyError")
        #expect(!report.isReady)
    }
}

extension HealthTests {
    @Test("two checks of one type with one name are two checks; a request scope answers for its injector")
    func sameNamedChecksAndScopes() async throws {
        let runs = Counter()
        let injector = try await injector([
            ScriptedCheck(healthCheckName: "disk", runs: runs),
            ScriptedCheck(healthCheckName: "disk", runs: runs),
        ])
        let report = await injector.health(within: .seconds(60), cachedFor: .zero)
        #expect(report.checks.map(\.status) == [.healthy, .healthy])
        #expect(report.isReady)
        let request = await HeldRequest.open(on: injector) { await $0.health(within: .seconds(60), cachedFor: .zero) }
        let shutdown = Task { await injector.shutdown(within: nil) }
        await waitUntil { injector.phase == .shuttingDown }
        let fromScope = try await request.finish()
        #expect(!fromScope.isReady, "the scope's injector is draining")
        #expect(fromScope.phase == .shuttingDown)
        #expect(await shutdown.value == nil)
    }
}

extension HealthTests {
    /// A database client that is its own check, as ServerUse shows.
    final class StuckDatabase: HealthCheck {
        func checkHealth() async throws -> HealthStatus { .healthy }
    }

    @Test("a check whose construction hangs is cut at the deadline and named; a later probe is not held by it")
    func checkWhoseConstructionHangs() async throws {
        let never = Gate()
        let builds = Counter()
        let runs = Counter()
        let injector = try await makeInjector { b in
            b.bind(StuckDatabase.self).to { _ in
                builds.increment()
                await never.wait()
                return StuckDatabase()
            }.asSingleton().contributing(to: (any HealthCheck).self) { $0 }
            b.contribute((any HealthCheck).self).toInstance(ScriptedCheck(healthCheckName: "disk", runs: runs))
        }
        let report = try await withDeadline { await injector.health(within: .milliseconds(50), cachedFor: .zero) }
        // Only the stuck check is asserted on: the other answers at once, but a deadline this
        // short is not a promise on a loaded machine.
        #expect(report.checks.count == 2)
        #expect(report.checks.first?.name == "StuckDatabase")
        #expect(report.checks.first?.status == .unhealthy)
        #expect(report.checks.first?.message == "no answer within 0.05 seconds")
        #expect(!report.isReady)
        let later = try await withDeadline { await injector.health(within: .milliseconds(50), cachedFor: .zero) }
        #expect(later.checks.first?.name == "StuckDatabase")
        #expect(later.checks.first?.message == "still running from an earlier probe")
        #expect(builds.value == 1, "one construction, not one per probe")
        never.open()
        await waitUntil {
            await injector.health(within: .seconds(60), cachedFor: .zero).checks.allSatisfy { $0.status == .healthy }
        }
    }
}
