import Hummingbird
import HummingbirdTesting
import Logging
import ObjectionHummingbird
import Testing

/// The request's id reaches the request's logger and the response.
@Suite("Request id")
struct RequestIDTests {
    /// An app whose `/scoped/hello` logs `hello` and answers with the id the context holds.
    static func helloApp(_ test: TestApp) -> some ApplicationProtocol {
        test.application { scoped, _ in
            scoped.get("hello") { _, context -> String in
                context.logger.info("hello")
                return context.requestID?.value ?? "none"
            }
        }
    }

    @Test("A well-formed X-Request-ID reaches the logger's metadata, the context and the response")
    func clientIDPropagates() async throws {
        let test = try await TestApp()
        try await Self.helloApp(test).test(.router) { client in
            let response = try await client.execute(
                uri: "/scoped/hello", method: .get, headers: .requestID("client-7:a.b_c"))
            #expect(response.requestID == "client-7:a.b_c")
            #expect(response.text == "client-7:a.b_c")
        }
        let hello = try #require(test.logs.entries(withMessage: "hello").first)
        #expect(hello.metadata["request-id"] == "client-7:a.b_c")
    }

    @Test(
        "A missing or malformed X-Request-ID is replaced by Hummingbird's id for the request",
        arguments: [nil, "", "two words", "line\u{0B}tab", String(repeating: "x", count: 129)] as [String?]
    )
    func generatedID(sent: String?) async throws {
        let test = try await TestApp()
        try await Self.helloApp(test).test(.router) { client in
            let response = try await client.execute(uri: "/scoped/hello", method: .get, headers: .requestID(sent))
            let id = try #require(response.requestID)
            #expect(id != sent)
            #expect(response.text == id)
        }
        let hello = try #require(test.logs.entries(withMessage: "hello").first)
        let logged = try #require(hello.metadata["request-id"]?.description)
        #expect(logged == hello.metadata["hb.request.id"]?.description)
    }

    @Test("An id an earlier middleware settled is adopted: no second id, metadata entry or header")
    func upstreamIDAdopted() async throws {
        let test = try await TestApp()
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: SettlesRequestID(id: RequestIdentifier("upstream-1")))
        router.group("scoped").add(middleware: test.scopeMiddleware())
            .get("hello") { _, context -> String in
                context.logger.info("hello")
                let work = try await context.resolve(RequestWork.self)
                return "\(context.requestID?.value ?? "none") \(work.requestID.value)"
            }
        let app = Application(router: router, logger: test.logs.logger())
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/scoped/hello", method: .get, headers: .requestID("client-1"))
            #expect(response.text == "upstream-1 upstream-1")
            // The earlier middleware sets neither: the scope middleware left both to it.
            #expect(response.requestID == nil)
        }
        let hello = try #require(test.logs.entries(withMessage: "hello").first)
        #expect(hello.metadata["request-id"] == nil)
    }
}

/// A middleware of the app's own that settles every request's id before the scope middleware
/// runs, and, for the test, sets neither the logger's metadata nor the response's header.
struct SettlesRequestID: RouterMiddleware {
    let id: RequestIdentifier

    func handle(
        _ request: Request,
        context: BasicInjectingRequestContext,
        next: (Request, BasicInjectingRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestScope.requestID = id
        return try await next(request, context)
    }
}
