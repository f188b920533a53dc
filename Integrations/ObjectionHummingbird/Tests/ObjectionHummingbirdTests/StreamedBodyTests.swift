import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import NIOCore
import Objection
import ObjectionHummingbird
import Synchronization
import TestSupport
import Testing

/// A streamed response body keeps its request scope open until it has been written: every chunk,
/// the last included, reads the request's scoped instance, which is disposed once, after it — with
/// a failed outcome when the client leaves mid-stream.
@Suite("Streamed bodies", .timeLimit(.minutes(1)))
struct StreamedBodyTests {
    struct StreamModule: Module {
        let events: EventLog

        func configure(_ binder: Binder) {
            binder.bind(DisposalProbe.self).to { _ in DisposalProbe() }.inScope(.scoped).onDispose {
                [events] probe, outcome in
                probe.dispose()
                events.record(outcome.isSuccess ? "disposed" : "disposed after a failure")
            }
        }
    }

    static func application(
        _ injector: InjectorActor,
        logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
        route: @escaping @Sendable (Request, BasicInjectingRequestContext) async throws -> Response
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicInjectingRequestContext.self)
        router.group("scoped").add(middleware: ObjectionScopeMiddleware(injector)).get("stream", use: route)
        return Application(router: router, logger: logger)
    }

    /// An application whose `/scoped/stream` route answers with a body written by `write`, given
    /// the request's probe.
    static func streaming(
        _ injector: InjectorActor,
        write: @escaping @Sendable (DisposalProbe, inout any ResponseBodyWriter) async throws -> Void
    ) -> some ApplicationProtocol {
        application(injector) { _, context in
            let probe = try await context.resolve(DisposalProbe.self)
            return Response(status: .ok, body: ResponseBody { writer in try await write(probe, &writer) })
        }
    }

    @Test(
        "Every chunk of a streamed body reads the scoped instance, the last included; it is disposed after",
        arguments: [TestingSetup.router, .live]
    )
    func scopeLivesUntilTheLastChunk(setup: TestingSetup) async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        let app = Self.application(injector) { _, context in
            let probe = try await context.resolve(DisposalProbe.self)
            // Each chunk made as it is written, after the handler returned.
            let chunks = Chunks(count: 3) { index in
                // Written in the request's scope: the task's current one, as in the handler.
                let inScope = InjectorActor.currentScope != nil
                events.record("chunk \(index) \(probe.read())\(inScope ? "" : " outside the scope")")
                return ByteBuffer(string: "\(index):\(probe.read()) ")
            }
            return Response(status: .ok, body: ResponseBody(asyncSequence: chunks))
        }
        try await app.test(setup) { client in
            let response = try await client.execute(uri: "/scoped/stream", method: .get)
            #expect(String(buffer: response.body) == "1:alive 2:alive 3:alive ")
        }
        #expect(events.all == ["chunk 1 alive", "chunk 2 alive", "chunk 3 alive", "disposed"])
        await injector.shutdown()
    }

    @Test("A streamed body that fails mid-stream ends its scope with a failed outcome, once")
    func failingStreamEndsTheScopeFailed() async throws {
        struct StreamBroke: Error {}
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        let app = Self.streaming(injector) { probe, writer in
            try await writer.write(ByteBuffer(string: "1:\(probe.read()) "))
            throw StreamBroke()
        }
        try await app.test(.router) { client in
            _ = try? await client.execute(uri: "/scoped/stream", method: .get)
        }
        #expect(events.all == ["disposed after a failure"])
        await injector.shutdown()
    }

    @Test("A streamed body's error reaches Hummingbird's log as its type only, never its description")
    func failingStreamLogsNoSecret() async throws {
        struct LeakyBroke: Error, CustomStringConvertible {
            var description: String { "postgres://app:hunter2@db/links" }
        }
        let events = EventLog()
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        let app = Self.application(injector, logger: logs.logger()) { _, context in
            let probe = try await context.resolve(DisposalProbe.self)
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "1:\(probe.read()) "))
                    throw LeakyBroke()
                })
        }
        try await app.test(.live) { client in
            _ = try? await client.execute(uri: "/scoped/stream", method: .get)
        }
        #expect(events.all == ["disposed after a failure"])
        #expect(logs.all.contains { "\($0)".contains("LeakyBroke") }, "the body's failure was not logged at all")
        #expect(!logs.all.contains { "\($0)".contains("hunter2") }, "\(logs.all)")
        await injector.shutdown()
    }

    @Test("A client that leaves mid-stream: the scope is disposed once, after a failure, and the server goes on")
    func clientLeavesMidStream() async throws {
        let events = EventLog()
        // Passed once the first chunk is out; opened once the client has left.
        let streaming = Gate()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        let app = Self.streaming(injector) { probe, writer in
            try await writer.write(ByteBuffer(string: "first:\(probe.read())\n"))
            await streaming.pass()
            // Writes fail once the server sees the connection closed; bounded, so that a server
            // that never notices fails the test rather than hanging it.
            for _ in 0..<100_000 {
                try await writer.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: 1_024))
            }
            try await writer.finish(nil)
        }
        try await app.test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            try connection.send("GET /scoped/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
            await streaming.waitForArrivals(1)
            connection.close()
            streaming.open()
            try await waitForEvents(events, count: 1)
            // The server still serves.
            let next = try await client.execute(uri: "/scoped/stream-missing", method: .get)
            #expect(next.status == .notFound)
        }
        #expect(events.all == ["disposed after a failure"])
        await injector.shutdown()
    }

    @Test("A client that leaves while the stream waits, before its body only finishes: the scope ends failed")
    func clientLeavesWhileTheStreamWaits() async throws {
        let events = EventLog()
        // Passed once the first chunk is out; opened once the server has seen the client leave.
        let streaming = Gate()
        let connection = Mutex<(any Channel)?>(nil)
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        let app = Self.application(injector) { _, context in
            let probe = try await context.resolve(DisposalProbe.self)
            connection.withLock { $0 = context.requestScope.connection }
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "first:\(probe.read())\n"))
                    await streaming.pass()
                    // An event stream between events: no write tells it the client left.
                    try await writer.finish(nil)
                })
        }
        try await app.test(.live) { client in
            let raw = try RawConnection(port: try #require(client.port))
            try raw.send("GET /scoped/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
            await streaming.waitForArrivals(1)
            raw.close()
            let server = try #require(connection.withLock { $0 })
            while server.isActive {
                try Task.checkCancellation()
                await Task.yield()
            }
            streaming.open()
            try await waitForEvents(events, count: 1)
        }
        #expect(events.all == ["disposed after a failure"])
        await injector.shutdown()
    }

    /// A middleware outside the scope's that answers in place of the handler, dropping its body
    /// unwritten, as a server does whose client left before the head was sent.
    struct DropsTheBody: RouterMiddleware {
        func handle(
            _ request: Request, context: BasicInjectingRequestContext,
            next: (Request, BasicInjectingRequestContext) async throws -> Response
        ) async throws -> Response {
            _ = try await next(request, context)
            return Response(status: .ok)
        }
    }

    @Test(
        "A streamed body released unwritten ends its scope failed, unless the request was a HEAD",
        arguments: [HTTPRequest.Method.get, .head])
    func bodyReleasedUnwritten(method: HTTPRequest.Method) async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        let router = Router(context: BasicInjectingRequestContext.self)
        router.group("scoped").add(middleware: DropsTheBody()).add(middleware: ObjectionScopeMiddleware(injector))
            .on("stream", method: method) { _, context in
                let probe = try await context.resolve(DisposalProbe.self)
                return Response(
                    status: .ok,
                    body: ResponseBody { writer in try await writer.write(ByteBuffer(string: probe.read())) })
            }
        try await Application(router: router).test(.router) { client in
            _ = try await client.execute(uri: "/scoped/stream", method: method)
        }
        try await waitForEvents(events, count: 1)
        // Nothing was sent of a GET's answer: its work must not commit.
        #expect(events.all == [method == .head ? "disposed" : "disposed after a failure"])
        await injector.shutdown()
    }

    /// Waits, by yielding and without a clock, until `events` holds `count` entries; the suite's
    /// time limit ends a wait that never ends.
    func waitForEvents(_ events: EventLog, count: Int) async throws {
        while events.all.count < count {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}

/// `count` buffers, each made by `make` when it is asked for.
struct Chunks: AsyncSequence, Sendable {
    let count: Int
    let make: @Sendable (Int) -> ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        var index = 0
        let count: Int
        let make: @Sendable (Int) -> ByteBuffer

        mutating func next() async -> ByteBuffer? {
            guard index < count else { return nil }
            index += 1
            return make(index)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, make: make) }
}
