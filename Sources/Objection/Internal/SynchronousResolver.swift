/// Resolves the dependencies of a synchronous recipe with plain function calls.
///
/// Only reached for bindings the ``SynchronousPlan`` approved, after their frontier cells were
/// found built. If anything is not as planned, it throws ``SynchronousResolutionUnavailable`` and
/// the caller takes the asynchronous path, which reports problems with their full path.
///
/// Recipes of autowired parameter packs run this code unspecialised, so it avoids anything that
/// would ask the runtime for generic metadata (`as?` to a generic class, `T?`).
@usableFromInline
struct SynchronousResolver: Sendable {
    @usableFromInline let injector: InjectorActor
    @usableFromInline let bindings: [Binding]

    /// Resolves for `injector`, whose own table declares every binding on this path.
    @inlinable
    init(injector: InjectorActor) {
        self.injector = injector
        self.bindings = injector.table.bindings
    }

    /// Resolves the `position`-th declared dependency of `binding` and advances `position`.
    @inlinable
    func next<T: Sendable>(_ type: T.Type, of binding: Binding, at position: inout Int) throws -> T {
        guard let index = binding.links[position] else { throw SynchronousResolutionUnavailable() }
        position += 1
        return try resolve(bindings[index], as: type)
    }

    /// The `position`-th declared dependency of `binding`.
    @inlinable
    func dependency<T: Sendable>(_ type: T.Type, at position: Int, of binding: Binding) throws -> T {
        guard let index = binding.links[position] else { throw SynchronousResolutionUnavailable() }
        return try resolve(bindings[index], as: type)
    }

    @inlinable
    func resolve<T: Sendable>(_ binding: Binding, as type: T.Type) throws -> T {
        guard let producer = binding.producer(as: type) else { throw SynchronousResolutionUnavailable() }
        if binding.scope.isCached {
            let cell =
                binding.scope == .singleton
                ? binding.cell : injector.nearestScope?.scopedCells.existingCell(for: binding)
            guard let cell else { throw SynchronousResolutionUnavailable() }
            return try cell.builtValue(as: type)
        }
        guard producer.kind == .instance || binding.isSynchronous, let recipe = producer.synchronous else {
            throw SynchronousResolutionUnavailable()
        }
        return try recipe(self, binding)
    }
}

/// Thrown inside a synchronous resolution to fall back to the asynchronous path.
@usableFromInline
struct SynchronousResolutionUnavailable: Error {
    @inlinable init() {}
}
