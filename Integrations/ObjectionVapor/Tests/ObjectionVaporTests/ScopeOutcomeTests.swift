import Objection
import ObjectionVapor
import ServerFixtures
import Testing
import Vapor
import VaporTesting

/// How the request ended reaches the outcome-aware disposals of its scope.
@Suite("Scope outcome")
struct ScopeOutcomeTests {
    struct HandlerFailed: Error {}

    /// How the route opens its request scope.
    enum Opening: CaseIterable, Sendable {
        /// `ObjectionScopeMiddleware` on the route's group.
        case middleware
        /// The handler wrapped in `ObjectionScopeMiddleware.scoped(_:)`.
        case scopedHandler
    }

    /// Serves `path` with `handler` after resolving a ``RequestWork``, the scope opened the way
    /// `opening` says, and returns the response and the error its disposal was told of.
    func serve(
        _ opening: Opening,
        _ handler: @escaping @Sendable (Request) async throws -> Response
    ) async throws -> (response: TestingHTTPResponse, disposals: [ScopeLedger.Disposal]) {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let scopes = ObjectionScopeMiddleware(injector)
        let work: @Sendable (Request) async throws -> Response = { req in
            _ = try await req.resolve(RequestWork.self)
            return try await handler(req)
        }
        let response = try await withTestApp { app in
            switch opening {
            case .middleware: app.grouped(scopes).get("work", use: work)
            case .scopedHandler: app.get("work", use: scopes.scoped(work))
            }
            return try await app.testing().sendRequest(.GET, "work")
        }
        return (response, ledger.disposed)
    }

    @Test("A response under 500 is a success", arguments: Opening.allCases)
    func success(opening: Opening) async throws {
        let (response, disposals) = try await serve(opening) { _ in Response(status: .notFound, body: "none") }
        #expect(response.status == .notFound)
        #expect(disposals.count == 1)
        #expect(disposals.first.map { $0.error == nil } == true)
    }

    @Test("A 5xx response is a failure, and reaches the client unchanged", arguments: Opening.allCases)
    func serverErrorStatus(opening: Opening) async throws {
        let (response, disposals) = try await serve(opening) { _ in
            Response(status: .serviceUnavailable, headers: ["Retry-After": "5"], body: "busy")
        }
        #expect(response.status == .serviceUnavailable)
        #expect(response.body.string == "busy")
        #expect(response.headers.first(name: "Retry-After") == "5")
        let failed = try #require(disposals.first?.error as? ServerErrorStatus)
        #expect(failed.status == .serviceUnavailable)
        #expect(failed.description == "503 Service Unavailable")
    }

    @Test("A thrown Abort is the outcome's error, and passes through unchanged", arguments: Opening.allCases)
    func thrownAbort(opening: Opening) async throws {
        let (response, disposals) = try await serve(opening) { _ in throw Abort(.conflict, reason: "Order 7 is closed")
        }
        #expect(response.status == .conflict)
        #expect(response.body.string.contains("Order 7 is closed"))
        #expect((disposals.first?.error as? Abort)?.status == .conflict)
    }

    @Test(
        "Any other thrown error is the outcome's error, disposed before the opaque 500 is written",
        arguments: Opening.allCases)
    func thrownError(opening: Opening) async throws {
        let (response, disposals) = try await serve(opening) { _ in throw HandlerFailed() }
        #expect(response.status == .internalServerError)
        #expect(disposals.first?.error is HandlerFailed)
    }
}
