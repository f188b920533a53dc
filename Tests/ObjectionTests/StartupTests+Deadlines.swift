import Testing

@testable import Objection

/// Startup deadlines: what a deadline gives up and reports, what it spares, and odd and huge
/// deadlines. A deadline a test means to pass waits for work the test cannot gate
/// (``deadlineAfterTheWork``); one it means never to reach is longer than any host is slow.
extension StartupTests {
    @Test("an eager singleton that never finishes fails creation with timedOut naming it and what it waits on")
    func deadlineNamesTheSingleton() async throws {
        let log = Log()
        let answer = Gate()
        let error = await injectionError {
            _ = try await withDeadline {
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
                    startup: .immediate(within: deadlineAfterTheWork)
                )
            }
        }
        #expect(error?.code == .timedOut)
        #expect(error?.problems.map(\.path) == [[BindingKey(Schema.self), BindingKey(Client.self)]])
        #expect(error?.description.contains("'Schema' was still being built (Schema -> Client)") == true)
        // Client waits on no binding: on something inside its provider, which the message says.
        #expect(error?.problems.first?.message.hasSuffix(", inside the provider of 'Client'") == true)
        // What startup built before the deadline is disposed.
        #expect(log.values == ["cache"])
    }

    @Test("a construction that ignores cancellation does not hold up the failed creation's shutdown")
    func ignoringCancellationDoesNotHang() async throws {
        let release = Gate()
        let disposed = Gate()
        let error = await injectionError {
            _ = try await withDeadline {
                try await InjectorActor(
                    modules: [
                        TestModule { binder in
                            binder.bind(Schema.self).to { _ in
                                await release.wait()
                                return Schema()
                            }.asEagerSingleton().onDispose { _ in disposed.open() }
                        }
                    ],
                    startup: .immediate(within: deadlineAfterTheWork)
                )
            }
        }
        #expect(error?.code == .timedOut)
        // When it finishes after all, what it built is disposed at once.
        release.open()
        try await withDeadline { await disposed.wait() }
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
        let error = await injectionError { try await injector.start(within: deadlineAfterTheWork) }
        #expect(error?.code == .timedOut)
        #expect(error?.problems.first?.path == [BindingKey(Schema.self)])
        // The abandoned attempt was cancelled: it failed, and nothing was cached.
        try await withDeadline {
            await waitUntil { await injector.callersWaiting(for: BindingKey(Schema.self)) == 0 }
        }
        answer.open()
        _ = try await injector.get(Schema.self)
        #expect(runs.value == 2)
        #expect(await injector.shutdown(within: nil) == nil)
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
        let waited = await injectionError { _ = try await withDeadline { try await request.value } }
        #expect(waited?.code == .timedOut)
        let rebuilt = try await withDeadline { try await injector.get(Schema.self) }
        #expect(try await injector.get(Schema.self) === rebuilt)
        #expect(attempts.value == 2)
        // Shutdown would wait for the given-up construction: let it end first.
        never.open()
        #expect(try await withDeadline { await injector.shutdown(within: nil) } == nil)
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
        _ = try await withDeadline { try await request.value }
        never.open()
    }

    @Test("a provider error at startup is thrown at once, not after a slow sibling or as a timeout")
    func providerErrorBeatsSlowSibling() async throws {
        let never = Gate()
        await #expect(throws: ProviderFailure(attempt: 2)) {
            _ = try await withDeadline {
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
                    startup: .immediate(within: .seconds(hangDeadline))
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
            await injector.shutdown(within: nil)
        }
    }

    @Test("a deadline that is met changes nothing")
    func deadlineMet() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Schema.self).to { _ in Schema() }.asEagerSingleton() }],
            startup: .immediate(within: .seconds(hangDeadline))
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
                startup: .immediate(within: .seconds(hangDeadline))
            )
        }
    }

    @Test("start(within:) with zero and negative deadlines neither hangs nor crashes")
    func oddDeadlines() async throws {
        for deadline in [Duration.zero, .seconds(-5), .nanoseconds(1), .seconds(-Int64.max)] {
            let injector = try await Self.deferredInjector()
            let result = try await withDeadline { await outcome { try await injector.start(within: deadline) } }
            Self.expectTimedOutIfFailed(result)
            await injector.shutdown(within: nil)
        }
    }

    /// A deferred injector with an eager singleton `Engine` whose provider yields once, and a
    /// refreshable `Wheel`.
    private static func deferredInjector() async throws -> InjectorActor {
        try await InjectorActor(
            modules: [
                TestModule {
                    $0.bind(Engine.self).to { _ in
                        await Task.yield(); return Engine()
                    }.asEagerSingleton()
                    $0.bind(Wheel.self).to(Wheel.init).asRefreshable()
                }
            ],
            startup: .deferred
        )
    }

    /// Checks that `result`, if a failure, is a timeout.
    private static func expectTimedOutIfFailed(
        _ result: Result<Void, any Error>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if case .failure(let error) = result {
            #expect((error as? InjectionError)?.code == .timedOut, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "every deadline-taking call with a deadline of Int64.min seconds neither hangs nor crashes",
        arguments: ["start", "refresh", "health", "shutdown"]
    )
    func mostNegativeDeadline(call: String) async throws {
        let deadline = Duration.seconds(Int64.min)
        let injector = try await Self.deferredInjector()
        let result = try await withDeadline {
            await outcome { () async throws -> Void in
                switch call {
                case "start": try await injector.start(within: deadline)
                case "refresh": _ = try await injector.refresh(within: deadline)
                case "health": _ = await injector.health(within: deadline, cachedFor: deadline)
                default: _ = await injector.shutdown(within: deadline)
                }
            }
        }
        Self.expectTimedOutIfFailed(result)
        await injector.shutdown(within: nil)
    }

    @Test("start(within:) with a deadline of Int64.max seconds does not crash the process")
    func hugeDeadline() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asEagerSingleton() }],
            startup: .deferred
        )
        try await injector.start(within: .seconds(Int64.max))
        _ = try await injector.get(Engine.self)
    }

    @Test("Startup.immediate(within:) with a deadline of Int64.max seconds does not crash the process")
    func hugeImmediateDeadline() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asEagerSingleton() }],
            startup: .immediate(within: .seconds(Int64.max))
        )
        _ = try await injector.get(Engine.self)
    }
}

