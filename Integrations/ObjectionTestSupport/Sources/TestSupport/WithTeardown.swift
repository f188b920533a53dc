/// Runs `body`, then `teardown` whether `body` threw or not, and returns what `body` returned: a
/// test server stopped, a connection closed, a schema dropped after the test, however it ended.
///
/// ```swift
/// let server = try await TestServer.start()
/// return try await withTeardown { try await body(server) } teardown: { try await server.stop() }
/// ```
///
/// - Parameters:
///   - body: The work.
///   - teardown: What must run after it.
/// - Returns: What `body` returns.
/// - Throws: What `teardown` throws; otherwise what `body` throws.
public func withTeardown<T>(
    _ body: () async throws -> T,
    teardown: () async throws -> Void
) async throws -> T {
    let outcome: Result<T, any Error>
    do {
        outcome = .success(try await body())
    } catch {
        outcome = .failure(error)
    }
    try await teardown()
    return try outcome.get()
}
