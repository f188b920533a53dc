import AsyncHTTPClient
import Logging
import NIOCore
import Objection
import ObjectionOpenAPI
import OpenAPIRuntime
import ServerFixtures
import TestSupport
import Testing

/// One scope per operation, alive until its response has been written, under both transports
/// over real sockets.
@Suite("Scope per operation", .timeLimit(.minutes(1)))
struct ScopeLifetimeTests {
    static func middleware(_ injector: InjectorActor) -> ObjectionOpenAPIMiddleware {
        ObjectionOpenAPIMiddleware(injector, logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    @Test("200 concurrent operations: 200 scopes, each disposed once, after a success", arguments: Transport.allCases)
    func concurrentOperations(transport: Transport) async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let answers = try await transport.serve(TestAPI(), middlewares: [Self.middleware(injector)]) { port in
            try await withHTTPClient(connections: 16) { client in
                try await withThrowingTaskGroup(of: (status: Int, text: String).self) { group in
                    for _ in 0..<200 { group.addTask { try await client.get(port: port, "/work") } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
        }
        #expect(answers.allSatisfy { $0.status == 200 })
        #expect(Set(answers.map(\.text)).count == 200, "each request saw a unit of work of its own")
        #expect(answers.allSatisfy { $0.text.contains("getWork") && $0.text.contains("/work") })
        let disposed = ledger.disposed
        #expect(ledger.built == 200)
        #expect(disposed.count == 200)
        #expect(Set(disposed.map(\.serial)) == Set(1...200))
        #expect(disposed.allSatisfy { $0.error == nil && $0.label == "getWork" })
        await injector.shutdown()
    }

    @Test(
        "A streamed body reads the scoped instance in every chunk, the last included; the scope ends after it",
        arguments: Transport.allCases
    )
    func streamedBodyKeepsTheScope(transport: Transport) async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let streaming = Gate()
        let api = TestAPI(streaming: streaming)
        let text = try await transport.serve(api, middlewares: [Self.middleware(injector)]) { port in
            try await withHTTPClient { client in
                let response = try await client.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)/stream?count=3"),
                    timeout: .seconds(30)
                )
                // The handler has returned and the body is under way, held after its first chunk:
                // the scope must still be open.
                await streaming.waitForArrivals(1)
                #expect(ledger.disposed.isEmpty, "the scope ended before its body was written")
                streaming.open()
                return String(buffer: try await response.body.collect(upTo: 1 << 16))
            }
        }
        #expect(text == "1:alive\n2:alive\n3:alive\n")
        #expect(api.events.all == ["chunk 1 alive", "chunk 2 alive", "chunk 3 alive"])
        #expect(ledger.disposed.count == 1)
        #expect(ledger.disposed.first?.error == nil)
        await injector.shutdown()
    }

    @Test(
        "A body that throws, or runs short of its declared length, ends its scope failed, once",
        arguments: Transport.allCases
    )
    func brokenBodies(transport: Transport) async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        try await transport.serve(TestAPI(), middlewares: [Self.middleware(injector)]) { port in
            try await withHTTPClient { client in
                // Each chunk is "n:alive\n", 8 bytes: 3 make 24, short of the 40 declared.
                let short = try? await client.get(port: port, "/stream?count=3&declaredLength=40")
                #expect(short == nil, "a response short of its content-length reached the client whole")
                let broken = try? await client.get(port: port, "/stream?count=3&failAt=2")
                #expect(broken?.text != "1:alive\n2:alive\n3:alive\n")
                // Known length, made whole: a success.
                let whole = try await client.get(port: port, "/stream?count=3&declaredLength=24")
                #expect(whole.text == "1:alive\n2:alive\n3:alive\n")
            }
        }
        let errors = ledger.disposed.map(\.error)
        #expect(errors.count == 3)
        #expect(errors.contains { "\($0.map { "\($0)" } ?? "")".contains("did not have the 40 bytes") })
        #expect(errors.contains { $0 is TestAPI.StreamBroke })
        #expect(errors.contains { $0 == nil })
        await injector.shutdown()
    }

    @Test("A client that leaves mid-body: the scope is disposed once, after a failure", arguments: Transport.allCases)
    func clientLeavesMidBody(transport: Transport) async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let streaming = Gate()
        // count 0: a body without end, which only the client's leaving stops.
        let api = TestAPI(streaming: streaming)
        let disposal = try await transport.serve(api, middlewares: [Self.middleware(injector)]) { port in
            let connection = try RawConnection(port: port)
            try connection.send("GET /stream?count=0 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            await streaming.waitForArrivals(1)
            connection.close()
            streaming.open()
            var disposals = ledger.disposals.makeAsyncIterator()
            return await disposals.next()
        }
        #expect(disposal?.error is CancellationError, "disposed after a success, or not at all")
        #expect(ledger.disposed.count == 1)
        await injector.shutdown()
    }
}
