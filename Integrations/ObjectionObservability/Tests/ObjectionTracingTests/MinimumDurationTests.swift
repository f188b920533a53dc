import InMemoryTracing
import Objection
import ObjectionTracing
import Testing
import Tracing

/// `TracingObserver(minimumDuration:)`: the spans a server keeps, and the trace they stay in.
@Suite("TracingObserver with a minimum duration", .timeLimit(.minutes(1)))
struct MinimumDurationTests {
    final class Handler: Sendable {}
    final class Repository: Sendable {}
    final class Database: Sendable {}
    final class Quick: Sendable {}
    struct Broken: Error {}

    /// Handler needs Repository, which asks for Database — which fails — and goes on without it:
    /// only the failure is worth a span, and it keeps the two above it.
    static func bindings(_ scope: Scope, suspending: Bool) -> Fixtures {
        Fixtures { binder in
            binder.bind(Quick.self).to(Quick.init).inScope(scope)
            binder.bind(Handler.self).to { resolver in
                if suspending { await Task.yield() }
                _ = try await resolver.get(Repository.self)
                return Handler()
            }.inScope(scope)
            binder.bind(Repository.self).to { resolver in
                if suspending { await Task.yield() }
                _ = try? await resolver.get(Database.self)
                return Repository()
            }.inScope(scope)
            binder.bind(Database.self).to { _ -> Database in
                if suspending { await Task.yield() }
                throw Broken()
            }.inScope(scope)
        }
    }

    @Test(
        "quick constructions leave no span; a failure keeps itself and what it was below, in the request's trace",
        arguments: [(Scope.scoped, false), (.scoped, true), (.singleton, true)]
    )
    func failureKeepsItsChain(scope: Scope, suspending: Bool) async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(
            modules: [Self.bindings(scope, suspending: suspending)],
            observer: TracingObserver(tracer: tracer, minimumDuration: .seconds(3_600))
        )
        try await tracer.withSpan("GET /links") { _ in
            try await injector.withScope(values: { _ in }) { scope in
                _ = try await scope.get(Quick.self)
                _ = try await scope.get(Handler.self)
            }
        }
        let request = try TracingObserverTests.span("GET /links", in: tracer)
        let handler = try TracingObserverTests.span("construct Handler", in: tracer)
        let repository = try TracingObserverTests.span("construct Repository", in: tracer)
        let database = try TracingObserverTests.span("construct Database", in: tracer)
        #expect(!tracer.finishedSpans.contains { $0.operationName == "construct Quick" })
        #expect(handler.parentSpanID == request.spanID)
        #expect(repository.parentSpanID == handler.spanID)
        #expect(database.parentSpanID == repository.spanID)
        #expect(Set([request, handler, repository, database].map(\.traceID)).count == 1)
        #expect(database.status?.code == .error)
        #expect((database.errors.first?.error as? LoggableError)?.typeName == String(reflecting: Broken.self))
        #expect(handler.status == nil && repository.status == nil)
        #expect(repository.attributes.get("objection.key") == .string("Repository"))
        #expect(repository.attributes.get("objection.scope") == .string(scope.description))
        // Started after the fact, placed where they happened: each inside the one above it.
        for (outer, inner) in [(request, handler), (handler, repository), (repository, database)] {
            #expect(outer.startInstant.nanosecondsSinceEpoch <= inner.startInstant.nanosecondsSinceEpoch)
            #expect(outer.endInstant.nanosecondsSinceEpoch >= inner.endInstant.nanosecondsSinceEpoch)
        }
        #expect(tracer.activeSpans.isEmpty)
        await injector.shutdown()
    }

    @Test("a construction that took at least the minimum leaves its span, with its attributes, where it happened")
    func slowConstructionKept() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(
            modules: [
                Fixtures { binder in
                    // Sleeping guarantees the duration, whatever the machine: no race on it.
                    binder.bind(Database.self).to { _ in
                        try await Task.sleep(for: .milliseconds(5))
                        return Database()
                    }.asSingleton()
                }
            ],
            observer: TracingObserver(tracer: tracer, minimumDuration: .milliseconds(1))
        )
        try await tracer.withSpan("GET /links") { _ in
            _ = try await injector.get(Database.self)
        }
        let request = try TracingObserverTests.span("GET /links", in: tracer)
        let database = try TracingObserverTests.span("construct Database", in: tracer)
        #expect(database.parentSpanID == request.spanID)
        #expect(database.attributes.get("objection.scope") == .string("singleton"))
        if case .int64(let id)? = database.attributes.get("objection.construction") {
            #expect(id > 0)
        } else {
            Issue.record("no construction id")
        }
        let nanoseconds = database.endInstant.nanosecondsSinceEpoch - database.startInstant.nanosecondsSinceEpoch
        #expect(nanoseconds >= 5_000_000)
        #expect(request.startInstant.nanosecondsSinceEpoch <= database.startInstant.nanosecondsSinceEpoch)
        await injector.shutdown()
    }

    @Test("a startup keeps its whole tree whatever the minimum: each of its singletons is built once")
    func startupAlwaysKept() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(
            modules: [TwentySingletons()],
            observer: TracingObserver(tracer: tracer, minimumDuration: .seconds(3_600))
        )
        let startup = try TracingObserverTests.span("objection.startup", in: tracer)
        #expect(startup.attributes.get("objection.singletons") == .int64(20))
        let constructions = tracer.finishedSpans.filter { $0.operationName.hasPrefix("construct ") }
        #expect(constructions.count == 20)
        #expect(Set(tracer.finishedSpans.map(\.traceID)).count == 1)
        await injector.shutdown()
    }
}
