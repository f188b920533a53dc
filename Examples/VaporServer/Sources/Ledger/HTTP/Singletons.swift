import Objection
import Synchronization

/// The root's singletons, for the routes that do without the injector per request: `/plain/...`
/// (the hand-wired baseline of the load test) and `/stats`.
struct Singletons: Sendable {
    let database: LedgerDatabase
    let journal: Journal
    let lifecycle: LifecycleLog

    init(from injector: InjectorActor) async throws {
        self.database = try await injector.get(LedgerDatabase.self)
        self.journal = try await injector.get(Journal.self)
        self.lifecycle = try await injector.get(LifecycleLog.self)
    }
}

/// ``Singletons``, resolved on the first request that needs them and kept.
///
/// Not when the routes are added: that is before the application boots, and the injector builds
/// ``LedgerDatabase`` only then.
final class LazySingletons: Sendable {
    private let injector: InjectorActor
    private let resolved = Mutex<Singletons?>(nil)

    init(injector: InjectorActor) {
        self.injector = injector
    }

    /// The singletons; the first calls resolve them (concurrent first calls may each resolve the
    /// same instances).
    func get() async throws -> Singletons {
        if let singletons = resolved.withLock({ $0 }) { return singletons }
        let singletons = try await Singletons(from: injector)
        resolved.withLock { $0 = singletons }
        return singletons
    }
}
