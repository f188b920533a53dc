/// A ``LinkStore`` in memory: an actor, one per process (a singleton of the root injector).
///
/// Bound with an `onDispose` hook that calls ``close()``, so the injector closes it at shutdown.
public actor InMemoryLinkStore: LinkStore {
    /// The name under which it appears in the ``LifecycleLog``.
    public static let lifecycleName = "link-store"

    private var links: [String: Link] = [:]
    private var isClosed = false
    private let lifecycle: LifecycleLog

    /// Creates an empty store and records its construction.
    ///
    /// - Parameter lifecycle: Where construction and closing are recorded.
    public init(lifecycle: LifecycleLog) {
        self.lifecycle = lifecycle
        lifecycle.record(.built(Self.lifecycleName))
    }

    public func insert(_ link: Link) throws -> Bool {
        guard !isClosed else { throw LinkStoreClosed() }
        guard links[link.code] == nil else { return false }
        links[link.code] = link
        return true
    }

    public func find(code: String) throws -> Link? {
        guard !isClosed else { throw LinkStoreClosed() }
        return links[code]
    }

    public func count() -> Int {
        links.count
    }

    /// Closes the store: later reads and writes throw ``LinkStoreClosed``. Records the closing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        lifecycle.record(.disposed(Self.lifecycleName))
    }
}
