import ObjectionTesting
import Testing

@testable import Objection

@Suite("Startup: deadlines and deferred starts", .hangLimit)
struct StartupTests {
    /// Stands for a database client whose `run()` has not started: a query to it never answers.
    final class Client: Sendable {}
    /// An eager singleton that queries the client at startup.
    final class Schema: Sendable {}
    /// An eager singleton that builds at once, and is disposed.
    final class Cache: AsyncDisposable {
        let log: Log
        init(log: Log) { self.log = log }
        func dispose() async throws { log.append("cache") }
    }

    /// Waits until `gate` opens, and fails with `CancellationError` if cancelled first.
    static func query(_ gate: Gate) async throws {
        await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: {
            gate.open()
        }
        try Task.checkCancellation()
    }

    @Test("a deferred startup builds nothing until start, which builds the eager singletons")
    func deferredStart() async throws {
        let built = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Schema.self).to { _ in
                        built.increment()
                        return Schema()
                    }.asEagerSingleton()
                }
            ],
            startup: .deferred
        )
        #expect(built.value == 0)
        try await injector.start()
        #expect(built.value == 1)
        try await injector.start(within: .seconds(hangDeadline))
        #expect(built.value == 1)
        _ = try await injector.get(Schema.self)
        #expect(built.value == 1)
    }

    @Test("children and derived injectors take a startup too: deferred, or with a deadline")
    func derivedInjectorsTakeAStartup() async throws {
        let built = Counter()
        let counted = TestModule { binder in
            binder.bind(Schema.self).to { _ in
                built.increment()
                return Schema()
            }.asEagerSingleton()
        }
        let root = try await InjectorActor(modules: [])
        let child = try await root.child(modules: [counted], startup: .deferred)
        let derived = try await root.withModules([counted], startup: .deferred)
        #expect(built.value == 0)
        try await child.start()
        try await derived.start()
        #expect(built.value == 2)

        /// A client whose query never answers (a cancelled query opens its own gate).
        @Sendable func hanging() -> TestModule {
            let answer = Gate()
            return TestModule { binder in
                binder.bind(Client.self).to { _ in
                    try await Self.query(answer)
                    return Client()
                }.asEagerSingleton()
            }
        }
        let deadline = Startup.immediate(within: .milliseconds(20))
        let stacks = [
            try await root.withModules([hanging()], startup: .deferred),
            try await root.withModules([hanging()], startup: .deferred),
        ]
        // Bounded: a method that ignored the deadline would wait for the query forever.
        let codes = try await withDeadline {
            [
                await injectionError { _ = try await root.child(modules: [hanging()], startup: deadline) },
                await injectionError { _ = try await root.withModules([hanging()], startup: deadline) },
                await injectionError { _ = try await stacks[0].withoutModules(ofTypes: [], startup: deadline) },
                await injectionError {
                    _ = try await stacks[1].withoutModules(ofType: RequestModule.self, startup: deadline)
                },
            ].map { $0?.code }
        }
        #expect(codes == [.timedOut, .timedOut, .timedOut, .timedOut])
    }

    @Test("a start cancelled mid-build abandons what it was building; shutdown waits for it only until its deadline")
    func cancelledStartHoldsUpShutdownOnlyUntilItsDeadline() async throws {
        let started = Gate()
        let never = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Schema.self).to { _ in
                        started.open()
                        await never.wait()  // ignores cancellation
                        return Schema()
                    }.asEagerSingleton()
                }
            ],
            startup: .deferred
        )
        let start = Task { try await injector.start() }
        await started.wait()
        start.cancel()
        await #expect(throws: CancellationError.self) { try await start.value }
        // The provider ignores cancellation: a deadline that has passed at once ends the wait.
        let error = try await withDeadline { await injector.shutdown(within: .zero) }
        #expect(error?.code == .timedOut)
        // The drain's report names it, though its cell no longer holds it.
        #expect(error?.problems.map(\.path) == [[BindingKey(Schema.self)]])
        never.open()
    }

    /// An injector whose eager `Schema` is given up at a start deadline, and that has shut down
    /// by the time it returns, its drain cut at once by a deadline of zero (it would wait for the
    /// construction); the construction finishes when `release` opens.
    static func shutDownWhileSchemaIsBuilt(
        release: Gate,
        observer: (any InjectionObserver)? = nil,
        onDispose: @escaping @Sendable (Schema) async throws -> Void
    ) async throws -> InjectorActor {
        let started = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Schema.self).to { _ in
                        started.open()
                        await release.wait()  // ignores cancellation
                        return Schema()
                    }.asEagerSingleton().onDispose(onDispose)
                }
            ],
            startup: .deferred,
            observer: observer
        )
        let starting = Task { try await injector.start(within: deadlineAfterTheWork) }
        await started.wait()
        _ = await outcome { try await starting.value }
        #expect(await injector.shutdown(within: .zero)?.code == .timedOut)
        return injector
    }

    @Test("a value built after the injector gave it up and shut down is disposed, never handed out")
    func lateValueIsDisposed() async throws {
        let release = Gate()
        let disposed = Gate()
        _ = try await Self.shutDownWhileSchemaIsBuilt(release: release) { _ in disposed.open() }
        release.open()
        try await withDeadline { await disposed.wait() }
    }

    @Test("that late disposal is reported to the observer, with its error")
    func lateDisposalIsObserved() async throws {
        let release = Gate()
        let recorder = RecordingObserver(observesSuccesses: false)
        _ = try await Self.shutDownWhileSchemaIsBuilt(release: release, observer: recorder) { _ in
            throw ProviderFailure(attempt: 3)
        }
        release.open()
        try await withDeadline { await waitUntil { !recorder.disposed.isEmpty } }
        #expect(recorder.lines.contains("disposed Schema ProviderFailure"))
    }
}
