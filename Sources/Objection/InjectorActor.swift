/// The injector: builds and caches the values your modules describe.
///
/// Create one per process from your modules, then resolve from any task:
///
/// ```swift
/// let injector = try await InjectorActor(modules: [AppModule()])   // eager singletons built here
/// let repo = try await injector.get(UserRepository.self)
/// let left = try await injector.get(Headlight.self, named: "left")
/// let sink: MetricsSink? = try await injector.getIfBound(MetricsSink.self)   // nil when unbound
/// ```
///
/// ## Concurrency
/// The binding table is immutable once the injector is built and is read without a lock. A
/// transient resolution, and a hit on a singleton that is already built, never hop onto the actor.
/// Only singleton *construction* goes through it: the first caller of a key starts one shared
/// task, every concurrent caller of that key awaits the same task, so the provider runs exactly
/// once. Different keys construct concurrently. A provider's error reaches every waiter unchanged
/// and is never cached; the next `get` runs the provider again. Cancelling a waiting caller does
/// not cancel the shared construction.
public actor InjectorActor {
    /// The default for `maxResolutionDepth`: how many nested resolutions one `get` may make.
    public static let defaultMaxResolutionDepth = 4_096

    @usableFromInline nonisolated let table: BindingTable
    @usableFromInline nonisolated let cells: [SingletonCell?]
    @usableFromInline nonisolated let maxResolutionDepth: Int
    var inFlight: [Int: any InFlightConstruction] = [:]

    /// Creates an injector from `modules` and builds its eager singletons.
    ///
    /// Modules are configured in order; when two bind the same key, the later one wins.
    ///
    /// - Parameters:
    ///   - modules: The configuration, applied in order.
    ///   - maxResolutionDepth: How deep one resolution may nest before it fails with
    ///     ``InjectionError/Code/depthLimitExceeded``, instead of exhausting memory.
    /// - Throws: ``InjectionError/Code/invalidConfiguration`` listing every configuration problem,
    ///   or the error of an eager singleton's provider, unchanged.
    public init(
        modules: [any Module],
        maxResolutionDepth: Int = InjectorActor.defaultMaxResolutionDepth
    ) async throws {
        let table = try BindingTable.build(modules: modules)
        self.table = table
        self.cells = table.bindings.map { $0.scope.isCached ? SingletonCell() : nil }
        self.maxResolutionDepth = max(1, maxResolutionDepth)
        try await buildEagerSingletons()
    }

    /// Builds every eager singleton, independent ones concurrently.
    private nonisolated func buildEagerSingletons() async throws {
        let eager = table.eagerBindings
        guard !eager.isEmpty else { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for binding in eager {
                group.addTask { try await binding.producer.resolve(in: self, binding: binding) }
            }
            try await group.waitForAll()
        }
    }
}
