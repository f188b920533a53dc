/// Resolves without suspending: the one step under every `get` (``step(_:producer:_:)``), and the
/// dependencies of a graph built in place, with plain function calls.
///
/// A graph is built in place only when the ``SynchronousPlan`` approved it and its frontier cells
/// were found built. If anything is not as planned, a dependency stops with
/// ``SynchronousStop/mustSuspend``, and the step that started the graph builds step by step
/// instead, reporting problems with their full path.
///
/// Recipes of autowired parameter packs run this code unspecialised, so it avoids anything that
/// would ask the runtime for generic metadata (`as?` to a generic class, `T?`).
@usableFromInline struct SynchronousResolver {
    let injector: InjectorActor
    /// Where the constructions are noted for the observer, on the stack of the call that
    /// resolves (see ``ConstructionReports``); `nil` without one. Valid only during that call: a
    /// resolver is passed down through plain nested calls and never stored, captured by a
    /// closure that outlives them, or handed to a task.
    let reports: UnsafeMutablePointer<ConstructionReports>?

    /// Resolves for `injector`, through its table, noting constructions in `reports`.
    @usableFromInline init(injector: InjectorActor, reports: UnsafeMutablePointer<ConstructionReports>?) {
        self.injector = injector
        self.reports = reports
    }

    /// The same resolver for `injector`, noting constructions in the same place.
    func `for`(_ injector: InjectorActor) -> SynchronousResolver {
        SynchronousResolver(injector: injector, reports: reports)
    }

    /// Resolves the `position`-th declared dependency of `binding` and advances `position`.
    ///
    /// Not inlinable: autowired recipes call it from a parameter-pack expansion, which the
    /// optimizer does not specialise per element anyway. What it calls is always inlined into it,
    /// so that a dependency costs one unspecialised call (Benchmarks/README, "Why the code is shaped so").
    @usableFromInline func next<T: Sendable>(_ type: T.Type, of binding: Binding, at position: inout Int)
        throws(SynchronousStop) -> T
    {
        defer { position += 1 }
        return try dependency(type, at: position, of: binding)
    }

    /// The `position`-th declared dependency of `binding`.
    @inline(__always)
    func dependency<T: Sendable>(_ type: T.Type, at position: Int, of binding: Binding) throws(SynchronousStop) -> T {
        // The lookup, and its override rule, are the asynchronous path's (BindingTable.dependency).
        // The plan holds for an override only when it builds nothing (a value, a built
        // singleton) or comes from the plan's own table: then its depth and captive analysis
        // still hold. Anything else, and an unbound key, leave this path.
        guard let found = injector.table.unretainedDependency(position, of: binding) else {
            throw .mustSuspend
        }
        do {
            return try found._withUnsafeGuaranteedRef { dependency in
                guard
                    dependency.tableID == binding.tableID || dependency.producer.isInstance
                        || dependency.lifetime.staysBuilt
                else { throw SynchronousStop.mustSuspend }
                return try resolve(dependency, as: type)
            }
        } catch {
            throw .rethrown(error)
        }
    }

    /// `binding`'s value as a `T`, for a graph built in place: its own value, or for a ``Named``
    /// parameter its value wrapped (``Binding/named(_:as:)``).
    @inline(__always)
    func resolve<T: Sendable>(_ binding: Binding, as type: T.Type) throws(SynchronousStop) -> T {
        guard binding.produces(type) else { return try resolveNamed(binding, as: type) }
        do {
            return try binding.withUnretainedProducer(as: type) { try step(binding, producer: $0, .inPlace) }
        } catch {
            throw .rethrown(error)
        }
    }

    /// A ``Named`` parameter's value; a type mismatch gives way too, and the asynchronous path
    /// reports it with its path.
    func resolveNamed<T: Sendable>(_ binding: Binding, as type: T.Type) throws(SynchronousStop) -> T {
        guard binding.isNamed(type),
            let named = try binding.named(binding.producer.stepInPlace(self, binding), as: type)
        else { throw .mustSuspend }
        return named
    }
}