/// What shutdown does with a construction a start gave up whose provider carries on.
extension StartupTests {
    @Test(
        "shutdown waits for a construction a cancelled start gave up before it disposes what it uses",
        arguments: [false, true])
    func shutdownWaitsForAGivenUpConstruction(whileDraining: Bool) async throws {
        let log = Log()
        let building = Counter()
        let release = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Resource.self).to { _ in Resource("pool disposed", log: log) }.asSingleton()
                    binder.bind(Schema.self).to { r in
                        let pool = try await r.get(Resource.self)
                        building.increment()
                        // A warm-up that ignores cancellation, using the pool.
                        await release.wait()
                        log.append(log.values.contains("pool disposed") ? "pool used after its disposal" : "pool used")
                        _ = pool
                        return Schema()
                    }.asEagerSingleton().onDispose { _ in log.append("schema disposed") }
                }
            ],
            startup: .deferred
        )
        let start = Task { try await injector.start() }
        await waitUntil { building.value == 1 }
        let shutDown = { @Sendable in
            let shutdown = Task { await injector.shutdown(within: nil) }
            await waitUntil { injector.phase == .shutDown }
            return shutdown
        }
        // The drain finds the construction in flight and waits on its cell, which the start's
        // give-up then ends; or the start gave it up before the shutdown began.
        let drain = whileDraining ? await shutDown() : nil
        // The process is told to stop while starting: the start is given up.
        start.cancel()
        _ = await start.result
        let shutdown = if let drain { drain } else { await shutDown() }
        release.open()
        #expect(await shutdown.value == nil)
        #expect(log.values == ["pool used", "schema disposed", "pool disposed"])
    }
}
