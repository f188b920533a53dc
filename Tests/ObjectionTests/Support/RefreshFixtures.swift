@testable import Objection

/// What the refresh tests watch: the setting a refreshable provider reads, each build, each
/// disposal (by generation number), and an optional gate a build waits at.
final class RefreshLedger: Sendable {
    private let state = Lock(State())

    private struct State {
        var limit = 100
        var builds = 0
        var disposed: [Int] = []
        /// Builds with these numbers wait at the gate; builds whose limit is negative throw.
        var held: Set<Int> = []
        var gate = Gate()
        var started = Gate()
    }

    struct Invalid: Error {}

    var limit: Int {
        get { state.withLock { $0.limit } }
        set { state.withLock { $0.limit = newValue } }
    }

    var builds: Int { state.withLock { $0.builds } }
    var disposed: [Int] { state.withLock { $0.disposed } }

    /// Holds the build numbered `number` at a gate until ``releaseHeld()``; returns a gate opened
    /// when that build starts.
    func hold(build number: Int) -> Gate {
        state.withLock { state in
            state.held.insert(number)
            state.gate = Gate()
            state.started = Gate()
            return state.started
        }
    }

    func releaseHeld() {
        state.withLock { $0.gate }.open()
    }

    /// One build: counted, held if asked (ignoring cancellation, as a hung provider does), then
    /// made from the current limit.
    func build() async throws -> Limiter {
        let (number, limit, wait) = state.withLock { state in
            state.builds += 1
            let wait = state.held.contains(state.builds) ? (state.gate, state.started) : nil
            return (state.builds, state.limit, wait)
        }
        if let (gate, started) = wait {
            started.open()
            await gate.wait()
        }
        guard limit >= 0 else { throw Invalid() }
        return Limiter(number: number, limit: limit, ledger: self)
    }

    func recordDisposal(_ number: Int) {
        state.withLock { $0.disposed.append(number) }
    }
}

/// A refreshable singleton: which build made it, the limit it read, whether it was disposed.
final class Limiter: AsyncDisposable, Sendable {
    let number: Int
    let limit: Int
    private let ledger: RefreshLedger
    private let isDisposedState = Lock(false)

    init(number: Int, limit: Int, ledger: RefreshLedger) {
        self.number = number
        self.limit = limit
        self.ledger = ledger
    }

    var isDisposed: Bool { isDisposedState.withLock { $0 } }

    func dispose() async throws {
        isDisposedState.withLock { $0 = true }
        ledger.recordDisposal(number)
    }
}

/// A request-scoped object built from the refreshable one.
struct LimitedHandler: Sendable {
    let limiter: Limiter
}

/// A singleton that would hold a refreshable instance.
struct LimiterHolder: Sendable {
    let limiter: Limiter
}

extension RefreshLedger {
    /// An injector with `Limiter` refreshable and `LimitedHandler` scoped over it.
    func injector() async throws -> InjectorActor {
        try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in try await self.build() }.asRefreshable()
            binder.bind(LimitedHandler.self).to(LimitedHandler.init).inScope(.scoped)
        }
    }
}

extension InjectorActor {
    /// How many refreshes of `type` were asked for so far, finished or not.
    nonisolated func refreshesAsked<T>(of type: T.Type) -> Int {
        table.binding(for: BindingKey(type))?.lifetime.generations?.asked ?? 0
    }
}

/// A singleton that reads the refreshable instance per use, through a handle.
struct LazyLimiterHolder: Sendable {
    let limiter: Lazy<Limiter>
}

/// A singleton that builds the refreshable instance per use, through a factory.
struct FactoryLimiterHolder: Sendable {
    let limiter: Factory<Limiter>
}

/// A custom-scoped (weakly cached) holder of the refreshable instance.
final class WeaklyCachedHolder: Sendable {
    let limiter: Limiter
    init(limiter: Limiter) { self.limiter = limiter }
}
