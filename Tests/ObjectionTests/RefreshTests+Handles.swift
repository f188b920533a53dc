import Testing

@testable import Objection

/// Refreshable bindings reached through handles, custom scopes and cancelled refreshes.
extension RefreshTests {
    @Test("a singleton's Lazy reads the current generation each time: never one a refresh replaced")
    func lazyReadsAnew() async throws {
        let ledger = RefreshLedger()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
            binder.bind(LazyLimiterHolder.self).to(LazyLimiterHolder.init).asSingleton()
        }
        let holder = try await injector.get(LazyLimiterHolder.self)
        #expect(try await holder.limiter.value.number == 1)
        try await injector.refresh()
        let again = try await holder.limiter.value
        #expect(again.number == 2 && !again.isDisposed)
        #expect(await injector.shutdown() == nil)
    }

    @Test("a Lazy of an alias to a refreshable binding reads the current generation each time too")
    func lazyThroughAnAliasReadsAnew() async throws {
        let ledger = RefreshLedger()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
            binder.bind(Limiter.self, named: "alias").to(Limiter.self)
        }
        let lazy = try await injector.get(Lazy<Limiter>.self, named: "alias")
        #expect(try await lazy.value.number == 1)
        try await injector.refresh()
        let again = try await lazy.value
        #expect(again.number == 2 && !again.isDisposed)
        #expect(await injector.shutdown() == nil)
    }

    @Test("a singleton's Factory used inside a request gets the request's generation, kept to its end")
    func factoryInsideARequestPins() async throws {
        let ledger = RefreshLedger()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
            binder.bind(FactoryLimiterHolder.self).to(FactoryLimiterHolder.init).asSingleton()
        }
        let holder = try await injector.get(FactoryLimiterHolder.self)
        let kept = try await injector.withScope { scope in
            let first = try await holder.limiter()
            try await injector.refresh()
            let second = try await holder.limiter()
            #expect(second === first)
            #expect(try await scope.get(Limiter.self) === first)
            #expect(!first.isDisposed)
            return first
        }
        #expect(kept.isDisposed)
        #expect(try await holder.limiter().number == 2)
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed == [1, 2])
    }

    @Test("a custom scope's cache may not keep a refreshable instance: refused at creation")
    func customScopeCannotCapture() async throws {
        let ledger = RefreshLedger()
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
                binder.bind(WeaklyCachedHolder.self).to(WeaklyCachedHolder.init).inScope(.weak)
            }
        }
        #expect(error?.code == .scopeViolation)
        #expect(
            error?.description.contains("Custom-scoped 'WeaklyCachedHolder' depends on refreshable 'Limiter'") == true)
    }

    @Test("a refresh whose caller leaves cancels its rebuild, disposes what it still builds, and degrades nothing")
    func cancelledRefresh() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        let first = try await injector.get(Limiter.self)
        let started = ledger.hold(build: 2)
        let refresh = Task { try await injector.refresh() }
        await started.wait()
        refresh.cancel()
        let error = await #expect(throws: (any Error).self) { try await refresh.value }
        #expect(
            error is CancellationError || (error as? InjectionError)?.problems.first?.underlying is CancellationError)
        #expect(try await injector.get(Limiter.self) === first)
        #expect(await injector.health(within: .seconds(5), cachedFor: .zero).status == .healthy)
        ledger.releaseHeld()
        await waitUntil { ledger.disposed == [2] }
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed == [2, 1])
    }
}

/// An ``Injectable`` type declared refreshable, bound just in time: which build made it.
final class JustInTimeRates: Injectable, Sendable {
    static let builds = Counter()
    static let injection = Injection(provider: { _ in JustInTimeRates(number: builds.increment()) })
        .inScope(.refreshable)
    let number: Int

    init(number: Int) { self.number = number }
}

extension RefreshTests {
    @Test("an Injectable type declared refreshable, bound just in time, is refreshed like a declared binding")
    func justInTimeRefreshable() async throws {
        let injector = try await makeInjector { _ in }
        // Never asked for: not bound yet, so nothing to refresh.
        #expect(try await injector.refresh(JustInTimeRates.self) == false)
        let first = try await injector.get(JustInTimeRates.self).number
        #expect(injector.refreshableKeys == [BindingKey(JustInTimeRates.self)])
        #expect(try await injector.refresh(JustInTimeRates.self))
        #expect(try await injector.get(JustInTimeRates.self).number == first + 1)
        #expect(try await injector.refresh() == [BindingKey(JustInTimeRates.self)])
        #expect(try await injector.get(JustInTimeRates.self).number == first + 2)
        #expect(await injector.shutdown(within: nil) == nil)
    }
}
