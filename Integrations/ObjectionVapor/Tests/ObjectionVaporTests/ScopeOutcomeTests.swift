import Objection
import ObjectionVapor
import Testing
import Vapor
import VaporTesting

/// How the request ended reaches the outcome-aware disposals of its scope.
@Suite("Scope outcome")
struct ScopeOutcomeTests {
    struct HandlerFailed: Error {}

    /// Serves `path` with `handler` after resolving a ``RequestWork``, and returns the response
    /// and the error its disposal was told of.
    func serve(
        _ handler: @escaping @Sendable (Request) async throws -> Response
    ) async throws -> (response: TestingHTTPResponse, disposals: [ScopeLedger.Disposal]) {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let response = try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("work") { req async throws -> Response in
                _ = try await req.resolve(RequestWork.self)
                return try await handler(req)
            }
            return try await app.testing().sendRequest(.GET, "work")
        }
        return (response, ledger.disposed)
    }

    @Test("A response under 500 is a success")
    func success() async throws {
        let (response, disposals) = try await serve { _ in Response(status: .notFound, body: "none") }
        #expect(response.status == .notFound)
        #expect(disposals.count == 1)
        #expect(disposals.first.map { $0.error == nil } == true)
    }

    @Test("A 5xx response is a failure, and reaches the client unchanged")
    func serverErrorStatus() async throws {
        let (response, disposals) = try await serve { _ in
            Response(status: .serviceUnavailable, headers: ["Retry-After": "5"], body: "busy")
        }
        #expect(response.status == .serviceUnavailable)
        #expect(response.body.string == "busy")
        #expect(response.headers.first(name: "Retry-After") == "5")
        let failed = try #require(disposals.first?.error as? ServerErrorStatus)
        #expect(failed.status == .serviceUnavailable)
        #expect(failed.description == "503 Service Unavailable")
    }

    @Test("A thrown Abort is the outcome's error, and passes through unchanged")
    func thrownAbort() async throws {
        let (response, disposals) = try await serve { _ in throw Abort(.conflict, reason: "Order 7 is closed") }
        #expect(response.status == .conflict)
        #expect(response.body.string.contains("Order 7 is closed"))
        #expect((disposals.first?.error as? Abort)?.status == .conflict)
    }

    @Test("Any other thrown error is the outcome's error, disposed before the opaque 500 is written")
    func thrownError() async throws {
        let (response, disposals) = try await serve { _ in throw HandlerFailed() }
        #expect(response.status == .internalServerError)
        #expect(disposals.first?.error is HandlerFailed)
    }
}
