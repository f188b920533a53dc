/// Building through a function chosen at the call, from the factory (Objection's
/// `[factory getObject:initializer:withArgumentList:]`): each method is the injector's
/// ``InjectorActor/build(_:fileID:line:)`` overload of the same shape, run by the injector that
/// made the factory.
extension ObjectFactory {
    /// Builds a `T` with `function`, resolving each of its parameters by type.
    ///
    /// ```swift
    /// let car = try await objects.build(ConfigurableCar.init(engine:wheels:))
    /// ```
    ///
    /// - Parameters:
    ///   - function: An initializer or function whose parameters are all resolved.
    ///   - fileID: Where the build is asked for, for errors; leave the default.
    ///   - line: Likewise.
    /// - Returns: The value `function` returned.
    /// - Throws: Like ``InjectorActor/build(_:fileID:line:)``; ``InjectionError/Code/shutDown``
    ///   once the injector that made the factory is gone.
    public func build<T: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (repeat each Dependency) async throws -> T,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await injector(for: BindingKey(T.self)).build(function, fileID: fileID, line: line)
    }

    /// Builds a `T` with `function`, passing `a` first and resolving the other parameters.
    ///
    /// ```swift
    /// let passat = try await objects.build(ConfigurableCar.init(model:engine:), given: "Passat")
    /// ```
    ///
    /// - Parameters:
    ///   - function: An initializer or function whose first parameter is given.
    ///   - a: The first argument.
    ///   - fileID: Where the build is asked for, for errors; leave the default.
    ///   - line: Likewise.
    /// - Returns: The value `function` returned.
    /// - Throws: Like ``build(_:fileID:line:)``.
    public func build<T: Sendable, A: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, repeat each Dependency) async throws -> T,
        given a: A,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await injector(for: BindingKey(T.self)).build(function, given: a, fileID: fileID, line: line)
    }

    /// Builds a `T` with `function`, passing `a` and `b` first and resolving the other parameters.
    ///
    /// ```swift
    /// let car = try await objects.build(ConfigurableCar.init(make:model:engine:), given: "VW", "Passat")
    /// ```
    ///
    /// - Parameters:
    ///   - function: An initializer or function whose first two parameters are given.
    ///   - a: The first argument.
    ///   - b: The second argument.
    ///   - fileID: Where the build is asked for, for errors; leave the default.
    ///   - line: Likewise.
    /// - Returns: The value `function` returned.
    /// - Throws: Like ``build(_:fileID:line:)``.
    public func build<T: Sendable, A: Sendable, B: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, B, repeat each Dependency) async throws -> T,
        given a: A,
        _ b: B,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await injector(for: BindingKey(T.self)).build(function, given: a, b, fileID: fileID, line: line)
    }

    /// Builds a `T` with `function`, passing `a`, `b` and `c` first and resolving the other
    /// parameters.
    ///
    /// ```swift
    /// let car = try await objects.build(Car.init(make:model:year:engine:), given: "VW", "Passat", 2024)
    /// ```
    ///
    /// - Parameters:
    ///   - function: An initializer or function whose first three parameters are given.
    ///   - a: The first argument.
    ///   - b: The second argument.
    ///   - c: The third argument.
    ///   - fileID: Where the build is asked for, for errors; leave the default.
    ///   - line: Likewise.
    /// - Returns: The value `function` returned.
    /// - Throws: Like ``build(_:fileID:line:)``.
    public func build<T: Sendable, A: Sendable, B: Sendable, C: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, B, C, repeat each Dependency) async throws -> T,
        given a: A,
        _ b: B,
        _ c: C,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await injector(for: BindingKey(T.self)).build(function, given: a, b, c, fileID: fileID, line: line)
    }
}
