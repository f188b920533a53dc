import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import ObjectionHummingbird
import ServerFixtures
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

    @Test("Two X-Request-ID fields are not adopted, though each is well-formed: the request gets Hummingbird's id")
    func repeatedIDNotAdopted() async throws {
        let test = try await TestApp()
        try await Self.helloApp(test).test(.router) { client in
            var headers = HTTPFields.requestID("first-1")
            headers.append(contentsOf: HTTPFields.requestID("second-2"))
            let response = try await client.execute(uri: "/scoped/hello", method: .get, headers: headers)
            let id = try #require(response.requestID)
            #expect(!["first-1", "second-2", "first-1, second-2"].contains(id))
            #expect(response.text == id)
        }
        let hello = try #require(test.logs.entries(withMessage: "hello").first)
        #expect(hello.metadata["request-id"]?.description == hello.metadata["hb.request.id"]?.description)
    }

    @Test("An id an earlier middleware settled is adopted; its metadata is kept, what it left unset is added")
    func upstreamIDAdopted() async throws {
        for upstreamMetadata in [nil, "set-upstream"] as [String?] {
            let test = try await TestApp()
            let router = Router(context: BasicInjectingRequestContext.self)
            router.add(middleware: SettlesRequestID(id: RequestIdentifier("upstream-1"), metadata: upstreamMetadata))
            router.group("scoped").add(middleware: test.scopeMiddleware())
                .get("hello") { _, context -> String in
                    context.logger.info("hello")
                    let work = try await context.resolve(RequestWork.self)
                    return "\(context.requestID?.value ?? "none") \(work.label)"
                }
            let app = Application(router: router, logger: test.logs.logger())
            try await app.test(.router) { client in
                let response = try await client.execute(
                    uri: "/scoped/hello", method: .get, headers: .requestID("client-1"))
                // The client's id is not settled again: the adopted one reaches the handler, the
                // scope's values and, as the earlier middleware set none, the response's header.
                #expect(response.text == "upstream-1 upstream-1")
                #expect(response.requestID == "upstream-1")
            }
            let hello = try #require(test.logs.entries(withMessage: "hello").first)
            #expect(hello.metadata["request-id"]?.description == upstreamMetadata ?? "upstream-1")
        }
    }
}

/// A middleware of the app's own that settles every request's id before the scope middleware
/// runs, and sets the logger's `request-id` metadata to `metadata` when given (a value other
/// than the id, so that the test sees whose it is), and no response header.
struct SettlesRequestID: RouterMiddleware {
    let id: RequestIdentifier
    let metadata: String?

    func handle(
        _ request: Request,
        context: BasicInjectingRequestContext,
        next: (Request, BasicInjectingRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestScope.requestID = id
        if let metadata { context.logger[metadataKey: "request-id"] = .string(metadata) }
        return try await next(request, context)
    }
}
