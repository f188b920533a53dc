import Objection
import Synchronization

/// What one request did, and whether its transaction was to commit.
public struct JournalEntry: Sendable, Hashable, Codable {
    /// The request's id.
    public var requestID: String
    /// The teller the request acted for.
    public var teller: String
    /// What the request did, in order.
    public var events: [String]
    /// `true` when the request's work succeeded (its transaction commits), `false` when it threw
    /// (its transaction rolls back).
    public var succeeded: Bool

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - requestID: The request's id.
    ///   - teller: The teller the request acted for.
    ///   - events: What the request did, in order.
    ///   - succeeded: Whether its work succeeded.
    public init(requestID: String, teller: String, events: [String], succeeded: Bool) {
        self.requestID = requestID
        self.teller = teller
        self.events = events
        self.succeeded = succeeded
    }
}

/// The journal of every request: a singleton of the root injector into which each request's
/// ``RequestJournal`` writes its entry when its scope ends.
///
/// `AsyncDisposable`: the injector disposes it at shutdown, and it refuses entries afterwards.
public final class Journal: AsyncDisposable {
    /// The name under which it appears in the ``LifecycleLog``.
    public static let lifecycleName = "journal"

    private struct State {
        var succeeded = 0
        var failed = 0
        var recent: [JournalEntry] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    private let retention: Int
    private let lifecycle: LifecycleLog

    /// Creates an empty journal and records the construction.
    ///
    /// - Parameters:
    ///   - config: Says how many entries to keep for ``recentEntries``.
    ///   - lifecycle: Where construction and disposal are recorded.
    public init(config: AppConfig, lifecycle: LifecycleLog) {
        self.retention = max(0, config.journalRetention)
        self.lifecycle = lifecycle
        lifecycle.record(.built(Self.lifecycleName))
    }

    /// Adds a request's entry; the oldest is forgotten past the retention.
    ///
    /// - Parameter entry: What the request did.
    /// - Returns: `false` if the journal is already disposed; the entry is dropped then.
    @discardableResult
    public func append(_ entry: JournalEntry) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            if entry.succeeded { state.succeeded += 1 } else { state.failed += 1 }
            state.recent.append(entry)
            // Amortised: the window is trimmed once it has doubled.
            if state.recent.count > 2 * retention { state.recent.removeFirst(state.recent.count - retention) }
            return true
        }
    }

    /// How many entries were written by requests whose work succeeded, and by those whose work
    /// failed.
    public var counts: (succeeded: Int, failed: Int) {
        state.withLock { ($0.succeeded, $0.failed) }
    }

    /// The latest entries, oldest first, at most `AppConfig.journalRetention` of them.
    public var recentEntries: [JournalEntry] {
        state.withLock { Array($0.recent.suffix(retention)) }
    }

    public func dispose() async throws {
        state.withLock { $0.isClosed = true }
        lifecycle.record(.disposed(Self.lifecycleName))
    }
}
