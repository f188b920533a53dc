import HTTPTypes
import Objection
import ObjectionOpenAPI
import OpenAPIRuntime
import ServerFixtures
import TestSupport

/// The tests' `APIProtocol`: each handler resolves from the request's scope, the task's current
/// injector, as an application's do.
struct TestAPI: APIProtocol {
    /// Passed by the streamed body after its first chunk, when a test holds it there.
    var streaming: Gate?
    /// Records each chunk of a streamed body as it is made.
    var events = EventLog()

    struct NoScope: Error {}

    /// What a body throws at its `failAt` chunk.
    struct StreamBroke: Error {}

    /// An error that says how it is answered: `404`.
    struct NotFound: Error, HTTPResponseConvertible {
        var httpStatus: HTTPResponse.Status { .notFound }
    }

    static func scope() throws -> InjectorActor {
        guard let scope = InjectorActor.currentScope else { throw NoScope() }
        return scope
    }

    func getWork(_ input: Operations.GetWork.Input) async throws -> Operations.GetWork.Output {
        let scope = try Self.scope()
        let work = try await scope.get(RequestWork.self)
        // The request's head, bound by the middleware.
        let path = try await scope.get(HTTPRequest.self).path ?? ""
        return .ok(.init(body: .json(.init(serial: work.serial, operation: work.label, path: path))))
    }

    func getStream(_ input: Operations.GetStream.Input) async throws -> Operations.GetStream.Output {
        let work = try await Self.scope().get(RequestWork.self)
        let failAt = input.query.failAt
        let chunks = Chunks(count: input.query.count, gate: streaming) { [events] index in
            if index == failAt { throw StreamBroke() }
            // Made in the request's scope, as the handler ran, after the handler returned.
            let inScope = InjectorActor.currentScope != nil
            events.record("chunk \(index) \(work.state)\(inScope ? "" : " outside the scope")")
            return ArraySlice("\(index):\(work.state)\n".utf8)
        }
        let length = input.query.declaredLength.map { HTTPBody.Length.known(Int64($0)) } ?? .unknown
        return .ok(.init(body: .binary(HTTPBody(chunks, length: length, iterationBehavior: .single))))
    }

    func getFailure(_ input: Operations.GetFailure.Input) async throws -> Operations.GetFailure.Output {
        let scope = try Self.scope()
        _ = try await scope.get(RequestWork.self)
        switch input.path.kind {
        case "unbound": _ = try await scope.get(SecretPaymentGateway.self)
        case "provider": _ = try await scope.get(SealedVault.self)
        case "not-found": throw NotFound()
        case "unavailable": return .serviceUnavailable(.init(body: .plainText("try later")))
        case "uncommittable": _ = try await scope.get(UncommittableWork.self)
        default: break
        }
        return .ok(.init(body: .plainText("no failure")))
    }
}

/// `count` chunks (without end when `count` is 0), each made by `make` when asked for; after the
/// first, it passes `gate` when given one.
struct Chunks: AsyncSequence, Sendable {
    let count: Int
    let gate: Gate?
    let make: @Sendable (Int) throws -> ArraySlice<UInt8>

    struct AsyncIterator: AsyncIteratorProtocol {
        var index = 0
        let count: Int
        let gate: Gate?
        let make: @Sendable (Int) throws -> ArraySlice<UInt8>

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard count == 0 || index < count else { return nil }
            index += 1
            if index == 2, let gate { await gate.pass() }
            return try make(index)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, gate: gate, make: make) }
}
