/// An untyped object factory that every injector provides: the type is chosen at the call
/// (Objection's `JSObjectFactory` and `getObject:withArgumentList:`).
///
/// Depend on it, or `get` it, without binding it. It resolves from the injector that provided it
/// (a request scope's factory sees the request's values), and holds that injector weakly.
///
/// ```swift
/// final class ReportRunner: Sendable {
///     let objects: ObjectFactory
///     init(objects: ObjectFactory) { self.objects = objects }
///
///     func run(kind: String) async throws {
///         let renderer = try await objects.get((any Renderer).self, named: kind)
///         let car = try await objects.get(ConfigurableCar.self, arguments: "VW", "Passat")
///     }
/// }
/// ```
public struct ObjectFactory: Sendable {
    private weak let owner: InjectorActor?

    init(injector: InjectorActor) {
        self.owner = injector
    }

    func injector(for key: BindingKey) throws(InjectionError) -> InjectorActor {
        guard let owner else { throw .shutDown(isScope: false, key: key) }
        return owner
    }

    /// The injector, unless it is gone or has begun shutting down.
    func runningInjector(for key: BindingKey) throws(InjectionError) -> InjectorActor {
        let injector = try injector(for: key)
        guard !injector.isShutDown else { throw .shutDown(isScope: injector.isScope, key: key) }
        return injector
    }

    /// Resolves `type`, optionally named, in its binding's scope.
    ///
    /// - Parameters:
    ///   - type: The type to build.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The instance.
    /// - Throws: Like ``InjectorActor/get(_:named:)``; ``InjectionError/Code/shutDown`` once the
    ///   injector that made the factory is gone.
    public func get<T: Sendable>(_ type: T.Type, named name: String? = nil) async throws -> T {
        try await injector(for: BindingKey(type, named: name)).get(type, named: name)
    }

    /// Resolves `type` from a binding that takes runtime arguments, passing `arguments`.
    ///
    /// - Parameters:
    ///   - type: The type to build.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    ///   - first: The first runtime argument.
    ///   - rest: The other runtime arguments, in the order the binding declares them.
    /// - Returns: The instance the binding's scope dictates: for a transient binding, a new one
    ///   built from the arguments.
    /// - Throws: Like ``InjectorActor/get(_:named:arguments:_:)``.
    public func get<T: Sendable, First: Sendable, each Argument: Sendable>(
        _ type: T.Type,
        named name: String? = nil,
        arguments first: First,
        _ rest: repeat each Argument
    ) async throws -> T {
        try await injector(for: BindingKey(type, named: name)).get(
            type, named: name, arguments: first, repeat each rest)
    }
}
