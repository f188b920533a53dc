import ObjectionTesting
import Testing

@testable import Objection

/// What an ``InjectionObserver`` hears: each construction of a cached instance, each failure, each
/// disposal, in order, on both resolution paths; the identities and parents of constructions
/// (`ObserverTests+Tree`), startups and scopes; combined observers; the observer shared with what
/// derives from a root; and observers that misbehave.
@Suite("Observers", .hangLimit)
struct ObserverTests {
    /// An autowired function that throws, for a construction failing on the synchronous path.
    @Sendable static func brokenWheel(engine: Engine) throws -> Wheel { throw ProviderFailure(attempt: 1) }

    /// Disposed with an error.
    final class Leaky: AsyncDisposable {
        func dispose() async throws { throw ProviderFailure(attempt: 9) }
    }

    @Test("an observer of failures only hears failures, on both paths and at disposal, and no successes")
    func failuresOnly() async throws {
        #expect(SilentObserver().observesSuccesses)
        let observer = RecordingObserver(observesSuccesses: false)
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
            observer.lines == [
                "failed Headlight singleton ProviderFailure",
                "get failed Headlight ProviderFailure",
                "failed Wheel scoped ProviderFailure",
                "get failed Wheel ProviderFailure",
                "disposed Leaky ProviderFailure",
            ])
    }

    @Test("singleton constructions are reported once, with their scope; hits and transients are not")
    func singletons() async throws {
        let recorder = RecordingObserver()
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
        #expect(recorder.lines == ["started Engine singleton", "finished Engine singleton"])
    }

    @Test("a scoped construction in a request scope is reported, and its disposal when the scope ends")
    func scopedAndDisposal() async throws {
        let recorder = RecordingObserver()
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Ledger.self).to(Ledger.init).inScope(.scoped) }],
            observer: recorder
        )
        try await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(Ledger.self)
            _ = try await scope.get(Ledger.self)
        }
        #expect(recorder.lines == ["started Ledger scoped", "finished Ledger scoped", "disposed Ledger"])
    }

    @Test("a scoped instance built for a transient that could be built synchronously is reported too")
    func scopedBelowSynchronousTransient() async throws {
        let recorder = RecordingObserver()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Ledger.self).to(Ledger.init).inScope(.scoped)
                    binder.bind(Journal.self).to(Journal.init)
                }
            ],
            observer: recorder
        )
        try await root.withScope(values: { _ in }) { _ = try await $0.get(Journal.self) }
        #expect(recorder.lines == ["started Ledger scoped", "finished Ledger scoped", "disposed Ledger"])
    }

    @Test("scoped instances built synchronously, one below the other, are reported nested, in order")
    func nestedSynchronousConstructions() async throws {
        let recorder = RecordingObserver()
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
            recorder.lines == [
                "started Journal scoped", "started Ledger scoped", "finished Ledger scoped",
                "finished Journal scoped", "disposed Ledger",
            ])
    }

    @Test("a synchronous construction that hands over to the asynchronous path is reported once")
    func handedOverConstruction() async throws {
        let recorder = RecordingObserver()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(RequestID.self).suppliedByScope()
                    binder.bind(Audit.self).to(Audit.init).inScope(.scoped)
                }
            ],
            observer: recorder
        )
        // The scope binds no request id: the synchronous build of the audit starts, finds no
        // value, and leaves the audit to the asynchronous path, which reports the audit's
        // construction failing; the id is no construction, so it is not reported as one.
        await #expect(throws: InjectionError.self) {
            try await root.withScope(values: { _ in }) { _ = try await $0.get(Audit.self) }
        }
        #expect(
            recorder.lines == [
                "started Audit scoped", "failed Audit scoped InjectionError", "get failed Audit missingBinding",
            ])
    }

    @Test(
        "a synchronous initializer's error reaches the caller unchanged, is reported once, and is not kept",
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
        final class Report: Sendable {
            init(attempts: Attempts) throws {
                let attempt = attempts.next()
                if attempt == 1 { throw ProviderFailure(attempt: attempt) }
            }
        }
        final class Reporter: Sendable {
            let report: Report
            init(report: Report) { self.report = report }
        }
        let recorder = RecordingObserver()
        let attempts = Attempts()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Attempts.self).toInstance(attempts)
                    binder.bind(Report.self).to(Report.init).inScope(.scoped)
                    binder.bind(Reporter.self).to(Reporter.init)
                }
            ],
            observer: observed ? recorder : nil
        )
        try await root.withScope(values: { _ in }) { scope in
            await #expect(throws: ProviderFailure(attempt: 1)) { try await scope.get(Reporter.self) }
            let reporter = try await scope.get(Reporter.self)
            #expect(try await scope.get(Reporter.self).report === reporter.report)
        }
        #expect(attempts.next() == 3)
        let expected =
            observed
            ? [
                "started Report scoped", "failed Report scoped ProviderFailure",
                "get failed Reporter ProviderFailure", "started Report scoped", "finished Report scoped",
            ] : []
        #expect(recorder.lines == expected)
    }

    @Test("a get with runtime arguments that throws is reported")
    func argumentGetFailure() async throws {
        let recorder = RecordingObserver()
        let injector = try await InjectorActor(modules: [], observer: recorder)
        _ = try? await injector.get(Engine.self, arguments: 1)
        #expect(recorder.lines == ["get failed Engine missingBinding"])
    }

    @Test("a failing provider and a failing disposal are reported with their errors")
    func failures() async throws {
        let recorder = RecordingObserver()
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
        _ = await injector.shutdown(within: nil)
        #expect(
            recorder.lines == [
                "started Engine singleton", "failed Engine singleton ProviderFailure",
                "get failed Engine ProviderFailure",
                "started Resource singleton", "finished Resource singleton",
                "drain ended", "disposed Resource ProviderFailure",
            ])
    }

    @Test("a get that throws an injection error is reported with its key")
    func missingBinding() async throws {
        let recorder = RecordingObserver()
        let injector = try await InjectorActor(modules: [], observer: recorder)
        _ = try? await injector.get(Engine.self, named: "spare")
        #expect(recorder.lines == ["get failed Engine named \"spare\" missingBinding"])
    }

    @Test("a value the scope does not supply is a failed get, not a failed construction, directly or below")
    func missingScopeValue() async throws {
        let recorder = RecordingObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(RequestID.self).suppliedByScope()
                    binder.bind(Audit.self).to(Audit.init)
                }
            ],
            observer: recorder
        )
        let errors = try await injector.withScope(values: { _ in }) { scope in
            [
                await injectionError { _ = try await scope.get(RequestID.self) },
                await injectionError { _ = try await scope.get(Audit.self) },
            ]
        }
        #expect(errors.map { $0?.code } == [.missingBinding, .missingBinding])
        #expect(errors.last??.path == [BindingKey(Audit.self), BindingKey(RequestID.self)])
        #expect(
            recorder.lines == [
                "get failed RequestID missingBinding", "get failed Audit missingBinding",
            ])
    }

    @Test("children and derived injectors report to the observer they come from")
    func inherited() async throws {
        let recorder = RecordingObserver()
        let root = try await InjectorActor(modules: [], observer: recorder)
        let child = try await root.child(modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }])
        _ = try await child.get(Engine.self)
        let derived = try await root.withModules([TestModule { $0.bind(Wheel.self).to(Wheel.init).asSingleton() }])
        _ = try await derived.get(Wheel.self)
        #expect(
            recorder.lines == [
                "started Engine singleton", "finished Engine singleton",
                "started Wheel singleton", "finished Wheel singleton",
            ])
    }

    @Test("an observer that keeps the defaults changes nothing")
    func silent() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }],
            observer: SilentObserver()
        )
        let engine = try await injector.get(Engine.self)
        #expect(try await injector.get(Engine.self) === engine)
    }
}
