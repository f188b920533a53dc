import NIOConcurrencyHelpers

/// A record of when the service's singletons are built and disposed, so that the order the
/// injector follows at shutdown can be seen (printed by the server on exit, checked by the tests).
///
/// Bound with `toInstance`: the caller owns it, so the injector never disposes it and it can be
/// read after ``InjectorActor/shutdown()``.
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

    // A pthread-based lock rather than `Synchronization.Mutex`: on Linux the thread sanitizer does not
    // see `Mutex` hand the state over (its contended path is in the uninstrumented standard
    // library) and reports the state it guards as racing. The same holds for the other locks here.
    private let storage = NIOLockedValueBox<[Event]>([])

    /// The name under which the database client appears.
    public static let postgresClient = "postgres-client"

    /// Creates an empty log.
    public init() {}

    /// Appends `event`.
    ///
    /// - Parameter event: What happened.
    public func record(_ event: Event) {
        storage.withLockedValue { $0.append(event) }
    }

    /// Every event so far, oldest first.
    public var events: [Event] {
        storage.withLockedValue { $0 }
    }

    /// The names of the singletons built so far, in order of construction.
    public var built: [String] {
        events.compactMap { if case .built(let name) = $0 { name } else { nil } }
    }

    /// The names of the singletons disposed so far, in order of disposal.
    public var disposed: [String] {
        events.compactMap { if case .disposed(let name) = $0 { name } else { nil } }
    }
}
