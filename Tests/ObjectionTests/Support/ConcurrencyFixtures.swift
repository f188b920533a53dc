@testable import Objection

/// A slow `Engine` the test controls: its provider counts its builds, opens `started` and waits
/// for `release`.
struct GatedEngine: Sendable {
    let started = Gate()
    let release = Gate()
    let built = Counter()

    /// Binds `Engine` to the gated provider, in `scope`.
    func bind(on binder: Binder, in scope: Scope) {
        binder.bind(Engine.self).to { [started, release, built] _ in
            built.increment()
            started.open()
            await release.wait()
            return Engine()
        }
        .inScope(scope)
    }

    /// An injector binding `Engine` to the gated provider, a singleton or (`singleton: false`) a
    /// transient, reporting to `observer`.
    func injector(singleton: Bool = true, observer: (any InjectionObserver)?) async throws -> InjectorActor {
        let gated = self
        return try await InjectorActor(
            modules: [TestModule { gated.bind(on: $0, in: singleton ? .singleton : .transient) }],
            observer: observer
        )
    }
}

/// A set of tasks started from observer callbacks, awaited at the end of a test.
final class SpawnedTasks: Sendable {
    private let tasks = Lock<[Task<Void, Never>]>([])
    func add(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }
    func drain() async {
        while true {
            let batch = tasks.withLock { t in
                defer { t = [] }
                return t
            }
            if batch.isEmpty { return }
            for task in batch { await task.value }
        }
    }
}

/// Instances of a disposable type, to check each was disposed exactly once.
final class ResourcePool: Sendable {
    private let all = Lock<[CountedResource]>([])
    func make() -> CountedResource {
        let resource = CountedResource()
        all.withLock { $0.append(resource) }
        return resource
    }
    var made: [CountedResource] { all.withLock { $0 } }
}

/// A reproducible pseudo-random generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
