import InMemoryTracing
import Objection
import ObjectionTracing
import Testing
import Tracing

@Suite("TracingObserver", .timeLimit(.minutes(1)))
struct TracingObserverTests {
    final class Database: Sendable {}
    final class Repository: Sendable {}
    final class Service: Sendable {}
    final class Handler: Sendable {}
    /// A provider's error whose description carries a secret no span may record.
    struct Broken: Error, CustomStringConvertible {
        var description: String { "postgres://app:hunter2@db/links" }
    }

    /// The one finished span named `name`.
    static func span(_ name: String, in tracer: InMemoryTracer) throws -> FinishedInMemorySpan {
        let found = tracer.finishedSpans.filter { $0.operationName == name }
        try #require(found.count == 1, "\(found.count) spans named \(name)")
        return found[0]
    }

    @Test("a singleton built in a task of its own nests under the span of the singleton that needed it")
    func nesting() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(
            modules: [
                Fixtures { binder in
                    binder.bind(Service.self).to { resolver in
                        await Task.yield()
                        _ = try await resolver.get(Repository.self)
                        return Service()
                    }.asSingleton()
                    binder.bind(Repository.self).to { resolver in
                        await Task.yield()
                        _ = try await resolver.get(Database.self)
                        return Repository()
                    }.asSingleton()
                    binder.bind(Database.self).to { _ in
                        await Task.yield()
                        return Database()
                    }.asSingleton()
                }
            ],
            observer: TracingObserver(tracer: tracer)
        )
        _ = try await injector.get(Service.self)
        let service = try Self.span("construct Service", in: tracer)
        let repository = try Self.span("construct Repository", in: tracer)
        let database = try Self.span("construct Database", in: tracer)
        #expect(service.parentSpanID == nil)
        #expect(repository.parentSpanID == service.spanID)
        #expect(database.parentSpanID == repository.spanID)
        #expect(Set([service.traceID, repository.traceID, database.traceID]).count == 1)
        #expect(service.attributes.get("objection.key") == .string("Service"))
        #expect(service.attributes.get("objection.scope") == .string("singleton"))
        // A parent starts before and ends after its child.
        #expect(service.startInstant.nanosecondsSinceEpoch <= database.startInstant.nanosecondsSinceEpoch)
        #expect(service.endInstant.nanosecondsSinceEpoch >= database.endInstant.nanosecondsSinceEpoch)
        #expect(tracer.activeSpans.isEmpty)
        await injector.shutdown()
    }

    @Test("a failed construction records its error and the status error, and so does what needed it")
    func failure() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(
            modules: [
                Fixtures { binder in
                    binder.bind(Service.self).to { resolver in
                        _ = try await resolver.get(Database.self)
                        return Service()
                    }.asSingleton()
                    binder.bind(Database.self).to { _ -> Database in
                        await Task.yield()
                        throw Broken()
                    }.asSingleton()
                }
            ],
            observer: TracingObserver(tracer: tracer)
        )
        await #expect(throws: Broken.self) { try await injector.get(Service.self) }
        let service = try Self.span("construct Service", in: tracer)
        let database = try Self.span("construct Database", in: tracer)
        #expect(database.parentSpanID == service.spanID)
        for span in [database, service] {
            #expect(span.status?.code == .error)
            #expect(span.errors.count == 1)
            // Recorded as what may be shown of it: its type, never its description.
            let recorded = try #require(span.errors.first)
            #expect((recorded.error as? LoggableError)?.typeName == String(reflecting: Broken.self))
            #expect(!String(describing: recorded.error).contains("hunter2"))
            #expect(recorded.attributes.get("error.type") == .string(String(reflecting: Broken.self)))
        }
    }

    /// Autowired: the request builds these with plain function calls.
    @Sendable static func handler(repository: Repository) -> Handler { Handler() }

    @Test("scoped instances a request handler asks for nest under the request's span, built in place or not")
    func requestScope() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(
            modules: [
                Fixtures { binder in
                    binder.bind(Handler.self).to(Self.handler).inScope(.scoped)
                    binder.bind(Repository.self).to(Repository.init).inScope(.scoped)
                }
            ],
            observer: TracingObserver(tracer: tracer)
        )
        try await tracer.withSpan("GET /links") { _ in
            try await injector.withScope(values: { _ in }) { scope in
                _ = try await scope.get(Handler.self)
            }
        }
        let request = try Self.span("GET /links", in: tracer)
        let handler = try Self.span("construct Handler", in: tracer)
        let repository = try Self.span("construct Repository", in: tracer)
        #expect(handler.parentSpanID == request.spanID)
        #expect(repository.parentSpanID == handler.spanID)
        #expect(handler.attributes.get("objection.scope") == .string("scoped"))
        // Reported when the get returned, but placed when it happened.
        #expect(handler.startInstant.nanosecondsSinceEpoch <= repository.startInstant.nanosecondsSinceEpoch)
        #expect(handler.endInstant.nanosecondsSinceEpoch <= request.endInstant.nanosecondsSinceEpoch)
    }

    @Test("a singleton first built for a request is in the request's trace: under its span, or under what needed it")
    func lazySingletonInRequestTrace() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(
            modules: [
                Fixtures { binder in
                    binder.bind(Database.self).to { _ in
                        await Task.yield()
                        return Database()
                    }.asSingleton()
                    binder.bind(Repository.self).to { _ in
                        await Task.yield()
                        return Repository()
                    }.asSingleton()
                    binder.bind(Handler.self).to { resolver in
                        _ = try await resolver.get(Repository.self)
                        return Handler()
                    }.inScope(.scoped)
                }
            ],
            observer: TracingObserver(tracer: tracer)
        )
        try await tracer.withSpan("GET /links") { _ in
            try await injector.withScope(values: { _ in }) { scope in
                _ = try await scope.get(Database.self)
                _ = try await scope.get(Handler.self)
            }
        }
        let request = try Self.span("GET /links", in: tracer)
        let database = try Self.span("construct Database", in: tracer)
        let handler = try Self.span("construct Handler", in: tracer)
        let repository = try Self.span("construct Repository", in: tracer)
        #expect(database.parentSpanID == request.spanID)
        #expect(repository.parentSpanID == handler.spanID)
        #expect(Set([request.traceID, database.traceID, handler.traceID, repository.traceID]).count == 1)
        await injector.shutdown()
    }

    @Test("a startup of 20 eager singletons is one tree under one startup span, under the caller's span")
    func startupTree() async throws {
        let tracer = InMemoryTracer()
        let injector = try await tracer.withSpan("boot") { _ in
            try await InjectorActor(
                modules: [TwentySingletons()],
                observer: TracingObserver(tracer: tracer)
            )
        }
        let boot = try Self.span("boot", in: tracer)
        let startup = try Self.span("objection.startup", in: tracer)
        #expect(startup.parentSpanID == boot.spanID)
        #expect(startup.attributes.get("objection.singletons") == .int64(20))
        let constructions = tracer.finishedSpans.filter { $0.operationName.hasPrefix("construct ") }
        #expect(constructions.count == 20)
        #expect(Set(tracer.finishedSpans.map(\.traceID)).count == 1)
        // Every construction is the startup's child or a child of another construction.
        let ids = Set(constructions.map(\.spanID) + [startup.spanID])
        #expect(constructions.allSatisfy { $0.parentSpanID.map(ids.contains) == true })
        // Each node's chain reaches the startup without a loop.
        let parentOf = Dictionary(uniqueKeysWithValues: constructions.map { ($0.spanID, $0.parentSpanID) })
        for span in constructions {
            var current: String? = span.spanID
            var steps = 0
            while let id = current, id != startup.spanID, steps <= 20 {
                current = parentOf[id] ?? nil
                steps += 1
            }
            #expect(current == startup.spanID, "\(span.operationName) does not reach the startup")
        }
        // The singletons that link in a chain nest: Node7 needs Node6 in the fixture.
        let node7 = try Self.span("construct Node7", in: tracer)
        let node6 = try Self.span("construct Node6", in: tracer)
        #expect(node6.parentSpanID == node7.spanID || node6.parentSpanID == startup.spanID)
        #expect(tracer.activeSpans.isEmpty)
        await injector.shutdown()
    }

    @Test("a failed startup ends its span with the error")
    func failedStartup() async throws {
        let tracer = InMemoryTracer()
        await #expect(throws: Broken.self) {
            _ = try await InjectorActor(
                modules: [
                    Fixtures { binder in
                        binder.bind(Database.self).to { _ -> Database in throw Broken() }.asEagerSingleton()
                    }
                ],
                observer: TracingObserver(tracer: tracer)
            )
        }
        let startup = try Self.span("objection.startup", in: tracer)
        let database = try Self.span("construct Database", in: tracer)
        #expect(database.parentSpanID == startup.spanID)
        #expect(startup.status?.code == .error && database.status?.code == .error)
    }
}

/// The README's first example, as it is written there.
@Suite("README")
struct ReadmeTests {
    final class Database: Sendable {}
    final class Repository: Sendable { init(database: Database) {} }

    struct AppModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Database.self).to(Database.init).asEagerSingleton()
            binder.bind(Repository.self).to(Repository.init).asEagerSingleton()
        }
    }

    @Test("the first screen's injector records a startup span above its two singletons")
    func firstScreen() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(modules: [AppModule()], observer: TracingObserver(tracer: tracer))
        let spans = tracer.finishedSpans
        #expect(Set(spans.map(\.operationName)) == ["construct Database", "construct Repository", "objection.startup"])
        let startup = try #require(spans.first { $0.operationName == "objection.startup" })
        #expect(spans.filter { $0.parentSpanID == startup.spanID }.count >= 1)
        await injector.shutdown()
    }
}
