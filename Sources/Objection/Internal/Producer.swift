/// The typed recipe for one binding's value.
///
/// Kept separate from ``Binding`` so that the untyped table can hold bindings of every type while
/// the resolution path recovers `T` with one class cast instead of an existential cast.
final class Producer<T: Sendable>: AnyProducer {
    enum Body: Sendable {
        /// A value the caller owns.
        case instance(T)
        /// A closure whose dependencies the injector cannot see until it runs.
        case opaque(@Sendable (Resolver) async throws -> T)
        /// A recipe whose dependencies are the binding's declared, linked keys.
        case declared(@Sendable (Resolver, Binding) async throws -> T)
    }

    let body: Body
    private let conformance: (@Sendable (any AnyProducer) -> Bool?)?

    /// - Parameter conformance: For aliases: whether the target's values are `T`s, or `nil` when
    ///   that cannot be known before one is built.
    init(_ body: Body, conformance: (@Sendable (any AnyProducer) -> Bool?)? = nil) {
        self.body = body
        self.conformance = conformance
    }

    func produce(_ resolver: Resolver, for binding: Binding) async throws -> T {
        switch body {
        case .instance(let value):
            return value
        case .declared(let recipe):
            return try await recipe(resolver, binding)
        case .opaque(let provider):
            // Published as the task's current frame so that a provider calling the injector
            // directly, rather than through its resolver, still extends this resolution path.
            let frame = resolver.frame
            defer { frame.finish() }
            return try await ResolutionFrame.$current.withValue(frame) { try await provider(resolver) }
        }
    }

    var instance: (any Sendable)? {
        if case .instance(let value) = body { return value }
        return nil
    }

    var producedType: any Any.Type { T.self }

    var isAlias: Bool { conformance != nil }

    func targetConforms(_ target: any AnyProducer) -> Bool? { conformance?(target) }

    func makeCell() -> any AnySingletonCell { SingletonCell<T>() }

    func resolve(in injector: InjectorActor, binding: Binding) async throws {
        _ = try await injector.resolve(binding, as: T.self, parent: nil)
    }
}

/// The type-erased face of ``Producer``, for the parts of the injector that do not know `T`.
protocol AnyProducer: Sendable {
    var instance: (any Sendable)? { get }
    var producedType: any Any.Type { get }
    /// Whether this producer resolves another bound key (`to(Concrete.self)`).
    var isAlias: Bool { get }
    /// For an alias, whether `target`'s values convert to this producer's type (`nil`: unknown).
    func targetConforms(_ target: any AnyProducer) -> Bool?
    func makeCell() -> any AnySingletonCell
    /// Resolves the binding and drops the value: used to build eager singletons.
    func resolve(in injector: InjectorActor, binding: Binding) async throws
}
