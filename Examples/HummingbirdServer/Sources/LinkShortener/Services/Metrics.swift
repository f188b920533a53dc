import NIOConcurrencyHelpers
import Objection

/// Process-wide counters: an eager singleton of the root injector, built at start-up.
///
/// `AsyncDisposable`: the injector disposes it at shutdown, after everything built later.
public final class Metrics: AsyncDisposable {
    /// The name under which it appears in the ``LifecycleLog``.
    public static let lifecycleName = "metrics"

    /// What is counted.
    public enum Counter: String, Sendable, CaseIterable {
        /// Links stored.
        case linksCreated
        /// Look-ups that found their link.
        case linksResolved
        /// Look-ups of unknown codes.
        case linksMissing
        /// Requests served by the hand-wired `/plain` routes.
        case plainRequests
        /// ``RequestAudit``s opened: one per request, whichever route.
        case auditsOpened
    }

    private let counts = NIOLockedValueBox<[Counter: Int]>([:])
    private let lifecycle: LifecycleLog

    /// Creates zeroed counters and records the construction.
    ///
    /// - Parameter lifecycle: Where construction and disposal are recorded.
    public init(lifecycle: LifecycleLog) {
        self.lifecycle = lifecycle
        lifecycle.record(.built(Self.lifecycleName))
    }

    /// Adds one to `counter`.
    ///
    /// - Parameter counter: The counter to increment.
    public func increment(_ counter: Counter) {
        counts.withLockedValue { $0[counter, default: 0] += 1 }
    }

    /// The current value of every counter.
    public func snapshot() -> [Counter: Int] {
        counts.withLockedValue { counts in
            Dictionary(uniqueKeysWithValues: Counter.allCases.map { ($0, counts[$0, default: 0]) })
        }
    }

    public func dispose() async throws {
        lifecycle.record(.disposed(Self.lifecycleName))
    }
}
