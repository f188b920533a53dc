import LoggingTestSupport
import Objection
import ObjectionVapor
import ServerFixtures
import TestSupport
import Testing
import Vapor

/// What the HTTP parser rejects never reaches a request scope, or never turns into a logged `500`.
@Suite("Malformed requests", .timeLimit(.minutes(1)))
struct MalformedRequestTests {
    /// A scope middleware that counts the scopes it opens: its values closure runs once for each.
    static func countingMiddleware(_ injector: InjectorActor, _ opened: Counter) -> ObjectionScopeMiddleware {
        ObjectionScopeMiddleware(injector) { _, _ in opened.increment() }
    }

    @Test("A request head that is not valid HTTP is dropped by Vapor, and opens no scope")
    func malformedHead() async throws {
        let logs = LogCapture()
        let opened = Counter()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            app.middleware.use(Self.countingMiddleware(injector, opened))
            app.get("work") { _ async throws -> String in "served" }
            let port = try await app.startLive()
            let malformed = rawHTTPExchange(port: port, "GET /work HTTP/1.1\r\nHost x\r\n\r\n")
            // Vapor closes the connection without an answer.
            #expect(malformed.isEmpty)
            #expect(opened.value == 0)
            // The control: a well-formed request on the same server opens a scope.
            let wellFormed = rawHTTPExchange(port: port, "GET /work HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(wellFormed.hasPrefix("HTTP/1.1 200"))
            #expect(opened.value == 1)
        }
        #expect(logs.entries(at: .debug).contains { $0.message.hasPrefix("Invalid HTTP request") })
        #expect(logs.entries(withMessage: "Request failed; answered 500").isEmpty)
    }

    @Test("A malformed chunked body ends as it does without the middleware, with no 500 logged")
    func malformedBody() async throws {
        let logs = LogCapture()
        let opened = Counter()
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let malformed = "Host: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nZZ\r\nabc\r\n0\r\n\r\n"
        let (scoped, plain) = try await withTestApp(logs: logs) { app in
            app.grouped(Self.countingMiddleware(injector, opened)).post("scoped", "echo") {
                req async throws -> String in
                "\(try await req.resolve(RequestWork.self).serial) \(req.body.string ?? "")"
            }
            app.post("echo") { req async throws -> String in req.body.string ?? "" }
            let port = try await app.startLive()
            let scoped = rawHTTPExchange(port: port, "POST /scoped/echo HTTP/1.1\r\n" + malformed)
            let plain = rawHTTPExchange(port: port, "POST /echo HTTP/1.1\r\n" + malformed)
            return (scoped, plain)
        }
        #expect(scoped == plain)
        #expect(!scoped.hasPrefix("HTTP/1.1 200"))
        #expect(ledger.built == 0)
        #expect(logs.entries(withMessage: "Request failed; answered 500").isEmpty)
    }
}
