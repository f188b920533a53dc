/// How long one binding's values live and where a built one is kept, decided once from the
/// binding's ``Scope`` when its table is built.
///
/// This is the one place where a scope's kind changes what resolution does. Resolution asks a
/// binding's lifetime, never its scope: how a value is read or built is the one `switch` over
/// ``kind`` in ``SynchronousResolver/step(_:producer:_:)``, and every other rule is a property
/// below, named for the question it answers. (Building the table and validating it read the
/// scope itself: which bindings get a slot, which a singleton may not capture, how an error names
/// them.) What a cache does with a construction — a value, an error, a cancellation, shutdown —
/// is the one policy of ConstructionPolicy.swift.
///
/// A struct of stored references rather than an enum with payloads: the hit of `get` reads the
/// cell through the binding without a retain, which a payload taken out of an enum case cost
/// (`singleton-hit` 261 → 313 instructions; Benchmarks/README, "Inlining marks").
struct Lifetime: Sendable {
    /// The scope's kind: a new value each time (transient), one per injector (singleton), one
    /// per injector at a time (refreshable), one per request scope (scoped), a custom cache's, or one
    /// per ``Lazy`` handle (handle).
    let kind: Scope.Kind
    /// A singleton's cell, a refreshable binding's, which holds its first value, or a ``Lazy``
    /// handle's.
    let cell: CacheCell?
    /// A refreshable binding's generations: each later value, which a request scope pins.
    let generations: Generations?
    /// A scoped binding's position among its table's scoped bindings (see ``ScopeLayout``);
    /// `nil` for one the table's layout does not place (a collection's contribution), for which a
    /// request scope appends a slot on first use.
    let scopedIndex: Int?
    /// A custom-scoped binding's cache: callers that miss it each build.
    let customCache: (any ScopeCache)?
    /// Whether a cached binding cannot be built without runtime arguments — its own recipe, or
    /// the one its aliases end at — so that a call without them is refused, built or not, rather
    /// than read what another call's arguments built (``SynchronousResolver/step(_:producer:_:)``).
    let needsArguments: Bool
    /// Whether a value, once built, stays until the injector shuts down, the same for every
    /// table and request that reads it: a singleton's, unless it cannot be built without runtime
    /// arguments (a call without them is refused, built or not, by its step). A graph built in
    /// place may read it from a table it was not planned in, and once its frontier is all built
    /// it stops checking. (A refreshable binding's value changes, and each request scope pins its
    /// own.)
    let staysBuilt: Bool

    /// The lifetime of a binding in `scope`, with a new cell or cache of its own; `scopedIndex`
    /// is its position among the scoped bindings of its table.
    init(_ scope: Scope, scopedIndex: Int?, needsArguments: Bool = false) {
        kind = scope.kind
        self.needsArguments = needsArguments
        staysBuilt = kind == .singleton && !needsArguments
        cell = kind == .singleton || kind == .refreshable || kind == .handle ? CacheCell() : nil
        generations = kind == .refreshable ? Generations() : nil
        self.scopedIndex = kind == .scoped ? scopedIndex : nil
        customCache = kind == .custom ? scope.makeCache?() : nil
    }
}

extension Lifetime {
    /// Whether some cache keeps the values: everything but a transient. An alias to a cached
    /// binding shares that cache's value and does not own it.
    var isCached: Bool { kind != .transient }

    /// Whether one value serves the whole injector: a singleton or a refreshable binding. Such
    /// a value may not hold a request's, and marks where a resolution path leaves every request.
    var isInjectorWide: Bool { kind == .singleton || kind == .refreshable }

    /// Whether its values are kept by the injector that declares the binding, built with that
    /// injector's bindings: a singleton, a refreshable binding or a custom scope's cache. A child
    /// that reads one does not build it.
    var livesWhereDeclared: Bool { isInjectorWide || kind == .custom }

    /// Whether `refresh` replaces its value while the injector runs: a refreshable binding. A
    /// handle must not keep such a value, and a caller that waited for another's construction
    /// reads it again rather than take the one handed over, so that its request scope pins the
    /// generation it reads.
    var changesOnRefresh: Bool { kind == .refreshable }

    /// Whether startup builds it in ``Stage/production``, where every singleton is built
    /// before the first request; other stages build only the eager ones.
    var isBuiltAtStartupInProduction: Bool { kind == .singleton }

    /// Whether a request scope holds its value.
    var isPerRequest: Bool { kind == .scoped }

    /// Whether it is a ``Lazy`` handle's cell, which holds a value that another binding's lifetime
    /// built: the observer hears that construction (when the target is cached) and the target's
    /// binding disposes the value (when anything does: a transient's is disposed by nobody), so
    /// the handle's own construction is neither heard nor recorded. It belongs to the injector
    /// that made the handle.
    var isHandle: Bool { kind == .handle }
}
