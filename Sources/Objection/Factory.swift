/// Builds a `T` on demand: Objection's `JSObjectFactory`, Swinject's `Provider`.
///
/// Every bound type has one: depend on `Factory<T>` (or `get(Factory<T>.self)`) without binding it.
/// Each call resolves `T` again, in `T`'s own scope — a new instance for a transient binding, the
/// one instance for a singleton — from the injector that created the factory (a request scope's
/// factory sees the request's values).
///
/// ```swift
/// final class ReportJob: Sendable {
///     let makeRenderer: Factory<Renderer>
///     init(makeRenderer: Factory<Renderer>) { self.makeRenderer = makeRenderer }
///
///     func run() async throws {
///         let renderer = try await makeRenderer()   // a new Renderer per run
///     }
/// }
/// ```
///
/// A factory resolves nothing until it is called, so it also breaks a construction cycle:
/// `A` may take a `Factory<B>` while `B` takes an `A`.
public struct Factory<T: Sendable>: Sendable {
    /// Holds the injector weakly, so that a singleton holding a factory does not keep its own
    /// injector alive.
    let objects: ObjectFactory
    let name: String?

    init(injector: InjectorActor, name: String?) {
        self.objects = ObjectFactory(injector: injector)
        self.name = name
    }

    /// Resolves a `T`.
    ///
    /// - Returns: A `T`, in its binding's scope.
    /// - Throws: Like ``InjectorActor/get(_:named:)``; ``InjectionError/Code/shutDown`` once the
    ///   injector that made the factory is gone.
    public func callAsFunction() async throws -> T {
        try await objects.get(T.self, named: name)
    }

    /// Resolves a `T`; the same as calling the factory.
    ///
    /// - Returns: A `T`, in its binding's scope.
    /// - Throws: Like ``InjectorActor/get(_:named:)``.
    public func get() async throws -> T {
        try await self()
    }
}

extension Factory: ResolutionHandle {
    static var target: any Any.Type { T.self }

    static func make(injector: InjectorActor, name: String?) -> Factory<T> {
        Factory(injector: injector, name: name)
    }
}
