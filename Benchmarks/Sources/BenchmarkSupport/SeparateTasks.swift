/// Runs `body` on `count` unstructured tasks at once, waits for every one of them in the order they
/// were created, then throws the first error, if any.
///
/// Not a task group, for the stampedes: Swift 6.3's runtime removes each finished child from its
/// group's list by walking the list (`swift::TaskGroup::removeChildTask`), so thousands of children
/// that finish out of order — as the waiters of a stampede do, all resumed at once — cost the group
/// quadratic time. Under callgrind it was 57 % of the instructions of a 16,000-waiter stampede of
/// Objection and 81 % of one awaiting a shared `Task`, and it swamped the waiting being measured.
@concurrent
public func inSeparateTasks(_ count: Int, _ body: @escaping @Sendable () async throws -> Void) async throws {
    var tasks: [Task<Void, any Error>] = []
    tasks.reserveCapacity(count)
    for _ in 0..<count { tasks.append(Task { try await body() }) }
    var failure: (any Error)?
    for task in tasks {
        do { try await task.value } catch { failure = failure ?? error }
    }
    if let failure { throw failure }
}
