import ObjectionTesting
import Testing

@testable import Objection

/// A ``CombinedObserver`` asks the injector for what one of its observers wants, and routes each
/// event to the observers that asked for it.
extension ObserverTests {
    final class Broken: Sendable {}

    @Test("a combined observer asks the injector for what one of its observers wants, and nothing else")
    func asksForTheUnion() {
        let failures = RecordingObserver(observesSuccesses: false, observesScopes: false)
        let scopes = RecordingObserver(observesSuccesses: false, observesScopes: true)
        let successes = RecordingObserver(observesSuccesses: true, observesScopes: false)
        #expect(!CombinedObserver(failures).observesSuccesses && !CombinedObserver(failures).observesScopes)
        #expect(
            !CombinedObserver(failures, scopes).observesSuccesses && CombinedObserver(failures, scopes).observesScopes)
        #expect(CombinedObserver([failures, successes]).observesSuccesses)
        #expect(!CombinedObserver([]).observesSuccesses && !CombinedObserver([]).observesScopes)
    }

    @Test("on an injector, each observer of a combination hears what it asked for, in the order the injector tells it")
    func routesAnInjectorsEvents() async throws {
        let failures = RecordingObserver(observesSuccesses: false, observesScopes: false)
        let everything = RecordingObserver(observesSuccesses: true, observesScopes: true)
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
        #expect(
            failures.lines == ["failed \(broken) singleton ProviderFailure", "get failed \(broken) ProviderFailure"])
        #expect(
            everything.lines == [
                "scope opened", "started \(ledger) scoped", "finished \(ledger) scoped", "disposed \(ledger)",
                "scope ended", "started \(broken) singleton", "failed \(broken) singleton ProviderFailure",
                "get failed \(broken) ProviderFailure",
            ])
    }

    @Test("a startup reaches the observers of successes of a combination only")
    func combinedStartup() async throws {
        let failures = RecordingObserver(observesSuccesses: false, observesScopes: false)
        let successes = RecordingObserver(observesSuccesses: true, observesScopes: false)
        let ledger = BindingKey(Ledger.self)
        _ = try await InjectorActor(
            modules: [TestModule { binder in binder.bind(Ledger.self).to(Ledger.init).asEagerSingleton() }],
            observer: CombinedObserver(failures, successes)
        )
        #expect(failures.lines.isEmpty)
        #expect(
            successes.lines == [
                "startup started 1", "started \(ledger) singleton", "finished \(ledger) singleton", "startup finished",
            ])
    }

    @Test(
        "a combined observer: the failure-only half hears each failure once, the other each construction once"
    )
    func combinedMixedOnBothPaths() async throws {
        let failures = StrictObserver(successes: false, scopes: false, standalone: false)
        let all = StrictObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init).asSingleton()
                    // Synchronous path, fails in place.
                    b.bind(Wheel.self).to(Self.brokenWheel).inScope(.scoped)
                    // Asynchronous path, fails.
                    b.bind(Headlight.self).to { _ in
                        await Task.yield()
                        throw ProviderFailure(attempt: 2)
                    }.inScope(.scoped)
                    b.bind(Leaky.self).to(Leaky.init).inScope(.scoped)
                    b.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
                }
            ],
            observer: CombinedObserver(failures, CombinedObserver(all))
        )
        _ = try await injector.get(Engine.self)
        for _ in 0..<3 {
            await #expect(throws: InjectionError.self) {
                try await injector.withScope(values: { _ in }) { scope in
                    _ = try await scope.get(CountedResource.self)
                    _ = try await scope.get(Leaky.self)
                    await #expect(throws: ProviderFailure(attempt: 1)) { try await scope.get(Wheel.self) }
                    await #expect(throws: ProviderFailure(attempt: 2)) { try await scope.get(Headlight.self) }
                }
            }
        }
        for o in [failures, all] {
            #expect(o.finalProblems() == [])
            let failed = o.recorded.failures.map(\.key)
            #expect(failed.filter { $0 == BindingKey(Wheel.self) }.count == 3)
            #expect(failed.filter { $0 == BindingKey(Headlight.self) }.count == 3)
            #expect(failed.count == 6)
            #expect(o.recorded.disposals.failed == Array(repeating: BindingKey(Leaky.self), count: 3))
            #expect(o.recorded.resolutionFailures.count == 6)
        }
        #expect(all.recorded.built.count(of: CountedResource.self) == 3)
        #expect(failures.recorded.started.isEmpty)
        #expect(failures.recorded.disposals.succeeded.isEmpty)
    }
}
