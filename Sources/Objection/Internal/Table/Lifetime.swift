/// How long one binding's values live and where a built one is kept, decided once from the
/// binding's ``Scope`` when its table is built.
///
/// This is the one place where a scope's kind changes what resolution does. Resolution asks a
/// binding's lifetime, never its scope: how a value is read or built is the one `switch` of
/// ``SynchronousResolver/step(_:producer:_:)``, and every other rule is a property below, named
/// for the question it answers. (Validation reads the scope too, to word its errors.) What a
/// cache does with a construction — a value, an error, a cancellation, shutdown — is the one
/// policy of ConstructionPolicy.swift.
@usableFromInline
enum Lifetime: Sendable {
    /// A new value for every resolution; nothing keeps it.
    case transient
    /// One value per injector, kept in its cell by the injector that declares the binding.
    case singleton(CacheCell)
    /// One value per injector at a time, which `refresh` replaces: the first in the cell, each
    /// later one in the generations, which a request scope pins.
    case refreshable(CacheCell, Generations)
    /// One value per request scope, at `index` among its table's scoped bindings (see
    /// ``ScopeLayout``); `nil` for a collection's contribution, which a request scope cannot hold.
    case scoped(index: Int?)
    /// Kept, or not, by the custom scope's cache: callers that miss it each build.
    case custom(any ScopeCache)

    /// The lifetime of a binding in `scope`, with a new cell or cache; `scopedIndex` is its
    /// position among the scoped bindings of its table.
    init(_ scope: Scope, scopedIndex: Int?) {
        switch scope.kind {
        case .transient: self = .transient
        case .singleton: self = .singleton(CacheCell())
        case .refreshable: self = .refreshable(CacheCell(), Generations())
        case .scoped: self = .scoped(index: scopedIndex)
        // Every custom scope has a cache maker (Scope.custom(_:cache:)).
        case .custom: self = scope.makeCache.map { .custom($0()) } ?? .transient
        }
    }
}

extension Lifetime {
    /// The cell of a singleton or of a refreshable binding's first value.
    var cell: CacheCell? {
        switch self {
        case .singleton(let cell), .refreshable(let cell, _): cell
        case .transient, .scoped, .custom: nil
        }
    }

    /// A refreshable binding's generations.
    var generations: Generations? {
        guard case .refreshable(_, let generations) = self else { return nil }
        return generations
    }

    /// A scoped binding's position among its table's scoped bindings.
    var scopedIndex: Int? {
        guard case .scoped(let index) = self else { return nil }
        return index
    }

    /// A custom-scoped binding's cache.
    var customCache: (any ScopeCache)? {
        guard case .custom(let cache) = self else { return nil }
        return cache
    }

    /// Whether some cache keeps the values: everything but a transient. An alias to a cached
    /// binding shares that cache's value and does not own it.
    var isCached: Bool {
        if case .transient = self { return false }
        return true
    }

    /// Whether one value serves the whole injector: a singleton or a refreshable binding. Such
    /// a value may not hold a request's, and marks where a resolution path leaves every request.
    var isInjectorWide: Bool { cell != nil }

    /// Whether a value, once built, stays until the injector shuts down, the same for every
    /// table and request that reads it: a singleton. A graph built in place may read it from a
    /// table it was not planned in, and once its frontier is all built it stops checking. (A
    /// refreshable binding's value changes, and each request scope pins its own.)
    var staysBuilt: Bool { lastingCell != nil }

    /// The cell of a value that ``staysBuilt``, which any caller may read without a step: the
    /// hit of `get`.
    @inlinable
    var lastingCell: CacheCell? {
        guard case .singleton(let cell) = self else { return nil }
        return cell
    }

    /// Whether a caller that waited for another's construction reads the value again rather
    /// than take the one handed over: a refreshable binding, so that its request scope pins the
    /// generation it reads.
    @usableFromInline
    var readsAgainAfterWaiting: Bool { generations != nil }

    /// Whether startup builds it in ``Stage/production``, where every singleton is built
    /// before the first request; other stages build only the eager ones.
    var isBuiltAtStartupInProduction: Bool { staysBuilt }

    /// Whether a request scope holds its value.
    var isPerRequest: Bool {
        if case .scoped = self { return true }
        return false
    }
}
