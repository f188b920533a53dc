import Synchronization

/// A record of when the service's singletons are built and disposed, so that the order the
/// injector follows at shutdown can be seen (printed by the server on exit, checked by the tests).
///
/// Bound with `toInstance`: the caller owns it, so the injector never disposes it and it can be
/// read after the injector has shut down.
///
/// ```swift
/// let lifecycle = LifecycleLog()
/// let injector = try await InjectorActor(
///     modules: [AppModule(settings: settings, lifecycle: lifecycle, logger: logger)], startup: .deferred)
/// …
/// print(lifecycle.events)   // [built postgres-client, built notes-database, disposed notes-database, …]
/// ```
public final class LifecycleLog: Sendable {
    /// One step in a singleton's life.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The named singleton was constructed.
        case built(String)
        /// The named singleton released its resources.
        case disposed(String)

        public var description: String {
            switch self {
            case .built(let name): "built \(name)"
            case .disposed(let name): "disposed \(name)"
            }
        }
    }

    /// The name under which the database client appears.
    public static let postgresClient = "postgres-client"
    /// The name under which ``NotesDatabase`` appears.
    public static let notesDatabase = "notes-database"

    private let storage = Mutex<[Event]>([])

    /// Creates an empty log.
    public init() {}

    /// Appends `event`.
    ///
    /// - Parameter event: What happened.
    public func record(_ event: Event) {
        storage.withLock { $0.append(event) }
    }

    /// Every event so far, oldest first.
    public var events: [Event] {
        storage.withLock { $0 }
    }

    /// The names of the singletons disposed so far, in order of disposal.
    public var disposed: [String] {
        events.compactMap { if case .disposed(let name) = $0 { name } else { nil } }
    }
}
