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
///
/// ### On a suite
///
/// Applied to a suite, the trait is recursive: it reaches every test in the suite and in its
/// nested suites, and each of them — each argument of a parameterized test, too — gets its own
/// fresh injector, built before that test and shut down after it. No injector spans the suite, so
/// no singleton's state leaks from one test into another, and the suite's tests can still run in
/// parallel.
///
/// ```swift
/// @Suite(.injector(modules: [AppModule()], overriding: [InMemoryDatabaseModule()]))
/// struct OrderTests {
///     @Test func placesAnOrder() async throws { … }   // its own injector
///     @Test func cancelsAnOrder() async throws { … }  // another one
/// }
/// ```
///
/// When a test is reached by more than one `.injector` trait — its suite's and its own — the one
/// closest to the test is current while it runs; the others' injectors are still built and shut
/// down around it.
///
/// ### Disposal failures
///
/// When a `dispose()` or `onDispose` hook throws as the injector shuts down, the trait records
/// the error as an issue of the test, at the test's source location, so the test fails. An error
/// the test itself threw is still thrown after the disposal issues are recorded; neither hides the
/// other.
public struct InjectorTrait: TestTrait, SuiteTrait, TestScoping {
    let modules: [any Module]
    let overrides: [any Module]

    /// `true`: a suite's trait applies to each test in it, with a fresh injector per test.
    public var isRecursive: Bool { true }

    /// Builds the test's injector, binds it as current for the test, and shuts it down after,
    /// recording each failed disposal as an issue.
    ///
    /// The testing library calls this once per test case; for a suite it does not call it at all,
    /// because the trait is recursive. Called for a suite anyway, it runs `function` unchanged.
    ///
    /// - Parameters:
    ///   - test: The test being run.
    ///   - testCase: The test case being run.
    ///   - function: The test.
    /// - Throws: What the injector's creation or the test throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // An injector around a whole suite would share its singletons among the suite's tests.
        guard !test.isSuite else { return try await function() }
        // One injector, the overrides configured last: they replace the application's bindings
        // key by key everywhere, also in the singletons that depend on them.
        let injector = try await InjectorActor(modules: modules + overrides)
        let result: Result<Void, any Error>
        do {
            result = .success(try await InjectorActor.withCurrent(injector) { try await function() })
        } catch {
            result = .failure(error)
        }
        if let failure = await injector.shutdown() {
            record(failure, of: test)
        }
        try result.get()
    }

    /// Records one issue per failed disposal, with the disposal's own error, so a test author sees
    /// (and `withKnownIssue` can match) the error their `dispose()` threw.
    private func record(_ failure: InjectionError, of test: Test) {
        let problems = failure.problems.isEmpty ? [failure] : failure.problems
        for problem in problems {
            Issue.record(
                problem.underlying ?? problem,
                Comment(rawValue: problem.message),
                sourceLocation: test.sourceLocation
            )
        }
    }
}

extension Trait where Self == InjectorTrait {
    /// Runs the test — or, on a suite, each of its tests — with a fresh injector built from
    /// `modules`, then `overrides` (the later module wins for each key), as the current injector.
    ///
    /// ```swift
    /// @Test(.injector(modules: [AppModule()], overriding: [FakeClockModule()]))
    /// func expiresSessions() async throws { … }
    ///
    /// @Suite(.injector(modules: [AppModule()], overriding: [FakeClockModule()]))
    /// struct SessionTests { … }  // a fresh injector for each test
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
