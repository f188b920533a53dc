import Synchronization

/// One linked entry of a ``BindingTable``: a key, its scope and its producer, with every declared
/// dependency already turned into a table index.
@usableFromInline final class Binding: Sendable {
    @usableFromInline let key: BindingKey
    /// The scope it was declared in, as observers and errors name it. Resolution asks
    /// ``lifetime`` instead.
    let scope: Scope
    /// How long its values live and where a built one is kept: its cell, slot or cache.
    let lifetime: Lifetime
    let isEager: Bool
    /// Whether this is the stand-in for a key request scopes supply (``BindingBuilder/suppliedByScope()``).
    let isSuppliedByScope: Bool
    let location: InjectionError.SourceLocation
    let producer: any AnyRecipe
    /// ``producer``'s address, to lend it without a retain (see ``withUnretainedProducer(as:_:)``).
    /// It never changes, and the binding keeps the producer alive.
    private nonisolated(unsafe) let producerAddress: UnsafeMutableRawPointer
    /// The declared dependency keys, in parameter order.
    let dependencies: [BindingKey]
    /// Every key this binding is known to resolve before it runs: its declared dependencies when
    /// its recipe resolves exactly those, and its bound type's injected properties. Empty for an
    /// opaque provider, whose dependencies show only when it runs. Walked by the graph checks.
    let knownDependencies: [BindingKey]
    /// For each dependency, its index in the table, or `nil` when nothing binds it.
    let links: [Int?]
    /// This binding's index in its table.
    let index: Int
    /// The identity of the table that declares this binding (see ``BindingTable/id``).
    let tableID: Int
    /// The `onDispose` hook, if any.
    let dispose: (@Sendable (any Sendable, ScopeOutcome) async throws -> Void)?
    /// How a value of exactly the key's type is disposed, found once; `nil` when the type is not
    /// ``AsyncDisposable``.
    let ownTypeDisposal: OwnTypeDisposal?
    /// For a collection binding, its contributions in order (a parent's first).
    let contributions: ContributionList
    /// Whether this transient binding, and everything below it, can be built by plain function
    /// calls once the cached bindings it reaches (``frontier``) are built: its recipe is
    /// synchronous, every dependency is bound, there is no cycle and the depth is small.
    let isSynchronous: Bool
    /// The cached bindings a synchronous build of this binding reads.
    let frontier: [Int]
    /// How many nested builds a synchronous build of this binding makes, itself included.
    let synchronousDepth: Int
    /// Whether a synchronous build of this binding reads a request-scoped instance.
    let synchronousReadsScoped: Bool
    /// Set once every binding of ``frontier`` was found built and all of them are singletons,
    /// which stay built: later checks skip their cells. A singleton emptied since (at shutdown,
    /// or a construction given up at startup) makes the synchronous path give way when it reads
    /// it, as it does for anything not as planned.
    let frontierStaysBuilt = Atomic<Bool>(false)
    /// Its observer's ``BindingObserver``, made the first time it is built under an observer
    /// (see `ObserverReference.constructionStarted(_:of:parent:)`).
    let preparedObserver = OnceReference<ObserverReference.Prepared>()
    /// ``observedSubject``, made when first asked for: most bindings are never observed.
    private let observedSubjectStorage = OnceReference<ObservedSubject>()

    init(
        declaration: BindingDeclaration,
        producer: any AnyRecipe,
        links: [Int?],
        index: Int,
        tableID: Int,
        synchronousPlan: SynchronousPlan.Entry?,
        scopedIndex: Int? = nil,
        contributions: ContributionList = .empty,
        needsArguments: Bool = false
    ) {
        self.key = declaration.key
        self.scope = declaration.scope
        self.isEager = declaration.isEager
        self.isSuppliedByScope = declaration.isSuppliedByScope
        self.location = declaration.location
        self.producer = producer
        self.producerAddress = Unmanaged.passUnretained(producer as AnyObject).toOpaque()
        self.dependencies = declaration.dependencies
        self.knownDependencies =
            (producer.declaresDependencies ? declaration.dependencies : []) + declaration.propertyDependencies
        self.links = links
        self.index = index
        self.tableID = tableID
        self.lifetime = Lifetime(declaration.scope, scopedIndex: scopedIndex, needsArguments: needsArguments)
        self.dispose = declaration.dispose
        self.ownTypeDisposal = OwnTypeDisposal(declaration.key.type)
        self.contributions = contributions
        self.isSynchronous = synchronousPlan != nil
        self.frontier = synchronousPlan?.frontier ?? []
        self.synchronousDepth = synchronousPlan?.depth ?? 0
        self.synchronousReadsScoped = synchronousPlan?.readsScoped ?? false
    }
}

extension Binding {
    /// The key and scope an observer hears each construction of the binding build.
    var observedSubject: ObservedSubject {
        observedSubjectStorage.instance { ObservedSubject(key: key, scope: scope) }
    }

    /// Lends the binding's producer, typed, to `body` without retaining it: the binding holds
    /// it, and the caller holds the binding. The path built in place asks for a producer once per
    /// object built; a retain and release each is measurable (Benchmarks/README, "Why the code is
    /// shaped so").
    ///
    /// The caller has checked that the binding ``produces(_:)`` `T`s (see ``producer(as:)``).
    /// `_withUnsafeGuaranteedRef` is the standard library's own way to use a reference without
    /// retaining it; it is underscored, and chosen deliberately for this one hot read.
    @inline(__always)
    func withUnretainedProducer<T: Sendable, Result>(
        as type: T.Type,
        _ body: (Recipe<T>) throws -> Result
    ) rethrows -> Result {
        try Unmanaged<Recipe<T>>.fromOpaque(producerAddress)._withUnsafeGuaranteedRef(body)
    }

    /// Whether a refresh replaces this binding's value (``Lifetime/changesOnRefresh``): read by
    /// the driver, which is inlinable, without making ``Lifetime`` visible to it.
    @usableFromInline var changesOnRefresh: Bool { lifetime.changesOnRefresh }

    /// Whether the graph check has anything to follow from this binding.
    var hasEdges: Bool { !knownDependencies.isEmpty || !contributions.isEmpty }

    /// How to dispose `value`, cached by this binding: its `onDispose` hook, which always runs,
    /// else `dispose()` when the value is ``AsyncDisposable`` and `ownedHere` — an instance is
    /// disposed once, by the cache that built it, never by an alias that shares it; `nil` when
    /// there is nothing to do.
    func disposal(
        of value: any Sendable,
        ownedHere: () -> Bool
    ) -> (@Sendable (ScopeOutcome) async throws -> Void)? {
        if let hook = dispose { return { try await hook(value, $0) } }
        // A value of the key's own type is disposed as the binding found once; another type (an
        // implementation behind a protocol, a subclass) is looked up. Ownership, which may walk
        // aliases, is asked last.
        if ObjectIdentifier(type(of: value)) == ObjectIdentifier(key.type) {
            guard let ownTypeDisposal, ownedHere() else { return nil }
            return ownTypeDisposal.disposer(value)
        }
        guard ownedHere(), let disposable = value as? any AsyncDisposable else { return nil }
        if let aware = disposable as? any OutcomeAwareDisposable { return { try await aware.dispose(after: $0) } }
        return { _ in try await disposable.dispose() }
    }
}
