import LinkShortener
import Objection

/// Holds the tasks that reach it until the test opens it, and lets the test wait until a given
/// number have arrived: the proof that that many requests are in flight at the same moment,
/// without sleeping.
actor Gate {
    private var arrivals = 0
    private var isOpen = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Called by the code under test: returns once the gate is open.
    func pass() async {
        arrivals += 1
        let ready = watchers.filter { $0.count <= arrivals }
        watchers.removeAll { $0.count <= arrivals }
        for watcher in ready { watcher.continuation.resume() }
        guard !isOpen else { return }
        await withCheckedContinuation { held.append($0) }
    }

    /// Returns once `count` tasks have reached the gate.
    func waitForArrivals(_ count: Int) async {
        guard arrivals < count else { return }
        await withCheckedContinuation { watchers.append((count, $0)) }
    }

    /// How many tasks are waiting at the gate now.
    var waiting: Int { held.count }

    /// Lets every held task, and every later one, through.
    func open() {
        isOpen = true
        let released = held
        held = []
        for continuation in released { continuation.resume() }
    }
}

/// A ``LinkStore`` whose look-ups wait at a ``Gate`` before reading the real store.
struct GatedLinkStore: LinkStore {
    let base: InMemoryLinkStore
    let gate: Gate

    func insert(_ link: Link) async throws -> Bool {
        try await base.insert(link)
    }

    func find(code: String) async throws -> Link? {
        await gate.pass()
        return try await base.find(code: code)
    }

    func count() async -> Int {
        await base.count()
    }
}

/// Overrides the store binding of ``AppModule`` (a later module wins) with a ``GatedLinkStore``
/// over the same singleton ``InMemoryLinkStore``.
struct GatedStoreModule: Module {
    let gate: Gate

    func configure(_ binder: Binder) {
        binder.bind((any LinkStore).self)
            .to { [gate] r in GatedLinkStore(base: try await r.get(InMemoryLinkStore.self), gate: gate) }
            .asSingleton()
    }
}
