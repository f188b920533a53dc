import Synchronization

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
/// Injectors form a hierarchy: ``child(modules:startup:)`` overrides bindings for a part of the program,
/// ``withScope(modules:_:)`` opens a cheap request scope, and ``withModules(_:startup:)`` /
/// ``withoutModules(ofType:startup:)`` derive new roots. ``shutdown(within:)`` disposes what an injector built.
///
/// ## Concurrency
/// The binding table is immutable once the injector is built and is read without a lock, and no
/// resolution hops onto the actor: each cached instance lives in a cell, whose short lock decides
/// who builds it. The first caller of a singleton starts one shared task, every concurrent caller
/// of that key waits for the same construction, so the provider runs exactly once. Different
/// keys construct concurrently. A provider's error reaches every waiter unchanged and is never
/// cached; the next `get` runs the provider again. Cancelling a waiting caller does not cancel the
/// shared construction.
///
/// ## What the actor owns
/// `InjectorActor` is an actor for its public type — callers `await` it and pass it where an actor
/// is expected — and so that a mutable property added later is isolated rather than raced; not
/// for its state, and nothing but a test hook runs on it.
/// Its state is immutable (`let`: the table, the parent, the scope's values) or lives behind
/// locks and atomics that `get` reads without a hop: each singleton's cell state in a lock of
/// its own, a request scope's slots under one lock in one allocation, the shutdown flag an atomic,
/// the shutdown's state a lock. Hence the `nonisolated` members. Hopping onto the actor for a
/// cached `get` would cost a task switch per call — several times the whole singleton hit — and
/// serialise every resolution of an injector on one executor. No lock is held while user code
/// runs. The Architecture article shows which lock guards what.
public actor InjectorActor {
    /// The default for `maxResolutionDepth`: how many nested resolutions one `get` may make.
    public static let defaultMaxResolutionDepth = 4_096

    /// This injector's bindings, over its parent's.
    @usableFromInline nonisolated let table: BindingTable
    /// Whether this injector built ``table`` and so owns the singletons it declares. A request
    /// scope opened without modules shares its parent's table and owns none.
    nonisolated let ownsTable: Bool
    /// The injector this one was made from: a child's parent, a scope's opener.
    nonisolated var parent: InjectorActor? { parentLink.object }
    nonisolated let parentLink: ChainLink<InjectorActor>
    /// The modules this injector was created with; its parent's come before them in ``modules``.
    nonisolated let ownModules: [any Module]
    nonisolated let maxResolutionDepth: Int
    /// When this injector, and the children made from it, build their singletons.
    public nonisolated let stage: Stage
    /// Bindings made on demand for ``Injectable`` types; only a root has them.
    nonisolated let justInTime: JustInTimeBindings?
    /// Where the scoped instances of a request scope opened here live; computed once.
    nonisolated let scopeLayout: ScopeLayout
    /// For a request scope: its scoped instances and the values its opener bound. `nil` for
    /// every other injector.
    nonisolated let request: RequestState?
    /// For an injector that is not a request scope, the nearest scope above it, held so that a
    /// scoped resolution finds its scope without walking the chain (a retain and a release per
    /// step). `nil` for every scope, a nested one included: a scope is its own nearest scope, and
    /// this is not the way to its outer one.
    nonisolated let enclosingScope: InjectorActor?
    /// The request scopes open on this injector and below it, which its shutdown drains; unused
    /// in a scope, which counts in its opener's (``scopeTracker``).
    nonisolated let openScopes: OpenScopes
    /// For a request scope: its opener's ``scopeTracker``; `nil` for every other injector, which
    /// is its own. Unowned: it is this injector's parent or one of its ancestors, which
    /// ``parentLink`` keeps alive — a strong reference would release a chain of 100,000 children
    /// recursively, exhausting the stack, where the link releases it in a loop.
    nonisolated unowned let trackerAbove: InjectorActor?
    /// For an injector that is not a scope: the tracker of the one it derives from, whose drain
    /// counts the scopes opened here too; `nil` for a root and for every scope. Unowned, as
    /// ``trackerAbove`` is.
    nonisolated unowned let parentTracker: InjectorActor?
    /// Whether this request scope was opened inside another (``openedWithin``): most are not, and
    /// then neither opening nor ending it takes the lock that keeps that scope.
    private nonisolated let hasOpenedWithin: Bool
    /// For a request scope: the scope the task that opened it was running in, if any — how a
    /// shutdown called inside a request finds the scopes it must not wait for.
    /// Whether a deferred start has yet to succeed: ``phase`` is ``InjectorPhase/starting``.
    private nonisolated let startupPending = Atomic<Bool>(false)
    /// The health probes' single flight and cache, made by the first probe: an injector never
    /// probed allocates nothing for it.
    private nonisolated let healthMonitorStorage = AtomicLazyReference<HealthMonitor>()

    /// Set once ``shutdown(within:)`` starts; read on every `get`.
    nonisolated let shutdownFlag = ShutdownFlag()
    /// Where ``shutdown(within:)`` is, and what this injector built and must dispose at shutdown, in
    /// order of construction.
    nonisolated let shutdownState: ShutdownStateStore
    /// Hears constructions, disposals and failed `get`s; a root's, shared with what derives
    /// from it.
    @usableFromInline nonisolated let observing: ObserverReference?
    /// Whether the observer wants request scopes opened and ended
    /// (``InjectionObserver/observesScopes``); `false` without an observer.
    nonisolated let observesScopes: Bool

    /// Creates an injector from `modules`, checks its graph, and builds its eager singletons.
    ///
    /// Modules are configured in order; when two bind the same key, the later one wins.
    ///
    /// The check covers every binding whose dependencies are declared — autowired functions,
    /// `to(Concrete.self)`, injected properties: each dependency must be bound (or supplied by
    /// request scopes, see ``BindingBuilder/suppliedByScope()``), no chain of them may lead back
    /// to where it started, and no singleton may reach a scoped key. A closure provider's
    /// dependencies show only when it runs, and are checked then.
    ///
    /// ```swift
    /// let injector = try await InjectorActor(
    ///     modules: [AppModule()],
    ///     stage: .production,
    ///     startup: .immediate(within: .seconds(10))
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The configuration, applied in order.
    ///   - stage: ``Stage/development`` (the default) builds singletons on first use;
    ///     ``Stage/production`` builds every singleton at startup.
    ///   - startup: When startup's singletons are built — now (the default), now within a
    ///     deadline, or when ``start(within:)`` is called — see ``Startup``.
    ///   - observer: Hears constructions, disposals and failures (see ``InjectionObserver``).
    ///   - maxResolutionDepth: How deep one resolution may nest before it fails with
    ///     ``InjectionError/Code/depthLimitExceeded``, instead of exhausting memory.
    /// - Throws: ``InjectionError/Code/invalidConfiguration`` listing every problem, each with its
    ///   own code and path (``InjectionError/Code/scopeViolation`` when all of them are singletons
    ///   that depend on scoped keys); ``InjectionError/Code/timedOut`` naming the singletons a
    ///   deadline cut short; or the error of a singleton's provider built now, unchanged. What was
    ///   built is disposed, with ``ScopeOutcome/failed(_:)``, before it throws; what a construction
    ///   given up at the deadline builds later is disposed then.
    public init(
        modules: [any Module],
        stage: Stage = .development,
        startup: Startup = .immediate,
        observer: (any InjectionObserver)? = nil,
        maxResolutionDepth: Int = InjectorActor.defaultMaxResolutionDepth
    ) async throws {
        try await self.init(
            modules: modules,
            parent: nil,
            isScope: false,
            stage: stage,
            startup: startup,
            observing: observer.map(ObserverReference.init),
            maxResolutionDepth: maxResolutionDepth
        )
    }

    /// Creates a root (`parent == nil`), a child, or a request scope with its own modules, and
    /// builds its eager singletons unless `startup` defers them. A child or scope reports to its
    /// parent's observer; a root to `observing`, a derived one to the observer it derives from.
    init(
        modules: [any Module],
        parent: InjectorActor?,
        isScope: Bool,
        stage: Stage,
        startup: Startup = .immediate,
        observing: ObserverReference? = nil,
        maxResolutionDepth: Int
    ) async throws {
        let table = try BindingTable.build(
            modules: modules,
            parent: parent?.table,
            checksCaptives: !isScope
        )
        self.init(
            table: table,
            ownsTable: true,
            parent: parent,
            isScope: isScope,
            ownModules: modules,
            stage: stage,
            observing: observing ?? parent?.observing,
            maxResolutionDepth: maxResolutionDepth
        )
        guard !startup.isDeferred else {
            setStartupPending(true)
            return
        }
        do {
            try await StartupRun(of: self)?.run(within: startup.timeout)
        } catch {
            // Dispose what the other eager singletons built before failing, without waiting for
            // a construction the start gave up: the caller asked for a start bounded by its
            // deadline, and nothing but that start used this injector.
            shutdownState.withLock { $0.abandonedWork = [] }
            _ = await ShutdownRun(of: self, after: .failed(error)).run(within: Self.defaultDrainDeadline)
            throw error
        }
    }

    /// Creates a request scope without modules: it shares `parent`'s table and scope layout, so
    /// opening it allocates its storage and nothing that grows with the configuration.
    @usableFromInline
    init(scopeOf parent: InjectorActor, values: ScopeValues) {
        self.init(
            table: parent.table,
            ownsTable: false,
            parent: parent,
            isScope: true,
            values: values,
            ownModules: [],
            stage: parent.stage,
            observing: parent.observing,
            maxResolutionDepth: parent.maxResolutionDepth,
            layout: parent.scopeLayout
        )
    }

    private init(
        table: BindingTable,
        ownsTable: Bool,
        parent: InjectorActor?,
        isScope: Bool,
        values: ScopeValues = ScopeValues(),
        ownModules: [any Module],
        stage: Stage,
        observing: ObserverReference?,
        maxResolutionDepth: Int,
        layout: ScopeLayout? = nil
    ) {
        self.table = table
        self.ownsTable = ownsTable
        self.parentLink = ChainLink(parent, depth: parent.map { $0.parentLink.depth + 1 } ?? 0)
        self.ownModules = ownModules
        self.stage = stage
        self.observing = observing
        self.observesScopes = observing?.observesScopes ?? false
        self.maxResolutionDepth = max(1, maxResolutionDepth)
        self.justInTime = parent == nil ? JustInTimeBindings() : nil
        let layout = layout ?? ScopeLayout(table: table, over: parent?.scopeLayout)
        self.scopeLayout = layout
        let outerScope = parent?.nearestScope
        // A scope nested in another answers with the outer scope's values too, so a lookup
        // reads one set of values instead of walking up the chain.
        let request =
            isScope
            ? RequestState(values: outerScope?.request.map { values.inheriting($0.values) } ?? values, layout: layout)
            : nil
        self.request = request
        self.shutdownState = request.map(ShutdownStateStore.request) ?? .own(Lock(ShutdownState()))
        self.enclosingScope = isScope ? nil : outerScope
        self.trackerAbove = isScope ? parent?.scopeTracker : nil
        self.parentTracker = isScope ? nil : parent?.scopeTracker
        self.openScopes = OpenScopes()
        let within = isScope ? Self.taskCurrent?.nearestScope : nil
        self.hasOpenedWithin = within != nil
        if let within { shutdownState.withLock { $0.openedWithin = within } }
    }

    /// The singletons startup builds: the eager ones, or in ``Stage/production`` every one but
    /// those that need runtime arguments, directly or through an alias (a singleton with
    /// defaults is built from them). A
    /// request scope builds its instances on demand whatever the stage.
    nonisolated var startupBindings: [Binding] {
        stage == .production && !isScope
            ? table.declaredBindings.filter { $0.lifetime.isBuiltAtStartupInProduction && !needsArguments($0) }
            : table.eagerBindings
    }
}

