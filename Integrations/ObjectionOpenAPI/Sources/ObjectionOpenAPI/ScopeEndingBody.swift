import Logging
import Objection
import OpenAPIRuntime

/// A response body that keeps its operation's scope open until it has been written, and then
/// ends it with the operation's outcome (a failure for a `5xx` response).
///
/// `HTTPBody` tells nobody when it has been written, but every transport writes one by iterating
/// it to its end, so the wrapper ends the scope where the iteration does: when the base yields
/// `nil` (before the transport sends a chunked response's end), or with the base's error. A body
/// of known length is complete for the client once its last byte is out, so its scope ends when
/// the chunk holding that byte has been made, before it is handed to the transport. Each chunk is made with the scope as the task's current injector, as the handler
/// ran. The base's length and iteration behaviour are kept (a transport writes a body of known
/// length with a `content-length`).
///
/// A body never iterated (the answer to a `HEAD`, a body a later middleware dropped) ends its
/// scope with the operation's outcome when it is released; one whose iteration began and was given up (the
/// client left, the write failed) ends it with a failed outcome, a `CancellationError`, when the
/// transport releases it.
struct ScopeEndingBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let base: HTTPBody
    let scope: OpenScope
    /// How the operation ended: what the scope ends with once the body has been written.
    let outcome: ScopeOutcome
    let logger: Logger

    /// `body`, ending `scope` with `outcome` once written.
    static func wrap(_ body: HTTPBody, ending scope: OpenScope, after outcome: ScopeOutcome, logger: Logger) -> HTTPBody
    {
        // The operation returned a response: its outcome stands, should its body never be written.
        scope.endsWhenReleased(with: outcome)
        return HTTPBody(
            ScopeEndingBody(base: body, scope: scope, outcome: outcome, logger: logger),
            length: body.length,
            iterationBehavior: body.iterationBehavior
        )
    }

    func makeAsyncIterator() -> Iterator {
        var remaining: Int64?
        if case .known(let length) = base.length { remaining = length }
        return Iterator(
            base: base.makeAsyncIterator(), scope: scope, outcome: outcome, logger: logger, remaining: remaining)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let scope: OpenScope
        let outcome: ScopeOutcome
        let logger: Logger
        /// The bytes still to come of a body of known length.
        var remaining: Int64?
        var started = false

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            if !started {
                started = true
                // From here on, a body given up before its end was not written.
                scope.endsWhenReleased(with: .failed(CancellationError()))
            }
            // One iteration is driven by one task, a call at a time; the runtime's iterator is not
            // marked Sendable, so the compiler cannot see that handing it to the closure is safe.
            nonisolated(unsafe) var base = self.base
            defer { self.base = base }
            let chunk: HTTPBody.ByteChunk?
            do {
                chunk = try await InjectorActor.withCurrent(scope.injector) { try await base.next() }
            } catch {
                await ScopeEnding.end(scope, after: .failed(error), logger: logger)
                throw error
            }
            if let chunk, let remaining {
                self.remaining = remaining - Int64(chunk.count)
            }
            let lastByteMade = chunk == nil || remaining.map { $0 <= 0 } ?? false
            guard lastByteMade else { return chunk }
            if outcome.isSuccess {
                // A disposal that fails is thrown: the transport cuts the response short rather
                // than finishing it as if nothing had failed (a commit that failed).
                try await ScopeEnding.endAfterSuccess(scope, logger: logger)
            } else {
                await ScopeEnding.end(scope, after: outcome, logger: logger)
            }
            return chunk
        }
    }
}
