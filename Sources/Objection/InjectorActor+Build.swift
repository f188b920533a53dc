/// Building through a function chosen at the call: Objection's
/// `getObject:initializer:withArgumentList:`, typed.
extension InjectorActor {
    /// Builds a `T` with `function`, resolving each of its parameters by type, as an autowired
    /// binding would: nothing needs to be bound for `T` itself.
    ///
    /// ```swift
    /// let car = try await injector.build(ConfigurableCar.init(engine:wheels:))
    /// ```
    ///
    /// The value is transient: built for this call, cached nowhere, and a ``PropertyInjectable``
    /// value gets its properties and awake hook. A request scope builds with its own values.
    ///
    /// - Parameters:
    ///   - function: An initializer or function whose parameters are all resolved.
    ///   - fileID: Where the build is asked for, for errors; leave the default.
    ///   - line: Likewise.
    /// - Returns: The value `function` returned.
    /// - Throws: ``InjectionError`` naming the path through `T` (a parameter nothing binds, a
    ///   cycle, the depth limit, ``InjectionError/Code/shutDown``), or the error `function` or a
    ///   provider threw, unchanged.
    public nonisolated func build<T: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (repeat each Dependency) async throws -> T,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await run(AdHocBuild(function, location: .init(fileID: fileID, line: line)))
    }

    /// Builds a `T` with `function`, passing `a` as its first argument and resolving the others by
    /// type.
    ///
    /// ```swift
    /// // init(model: String, engine: Engine)
    /// let passat = try await injector.build(ConfigurableCar.init(model:engine:), given: "Passat")
    /// ```
    ///
    /// - Parameters:
    ///   - function: An initializer or function whose first parameter is given.
    ///   - a: The first argument.
    ///   - fileID: Where the build is asked for, for errors; leave the default.
    ///   - line: Likewise.
    /// - Returns: The value `function` returned.
    /// - Throws: Like ``build(_:fileID:line:)``.
    public nonisolated func build<T: Sendable, A: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, repeat each Dependency) async throws -> T,
        given a: A,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await run(AdHocBuild(function, given: a, location: .init(fileID: fileID, line: line)))
    }

    /// Builds a `T` with `function`, passing `a` and `b` as its first arguments and resolving the
    /// others by type.
    ///
    /// ```swift
    /// // init(make: String, model: String, engine: Engine)
    /// let car = try await injector.build(ConfigurableCar.init(make:model:engine:), given: "VW", "Passat")
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
    public nonisolated func build<T: Sendable, A: Sendable, B: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, B, repeat each Dependency) async throws -> T,
        given a: A,
        _ b: B,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await run(AdHocBuild(function, given: a, b, location: .init(fileID: fileID, line: line)))
    }

    /// Builds a `T` with `function`, passing `a`, `b` and `c` as its first arguments and resolving
    /// the others by type. For more given arguments, pass a closure that captures them to
    /// ``build(_:fileID:line:)``.
    ///
    /// ```swift
    /// // init(make: String, model: String, year: Int, engine: Engine)
    /// let car = try await injector.build(Car.init(make:model:year:engine:), given: "VW", "Passat", 2024)
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
    public nonisolated func build<T: Sendable, A: Sendable, B: Sendable, C: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, B, C, repeat each Dependency) async throws -> T,
        given a: A,
        _ b: B,
        _ c: C,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws -> T {
        try await run(AdHocBuild(function, given: a, b, c, location: .init(fileID: fileID, line: line)))
    }
}
