import Testing

@testable import Objection

@Suite("Startup: deadlines and deferred starts", .timeLimit(.minutes(1)))
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

    @Test("an eager singleton that never finishes fails creation with timedOut naming it and what it waits on")
    func deadlineNamesTheSingleton() async throws {
        let log = Log()
        let answer = Gate()
        let error = await injectionError {
            _ = try await withDeadline(seconds: 30) {
                try await InjectorActor(
                    modules: [
                        TestModule { binder in
                            binder.bind(Log.self).toInstance(log)
                            binder.bind(Cache.self).to(Cache.init).asEagerSingleton()
                            binder.bind(Client.self).to { _ in
                                try await Self.query(answer)
                                return Client()
                            }.asSingleton()
                            binder.bind(Schema.self).to { r in
                                _ = try await r.get(Client.self)
                                return Schema()
                            }.asEagerSingleton()
                        }
                    ],
                    startup: .immediate(within: .milliseconds(50))
                )
            }
        }
        #expect(error?.code == .timedOut)
        #expect(error?.problems.map(\.path) == [[BindingKey(Schema.self), BindingKey(Client.self)]])
        #expect(error?.description.contains("'Schema' was still being built (Schema -> Client)") == true)
        // What startup built before the deadline is disposed.
        #expect(log.values == ["cache"])
    }

    @Test("a construction that ignores cancellation does not hold up the failed creation's shutdown")
    func ignoringCancellationDoesNotHang() async throws {
        let release = Gate()
        let disposed = Gate()
        let error = await injectionError {
            _ = try await withDeadline(seconds: 30) {
                try await InjectorActor(
                    modules: [
                        TestModule { binder in
                            binder.bind(Schema.self).to { _ in
                                await release.wait()
                                return Schema()
                            }.asEagerSingleton().onDispose { _ in disposed.open() }
                        }
                    ],
                    startup: .immediate(within: .milliseconds(20))
                )
            }
        }
        #expect(error?.code == .timedOut)
        // When it finishes after all, what it built is disposed at once.
        release.open()
        try await withDeadline(seconds: 30) { await disposed.wait() }
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
        try await injector.start(within: .seconds(30))
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
        let codes = try await withDeadline(seconds: 30) {
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

    @Test("a deferred start that times out leaves the injector usable, and the singleton builds once its service runs")
    func deferredTimeoutThenRecovery() async throws {
        let answer = Gate()
        let runs = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Schema.self).to { _ in
                        runs.increment()
                        try await Self.query(answer)
                        return Schema()
                    }.asEagerSingleton()
                }
            ],
            stage: .production,
            startup: .deferred
        )
        let error = await injectionError { try await injector.start(within: .milliseconds(20)) }
        #expect(error?.code == .timedOut)
        #expect(error?.problems.first?.path == [BindingKey(Schema.self)])
        // The abandoned attempt was cancelled: it failed, and nothing was cached.
        try await withDeadline(seconds: 30) {
            await waitUntil { await injector.callersWaiting(for: BindingKey(Schema.self)) == 0 }
        }
        answer.open()
        _ = try await injector.get(Schema.self)
        #expect(runs.value == 2)
        #expect(await injector.shutdown() == nil)
    }

    @Test("a start cancelled mid-build abandons what it was building, so shutdown does not wait for it")
    func cancelledStartDoesNotHoldUpShutdown() async throws {
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
        #expect(try await withDeadline(seconds: 30) { await injector.shutdown() } == nil)
        never.open()
    }

    @Test("a waiter of a construction given up at the deadline gets timedOut, and the next get builds again")
    func waiterGetsTimedOutAndNextGetRebuilds() async throws {
        let started = Gate()
        let never = Gate()
        let attempts = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Schema.self).to { _ in
                        guard attempts.increment() == 1 else { return Schema() }
                        started.open()
                        await never.wait()  // ignores cancellation, never ends
                        return Schema()
                    }.asEagerSingleton()
                }
            ],
            startup: .deferred
        )
        let request = Task { try await injector.get(Schema.self) }
        await started.wait()
        let error = await injectionError { try await injector.start(within: .milliseconds(20)) }
        #expect(error?.code == .timedOut)
        let waited = await injectionError { _ = try await withDeadline(seconds: 30) { try await request.value } }
        #expect(waited?.code == .timedOut)
        let rebuilt = try await withDeadline(seconds: 30) { try await injector.get(Schema.self) }
        #expect(try await injector.get(Schema.self) === rebuilt)
        #expect(attempts.value == 2)
        #expect(try await withDeadline(seconds: 30) { await injector.shutdown() } == nil)
        never.open()
    }

    /// An injector whose eager `Schema` is given up at a start deadline, and that has shut down
    /// by the time it returns; the construction finishes when `release` opens.
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
        let starting = Task { try await injector.start(within: .milliseconds(20)) }
        await started.wait()
        _ = await outcome { try await starting.value }
        #expect(await injector.shutdown() == nil)
        return injector
    }

    @Test("a value built after the injector gave it up and shut down is disposed, never handed out")
    func lateValueIsDisposed() async throws {
        let release = Gate()
        let disposed = Gate()
        _ = try await Self.shutDownWhileSchemaIsBuilt(release: release) { _ in disposed.open() }
        release.open()
        try await withDeadline(seconds: 30) { await disposed.wait() }
    }

    @Test("that late disposal is reported to the observer, with its error")
    func lateDisposalIsObserved() async throws {
        let release = Gate()
        let recorder = ObserverTests.FailureRecorder()
        _ = try await Self.shutDownWhileSchemaIsBuilt(release: release, observer: recorder) { _ in
            throw ProviderFailure(attempt: 3)
        }
        release.open()
        try await withDeadline(seconds: 30) {
            await waitUntil { recorder.log.values.contains { $0.hasPrefix("disposed") } }
        }
        #expect(recorder.log.values.contains("disposed Schema ProviderFailure"))
    }

    @Test("a deadline gives up only what startup waits on: a request building another singleton carries on")
    func deadlineSparesUnrelatedConstructions() async throws {
        let otherStarted = Gate()
        let otherRelease = Gate()
        let never = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Schema.self).to { _ in
                        await never.wait()
                        return Schema()
                    }.asEagerSingleton()
                    binder.bind(Client.self).to { _ in
                        otherStarted.open()
                        await otherRelease.wait()
                        try Task.checkCancellation()
                        return Client()
                    }.asSingleton()
                }
            ],
            startup: .deferred
        )
        let request = Task { try await injector.get(Client.self) }
        await otherStarted.wait()
        let error = await injectionError { try await injector.start(within: .milliseconds(20)) }
        #expect(error?.problems.map(\.path) == [[BindingKey(Schema.self)]])
        otherRelease.open()
        _ = try await withDeadline(seconds: 30) { try await request.value }
        never.open()
    }

    @Test("a provider error at startup is thrown at once, not after a slow sibling or as a timeout")
    func providerErrorBeatsSlowSibling() async throws {
        let never = Gate()
        await #expect(throws: ProviderFailure(attempt: 2)) {
            _ = try await withDeadline(seconds: 30) {
                try await InjectorActor(
                    modules: [
                        TestModule { binder in
                            binder.bind(Schema.self).to { _ in
                                await never.wait()  // ignores cancellation
                                return Schema()
                            }.asEagerSingleton()
                            binder.bind(Client.self).to { _ in throw ProviderFailure(attempt: 2) }.asEagerSingleton()
                        }
                    ],
                    startup: .immediate(within: .seconds(30))
                )
            }
        }
        never.open()
    }

    @Test("a deadline too short to build anything never reports success")
    func tinyDeadlineNeverSucceedsEmpty() async throws {
        for _ in 0..<50 {
            let built = Counter()
            let injector = try await InjectorActor(
                modules: [
                    TestModule { binder in
                        binder.bind(Schema.self).to { _ in
                            await Task.yield()
                            built.increment()
                            return Schema()
                        }.asEagerSingleton()
                    }
                ],
                startup: .deferred
            )
            if (try? await injector.start(within: .zero)) != nil { #expect(built.value == 1) }
            await injector.shutdown()
        }
    }

    @Test("a deadline that is met changes nothing")
    func deadlineMet() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Schema.self).to { _ in Schema() }.asEagerSingleton() }],
            startup: .immediate(within: .seconds(30))
        )
        let first = try await injector.get(Schema.self)
        #expect(try await injector.get(Schema.self) === first)
    }

    @Test("a provider error at startup is rethrown unchanged, deadline or not")
    func providerErrorUnchanged() async throws {
        await #expect(throws: ProviderFailure(attempt: 1)) {
            _ = try await InjectorActor(
                modules: [
                    TestModule { binder in
                        binder.bind(Schema.self).to { _ in throw ProviderFailure(attempt: 1) }.asEagerSingleton()
                    }
                ],
                startup: .immediate(within: .seconds(30))
            )
        }
    }
}
