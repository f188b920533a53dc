import AsyncHTTPClient
import LoggingTestSupport
import Objection
import ObjectionVapor
import ServerFixtures
import Synchronization
import TestSupport
import Testing
import Vapor

/// A body made with `Response.Body(keepingScopeOf:)` keeps its request scope open until it has
/// ended: every chunk, the last included, reads the request's scoped instance, disposed once after
/// the stream — over a real socket.
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

    /// Three chunks, each reading `probe` as it is written, in a body that keeps `request`'s
    /// scope; of known length or chunked.
    static func body(_ request: Request, counted: Bool, probe: DisposalProbe, events: EventLog) -> Response.Body {
        // "n:alive " is 8 bytes.
        Response.Body(keepingScopeOf: request, count: counted ? 24 : -1) { writer in
            for index in 1...3 {
                // Written in the request's scope: the task's current one, as in the handler.
                let inScope = InjectorActor.currentScope != nil
                events.record("chunk \(index) \(probe.read())\(inScope ? "" : " outside the scope")")
                try await writer.writeBuffer(ByteBuffer(string: "\(index):\(probe.read()) "))
            }
        }
    }

    @Test(
        "Every chunk of a body that keeps the scope reads the scoped instance, the last included; it is disposed after",
        arguments: [false, true]
    )
    func scopeLivesUntilTheStreamEnds(counted: Bool) async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("stream") { req async throws -> Response in
                let probe = try await req.resolve(DisposalProbe.self)
                return Response(status: .ok, body: Self.body(req, counted: counted, probe: probe, events: events))
            }
            let port = try await app.startLive()
            let (status, text) = try await withHTTPClient { client in
                try await client.get(port: port, "/stream")
            }
            #expect(status == .ok)
            #expect(text == "1:alive 2:alive 3:alive ")
            #expect(events.all == ["chunk 1 alive", "chunk 2 alive", "chunk 3 alive", "disposed"])
        }
        await injector.shutdown()
    }

    @Test(
        "A stream that fails — it throws, or writes its own error and returns — ends its scope failed, once",
        arguments: [false, true]
    )
    func failingStream(writesItsError: Bool) async throws {
        struct StreamBroke: Error {}
        let (_, events) = try await serveStream { req, probe in
            Response.Body(keepingScopeOf: req) { writer in
                try await writer.writeBuffer(ByteBuffer(string: "1:\(probe.read()) "))
                guard writesItsError else { throw StreamBroke() }
                try await writer.write(.error(StreamBroke()))
            }
        }
        #expect(events == ["disposed after a failure"])
    }

    @Test(
        "A stream of known length that writes fewer or more bytes than it declared ends its scope failed",
        arguments: ["short", "long, in its last buffer"]
    )
    func lengthMismatch(written: String) async throws {
        let (answer, events) = try await serveStream { req, probe in
            Response.Body(keepingScopeOf: req, count: 10) { writer in
                try await writer.writeBuffer(ByteBuffer(string: "\(probe.read())"))  // 5 bytes
                if written != "short" { try await writer.writeBuffer(ByteBuffer(string: "0123456789")) }
            }
        }
        // Vapor cuts such a response: its work must not commit.
        #expect(events == ["disposed after a failure"])
        #expect(answer?.text.count != 10, "the client read a complete response: \(String(describing: answer))")
    }

    @Test("A handler that drops a kept body may make another, which keeps the scope to its end")
    func secondKeptBody() async throws {
        let (answer, events) = try await serveStream { req, probe in
            _ = Response.Body(keepingScopeOf: req) { _ in }
            return Response.Body(keepingScopeOf: req) { writer in
                try await writer.writeBuffer(ByteBuffer(string: probe.read()))
            }
        }
        #expect(answer?.text == "alive")
        #expect(events == ["disposed"])
    }

    @Test("A kept body made while another still exists keeps nothing, and says so in the request's log")
    func secondKeptBodyWhileTheFirstExists() async throws {
        let logs = LogCapture()
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("stream") { req async throws -> Response in
                let probe = try await req.resolve(DisposalProbe.self)
                let first = Response.Body(keepingScopeOf: req) { _ in }
                let second = Response.Body(keepingScopeOf: req) { writer in
                    try await writer.writeBuffer(ByteBuffer(string: probe.read()))
                }
                return withExtendedLifetime(first) { Response(status: .ok, body: second) }
            }
            let port = try await app.startLive()
            _ = try? await withHTTPClient { client in try await client.get(port: port, "/stream") }
        }
        await injector.shutdown()
        let warning =
            "A second body keeping the request's scope was made while the first exists: it does not "
            + "keep the scope, whose scoped instances may be disposed before it is written"
        #expect(logs.entries(withMessage: warning).map(\.level) == [.warning])
        #expect(events.all == ["disposed"])
    }

    @Test("req.resolve inside a body that keeps the scope reads the request's instance", arguments: [false, true])
    func resolveInsideTheBody(counted: Bool) async throws {
        let (answer, events) = try await serveStream { req, probe in
            Response.Body(keepingScopeOf: req, count: counted ? 4 : -1) { writer in
                let again = try await req.resolve(DisposalProbe.self)
                try await writer.writeBuffer(ByteBuffer(string: again === probe ? "same" : "diff"))
            }
        }
        #expect(answer?.status == .ok)
        #expect(answer?.text == "same")
        #expect(events == ["disposed"])
    }

    /// The status of a `HEAD /stream` sent to the live server on `port`.
    static func head(port: Int) async throws -> HTTPResponseStatus {
        try await withHTTPClient { client in
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/stream")
            request.method = .HEAD
            return try await client.execute(request, timeout: .seconds(30)).status
        }
    }

    /// Serves `GET /stream` over a live socket, in a scope whose probe the handler resolves and
    /// hands to `body`, and asks for it once: the client's answer (`nil` when the response
    /// broke) and what the scope's disposal recorded.
    private func serveStream(
        _ body: @escaping @Sendable (Request, DisposalProbe) -> Response.Body
    ) async throws -> (answer: (status: HTTPResponseStatus, text: String)?, events: [String]) {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        var answer: (status: HTTPResponseStatus, text: String)?
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("stream") { req async throws -> Response in
                let probe = try await req.resolve(DisposalProbe.self)
                return Response(status: .ok, body: body(req, probe))
            }
            let port = try await app.startLive()
            answer = try? await withHTTPClient { client in try await client.get(port: port, "/stream") }
        }
        await injector.shutdown()
        return (answer, events.all)
    }

    @Test("A stream that writes its own end: the response still ends after the scope, whose failed commit breaks it")
    func streamWritesItsOwnEnd() async throws {
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("stream") { req async throws -> Response in
                _ = try await req.resolve(UncommittableWork.self)
                return Response(
                    status: .ok,
                    body: Response.Body(keepingScopeOf: req) { writer in
                        try await writer.writeBuffer(ByteBuffer(string: "written"))
                        try await writer.write(.end)
                    })
            }
            let port = try await app.startLive()
            let answer = try? await withHTTPClient { client in try await client.get(port: port, "/stream") }
            // The commit failed after the body: the response must not reach the client whole.
            #expect(answer == nil, "the client read a complete response: \(String(describing: answer))")
        }
        await injector.shutdown()
    }

    @Test("A kept body Vapor never writes (HEAD) still ends its scope, as a success")
    func headRequestEndsTheScope() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).on(.HEAD, "stream") { req async throws -> Response in
                let probe = try await req.resolve(DisposalProbe.self)
                return Response(status: .ok, body: Self.body(req, counted: false, probe: probe, events: events))
            }
            let port = try await app.startLive()
            #expect(try await Self.head(port: port) == .ok)
            await app.server.shutdown()
        }
        // Ended by the scope's release, in a task of its own: the drain waits for it.
        #expect(await injector.shutdown(within: .seconds(30)) == nil)
        #expect(events.all == ["disposed"])
    }

    @Test("A disposal that fails as a released kept body's scope ends is logged, by type")
    func releasedBodysFailedDisposalIsLogged() async throws {
        struct CommitFailed: Error {}
        struct FailingModule: Module {
            func configure(_ binder: Binder) {
                binder.bind(DisposalProbe.self).to { _ in DisposalProbe() }.inScope(.scoped).onDispose { _, _ in
                    throw CommitFailed()
                }
            }
        }
        let logs = LogCapture()
        let message = "A disposal of the request scope failed after its response, which had no body to send"
        let logged = logs.signal(whenLogged: message)
        let injector = try await InjectorActor(modules: [FailingModule()])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).on(.HEAD, "stream") { req async throws -> Response in
                _ = try await req.resolve(DisposalProbe.self)
                return Response(status: .ok, body: .init(keepingScopeOf: req) { _ in })
            }
            let port = try await app.startLive()
            #expect(try await Self.head(port: port) == .ok)
            try await logged.wait()
            await app.server.shutdown()
        }
        let entry = try #require(logs.entries(withMessage: message).first)
        #expect(entry.level == .error)
        #expect(entry.metadata["error"]?.description.contains("CommitFailed") == true)
        await injector.shutdown()
    }

    @Test("A 5xx response with a kept body: every chunk reads the scoped instance; disposed after, as a failure")
    func serverErrorWithKeptBody() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("stream") { req async throws -> Response in
                let probe = try await req.resolve(DisposalProbe.self)
                return Response(
                    status: .serviceUnavailable, body: Self.body(req, counted: false, probe: probe, events: events))
            }
            let port = try await app.startLive()
            let (status, text) = try await withHTTPClient { client in try await client.get(port: port, "/stream") }
            #expect(status == .serviceUnavailable)
            #expect(text == "1:alive 2:alive 3:alive ")
            #expect(events.all == ["chunk 1 alive", "chunk 2 alive", "chunk 3 alive", "disposed after a failure"])
        }
        await injector.shutdown()
    }

    /// Answers every request with its own response, dropping the one the chain returned.
    struct ReplacingMiddleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            _ = try await next.respond(to: request)
            return Response(status: .ok, body: "replaced")
        }
    }

    @Test("A kept body released unwritten, its response replaced by a middleware, ends the scope failed")
    func keptBodyReleasedUnwritten() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        try await withTestApp { app in
            app.grouped(ReplacingMiddleware()).grouped(ObjectionScopeMiddleware(injector)).get("stream") {
                req async throws -> Response in
                let probe = try await req.resolve(DisposalProbe.self)
                return Response(status: .ok, body: Self.body(req, counted: false, probe: probe, events: events))
            }
            let port = try await app.startLive()
            let (status, text) = try await withHTTPClient { client in try await client.get(port: port, "/stream") }
            #expect(status == .ok)
            #expect(text == "replaced")
            await app.server.shutdown()
        }
        // Ended when the body was released, in a task of its own: the drain waits for it.
        #expect(await injector.shutdown(within: .seconds(30)) == nil)
        #expect(events.all == ["disposed after a failure"])
    }

    @Test("A kept body the handler drops for another response keeps nothing: the scope ends with that response")
    func droppedKeptBody() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [StreamModule(events: events)])
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("stream") { req async throws -> String in
                _ = try await req.resolve(DisposalProbe.self)
                _ = Response.Body(keepingScopeOf: req) { _ in }
                return "plain"
            }
            let port = try await app.startLive()
            let (status, text) = try await withHTTPClient { client in try await client.get(port: port, "/stream") }
            #expect(status == .ok)
            #expect(text == "plain")
            // Ended by the middleware, before the response was sent.
            #expect(events.all == ["disposed"])
        }
        await injector.shutdown()
    }
}
