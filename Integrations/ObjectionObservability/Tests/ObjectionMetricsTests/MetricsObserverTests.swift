import MetricsTestKit
import Objection
import ObjectionMetrics
import Testing

@Suite("MetricsObserver", .timeLimit(.minutes(1)))
struct MetricsObserverTests {
    final class Database: Sendable {}
    final class Handler: Sendable {}
    final class Session: AsyncDisposable {
        func dispose() async throws { throw Broken() }
    }
    struct Broken: Error {}

    /// A module built from a closure.
    struct Fixtures: Module {
        let body: @Sendable (Binder) -> Void
        func configure(_ binder: Binder) { body(binder) }
    }

    @Test("each construction's duration is recorded per key and scope, on both paths")
    func durations() async throws {
        let metrics = TestMetrics()
        let injector = try await InjectorActor(
            modules: [
                Fixtures { binder in
                    binder.bind(Database.self).to { _ in
                        await Task.yield()
                        return Database()
                    }.asSingleton()
                    binder.bind(Handler.self).to(Handler.init).inScope(.scoped)
                }
            ],
            observer: MetricsObserver(factory: metrics)
        )
        _ = try await injector.get(Database.self)
        for _ in 0..<3 {
            try await injector.withScope(values: { _ in }) { scope in _ = try await scope.get(Handler.self) }
        }
        let database = try metrics.expectTimer(
            "objection_construction_duration", [("key", "Database"), ("scope", "singleton")])
        let handler = try metrics.expectTimer(
            "objection_construction_duration", [("key", "Handler"), ("scope", "scoped")])
        #expect(database.values.count == 1)
        #expect(handler.values.count == 3)
        #expect(handler.values.allSatisfy { $0 >= 0 })
    }

    @Test("failed constructions, gets and disposals are counted per key")
    func failures() async throws {
        let metrics = TestMetrics()
        let injector = try await InjectorActor(
            modules: [
                Fixtures { binder in
                    binder.bind(Database.self).to { _ -> Database in throw Broken() }.asSingleton()
                    binder.bind(Session.self).to(Session.init).inScope(.scoped)
                }
            ],
            observer: MetricsObserver(factory: metrics)
        )
        for _ in 0..<2 {
            await #expect(throws: Broken.self) { try await injector.get(Database.self) }
        }
        await #expect(throws: InjectionError.self) { try await injector.get(Handler.self) }
        await #expect(throws: InjectionError.self) {
            try await injector.withScope(values: { _ in }) { scope in _ = try await scope.get(Session.self) }
        }
        #expect(
            try metrics.expectCounter("objection_construction_failures", [("key", "Database"), ("scope", "singleton")])
                .totalValue == 2)
        #expect(try metrics.expectCounter("objection_get_failures", [("key", "Database")]).totalValue == 2)
        #expect(try metrics.expectCounter("objection_get_failures", [("key", "Handler")]).totalValue == 1)
        #expect(try metrics.expectCounter("objection_disposal_failures", [("key", "Session")]).totalValue == 1)
        #expect(throws: (any Error).self) {
            try metrics.expectCounter("objection_disposal_failures", [("key", "Database")])
        }
    }

    @Test("a key built under two scopes files each timing and failure under the scope it was built in")
    func keyInTwoScopes() async throws {
        let metrics = TestMetrics()
        let injector = try await InjectorActor(
            modules: [Fixtures { $0.bind(Database.self).to { _ in Database() }.asSingleton() }],
            observer: MetricsObserver(factory: metrics)
        )
        _ = try await injector.get(Database.self)
        let scoped = Fixtures { $0.bind(Database.self).to { _ in Database() }.inScope(.scoped) }
        for _ in 0..<3 {
            try await injector.withScope(modules: [scoped]) { scope in _ = try await scope.get(Database.self) }
        }
        let singleton = try metrics.expectTimer(
            "objection_construction_duration", [("key", "Database"), ("scope", "singleton")])
        let perRequest = try metrics.expectTimer(
            "objection_construction_duration", [("key", "Database"), ("scope", "scoped")])
        #expect(singleton.values.count == 1)
        #expect(perRequest.values.count == 3)

        let failing = Fixtures { $0.bind(Database.self).to { _ -> Database in throw Broken() }.inScope(.scoped) }
        for _ in 0..<2 {
            await #expect(throws: Broken.self) {
                try await injector.withScope(modules: [failing]) { scope in _ = try await scope.get(Database.self) }
            }
        }
        let failures = try metrics.expectCounter(
            "objection_construction_failures", [("key", "Database"), ("scope", "scoped")])
        #expect(failures.totalValue == 2)
        #expect(throws: (any Error).self) {
            try metrics.expectCounter("objection_construction_failures", [("key", "Database"), ("scope", "singleton")])
        }
    }

    @Test("the meter of active request scopes goes up while a scope is open and back down when it ends")
    func activeScopes() async throws {
        let metrics = TestMetrics()
        let injector = try await InjectorActor(modules: [], observer: MetricsObserver(factory: metrics))
        let meter = try metrics.expectMeter("objection_request_scopes_active")
        #expect(meter.lastValue == nil)
        try await injector.withScope(values: { _ in }) { _ in
            #expect(meter.lastValue == 1)
            try await injector.withScope(values: { _ in }) { _ in #expect(meter.lastValue == 2) }
            #expect(meter.lastValue == 1)
        }
        await #expect(throws: Broken.self) {
            try await injector.withScope(values: { _ in }) { _ in throw Broken() }
        }
        #expect(meter.lastValue == 0)
    }

    @Test("labels take the given prefix")
    func prefix() async throws {
        let metrics = TestMetrics()
        let injector = try await InjectorActor(
            modules: [Fixtures { $0.bind(Database.self).to(Database.init).asSingleton() }],
            observer: MetricsObserver(prefix: "di", factory: metrics)
        )
        _ = try await injector.get(Database.self)
        _ = try metrics.expectTimer("di_construction_duration", [("key", "Database"), ("scope", "singleton")])
        _ = try metrics.expectMeter("di_request_scopes_active")
    }
}
