import Testing

@testable import Objection

@Suite("Combined observers", .timeLimit(.minutes(1)))
struct CombinedObserverTests {
    /// Records the events it hears, by name, asking for what it is told to.
    final class Recorder: InjectionObserver {
        let observesSuccesses: Bool
        let observesScopes: Bool
        let log = Log()

        init(successes: Bool, scopes: Bool) {
            observesSuccesses = successes
            observesScopes = scopes
        }

        func constructionStarted(_ construction: ObservedConstruction) { log.append("started \(construction.key)") }
        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
            log.append("finished \(construction.key)")
        }
        func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            log.append("failed \(construction.key)")
        }
        func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) { log.append("startup started") }
        func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
            log.append("startup finished")
        }
        func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
            log.append(error == nil ? "disposed \(key)" : "disposal failed \(key)")
        }
        func resolutionFailed(_ key: BindingKey, error: any Error) { log.append("get failed \(key)") }
        func scopeOpened() { log.append("scope opened") }
        func scopeEnded(_ outcome: ScopeOutcome) { log.append("scope ended") }
    }

    final class Ledger: AsyncDisposable {
        func dispose() async throws {}
    }

    final class Broken: Sendable {}

    @Test("it asks the injector for what one of its observers wants, and nothing else")
    func asksForTheUnion() {
        let failures = Recorder(successes: false, scopes: false)
        let scopes = Recorder(successes: false, scopes: true)
        let successes = Recorder(successes: true, scopes: false)
        #expect(!CombinedObserver(failures).observesSuccesses && !CombinedObserver(failures).observesScopes)
        #expect(
            !CombinedObserver(failures, scopes).observesSuccesses && CombinedObserver(failures, scopes).observesScopes)
        #expect(CombinedObserver([failures, successes]).observesSuccesses)
        #expect(!CombinedObserver([]).observesSuccesses && !CombinedObserver([]).observesScopes)
    }

    @Test("on an injector, each observer hears what it asked for, in the order the injector tells it")
    func routesAnInjectorsEvents() async throws {
        let failures = Recorder(successes: false, scopes: false)
        let everything = Recorder(successes: true, scopes: true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Ledger.self).to(Ledger.init).inScope(.scoped)
                    binder.bind(Broken.self).to { _ in throw ProviderFailure(attempt: 1) }.asSingleton()
                }
            ],
            observer: CombinedObserver(failures, everything)
        )
        try await injector.withScope(values: { _ in }) { _ = try await $0.get(Ledger.self) }
        await #expect(throws: ProviderFailure.self) { try await injector.get(Broken.self) }

        let ledger = BindingKey(Ledger.self)
        let broken = BindingKey(Broken.self)
        #expect(failures.log.values == ["failed \(broken)", "get failed \(broken)"])
        #expect(
            everything.log.values == [
                "scope opened", "started \(ledger)", "finished \(ledger)", "disposed \(ledger)", "scope ended",
                "started \(broken)", "failed \(broken)", "get failed \(broken)",
            ])
    }

    @Test("a startup reaches its observers of successes only")
    func startup() async throws {
        let failures = Recorder(successes: false, scopes: false)
        let successes = Recorder(successes: true, scopes: false)
        let ledger = BindingKey(Ledger.self)
        _ = try await InjectorActor(
            modules: [TestModule { binder in binder.bind(Ledger.self).to(Ledger.init).asEagerSingleton() }],
            observer: CombinedObserver(failures, successes)
        )
        #expect(failures.log.values.isEmpty)
        #expect(
            successes.log.values == ["startup started", "started \(ledger)", "finished \(ledger)", "startup finished"])
    }
}
