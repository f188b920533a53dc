public import Objection

/// An ``Objection/InjectionObserver`` that records every event it hears, in order, for a test to
/// read back.
///
/// Pass it to the injector under test, do the work, then look at ``events`` or at one of the
/// lists drawn from them: ``started``, ``built``, ``failures``, ``disposed`` and
/// ``resolutionFailures``. It is safe to share between tasks: each event is appended under a lock,
/// and reading takes a copy.
///
/// ```swift
/// @Test func buildsTheDatabaseOnce() async throws {
///     let observer = RecordingObserver()
///     let injector = try await InjectorActor(modules: [AppModule()], observer: observer)
///     _ = try await injector.get((any Database).self)
///     _ = try await injector.get((any Database).self)
///     #expect(observer.built == [BindingKey((any Database).self)])
///     #expect(observer.failures.isEmpty)
/// }
/// ```
///
/// It keeps keys, construction identities, durations and errors, never an instance that was
/// built: recording holds nothing alive past its injector's shutdown. An error is kept as it was
/// thrown; a provider's own error is whatever that provider put in it.
///
/// Like any observer, it hears cached instances only (singletons, scoped and custom-scoped ones);
/// transients are not reported. Request scopes are reported when it is made with
/// `observesScopes: true`.
public final class RecordingObserver: InjectionObserver {
    /// One event an injector reported, with what came with it.
    ///
    /// ```swift
    /// for event in observer.events {
    ///     if case .constructionFailed(let construction, _, let error) = event {
    ///         print("\(construction.key) failed: \(error)")
    ///     }
    /// }
    /// ```
    public enum Event: Sendable {
        /// A cached instance is about to be built.
        ///
        /// ```swift
        /// if case .constructionStarted(let construction) = event { print(construction.key) }
        /// ```
        case constructionStarted(ObservedConstruction)

        /// A cached instance was built, in `duration`, its dependencies included.
        ///
        /// ```swift
        /// if case .constructionFinished(let construction, let duration) = event { print(construction, duration) }
        /// ```
        case constructionFinished(ObservedConstruction, duration: Duration)

        /// Building a cached instance threw `error`; nothing was cached.
        ///
        /// ```swift
        /// if case .constructionFailed(let construction, _, let error) = event { print(construction, error) }
        /// ```
        case constructionFailed(ObservedConstruction, duration: Duration, error: any Error)

        /// An instance of a key was disposed, successfully when `error` is `nil`.
        ///
        /// ```swift
        /// if case .disposed(let key, _, let error?) = event { print("disposing \(key) threw \(error)") }
        /// ```
        case disposed(BindingKey, duration: Duration, error: (any Error)?)

        /// A `get` of a key threw `error` to its caller.
        ///
        /// ```swift
        /// if case .resolutionFailed(let key, let error) = event { print("get \(key): \(error)") }
        /// ```
        case resolutionFailed(BindingKey, error: any Error)

        /// A startup began, to build `singletons` singletons.
        ///
        /// ```swift
        /// if case .startupStarted(_, let singletons) = event { print("starting \(singletons) singletons") }
        /// ```
        case startupStarted(ObservedConstruction.ID, singletons: Int)

        /// A startup ended: every singleton was built when `error` is `nil`.
        ///
        /// ```swift
        /// if case .startupFinished(_, let duration, nil) = event { print("started in \(duration)") }
        /// ```
        case startupFinished(ObservedConstruction.ID, duration: Duration, error: (any Error)?)

        /// A request scope was opened.
        ///
        /// ```swift
        /// let opened = observer.events.filter { if case .scopeOpened = $0 { true } else { false } }.count
        /// ```
        case scopeOpened

        /// A request scope ended, its body having returned or thrown.
        ///
        /// ```swift
        /// if case .scopeEnded(let outcome) = event, !outcome.isSuccess { print("a request failed") }
        /// ```
        case scopeEnded(ScopeOutcome)

        /// A shutdown's drain ended, cut short at its deadline when `error` is not `nil`.
        ///
        /// ```swift
        /// if case .drained(_, let error?) = event { print("drain cut short: \(error)") }
        /// ```
        case drained(duration: Duration, error: InjectionError?)
    }

    private let recorded = EventLock<[Event]>([])

    /// Whether it asks for the events of request scopes, as given to ``init(observesSuccesses:observesScopes:)``.
    ///
    /// ```swift
    /// let observer = RecordingObserver(observesScopes: true)   // observer.observesScopes == true
    /// ```
    public let observesScopes: Bool

    /// Whether it asks for the events of work that succeeds, as given to
    /// ``init(observesSuccesses:observesScopes:)``.
    ///
    /// ```swift
    /// let failures = RecordingObserver(observesSuccesses: false)   // hears failures only
    /// ```
    public let observesSuccesses: Bool

    /// Makes an observer that has recorded nothing yet.
    ///
    /// ```swift
    /// let everything = RecordingObserver(observesScopes: true)
    /// let injector = try await InjectorActor(modules: [AppModule()], observer: everything)
    /// ```
    ///
    /// - Parameters:
    ///   - observesSuccesses: Whether the injector should report work that succeeds too (the
    ///     default), or failures only, as a failure log would ask.
    ///   - observesScopes: Whether the injector should report request scopes opening and ending;
    ///     `false` by default, as for any observer.
    public init(observesSuccesses: Bool = true, observesScopes: Bool = false) {
        self.observesSuccesses = observesSuccesses
        self.observesScopes = observesScopes
    }

    /// Every event heard so far, in the order heard.
    ///
    /// ```swift
    /// #expect(observer.events.count == 2)
    /// ```
    public var events: [Event] { recorded.withLock { $0 } }

