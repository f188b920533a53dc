import Logging
import NIOCore
import Objection
import Synchronization
import Vapor

/// The request scope a scope middleware opened, which one streamed body may keep open until it
/// has ended. Vapor writes a streamed body after the middleware chain has returned, in a task of
/// its own, and shows a middleware no way into a body it did not make; so the body is made to
/// keep the scope (``Vapor/Response/Body/init(keepingScopeOf:count:_:)``), and the middleware
/// leaves a kept scope open.
final class ScopeKeeper: Sendable {
    let scope: OpenScope
    private let kept = Atomic<Bool>(false)

    init(_ scope: OpenScope) {
        self.scope = scope
    }

    /// Whether a body keeps the scope.
    var isKept: Bool { kept.load(ordering: .acquiring) }

    /// Keeps the scope for one body: `true` for the first caller only.
    func keep() -> Bool {
        !kept.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// Where the scope middleware leaves its ``ScopeKeeper`` for the handler's body.
struct ScopeKeeperKey: StorageKey {
    typealias Value = ScopeKeeper
}

extension Response.Body {
    /// A streamed body that keeps the request's scope open until it has ended, so that it may use
    /// the request's scoped instances to its last byte: they are disposed once the stream has
    /// returned — before its end is sent, so that a client holding the whole response finds them
    /// disposed — or after it threw (the client gone, say), with that error as the outcome.
    ///
    /// Like `Response.Body(managedAsyncStream:count:)`: write the buffers, and return or throw;
    /// the end, or the error, is written for you. Outside a scope middleware's chain it is just
    /// that. A scope's disposal that fails once the head has been sent is logged, and the stream
    /// ends in that error rather than as if nothing had failed. A body Vapor never writes (the
    /// answer to a `HEAD`, a `204`) ends the scope when it is released.
    ///
    /// ```swift
    /// app.grouped(ObjectionScopeMiddleware(injector)).get("export") { req async throws -> Response in
    ///     let rows = try await req.resolve(RowCursor.self)   // scoped: a transaction's cursor
    ///     return Response(body: .init(keepingScopeOf: req) { writer in
    ///         for try await row in rows { try await writer.writeBuffer(row.csv) }
    ///     })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request whose scope the body keeps.
    ///   - count: The body's length, if known; `-1` for a chunked body.
    ///   - stream: Writes the body.
    public init(
        keepingScopeOf request: Request,
        count: Int = -1,
        _ stream: @escaping @Sendable (any AsyncBodyStreamWriter) async throws -> Void
    ) {
        guard let keeper = request.storage[ScopeKeeperKey.self], keeper.keep() else {
            self.init(managedAsyncStream: stream, count: count)
            return
        }
        let (scope, logger) = (keeper.scope, request.logger)
        self.init(
            asyncStream: { writer in
                do {
                    try await stream(writer)
                } catch {
                    await Self.end(scope, after: .failed(error), logger: logger)
                    try await writer.write(.error(error))
                    return
                }
                do {
                    try await scope.end(.succeeded)
                } catch {
                    logger.error(
                        "A disposal of the request scope failed after its streamed response; the response is cut short",
                        metadata: ["error": .string(String(describing: error))]
                    )
                    try await writer.write(.error(error))
                    return
                }
                try await writer.write(.end)
            },
            count: count
        )
    }

    /// Ends `scope` after its stream failed; a disposal's failure is logged.
    private static func end(_ scope: OpenScope, after outcome: ScopeOutcome, logger: Logger) async {
        do {
            try await scope.end(outcome)
        } catch {
            logger.error(
                "A disposal of the request scope failed after its streamed response failed",
                metadata: ["error": .string(String(describing: error))]
            )
        }
    }
}
