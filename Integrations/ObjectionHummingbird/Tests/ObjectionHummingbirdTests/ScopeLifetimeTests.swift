import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import Objection
import ObjectionHummingbird
import ServerFixtures
import Testing

/// One request scope per request: scoped instances are built once in it and disposed when the
/// response is produced, whatever the handler did.
@Suite("Scope lifetime")
struct ScopeLifetimeTests {
    @Test("A scoped instance is built once per request and differs across requests")
    func onePerRequest() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("work") { _, context -> String in
                let first = try await context.resolve(RequestWork.self)
                let second = try await context.resolve(RequestWork.self)
                return "\(first.serial) \(first === second)"
            }
        }
        try await app.test(.router) { client in
            let one = try await client.execute(uri: "/scoped/work", method: .get)
            let two = try await client.execute(uri: "/scoped/work", method: .get)
            #expect(one.text == "1 true")
            #expect(two.text == "2 true")
        }
    }

    @Test("The scope disposes what it built by the time the response arrives")
    func disposedAtTheEndOfEachRequest() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("work") { _, context -> String in
                let work = try await context.resolve(RequestWork.self)
                return "\(work.serial)"
            }
        }
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/scoped/work", method: .get)
            #expect(test.ledger.disposed.map(\.serial) == [1])
            _ = try await client.execute(uri: "/scoped/work", method: .get)
            #expect(test.ledger.disposed.map(\.serial) == [1, 2])
        }
    }

    @Test("The scope disposes what it built when the handler throws", arguments: [true, false])
    func disposedWhenTheHandlerThrows(throwsHTTPError: Bool) async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("work") { _, context -> String in
                _ = try await context.resolve(RequestWork.self)
                if throwsHTTPError { throw HTTPError(.conflict, message: "Busy") }
                throw VaultSealedError()
            }
        }
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/scoped/work", method: .get)
            #expect(response.status == (throwsHTTPError ? .conflict : .internalServerError))
            #expect(test.ledger.disposed.map(\.serial) == [1])
        }
    }

    @Test("A disposal that fails turns the response into the opaque 500, logged")
    func failedDisposal() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("commit") { _, context -> String in
                _ = try await context.resolve(UncommittableWork.self)
                return "committed"
            }
        }
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/scoped/commit", method: .get)
            #expect(response.status == .internalServerError)
            #expect(!response.text.contains("committed"))
            #expect(!response.text.contains("CommitFailed"))
        }
        let logged = try #require(test.logs.entries(at: .error).first)
        #expect(logged.metadata["error"]?.description.contains("CommitFailed") == true)
    }

    @Test("A 5xx response reaches the client unchanged; the disposals are told it failed", arguments: [false, true])
    func serverErrorResponse(streamed: Bool) async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("busy") { _, context -> Response in
                _ = try await context.resolve(RequestWork.self)
                let body =
                    streamed
                    ? ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: "busy"))
                        try await writer.finish(nil)
                    }
                    : ResponseBody(byteBuffer: ByteBuffer(string: "busy"))
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "5"], body: body)
            }
            scoped.get("fine") { _, context -> String in
                _ = try await context.resolve(RequestWork.self)
                return "fine"
            }
        }
        try await app.test(.router) { client in
            let busy = try await client.execute(uri: "/scoped/busy", method: .get)
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.text == "busy")
            #expect(busy.headers[.retryAfter] == "5")
            let failed = try #require(test.ledger.disposed.first?.error as? ServerErrorStatus)
            #expect(failed.status == .serviceUnavailable)
            #expect(failed.description == "503 Service Unavailable")
            _ = try await client.execute(uri: "/scoped/fine", method: .get)
            #expect(test.ledger.disposed.count == 2)
            #expect(test.ledger.disposed.last?.error == nil)
        }
    }

    @Test("A disposal that fails after the handler threw is logged; the client gets the handler's error")
    func failedDisposalAfterThrow() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("conflict") { _, context -> String in
                _ = try await context.resolve(UncommittableWork.self)
                throw HTTPError(.conflict, message: "Busy")
            }
        }
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/scoped/conflict", method: .get)
            #expect(response.status == .conflict)
        }
        let logged = try #require(test.logs.entries(at: .error).first)
        #expect(logged.message.contains("after its response failed"))
        #expect(logged.metadata["error"]?.description.contains("CommitFailed") == true)
    }

    @Test(
        "A HEAD answered with a streamed 5xx: its body is never written, and its scope ends failed",
        .timeLimit(.minutes(1))
    )
    func headOfServerErrorResponse() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            // Hummingbird routes a HEAD only to a HEAD route.
            scoped.head("busy") { _, context -> Response in
                _ = try await context.resolve(RequestWork.self)
                let body = ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "busy"))
                    try await writer.finish(nil)
                }
                return Response(status: .serviceUnavailable, body: body)
            }
        }
        try await app.test(.live) { client in
            let head = try await client.execute(uri: "/scoped/busy", method: .head)
            #expect(head.status == .serviceUnavailable)
            #expect(head.body.readableBytes == 0)
        }
        // Ended when the unwritten body is released, or once written: waited for, not raced.
        var disposals = test.ledger.disposals.makeAsyncIterator()
        let disposal = try #require(await disposals.next())
        #expect((disposal.error as? ServerErrorStatus)?.status == .serviceUnavailable)
        #expect(test.ledger.disposed.count == 1)
    }
}
