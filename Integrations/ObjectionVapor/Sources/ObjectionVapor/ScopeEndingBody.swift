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
    /// How many kept bodies exist: none, or one (``keep()`` refuses a second while one does).
    private let bodies = Atomic<Int>(0)

    /// How the request ended, for the kept stream to end the scope with: a `5xx` response's
    /// failure, once the handler has returned.
    private let ending = Mutex(ScopeOutcome.succeeded)

    init(_ scope: OpenScope) {
        self.scope = scope
    }

    /// The outcome the kept stream ends the scope with.
    var outcome: ScopeOutcome {
        get { ending.withLock { $0 } }
        set { ending.withLock { $0 = newValue } }
    }

    /// Whether a body keeps the scope and still exists: it is in the response, or the handler
    /// holds it. A kept body the handler made and dropped keeps nothing.
    var isKeptByABody: Bool { bodies.load(ordering: .acquiring) > 0 }

    /// Keeps the scope for one body, unless another kept body exists: the body's stream holds
    /// what this returns, and its release is seen by ``isKeptByABody``. A handler may drop a
    /// kept body and make another.
    func keep() -> BodyHold? {
        bodies.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
            ? BodyHold(keeper: self) : nil
    }

    /// What the request's log says of a kept body made while another exists, which keeps nothing.
    static let secondBodyWarning =
        "A second body keeping the request's scope was made while the first exists: it does not "
        + "keep the scope, whose scoped instances may be disposed before it is written"

    /// Held by the kept body's stream: its release, when the stream is, tells the keeper.
    final class BodyHold: Sendable {
        let keeper: ScopeKeeper

        init(keeper: ScopeKeeper) {
            self.keeper = keeper
        }

        deinit {
            keeper.bodies.subtract(1, ordering: .releasing)
        }
    }
}

/// Where the scope middleware leaves its ``ScopeKeeper``: the request's scope, for
/// ``Vapor/Request/requestScope``, and what keeps it for the handler's body.
struct ScopeKeeperKey: StorageKey {
    typealias Value = ScopeKeeper
}

extension Response.Body {
    /// A streamed body that keeps the request's scope open until it has ended, so that it may use
    /// the request's scoped instances to its last byte: they are disposed once the stream has
    /// returned — before its end is sent, so that a client holding the whole response finds them
    /// disposed — or after it threw (the client gone, say), with that error as the outcome. A client
    /// that left while the stream waited between writes is found by one more write, of nothing,
    /// before the scope ends: the scope then ends failed with the connection's error.
    ///
    /// Like `Response.Body(managedAsyncStream:count:)`: write the buffers, and return or throw;
    /// the end, or the error, is written for you. Outside a scope middleware's chain it is just
    /// that. A scope's disposal that fails once the head has been sent is logged, and the stream
    /// ends in that error rather than as if nothing had failed. A stream that writes fewer or more
    /// bytes than `count` ends the scope failed with `ResponseLengthMismatch`, before its last
    /// buffer is sent: Vapor cuts such a response, so its work must not commit. The body of a
    /// `5xx` response ends it as a failure once written.
    ///
    /// A body released unwritten ends the scope when it is released: as the handler's response
    /// did when that response has no body to send (the answer to a `HEAD`, a `204`, a `304`),
    /// else failed, rolled back — a middleware answered with another response, or the server
    /// gave the body up (``Objection/ScopeOutcome/ifReleasedUnwritten(isHead:code:)``).
    /// A kept body the handler made and dropped, returning another response, keeps nothing: the
    /// scope ends as if it had never been made, and the handler may make another. One kept body
    /// keeps the scope at a time: one made while another still exists keeps nothing, and says so
    /// in a `warning` to the request's logger. A kept body
    /// belongs to its response: one handed to another task that outlives the handler counts
    /// as kept, and its release unwritten ends the scope failed.
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
        let keeper = request.storage[ScopeKeeperKey.self]
        guard let keeper, let hold = keeper.keep() else {
            if keeper != nil {
                // Another kept body of this request still exists: only one keeps the scope.
                request.logger.warning("\(ScopeKeeper.secondBodyWarning)")
            }
            self.init(managedAsyncStream: stream, count: count)
            return
        }
        let logger = request.logger
        let scope = keeper.scope
        self.init(
            asyncStream: { writer in
                // Held as long as the stream is: the middleware sees a body the handler dropped.
                withExtendedLifetime(hold) {}
                // With a known length, the last buffer is held back until the scope has ended: it
                // completes the response on the wire, and `.end` sends nothing. A chunked body's
                // buffers go out as written, so that a stream writing to a client that has left
                // fails, and its scope with it; its end is the terminating chunk.
                let holding = HoldingWriter(base: writer, holdsLast: count >= 0)
                let log = { (failure: ResponseDisposalFailure) in logDisposalFailure(failure, to: logger) }
                do {
                    // In the scope, as the handler ran: `InjectorActor.current` is the request's,
                    // and so is `req.requestScope` (the middleware restored the enclosing one when
                    // it returned, before Vapor writes the body).
                    let enclosing = request.storage[ScopeKeeperKey.self]
                    request.storage[ScopeKeeperKey.self] = keeper
                    defer { request.storage[ScopeKeeperKey.self] = enclosing }
                    try await InjectorActor.withCurrent(scope.injector) { try await stream(holding) }
                    // A stream that wrote its own `.error` failed as one that throws.
                    if let written = holding.writtenError { throw written }
                    // Short of, or past, its declared length, the response is cut: Vapor fails it.
                    if count >= 0, holding.bytesWritten != count {
                        throw ResponseLengthMismatch(declared: Int64(count))
                    }
                    // A response whose head Vapor could not write, or whose client has left, must
                    // not commit as answered.
                    try await holding.confirmWritable()
                } catch {
                    // The buffer held back is dropped: with a known length it would complete the
                    // response of a stream that failed.
                    await scope.endAfterFailure(error, log: log)
                    try await writer.write(.error(error))
                    return
                }
                if let failure = keeper.outcome.error {
                    // A `5xx` response: written whole, its scope ended failed.
                    await scope.endAfterFailure(failure, log: log)
                } else {
                    do {
                        try await scope.endAfterResponse(log: log)
                    } catch {
                        try await writer.write(.error(error))
                        return
                    }
                }
                try await holding.flush()
                try await writer.write(.end)
            },
            count: count
        )
    }
}

