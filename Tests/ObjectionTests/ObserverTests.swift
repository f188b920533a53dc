import Testing

@testable import Objection

@Suite("Observer", .timeLimit(.minutes(1)))
struct ObserverTests {
    /// Records each event as a line: `started Engine singleton`, `finished Engine singleton`, …
    final class Recorder: InjectionObserver {
        let log = Log()
        func constructionStarted(_ key: BindingKey, scope: Scope) { log.append("started \(key) \(scope)") }
        func constructionFinished(_ key: BindingKey, scope: Scope, duration: Duration) {
            log.append("finished \(key) \(scope)\(duration < .zero ? " negative" : "")")
        }
        func constructionFailed(_ key: BindingKey, scope: Scope, duration: Duration, error: any Error) {
            log.append("failed \(key) \(scope) \(type(of: error))")
        }
        func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
            log.append("disposed \(key)\(error.map { " \(type(of: $0))" } ?? "")")
        }
        func resolutionFailed(_ key: BindingKey, error: any Error) {
            log.append("get failed \(key) \((error as? InjectionError)?.code.description ?? "\(type(of: error))")")
        }
    }

    /// Only the defaults: compiles and ignores everything.
    struct Silent: InjectionObserver {}

    /// Records like ``Recorder``, but asks for failures only.
    final class FailureRecorder: InjectionObserver {
        let recorder = Recorder()
        var log: Log { recorder.log }
        var observesSuccesses: Bool { false }
        func constructionStarted(_ key: BindingKey, scope: Scope) { recorder.constructionStarted(key, scope: scope) }
        func constructionFinished(_ key: BindingKey, scope: Scope, duration: Duration) {
            recorder.constructionFinished(key, scope: scope, duration: duration)
        }
        func constructionFailed(_ key: BindingKey, scope: Scope, duration: Duration, error: any Error) {
            recorder.constructionFailed(key, scope: scope, duration: duration, error: error)
            if duration < .zero { log.append("negative duration") }
        }
        func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
            recorder.disposed(key, duration: duration, error: error)
        }
        func resolutionFailed(_ key: BindingKey, error: any Error) { recorder.resolutionFailed(key, error: error) }
    }

    /// An autowired function that throws, for a construction failing on the synchronous path.
    @Sendable static func brokenWheel(engine: Engine) throws -> Wheel { throw ProviderFailure(attempt: 1) }

    /// Disposed with an error.
    final class Leaky: AsyncDisposable {
        func dispose() async throws { throw ProviderFailure(attempt: 9) }
    }

    final class Ledger: AsyncDisposable {
        func dispose() async throws {}
    }

    @Test("an observer of failures only hears failures, on both paths and at disposal, and no successes")
    func failuresOnly() async throws {
        #expect(Silent().observesSuccesses)
        let observer = FailureRecorder()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Engine.self).to(Engine.init).asSingleton()
                    binder.bind(Ledger.self).to(Ledger.init).inScope(.scoped)
                    binder.bind(Leaky.self).to(Leaky.init).inScope(.scoped)
                    // Autowired and synchronous: fails on the synchronous path, in place.
                    binder.bind(Wheel.self).to(Self.brokenWheel).inScope(.scoped)
                    // Suspends: fails on the asynchronous path.
                    binder.bind(Headlight.self).to { _ in
                        await Task.yield()
                        throw ProviderFailure(attempt: 2)
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        _ = try await root.get(Engine.self)
        await #expect(throws: ProviderFailure(attempt: 2)) { try await root.get(Headlight.self) }
        try await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(Ledger.self)
            await #expect(throws: ProviderFailure(attempt: 1)) { try await scope.get(Wheel.self) }
            // A derived injector keeps the scope's answer.
            let child = try await scope.child(modules: [])
            _ = try await child.get(Ledger.self)
        }
        await #expect(throws: InjectionError.self) {
            try await root.withScope(values: { _ in }) { scope in _ = try await scope.get(Leaky.self) }
        }
        #expect(
            observer.log.values == [
                "failed Headlight singleton ProviderFailure",
                "get failed Headlight ProviderFailure",
                "failed Wheel scoped ProviderFailure",
                "get failed Wheel ProviderFailure",
                "disposed Leaky ProviderFailure",
            ])
    }

    @Test("singleton constructions are reported once, with their scope; hits and transients are not")
    func singletons() async throws {
        let recorder = Recorder()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Engine.self).to(Engine.init).asSingleton()
                    binder.bind(Wheel.self).to(Wheel.init)
                }
            ],
            observer: recorder
        )
        _ = try await injector.get(Engine.self)
        _ = try await injector.get(Engine.self)
        _ = try await injector.get(Wheel.self)
        #expect(recorder.log.values == ["started Engine singleton", "finished Engine singleton"])
    }

    @Test("a scoped construction in a request scope is reported, and its disposal when the scope ends")
    func scopedAndDisposal() async throws {
        let recorder = Recorder()
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Ledger.self).to(Ledger.init).inScope(.scoped) }],
            observer: recorder
        )
        try await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(Ledger.self)
            _ = try await scope.get(Ledger.self)
        }
        #expect(recorder.log.values == ["started Ledger scoped", "finished Ledger scoped", "disposed Ledger"])
    }

    @Test("a scoped instance built for a transient that could be built synchronously is reported too")
    func scopedBelowSynchronousTransient() async throws {
        final class Handler: Sendable {
            init(ledger: Ledger) {}
        }
        let recorder = Recorder()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Ledger.self).to(Ledger.init).inScope(.scoped)
                    binder.bind(Handler.self).to(Handler.init)
                }
            ],
            observer: recorder
        )
        try await root.withScope(values: { _ in }) { _ = try await $0.get(Handler.self) }
        #expect(recorder.log.values == ["started Ledger scoped", "finished Ledger scoped", "disposed Ledger"])
    }

    @Test("scoped instances built synchronously, one below the other, are reported nested, in order")
    func nestedSynchronousConstructions() async throws {
        final class Journal: Sendable {
            /// Whether the journal was built without a resolution step of its own: on the
            /// synchronous path, which an observer must not turn off.
            let builtSynchronously: Bool
            init(ledger: Ledger) { builtSynchronously = ResolutionFrame.current == nil }
        }
        final class Handler: Sendable {
            let journal: Journal
            init(journal: Journal) { self.journal = journal }
        }
        let recorder = Recorder()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Ledger.self).to(Ledger.init).inScope(.scoped)
                    binder.bind(Journal.self).to(Journal.init).inScope(.scoped)
                    binder.bind(Handler.self).to(Handler.init)
                }
            ],
            observer: recorder
        )
        let builtSynchronously = try await root.withScope(values: { _ in }) { scope in
            try await scope.get(Handler.self).journal.builtSynchronously
        }
        #expect(builtSynchronously)
        #expect(
            recorder.log.values == [
                "started Journal scoped", "started Ledger scoped", "finished Ledger scoped",
                "finished Journal scoped", "disposed Ledger",
            ])
    }

    @Test("a synchronous construction that hands over to the asynchronous path is reported once")
    func handedOverConstruction() async throws {
        struct Token: Sendable {}
        final class Audit: Sendable {
            init(token: Token) {}
        }
        let recorder = Recorder()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Token.self).suppliedByScope()
                    binder.bind(Audit.self).to(Audit.init).inScope(.scoped)
                }
            ],
            observer: recorder
        )
        // The scope binds no token: the synchronous build of the audit starts, finds no value,
        // and leaves the audit to the asynchronous path, which reports the audit's construction
        // failing; the token is no construction, so it is not reported as one.
        await #expect(throws: InjectionError.self) {
            try await root.withScope(values: { _ in }) { _ = try await $0.get(Audit.self) }
        }
        #expect(
            recorder.log.values == [
                "started Audit scoped", "failed Audit scoped InjectionError", "get failed Audit missingBinding",
            ])
    }

    @Test(
        "a synchronous initializer's error ends the synchronous path: it reaches the caller unchanged, is reported once, and is not kept",
        arguments: [false, true]
    )
    func failingSynchronousInitializer(observed: Bool) async throws {
        /// Fails its first build, then succeeds: a failure kept in the scope's cell would fail the
        /// second `get` too.
        final class Attempts: Sendable {
            private let count = Log()
            func next() -> Int {
                count.append("attempt")
                return count.values.count
            }
        }
        final class Audit: Sendable {
            init(attempts: Attempts) throws {
                let attempt = attempts.next()
                if attempt == 1 { throw ProviderFailure(attempt: attempt) }
            }
        }
        final class Handler: Sendable {
            let audit: Audit
            init(audit: Audit) { self.audit = audit }
        }
        let recorder = Recorder()
        let attempts = Attempts()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Attempts.self).toInstance(attempts)
                    binder.bind(Audit.self).to(Audit.init).inScope(.scoped)
                    binder.bind(Handler.self).to(Handler.init)
                }
            ],
            observer: observed ? recorder : nil
        )
        try await root.withScope(values: { _ in }) { scope in
            await #expect(throws: ProviderFailure(attempt: 1)) { try await scope.get(Handler.self) }
            let handler = try await scope.get(Handler.self)
            #expect(try await scope.get(Handler.self).audit === handler.audit)
        }
        #expect(attempts.next() == 3)
        let expected =
            observed
            ? [
                "started Audit scoped", "failed Audit scoped ProviderFailure", "get failed Handler ProviderFailure",
                "started Audit scoped", "finished Audit scoped",
            ] : []
        #expect(recorder.log.values == expected)
    }

    @Test("a get with runtime arguments that throws is reported")
    func argumentGetFailure() async throws {
        let recorder = Recorder()
        let injector = try await InjectorActor(modules: [], observer: recorder)
        _ = try? await injector.get(Engine.self, arguments: 1)
        #expect(recorder.log.values == ["get failed Engine missingBinding"])
    }

    @Test("a failing provider and a failing disposal are reported with their errors")
    func failures() async throws {
        let recorder = Recorder()
        let log = Log()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Engine.self).to { _ in throw ProviderFailure(attempt: 1) }.asSingleton()
                    binder.bind(Resource.self).to { _ in Resource("r", log: log, fails: true) }.asSingleton()
                }
            ],
            observer: recorder
        )
        _ = try? await injector.get(Engine.self)
        _ = try await injector.get(Resource.self)
        _ = await injector.shutdown()
        #expect(
            recorder.log.values == [
                "started Engine singleton", "failed Engine singleton ProviderFailure",
                "get failed Engine ProviderFailure",
                "started Resource singleton", "finished Resource singleton",
                "disposed Resource ProviderFailure",
            ])
    }

    @Test("a get that throws an injection error is reported with its key")
    func missingBinding() async throws {
        let recorder = Recorder()
        let injector = try await InjectorActor(modules: [], observer: recorder)
        _ = try? await injector.get(Engine.self, named: "spare")
        #expect(recorder.log.values == ["get failed Engine named \"spare\" missingBinding"])
    }

    @Test("a value the scope does not supply is a failed get, not a failed construction, directly or below")
    func missingScopeValue() async throws {
        final class Handler: Sendable {
            init(id: RequestID) {}
        }
        let recorder = Recorder()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(RequestID.self).suppliedByScope()
                    binder.bind(Handler.self).to(Handler.init)
                }
            ],
            observer: recorder
        )
        let errors = try await injector.withScope(values: { _ in }) { scope in
            [
                await injectionError { _ = try await scope.get(RequestID.self) },
                await injectionError { _ = try await scope.get(Handler.self) },
            ]
        }
        #expect(errors.map { $0?.code } == [.missingBinding, .missingBinding])
        #expect(errors.last??.path == [BindingKey(Handler.self), BindingKey(RequestID.self)])
        #expect(
            recorder.log.values == [
                "get failed RequestID missingBinding", "get failed Handler missingBinding",
            ])
    }

    @Test("children and derived injectors report to the observer they come from")
    func inherited() async throws {
        let recorder = Recorder()
        let root = try await InjectorActor(modules: [], observer: recorder)
        let child = try await root.child(modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }])
        _ = try await child.get(Engine.self)
        let derived = try await root.withModules([TestModule { $0.bind(Wheel.self).to(Wheel.init).asSingleton() }])
        _ = try await derived.get(Wheel.self)
        #expect(
            recorder.log.values == [
                "started Engine singleton", "finished Engine singleton",
                "started Wheel singleton", "finished Wheel singleton",
            ])
    }

    @Test("an observer that keeps the defaults changes nothing")
    func silent() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }],
            observer: Silent()
        )
        let engine = try await injector.get(Engine.self)
        #expect(try await injector.get(Engine.self) === engine)
    }
}
