/// A type that declares how it is built, so that it resolves without any module binding
/// (Objection's automatic class registration and `objection_register_singleton`, Blindside's
/// `bsInitializer`).
///
/// ```swift
/// final class Car: Injectable {
///     let engine: Engine
///     let brakes: Brakes
///     init(engine: Engine, brakes: Brakes) { … }
///
///     static let injection = Injection(Car.init)              // dependencies by type
/// }
///
/// final class Garage: Injectable {
///     static let injection = Injection(Garage.init).asSingleton()
/// }
///
/// let car = try await injector.get(Car.self)   // no binding needed
/// ```
///
/// A binding for the same type in a module takes precedence. A just-in-time singleton belongs to
/// the root injector, so every child and request scope shares it; a just-in-time scoped type has
/// one instance per request scope. Property dependencies and the awake hook come from
/// ``PropertyInjectable``, which an `Injectable` class may adopt as well.
public protocol Injectable: Sendable {
    /// How the injector builds the type, and in which scope.
    static var injection: Injection<Self> { get }
}

/// How an ``Injectable`` type is built: its initializer or provider, and its scope.
public struct Injection<Object: Sendable>: Sendable {
    let scope: Scope
    let target: @Sendable (BindingBuilder<Object>) -> ScopedBindingBuilder<Object>

    private init(scope: Scope, target: @escaping @Sendable (BindingBuilder<Object>) -> ScopedBindingBuilder<Object>) {
        self.scope = scope
        self.target = target
    }

    /// Built by `initializer`, its parameters resolved by type.
    ///
    /// - Parameter initializer: Usually `Type.init`.
    public init<each Dependency: Sendable>(_ initializer: @escaping @Sendable (repeat each Dependency) throws -> Object)
    {
        self.init(scope: .transient) { $0.to(initializer) }
    }

    /// Built by an `async` initializer or function, its parameters resolved by type.
    ///
    /// - Parameter initializer: An `async` (and possibly throwing) function building the type.
    public init<each Dependency: Sendable>(
        _ initializer: @escaping @Sendable (repeat each Dependency) async throws -> Object
    ) {
        self.init(scope: .transient) { $0.to(initializer) }
    }

    /// Built by a provider closure. The type declares its own construction, so a
    /// ``PropertyInjectable`` type still gets its properties and awake hook after the provider
    /// returns.
    ///
    /// - Parameter provider: Builds one value, resolving its dependencies through the resolver.
    public init(provider: @escaping @Sendable (Resolver) async throws -> Object) {
        // The type declares its own construction, so its injected properties are set on what the
        // provider returns, as after an initializer.
        self.init(scope: .transient) { $0.setTarget(Recipe.opaque(provider), constructs: true) }
    }

    /// The same declaration in `scope`.
    ///
    /// - Parameter scope: The lifetime of the instances.
    /// - Returns: The declaration.
    public func inScope(_ scope: Scope) -> Injection {
        Injection(scope: scope, target: target)
    }

    /// The same declaration as a singleton (Objection's `objection_register_singleton`).
    ///
    /// - Returns: The declaration.
    public func asSingleton() -> Injection {
        inScope(.singleton)
    }

    /// Declares the binding on `binder`.
    func declare(on binder: Binder) {
        declare(on: binder.bind(Object.self))
    }

    /// Sets the declared construction and scope on `builder`.
    @discardableResult
    func declare(on builder: BindingBuilder<Object>) -> ScopedBindingBuilder<Object> {
        target(builder).inScope(scope)
    }
}