extension InjectorActor {
    /// The module stack: the parent's modules, then this injector's own. Computed when a derived
    /// injector needs it, so that creating a child or a scope copies nothing.
    nonisolated var modules: [any Module] {
        // A loop, not a call per level: a chain of children can be as long as the user makes it.
        var levels = [ownModules]
        var injector = parent
        while let current = injector {
            levels.append(current.ownModules)
            injector = current.parent
        }
        return levels.reversed().flatMap { $0 }
    }

    /// Whether this injector is a request scope: the home of ``Scope/scoped`` instances.
    nonisolated var isScope: Bool { request != nil }

    /// For a request scope still open: the scope the task that opened it was running in, if any
    /// — how a shutdown called inside a request finds the scopes it must not wait for. Kept in
    /// the scope's shutdown state, under the lock it already has. Forgotten when the scope ends
    /// (``countScopeEnd()``), so that scopes opened one inside the other by tasks that inherit the
    /// current injector (a job that reschedules itself from its own scope) do not hold a chain of
    /// every scope before them.
    nonisolated var openedWithin: InjectorActor? {
        hasOpenedWithin ? shutdownState.withLock { $0.openedWithin } : nil
    }

    /// Forgets ``openedWithin``: the scope has ended.
    nonisolated func forgetOpenedWithin() {
        guard hasOpenedWithin else { return }
        shutdownState.withLock { $0.openedWithin = nil }
    }

    /// The health probes' single flight and cache, made on first use.
    nonisolated var healthMonitor: HealthMonitor {
        healthMonitorStorage.load() ?? healthMonitorStorage.storeIfNil(HealthMonitor())
    }

    /// Whether a deferred start has yet to succeed.
    nonisolated var isStartupPending: Bool { startupPending.load(ordering: .acquiring) }

    /// Records whether a deferred start has yet to succeed.
    nonisolated func setStartupPending(_ pending: Bool) {
        startupPending.store(pending, ordering: .releasing)
    }

    /// Whether ``shutdown(within:)`` has started.
    @usableFromInline nonisolated var isShutDown: Bool { shutdownFlag.isSet }

    /// The nearest request scope: this injector or an ancestor.
    nonisolated var nearestScope: InjectorActor? {
        isScope ? self : enclosingScope
    }
}