/// A stream's writer that holds back the last buffer written, until ``flush()``, when the body's
/// length is known: so that the response is not complete on the wire before its scope has
/// ended. (A chunked body is complete only at its end, so its buffers are written as they come,
/// and a client that has left fails the stream's next write.) It never ends the response
/// itself: the kept stream's wrapper writes the end, or the error, once the scope has ended — a
/// stream's own `.end` is dropped, and its own `.error` is kept for the wrapper
/// (``writtenError``), which ends the scope failed with it.
final class HoldingWriter: AsyncBodyStreamWriter {
    private let base: any AsyncBodyStreamWriter
    private let holdsLast: Bool
    private let state = Mutex<(held: ByteBuffer?, error: (any Error)?, bytes: Int)>((nil, nil, 0))

    init(base: any AsyncBodyStreamWriter, holdsLast: Bool) {
        self.base = base
        self.holdsLast = holdsLast
    }

    /// The error the stream wrote (`.error`), if any: the first.
    var writtenError: (any Error)? { state.withLock { $0.error } }

    /// The bytes of every buffer the stream wrote, the one held back included.
    var bytesWritten: Int { state.withLock { $0.bytes } }

    func write(_ result: BodyStreamResult) async throws {
        switch result {
        case .buffer(let buffer):
            // Counted, then written at once, or held in place of the one held before, written now.
            let due = state.withLock { state -> ByteBuffer? in
                state.bytes += buffer.readableBytes
                defer { if holdsLast { state.held = buffer } }
                return holdsLast ? state.held : buffer
            }
            if let due { try await base.write(.buffer(due)) }
        case .end:
            break
        case .error(let error):
            state.withLock { state in if state.error == nil { state.error = error } }
        }
    }

    /// Throws what the base writer throws now, by writing it an empty buffer (a chunked body
    /// frames no empty chunk): whether the response can still reach its client, asked before the
    /// scope ends. When Vapor cannot write a response's head, it runs the body against a writer
    /// that fails every write; and a client that left while the stream waited between writes (an
    /// event stream, a long poll) is told by no write the stream made — the connection, closed,
    /// fails this one.
    func confirmWritable() async throws {
        try await base.write(.buffer(ByteBuffer()))
    }

    /// Writes the buffer held back, if any.
    func flush() async throws {
        if let last = state.withLock({ state in
            defer { state.held = nil }; return state.held
        }) {
            try await base.write(.buffer(last))
        }
    }
}