    /// The keys whose construction started, in order; a key built twice is there twice.
    ///
    /// ```swift
    /// #expect(observer.started == [BindingKey(Cache.self)])
    /// ```
    public var started: [BindingKey] {
        events.compactMap { if case .constructionStarted(let construction) = $0 { construction.key } else { nil } }
    }

    /// The keys whose construction finished with an instance, in order.
    ///
    /// ```swift
    /// #expect(observer.built.filter { $0 == BindingKey(Cache.self) }.count == 1)
    /// ```
    public var built: [BindingKey] {
        events.compactMap {
            if case .constructionFinished(let construction, _) = $0 { construction.key } else { nil }
        }
    }

    /// The constructions that threw, in order: each one's key and error.
    ///
    /// ```swift
    /// #expect(observer.failures.map(\.key) == [BindingKey(Cache.self)])
    /// ```
    public var failures: [(key: BindingKey, error: any Error)] {
        events.compactMap {
            if case .constructionFailed(let construction, _, let error) = $0 { (construction.key, error) } else { nil }
        }
    }

    /// The keys whose instances were disposed, successfully or not, in order.
    ///
    /// ```swift
    /// await injector.shutdown()
    /// #expect(observer.disposed == [BindingKey(Cache.self), BindingKey((any Database).self)])
    /// ```
    public var disposed: [BindingKey] {
        events.compactMap { if case .disposed(let key, _, _) = $0 { key } else { nil } }
    }

    /// The `get`s that threw to their callers, in order: each one's key and error.
    ///
    /// ```swift
    /// _ = try? await injector.get(Cache.self, named: "spare")
    /// #expect(observer.resolutionFailures.map(\.key) == [BindingKey(Cache.self, named: "spare")])
    /// ```
    public var resolutionFailures: [(key: BindingKey, error: any Error)] {
        events.compactMap { if case .resolutionFailed(let key, let error) = $0 { (key, error) } else { nil } }
    }

    /// Forgets every event heard so far.
    ///
    /// ```swift
    /// _ = try await injector.get(Cache.self)   // warm up
    /// observer.removeAll()
    /// ```
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }

    private func record(_ event: Event) {
        recorded.withLock { $0.append(event) }
    }

    /// Records ``Event/constructionStarted(_:)``.
    ///
    /// ```swift
    /// observer.constructionStarted(construction)   // called by the injector
    /// ```
    ///
    /// - Parameter construction: The construction starting.
    public func constructionStarted(_ construction: ObservedConstruction) {
        record(.constructionStarted(construction))
    }

    /// Records ``Event/constructionFinished(_:duration:)``.
    ///
    /// ```swift
    /// observer.constructionFinished(construction, duration: .milliseconds(3))   // called by the injector
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction, as it was when it started.
    ///   - duration: How long its provider took, its dependencies included.
    public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        record(.constructionFinished(construction, duration: duration))
    }

    /// Records ``Event/constructionFailed(_:duration:error:)``.
    ///
    /// ```swift
    /// observer.constructionFailed(construction, duration: .zero, error: error)   // called by the injector
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction, as it was when it started.
    ///   - duration: How long the attempt took.
    ///   - error: The provider's error, or the `InjectionError` of a dependency.
    public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        record(.constructionFailed(construction, duration: duration, error: error))
    }

    /// Records ``Event/disposed(_:duration:error:)``.
    ///
    /// ```swift
    /// observer.disposed(BindingKey(Cache.self), duration: .zero, error: nil)   // called by the injector
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding whose instance was disposed.
    ///   - duration: How long its disposal took.
    ///   - error: What the disposal threw, if anything.
    public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
        record(.disposed(key, duration: duration, error: error))
    }

    /// Records ``Event/resolutionFailed(_:error:)``.
    ///
    /// ```swift
    /// observer.resolutionFailed(BindingKey(Cache.self), error: error)   // called by the injector
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the caller asked for.
    ///   - error: What the caller received.
    public func resolutionFailed(_ key: BindingKey, error: any Error) {
        record(.resolutionFailed(key, error: error))
    }

    /// Records ``Event/startupStarted(_:singletons:)``.
    ///
    /// ```swift
    /// observer.startupStarted(id, singletons: 3)   // called by the injector
    /// ```
    ///
    /// - Parameters:
    ///   - id: The startup's identity.
    ///   - singletons: How many singletons it builds.
    public func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
        record(.startupStarted(id, singletons: singletons))
    }

    /// Records ``Event/startupFinished(_:duration:error:)``.
    ///
    /// ```swift
    /// observer.startupFinished(id, duration: .milliseconds(12), error: nil)   // called by the injector
    /// ```
    ///
    /// - Parameters:
    ///   - id: The startup's identity.
    ///   - duration: How long it took.
    ///   - error: What ended it early, if anything.
    public func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
        record(.startupFinished(id, duration: duration, error: error))
    }

    /// Records ``Event/scopeOpened``.
    ///
    /// ```swift
    /// observer.scopeOpened()   // called by the injector
    /// ```
    public func scopeOpened() {
        record(.scopeOpened)
    }

    /// Records ``Event/scopeEnded(_:)``.
    ///
    /// ```swift
    /// observer.scopeEnded(.succeeded)   // called by the injector
    /// ```
    ///
    /// - Parameter outcome: How the scope's body ended.
    public func scopeEnded(_ outcome: ScopeOutcome) {
        record(.scopeEnded(outcome))
    }

    /// Records ``Event/drained(duration:error:)``.
    ///
    /// ```swift
    /// observer.drained(duration: .zero, error: nil)   // called by the injector
    /// ```
    ///
    /// - Parameters:
    ///   - duration: How long the drain waited.
    ///   - error: What was still open at its deadline, if it passed.
    public func drained(duration: Duration, error: InjectionError?) {
        record(.drained(duration: duration, error: error))
    }
}
