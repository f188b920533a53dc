/// When an injector builds its eager singletons (and, in ``Stage/production``, every singleton),
/// and how long it may take.
///
/// By default they are built while the injector is created, without a deadline. A deadline turns
/// a construction that never finishes — a query to a database client whose `run()` has not
/// started — into an ``InjectionError/Code/timedOut`` error that names it. A deferred start
/// lets the services those singletons need run first: call ``InjectorActor/start(within:)``
/// once they do. Children and derived injectors take one too
/// (``InjectorActor/child(modules:startup:)``, ``InjectorActor/withModules(_:startup:)``,
/// ``InjectorActor/withoutModules(ofTypes:startup:)``); a request scope opened with modules builds
/// its eager singletons at once, without a deadline.
///
/// ```swift
/// let injector = try await InjectorActor(modules: [AppModule()], startup: .immediate(within: .seconds(10)))
///
/// let deferred = try await InjectorActor(modules: [AppModule()], startup: .deferred)
/// // … start the database client's run() …
/// try await deferred.start(within: .seconds(10))
/// ```
public struct Startup: Hashable, Sendable {
    /// Whether the injector's creation builds the singletons.
    let isDeferred: Bool
    /// How long creation may take to build them; `nil` for no deadline.
    let timeout: Duration?

    /// Built while the injector is created, with no deadline. The default.
    public static let immediate = Startup(isDeferred: false, timeout: nil)

    /// Built while the injector is created; creation fails with ``InjectionError/Code/timedOut``
    /// if they are not all built within `timeout`.
    ///
    /// - Parameter timeout: The deadline, from the start of their construction. A hundred years
    ///   or more is no deadline.
    /// - Returns: The startup policy.
    public static func immediate(within timeout: Duration) -> Startup {
        Startup(isDeferred: false, timeout: timeout)
    }

    /// Not built until ``InjectorActor/start(within:)`` is called (or each is first resolved).
    public static let deferred = Startup(isDeferred: true, timeout: nil)
}
