import Foundation
import Logging
import LoggingTestSupport
import Objection
import ObjectionVapor
import ServerFixtures
import Testing
import Vapor
import VaporTesting

/// Injection and provider errors become a `500` that names nothing, logged safely with the
/// request's logger; `AbortError`s pass through to Vapor's `ErrorMiddleware` unchanged.
@Suite("Error mapping")
struct ErrorMappingTests {
    /// The body Vapor's `ErrorMiddleware` writes for an error.
    struct ErrorBody: Decodable, Equatable {
        var error: Bool
        var reason: String
    }

    /// The error body of `response`; JSON, whose fields come in any order.
    static func decode(_ response: TestingHTTPResponse) throws -> ErrorBody {
        try JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
    }

    /// Whether `response` is the opaque `500`: Vapor's body for `Abort(.internalServerError)`,
    /// its two fields in either order, and nothing else.
    static func isOpaque(_ response: TestingHTTPResponse) throws -> Bool {
        let body = try decode(response)
        let fields = #"{"error":true,"reason":"Internal Server Error"}"#.count
        return response.status == .internalServerError
            && body == ErrorBody(error: true, reason: "Internal Server Error")
            && response.body.readableBytes == fields
    }

    @Test("A missing binding is a 500 whose body names no type; the request's log has the details")
    func missingBinding() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("pay") { req async throws -> String in
                _ = try await req.resolve(SecretPaymentGateway.self)
                return "paid"
            }
            let response = try await app.testing().sendRequest(.GET, "pay", headers: ["X-Request-Id": "pay-1"])
            #expect(try Self.isOpaque(response))
        }
        let logged = try #require(logs.entries(withMessage: "Request failed; answered 500").first)
        #expect(logged.level == .error)
        #expect(logged.metadata["error"]?.description.contains("SecretPaymentGateway") == true)
        #expect(logged.metadata["error.type"]?.description.contains("InjectionError") == true)
        #expect(logged.metadata["request-id"] == "pay-1")
    }

    @Test("A request the injector refuses because it is shutting down is a 503, logged at notice, not an error")
    func refusedWhileShuttingDown() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        _ = await injector.shutdown(within: nil)
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("pay") { _ async throws -> String in "paid" }
            let response = try await app.testing().sendRequest(.GET, "pay", headers: ["X-Request-Id": "late-1"])
            #expect(response.status == .serviceUnavailable)
            #expect(try Self.decode(response) == ErrorBody(error: true, reason: "Service Unavailable"))
        }
        #expect(logs.entries(withMessage: "Request failed; answered 500").isEmpty)
        let logged = try #require(
            logs.entries(withMessage: "Request refused: the injector is shutting down; answered 503").first)
        #expect(logged.level == .notice)
        #expect(logged.metadata["request-id"] == "late-1")
    }

    @Test("Resolving on a route no middleware wraps is an opaque 500 in every environment; the log has the details")
    func noMiddlewareIsOpaque() async throws {
        let logs = LogCapture()
        try await withTestApp(logs: logs) { app in
            #expect(!app.environment.isRelease)
            app.get("pay") { req async throws -> String in
                _ = try await req.resolve(SecretPaymentGateway.self)
                return "paid"
            }
            let response = try await app.testing().sendRequest(.GET, "pay")
            #expect(try Self.isOpaque(response))
            #expect(!response.body.string.contains("SecretPaymentGateway"))
        }
        let logged = try #require(logs.entries(withMessage: "Request failed; answered 500").first)
        #expect(logged.level == .error)
        #expect(logged.metadata["error"]?.description.contains("SecretPaymentGateway") == true)
    }

    @Test("A provider's DebuggableError, whose reason Vapor would show, is a 500 that names nothing of it")
    func providerError() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("scoped", "vault") { req async throws -> String in
                _ = try await req.resolve(SealedVault.self)
                return "open"
            }
            app.get("vault") { _ async throws -> String in throw DebuggableVaultError() }
            let scoped = try await app.testing().sendRequest(.GET, "scoped/vault")
            #expect(try Self.isOpaque(scoped))
            // The control: without the middleware, Vapor shows the reason.
            let plain = try await app.testing().sendRequest(.GET, "vault")
            #expect(plain.body.string.contains("vault.internal"))
        }
        let logged = try #require(logs.entries(withMessage: "Request failed; answered 500").first)
        #expect(logged.metadata["error.type"]?.description.contains("DebuggableVaultError") == true)
    }

    @Test("A provider's error carrying a password reaches neither the client nor any log line")
    func secretInAProvidersError() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("database") { req async throws -> String in
                _ = try await req.resolve(UnreachableDatabase.self)
                return "connected"
            }
            let response = try await app.testing().sendRequest(.GET, "database")
            #expect(try Self.isOpaque(response))
            #expect(!response.body.string.contains("Tr0ub4dor"))
        }
        let logged = try #require(logs.entries(withMessage: "Request failed; answered 500").first)
        #expect(logged.metadata["error.type"]?.description.contains("ConnectionRefused") == true)
        #expect(!logs.all.isEmpty)
        #expect(logs.all.allSatisfy { !"\($0)".contains("Tr0ub4dor") })
    }

    @Test("An Abort passes through as Vapor renders it without the middleware, and logs no failure")
    func abortUnchanged() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            let failure = Abort(.notFound, headers: ["Retry-After": "5"], reason: "No order 7")
            app.grouped(ObjectionScopeMiddleware(injector)).get("scoped", "order") { _ async throws -> String in
                throw failure
            }
            app.get("order") { _ async throws -> String in throw failure }
            let scoped = try await app.testing().sendRequest(.GET, "scoped/order")
            let plain = try await app.testing().sendRequest(.GET, "order")
            #expect(scoped.status == .notFound)
            #expect(try Self.decode(scoped) == Self.decode(plain))
            #expect(scoped.body.string.contains("No order 7"))
            #expect(scoped.headers.first(name: "Retry-After") == "5")
        }
        #expect(logs.entries(withMessage: "Request failed; answered 500").isEmpty)
    }

    @Test("An Abort thrown by the values closure refuses the request before the scope opens")
    func closureRefuses() async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        try await withTestApp { app in
            let refusing = ObjectionScopeMiddleware(injector) { _, _ in throw Abort(.unauthorized) }
            app.grouped(refusing).get("work") { req async throws -> String in
                "\(try await req.resolve(RequestWork.self).serial)"
            }
            let response = try await app.testing().sendRequest(.GET, "work")
            #expect(response.status == .unauthorized)
        }
        #expect(ledger.built == 0)
    }

    @Test("A disposal that fails turns a success into the opaque 500")
    func disposalFailure() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).post("commit") { req async throws -> String in
                _ = try await req.resolve(UncommittableWork.self)
                return "committed"
            }
            let response = try await app.testing().sendRequest(.POST, "commit")
            #expect(try Self.isOpaque(response))
        }
        let logged = try #require(logs.entries(withMessage: "Request failed; answered 500").first)
        #expect(logged.metadata["error"]?.description.contains("UncommittableWork") == true)
    }

    @Test("A disposal that fails after the handler threw is logged; the client gets the handler's error")
    func disposalFailureAfterThrow() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).post("commit") { req async throws -> String in
                _ = try await req.resolve(UncommittableWork.self)
                throw Abort(.conflict, reason: "Order 7 is closed")
            }
            let response = try await app.testing().sendRequest(.POST, "commit")
            #expect(response.status == .conflict)
        }
        let logged = try #require(
            logs.entries(withMessage: "A disposal of the request scope failed after its response failed").first)
        #expect(logged.metadata["error"]?.description.contains("UncommittableWork") == true)
    }

    @Test("A disposal that fails after a 5xx answer is logged; the client gets the 5xx unchanged")
    func disposalFailureAfterServerError() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector)).post("commit") { req async throws -> Response in
                _ = try await req.resolve(UncommittableWork.self)
                return Response(status: .serviceUnavailable, body: "busy")
            }
            let response = try await app.testing().sendRequest(.POST, "commit")
            #expect(response.status == .serviceUnavailable)
            #expect(response.body.string == "busy")
        }
        let logged = try #require(
            logs.entries(withMessage: "A disposal of the request scope failed after its response failed").first)
        #expect(logged.metadata["error"]?.description.contains("UncommittableWork") == true)
    }

    @Test(
        "A value whose key the injector binds otherwise is refused with the opaque 500; the default closure leaves Logger to such an injector"
    )
    func valueReplacesBinding() async throws {
        struct LoggerModule: Module {
            func configure(_ binder: Binder) {
                binder.bind(Logger.self).toInstance(Logger(label: "root"))
            }
        }
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [LoggerModule()])
        try await withTestApp(logs: logs) { app in
            app.grouped(ObjectionScopeMiddleware(injector) { req, values in values.bind(Logger.self, to: req.logger) })
                .get("log") { _ async throws -> String in "logged" }
            app.grouped(ObjectionScopeMiddleware(injector)).get("default") { req async throws -> String in
                try await req.resolve(Logger.self).label
            }
            let refused = try await app.testing().sendRequest(.GET, "log")
            #expect(refused.status == .internalServerError)
            let served = try await app.testing().sendRequest(.GET, "default")
            #expect(served.status == .ok)
            #expect(served.body.string == "root")
        }
        let logged = try #require(logs.entries(withMessage: "Request failed; answered 500").first)
        #expect(logged.metadata["error"]?.description.contains("Logger") == true)
    }
}
