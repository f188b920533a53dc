/// How many connections the test servers of one process may open together, so that suites running
/// in parallel stay under the database's `max_connections`: a server takes its share before it
/// starts and gives it back once its connections are gone; the others wait their turn, first come,
/// first served.
///
/// ``TestDatabase/withSchema(reservingConnections:creatingSchema:_:)`` takes and gives back the
/// database's own budget; use one directly for anything else that holds connections.
public actor ConnectionBudget {
    private var available: Int
    private var queue: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a budget of `total` connections.
    public init(total: Int) {
        self.available = total
    }

    /// How many connections are free now.
    public var free: Int { available }

    /// How many requests wait for their connections now.
    public var waiting: Int { queue.count }

    /// Takes `count` connections, once they are free and every earlier request is served.
    ///
    /// - Parameter count: How many; at most the total, or it waits for ever.
    public func acquire(_ count: Int) async {
        if queue.isEmpty, count <= available {
            available -= count
            return
        }
        await withCheckedContinuation { queue.append((count, $0)) }
    }

    /// Gives back `count` connections taken with ``acquire(_:)``.
    public func release(_ count: Int) {
        available += count
        // First come, first served: a large request is not starved by small ones.
        while let first = queue.first, first.count <= available {
            available -= first.count
            queue.removeFirst()
            first.continuation.resume()
        }
    }
}
