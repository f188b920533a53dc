public import Objection
public import Testing

/// A Swift Testing trait that runs a test with its own injector, optionally with overriding
/// modules, bound as the task-local ``Objection/InjectorActor/current`` injector.
///
/// Each test gets a fresh injector — its own singletons — and the binding is task-local, so tests
/// running in parallel never see each other's overrides. The injector is shut down when the test
/// ends.
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
        let root = try await InjectorActor(modules: modules)
        let injector = overrides.isEmpty ? root : try await root.child(modules: overrides)
        do {
            try await InjectorActor.withCurrent(injector) { try await function() }
        } catch {
            await injector.shutdown()
            await root.shutdown()
            throw error
        }
        await injector.shutdown()
        await root.shutdown()
    }
}

extension Trait where Self == InjectorTrait {
    /// Runs the test with a fresh injector built from `modules`, with `overrides` applied over
    /// them in a child injector, as the current injector.
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
