import Synchronization

/// One construction of a cached instance, as an ``InjectionObserver`` hears of it: what is built,
/// when it started, its identity, and the identity of what needed it.
///
/// Every construction of a singleton, scoped or custom-scoped instance gets an ``id`` no other
/// construction or startup of the process has. ``parentID`` names the construction whose provider
/// asked for this one — across tasks, since a singleton is built in a task of its own — or, for
/// the singletons a startup builds, that startup (``InjectionObserver/startupStarted(_:singletons:)``).
/// It is `nil` for a construction asked for from outside any construction (a request handler's
/// `get`), and when the observer does not ``InjectionObserver/observesSuccesses``: the injector
/// keeps identities only for an observer that hears constructions start.
///
/// ```swift
/// struct Tree: InjectionObserver {
///     let logger: Logger
///     func constructionStarted(_ construction: ObservedConstruction) {
///         logger.debug("\(construction.id) \(construction.key) under \(construction.parentID?.description ?? "-")")
///     }
/// }
/// ```
public struct ObservedConstruction: Sendable, Hashable, CustomStringConvertible {
    /// The identity of a construction or of a startup, unique in the process.
    ///
    /// ```swift
    /// var spans: [ObservedConstruction.ID: Span] = [:]
    /// spans[construction.id] = span
    /// ```
    public struct ID: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The number behind the identity: 1, 2, 3, … in the order identities were handed out.
        ///
        /// ```swift
        /// span.attributes["objection.construction"] = Int(construction.id.rawValue)
        /// ```
        public let rawValue: UInt64

        /// The identity numbered `rawValue`.
        ///
        /// ```swift
        /// let id = ObservedConstruction.ID(rawValue: 7)
        /// ```
        ///
        /// - Parameter rawValue: Its number.
        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// `#` and the number: `#7`.
        ///
        /// ```swift
        /// print(construction.id)   // #7
        /// ```
        public var description: String { "#\(rawValue)" }

        /// Orders identities as they were handed out.
        ///
        /// ```swift
        /// let first = ids.min()
        /// ```
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

        private static let counter = Atomic<UInt64>(0)

        /// A new identity; only ever asked for on behalf of an observer.
        static func next() -> ID {
            ID(rawValue: counter.add(1, ordering: .relaxed).newValue)
        }
    }

    /// This construction's identity.
    ///
    /// ```swift
    /// open[construction.id] = span
    /// ```
    public let id: ID

    /// The binding being built.
    ///
    /// ```swift
    /// span.attributes["objection.key"] = construction.key.description
    /// ```
    public var key: BindingKey { subject.key }

    /// The instance's lifetime: ``Scope/singleton``, ``Scope/scoped`` or a custom scope.
    ///
    /// ```swift
    /// span.attributes["objection.scope"] = construction.scope.description
    /// ```
    public var scope: Scope { subject.scope }

    /// The construction, or the startup, that needed this one; `nil` for a construction asked
    /// for from outside any (see the type's discussion).
    ///
    /// ```swift
    /// let parentSpan = construction.parentID.flatMap { open[$0] }
    /// ```
    public let parentID: ID?

    /// When the construction started. A construction built without suspending is reported when
    /// its `get` returns; this is when it really started.
    ///
    /// ```swift
    /// let startedAgo = ContinuousClock.now - construction.start
    /// ```
    public var start: ContinuousClock.Instant { ObservationClock.instant(at: startOffset) }

    /// ``start`` as the observation path keeps it (see `ObservationClock`).
    let startOffset: Duration

    /// ``key`` and ``scope``, shared by reference: the binding's own, made with it, so that making
    /// and copying a construction is one retain, not one per string and closure they hold.
    private let subject: ObservedSubject

    /// Describes a construction to observe.
    ///
    /// ```swift
    /// let construction = ObservedConstruction(
    ///     id: ObservedConstruction.ID(rawValue: 1), key: BindingKey(Database.self),
    ///     scope: .singleton, parentID: nil, start: .now)
    /// ```
    ///
    /// - Parameters:
    ///   - id: Its identity.
    ///   - key: The binding being built.
    ///   - scope: Its lifetime.
    ///   - parentID: What needed it, if known.
    ///   - start: When it started.
    public init(id: ID, key: BindingKey, scope: Scope, parentID: ID?, start: ContinuousClock.Instant) {
        self.init(
            id: id, subject: ObservedSubject(key: key, scope: scope), parentID: parentID,
            startOffset: start - ObservationClock.origin)
    }

    /// A construction of `subject` that started at `startOffset` (see `ObservationClock`).
    init(id: ID, subject: ObservedSubject, parentID: ID?, startOffset: Duration) {
        self.id = id
        self.subject = subject
        self.parentID = parentID
        self.startOffset = startOffset
    }

    /// Whether two describe the same construction: identity, key, scope, parent and start.
    ///
    /// ```swift
    /// #expect(finished.construction == started.construction)
    /// ```
    public static func == (lhs: ObservedConstruction, rhs: ObservedConstruction) -> Bool {
        lhs.id == rhs.id && lhs.key == rhs.key && lhs.scope == rhs.scope && lhs.parentID == rhs.parentID
            && lhs.startOffset == rhs.startOffset
    }

    /// Hashes what `==` compares.
    ///
    /// ```swift
    /// var seen: Set<ObservedConstruction> = []
    /// seen.insert(construction)
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(key)
        hasher.combine(scope)
        hasher.combine(parentID)
        hasher.combine(startOffset)
    }

    /// The identity, key and scope: `#7 Database (singleton)`.
    ///
    /// ```swift
    /// logger.debug("built \(construction)")
    /// ```
    public var description: String { "\(id) \(key) (\(scope))" }
}
