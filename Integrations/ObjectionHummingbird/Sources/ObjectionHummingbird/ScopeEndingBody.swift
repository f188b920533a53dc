import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Objection

/// A streamed response body that keeps its request scope open until it has been written.
///
/// The scope ends when the body finishes the response (before the end is sent, so that a client
/// holding the whole response finds the scope ended), when the body returns without finishing,
/// or with the write's error when writing fails (the client gone) — or, when the request's
/// connection is known, with a closed-channel error when it closed before the body finishes. A
/// written body ends the scope with the response's outcome: failed, with a
/// ``Objection/ServerErrorStatus``, for a `5xx`. The
/// body is written with the scope as the task's current injector. If the server never writes the
/// body, the scope is ended with `unwritten` when the body is released: that outcome for a `HEAD`
/// (or a `204`, a `304`), failed for any other, whose client left before the head was sent; a
/// disposal that fails then is logged.
enum ScopeEndingBody {
    /// `body`, ending `scope` with `outcome` once written, or with `unwritten` if released unwritten.
    static func wrap(
        _ body: ResponseBody,
        ending scope: OpenScope,
        after outcome: ScopeOutcome,
        unwritten: ScopeOutcome,
        connection: (any Channel)?,
        logger: Logger
    ) -> ResponseBody {
        scope.endsWhenReleased(with: unwritten) { log($0, logger: logger) }
        return ResponseBody(contentLength: body.contentLength) { writer in
            do {
                // In the scope, as the handler ran: `InjectorActor.current` is the request's.
                try await InjectorActor.withCurrent(scope.injector) {
                    try await body.write(
                        Writer(base: writer, scope: scope, outcome: outcome, connection: connection, logger: logger))
                }
            } catch {
                await endAfterFailure(scope, error: error, logger: logger)
                // Hummingbird logs what a body throws: only what may be shown of it leaves here,
                // since a provider's error may carry a connection string or a token.
                throw LoggableError.shown(error)
            }
            // A body that returned without finishing the response (which it must do): ended here.
            try await endAfterWriting(scope, outcome: outcome, logger: logger)
        }
    }

    /// Ends `scope` after a written body (``Objection/OpenScope/endAfterResponse(_:log:)``): a
    /// disposal's failure is logged, and after a success thrown, so that the response is not
    /// finished as if nothing had failed. Does nothing once it has ended.
    nonisolated(nonsending) static func endAfterWriting(_ scope: OpenScope, outcome: ScopeOutcome, logger: Logger)
        async throws
    {
        try await scope.endAfterResponse(outcome) { log($0, logger: logger) }
    }

    /// Ends `scope` after a failed write; a disposal's failure is logged, and the write's error
    /// stays the one thrown.
    nonisolated(nonsending) static func endAfterFailure(_ scope: OpenScope, error: any Error, logger: Logger) async {
        await scope.endAfterFailure(error) { log($0, logger: logger) }
    }

    /// Logs a disposal that failed as the scope ended.
    static func log(_ failure: ResponseDisposalFailure, logger: Logger) {
        logger.error("\(failure.message)", metadata: loggedMetadata(of: failure.error))
    }

    /// A body's writer that ends the scope before it finishes the response.
    ///
    /// `@unchecked Sendable`: the server hands it to one body, which writes with it from one task,
    /// the connection's, in order; it crosses into `withCurrent`'s closure only to be used there.
    struct Writer: ResponseBodyWriter, @unchecked Sendable {
        var base: any ResponseBodyWriter
        let scope: OpenScope
        let outcome: ScopeOutcome
        /// The request's connection, when known: closed before the end, the client left.
        let connection: (any Channel)?
        let logger: Logger

        mutating func write(_ buffer: ByteBuffer) async throws {
            try await base.write(buffer)
        }

        mutating func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
            try await base.write(contentsOf: buffers)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
            // A client that left while the body waited between writes is seen here, or never:
            // the end, which would tell, is written after the disposals.
            if let connection, !connection.isActive {
                // Ended here, not left to the body's error: a body that swallows it still fails.
                await ScopeEndingBody.endAfterFailure(scope, error: ChannelError.ioOnClosedChannel, logger: logger)
                throw ChannelError.ioOnClosedChannel
            }
            try await ScopeEndingBody.endAfterWriting(scope, outcome: outcome, logger: logger)
            try await base.finish(trailingHeaders)
        }
    }
}
