public import Objection
public import Testing

/// A Swift Testing trait that runs a test with its own injector, optionally with overriding
/// modules, bound as the task-local ``Objection/InjectorActor/current`` injector.
///
/// Each test gets a fresh injector — its own singletons — and the binding is task-local, so tests
/// running in parallel never see each other's overrides. The overriding modules are configured
/// after the application's, so they replace its bindings key by key everywhere, including the
/// dependencies of its singletons. The injector is shut down when the test ends.
///
/// ```swift
/// @Test(.injector(modules: [AppModule()], overriding: [InMemoryDatabaseModule()]))
/// func placesAnOrder() async throws {
///     let handler = try await #require(InjectorActor.current).get(PlaceOrderHandler.self)
///     …
/// }
/// ```
public struct InjectorTrait: TestTrait, TestScoping {
    let modules: [any Module]
    let overrides: [any Module]

    /// Builds the test's injector, binds it as current for the test, and shuts it down after.
    ///
    /// - Parameters:
    ///   - test: The test being run.
    ///   - testCase: The test case being run, for a parameterized test.
    ///   - function: The test.
    /// - Throws: What the injector's creation or the test throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // One injector, the overrides configured last: they replace the application's bindings
        // key by key everywhere, also in the singletons that depend on them.
        let injector = try await InjectorActor(modules: modules + overrides)
        let result: Result<Void, any Error>
        do {
            result = .success(try await InjectorActor.withCurrent(injector) { try await function() })
        } catch {
            result = .failure(error)
        }
        await injector.shutdown()
        try result.get()
    }
}

extension Trait where Self == InjectorTrait {
    /// Runs the test with a fresh injector built from `modules`, then `overrides` (the later
    /// module wins for each key), as the current injector.
    ///
    /// ```swift
    /// @Test(.injector(modules: [AppModule()], overriding: [FakeClockModule()]))
    /// func expiresSessions() async throws { … }
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The application's modules.
    ///   - overrides: The test's replacements, applied over `modules`.
    /// - Returns: The trait.
    public static func injector(modules: [any Module], overriding overrides: [any Module] = []) -> Self {
        InjectorTrait(modules: modules, overrides: overrides)
    }
}
