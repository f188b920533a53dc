import Synchronization

/// The injectors whose disposals the current task runs, or runs inside, while they run: a task a
/// dispose hook starts (`async let`, a task group, `Task {}`) inherits it. A
/// ``InjectorActor/shutdown(within:)`` called from there on one of them returns at once instead
/// of waiting for the disposals, which wait for it.
///
/// Set only around the disposals of an injector that owns its table (a root, a child, a scope
/// with modules): a request scope opened with values alone is ended by its opener, whose hooks
/// reach it only through an instance that kept it, and a task-local value set per request costs
/// every request that disposes something (Benchmarks/README, "Why the code is shaped so").
final class DisposingInjectors: Sendable {
    @TaskLocal static var current: DisposingInjectors?

    private let injector: ObjectIdentifier
    private let outer: DisposingInjectors?
    /// Cleared once the disposals have run: a task a hook started may outlive them, and then
    /// calls a shutdown as any other caller (and the identity may by then be another injector's).
    private let isRunning = Atomic<Bool>(true)

    private init(_ injector: InjectorActor, outer: DisposingInjectors?) {
        self.injector = ObjectIdentifier(injector)
        self.outer = outer
    }

    /// Runs `disposals` with `injector` added to the current task's chain.
    static func disposing<T>(
        _ injector: InjectorActor,
        _ disposals: nonisolated(nonsending) () async -> T
    ) async -> T {
        let link = DisposingInjectors(injector, outer: current)
        defer { link.isRunning.store(false, ordering: .releasing) }
        return await $current.withValue(link) { await disposals() }
    }

    /// Whether the current task runs inside `injector`'s disposals.
    static func includes(_ injector: InjectorActor) -> Bool {
        let identity = ObjectIdentifier(injector)
        var link = current
        while let disposing = link {
            if disposing.injector == identity, disposing.isRunning.load(ordering: .acquiring) {
                return true
            }
            link = disposing.outer
        }
        return false
    }
}
