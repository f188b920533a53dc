import Logging
import Objection
import OpenAPIRuntime

/// A response body that keeps its operation's scope open while it is made, and then ends it with
/// the operation's outcome (a failure for a `5xx` response).
///
/// `HTTPBody` tells nobody when it has been written, but every transport writes one by iterating
/// it to its end, so the wrapper ends the scope where the iteration ends. A body of unknown length
/// ends it when the base yields `nil`, before the transport sends the chunked response's end. A
/// body of known length is complete for the client once its last byte is out, so its scope ends
/// once the chunk holding that byte has been made, before it is handed to the transport. Each
/// chunk is made with the scope as the task's current injector, as the handler ran. The base's
/// length and iteration behaviour are kept (a transport writes a body of known length with a
/// `content-length`).
///
/// It ends the scope failed, and throws, when the base throws, when it ends short of its declared
/// length or runs past it, and when the iterating task was cancelled (a stream that answers
/// cancellation with `nil` has not been written whole). A body whose iteration began and was
/// given up (the client left, the write failed) ends the scope failed, with a `CancellationError`,
/// when the transport releases it; one never iterated ends it with what the middleware decided
/// (the operation's outcome for a `HEAD`, a `204` or a `304`, whose bodies are not sent).
struct ScopeEndingBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let base: HTTPBody
    let scope: OpenScope
    /// How the operation ended: what the scope ends with once the body has been made.
    let outcome: ScopeOutcome
    let log: OperationLog

    /// `body`, ending `scope` with `outcome` once made; with `unwritten` if the transport releases
    /// it without iterating it.
    static func wrap(
        _ body: HTTPBody,
        ending scope: OpenScope,
        after outcome: ScopeOutcome,
        unwritten: ScopeOutcome,
        log: OperationLog
    ) -> HTTPBody {
        ScopeEnding.endWhenReleased(scope, with: unwritten, log: log)
        return HTTPBody(
            ScopeEndingBody(base: body, scope: scope, outcome: outcome, log: log),
            length: body.length,
            iterationBehavior: body.iterationBehavior
        )
    }

    func makeAsyncIterator() -> Iterator {
        var declared: Int64?
        if case .known(let length) = base.length { declared = length }
        return Iterator(
            base: base.makeAsyncIterator(),
            scope: scope,
            outcome: outcome,
            log: log,
            declared: declared
        )
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let scope: OpenScope
        let outcome: ScopeOutcome
        let log: OperationLog
        /// The length the body declared, if it did.
        let declared: Int64?
        /// The bytes made so far.
        var made: Int64 = 0
        var started = false

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            if !started {
                started = true
                // From here on, a body given up before its end was not written.
                // The log given when the body was wrapped stays.
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
                try await fail(with: error)
            }
            made += Int64(chunk?.count ?? 0)
            if let declared, made > declared || (chunk == nil && made < declared) {
                try await fail(with: ResponseLengthMismatch(declared: declared))
            }
            if chunk == nil, Task.isCancelled {
                try await fail(with: CancellationError())
            }
            guard chunk == nil || made == declared else { return chunk }
            // A disposal that fails after a success is thrown: the transport cuts the response
            // short rather than finishing it as if nothing had failed.
            try await ScopeEnding.end(scope, with: outcome, log: log)
            return chunk
        }

        /// Ends the scope after `error` (nothing if it has ended), then throws what the transport
        /// may see of it: a cancellation as it is; any other error as ``Objection/LoggableError``,
        /// since transports log what a body throws, and a provider's error may carry a
        /// connection string or a token in its description.
        private func fail(with error: any Error) async throws -> Never {
            await ScopeEnding.end(scope, afterFailure: error, log: log)
            throw LoggableError.shown(error)
        }
    }
}
